package main

import "container/heap"

type item struct{ dist, node int }
type minHeap []item

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i].dist < h[j].dist }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(item)) }
func (h *minHeap) Pop() any {
	old := *h
	last := old[len(old)-1]
	*h = old[:len(old)-1]
	return last
}

func ShortestDistances(n int, edges [][]int, source int) []int {
	adjacency := make([][][2]int, n)
	for _, e := range edges {
		adjacency[e[0]] = append(adjacency[e[0]], [2]int{e[1], e[2]})
	}
	dist := make([]int, n)
	for i := range dist {
		dist[i] = -1
	}
	h := &minHeap{{0, source}}
	for h.Len() > 0 {
		top := heap.Pop(h).(item)
		if dist[top.node] != -1 {
			continue // settled already, by a shorter path
		}
		dist[top.node] = top.dist
		for _, link := range adjacency[top.node] {
			if dist[link[0]] == -1 {
				heap.Push(h, item{top.dist + link[1], link[0]})
			}
		}
	}
	return dist
}
