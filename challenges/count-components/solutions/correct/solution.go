package main

import "fmt"

func CountComponents(n int, edges [][]int) int {
	parent := make([]int, n)
	size := make([]int, n)
	for i := range parent {
		parent[i] = i
		size[i] = 1
	}
	hops := 0 // parent pointers followed by find, for the growth grade
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]] // path halving
			x = parent[x]
			hops++
		}
		return x
	}
	components := n
	for _, edge := range edges {
		a, b := find(edge[0]), find(edge[1])
		if a == b {
			continue
		}
		if size[a] < size[b] {
			a, b = b, a
		}
		parent[b] = a // the smaller tree goes under the larger one's root
		size[a] += size[b]
		components--
	}
	fmt.Printf("@count %d\n", hops)
	return components
}
