package main

import (
	"container/heap"
	"fmt"
)

// comparisons counts the comparisons of two values, for the growth grade.
var comparisons int

type minHeap []int

func (h minHeap) Len() int { return len(h) }
func (h minHeap) Less(i, j int) bool {
	comparisons++
	return h[i] < h[j]
}
func (h minHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)   { *h = append(*h, x.(int)) }
func (h *minHeap) Pop() any {
	old := *h
	last := old[len(old)-1]
	*h = old[:len(old)-1]
	return last
}

func KthLargest(nums []int, k int) int {
	comparisons = 0
	largest := &minHeap{} // the k largest values seen so far
	for _, value := range nums {
		heap.Push(largest, value)
		if largest.Len() > k {
			heap.Pop(largest)
		}
	}
	fmt.Printf("@count %d\n", comparisons)
	return (*largest)[0]
}
