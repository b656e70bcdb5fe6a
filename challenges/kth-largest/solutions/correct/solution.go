package main

import "container/heap"

type minHeap []int

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *minHeap) Pop() any {
	old := *h
	last := old[len(old)-1]
	*h = old[:len(old)-1]
	return last
}

func KthLargest(nums []int, k int) int {
	largest := &minHeap{} // the k largest values seen so far
	for _, value := range nums {
		heap.Push(largest, value)
		if largest.Len() > k {
			heap.Pop(largest)
		}
	}
	return (*largest)[0]
}
