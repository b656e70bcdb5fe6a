package main

func TopologicalOrder(n int, edges [][]int) []int {
	successors := make([][]int, n+1)
	inDegree := make([]int, n+1)
	for _, edge := range edges {
		successors[edge[0]] = append(successors[edge[0]], edge[1])
		inDegree[edge[1]]++
	}
	order := []int{}
	for task := 1; task <= n; task++ {
		if inDegree[task] == 0 {
			order = append(order, task)
		}
	}
	for head := 0; head < len(order); head++ {
		for _, after := range successors[order[head]] {
			inDegree[after]--
			if inDegree[after] == 0 {
				order = append(order, after)
			}
		}
	}
	// Tasks left out lie on a cycle: no order exists.
	if len(order) != n {
		return []int{}
	}
	return order
}
