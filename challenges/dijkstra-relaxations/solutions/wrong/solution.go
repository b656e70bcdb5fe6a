package main

import (
	"dsa"
	"sort"
)

func Dijkstra(n int, edges [][]int, source int) []int {
	rec := dsa.NewGraphRecorder()
	outgoing := make([][][2]int, n)
	for _, e := range edges {
		outgoing[e[0]] = append(outgoing[e[0]], [2]int{e[1], e[2]})
	}
	for _, links := range outgoing {
		// Ascending (node, weight): the order the steps follow.
		sort.Slice(links, func(a, b int) bool {
			return links[a][0] < links[b][0] || links[a][0] == links[b][0] && links[a][1] < links[b][1]
		})
	}
	dist := make([]any, n) // nil: not reached yet (null in the steps)
	settled := make([]bool, n)
	dist[source] = 0
	for {
		node := -1
		for v := 0; v < n; v++ {
			if !settled[v] && dist[v] != nil && (node < 0 || dist[v].(int) < dist[node].(int)) {
				node = v
			}
		}
		if node < 0 {
			break
		}
		settled[node] = true
		rec.Step("settle", map[string]any{"current": node, "dist": dist})
		for _, link := range outgoing[node] {
			to, weight := link[0], link[1]
			// Wrong on purpose: no check for settled nodes, so edges back to them are relaxed too.
			through := dist[node].(int) + weight
			relaxed := dist[to] == nil || through < dist[to].(int)
			if relaxed {
				dist[to] = through
			}
			rec.Step("relax", map[string]any{"current": node, "dist": dist, "edge": []int{node, to, weight}, "relaxed": relaxed})
		}
	}
	result := make([]int, n)
	for v := range result {
		if dist[v] == nil {
			result[v] = -1
		} else {
			result[v] = dist[v].(int)
		}
	}
	return result
}
