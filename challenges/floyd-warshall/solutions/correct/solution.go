package main

import (
	"dsa"
	"fmt"
)

const unreachable = 1_000_000_000_000_000_000

// stepFields: the table with nil (null) for a pair with no path known yet, the cell, the cells read.
func stepFields(dist [][]int, cell any, reads [][]int) map[string]any {
	table := make([][]any, len(dist))
	for i, row := range dist {
		table[i] = make([]any, len(row))
		for j, d := range row {
			if d != unreachable {
				table[i][j] = d
			}
		}
	}
	return map[string]any{"table": table, "cell": cell, "reads": reads}
}

func AllPairs(n int, edges [][]int) [][]int {
	rec := dsa.NewGraphRecorder()
	dist := make([][]int, n)
	for i := range dist {
		dist[i] = make([]int, n)
		for j := range dist[i] {
			if i != j {
				dist[i][j] = unreachable
			}
		}
	}
	for _, edge := range edges {
		u, v, w := edge[0], edge[1], edge[2]
		dist[u][v] = min(dist[u][v], w)
	}
	rec.Step("init", stepFields(dist, nil, [][]int{}), "0 on the diagonal, each edge's weight")
	for k := 0; k < n; k++ { // paths whose inner nodes are all below k + 1
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if dist[i][k] == unreachable || dist[k][j] == unreachable {
					continue
				}
				through := dist[i][k] + dist[k][j]
				if through < dist[i][j] {
					dist[i][j] = through
					rec.Step("relax", stepFields(dist, []int{i, j}, [][]int{{i, k}, {k, j}}),
						fmt.Sprintf("%d to %d through %d: %d", i, j, k, through))
				}
			}
		}
	}
	rec.Step("done", stepFields(dist, nil, [][]int{}), "Every pair's shortest distance")
	return dist
}
