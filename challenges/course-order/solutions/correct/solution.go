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

func CourseOrder(n int, prerequisites [][]int) []int {
	unlocks := make([][]int, n)
	waiting := make([]int, n) // unmet prerequisites of each course
	for _, pair := range prerequisites {
		unlocks[pair[1]] = append(unlocks[pair[1]], pair[0])
		waiting[pair[0]]++
	}
	ready := &minHeap{} // the smallest ready course first
	for c := 0; c < n; c++ {
		if waiting[c] == 0 {
			heap.Push(ready, c)
		}
	}
	order := []int{}
	for ready.Len() > 0 {
		c := heap.Pop(ready).(int)
		order = append(order, c)
		for _, next := range unlocks[c] {
			waiting[next]--
			if waiting[next] == 0 {
				heap.Push(ready, next)
			}
		}
	}
	if len(order) != n {
		return []int{} // the rest wait on each other
	}
	return order
}
