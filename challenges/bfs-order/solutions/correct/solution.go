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
	seen := make([]bool, len(graph))
	seen[source] = true
	queue := []int{source}
	rec.Discover(source)
	// Every neighbour looked at is counted, for the growth grade (@count).
	checks := 0
	for head := 0; head < len(queue); head++ {
		node := queue[head]
		rec.Visit(node)
		for _, neighbour := range neighbours[node] {
			checks++
			if !seen[neighbour] {
				seen[neighbour] = true
				queue = append(queue, neighbour)
				rec.Discover(neighbour)
			}
		}
	}
	fmt.Println("@count", checks)
	return queue
}
