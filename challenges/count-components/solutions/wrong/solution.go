package main

func CountComponents(n int, edges [][]int) int {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			x = parent[x]
		}
		return x
	}
	// Wrong on purpose: links the node v, not v's root, so v's old set loses its link to it.
	for _, edge := range edges {
		parent[edge[1]] = find(edge[0])
	}
	roots := 0
	for x := range parent {
		if parent[x] == x {
			roots++
		}
	}
	return roots
}
