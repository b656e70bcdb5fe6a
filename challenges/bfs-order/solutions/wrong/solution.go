package main

import (
	"dsa"
	"fmt"
	"sort"
)

func BfsOrder(graph [][]int, source int) []int {
	neighbours := make([][]int, len(graph))
	for node, adjacent := range graph {
		neighbours[node] = append([]int(nil), adjacent...)
		sort.Ints(neighbours[node])
	}
	rec := dsa.NewGraphRecorder()
	// Wrong on purpose: marks a node visited when it leaves the queue, not when it joins it.
	seen := make([]bool, len(graph))
	queue := []int{source}
	rec.Discover(source)
	order := []int{}
	checks := 0
	for head := 0; head < len(queue); head++ {
		node := queue[head]
		if seen[node] {
			continue
		}
		seen[node] = true
		rec.Visit(node)
		order = append(order, node)
		for _, neighbour := range neighbours[node] {
			checks++
			if !seen[neighbour] {
				queue = append(queue, neighbour)
				rec.Discover(neighbour)
			}
		}
	}
	fmt.Println("@count", checks)
	return order
}
