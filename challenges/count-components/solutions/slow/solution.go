package main

import "fmt"

// CountComponents is slow on purpose: no union by size and no path compression, so the trees can
// grow as tall as a chain and each find walks all of it.
func CountComponents(n int, edges [][]int) int {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	hops := 0
	find := func(x int) int {
		for parent[x] != x {
			x = parent[x]
			hops++
		}
		return x
	}
	components := n
	for _, edge := range edges {
		a, b := find(edge[0]), find(edge[1])
		if a != b {
			parent[a] = b
			components--
		}
	}
	fmt.Printf("@count %d\n", hops)
	return components
}
