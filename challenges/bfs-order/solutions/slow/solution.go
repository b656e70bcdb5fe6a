package main

import (
	"dsa"
	"fmt"
)

func BfsOrder(graph [][]int, source int) []int {
	neighbourSets := make([]map[int]bool, len(graph))
	for node, adjacent := range graph {
		neighbourSets[node] = map[int]bool{}
		for _, neighbour := range adjacent {
			neighbourSets[node][neighbour] = true
		}
	}
	rec := dsa.NewGraphRecorder()
	seen := make([]bool, len(graph))
	seen[source] = true
	queue := []int{source}
	rec.Discover(source)
	checks := 0
	for head := 0; head < len(queue); head++ {
		node := queue[head]
		rec.Visit(node)
		// Too slow: every node is looked at, neighbour or not (n² checks instead of n + m).
		for neighbour := range graph {
			checks++
			if neighbourSets[node][neighbour] && !seen[neighbour] {
				seen[neighbour] = true
				queue = append(queue, neighbour)
				rec.Discover(neighbour)
			}
		}
	}
	fmt.Println("@count", checks)
	return queue
}
