package main

const unreachable = 1_000_000_000_000_000_000

func ShortestFrom(n int, edges [][]int, source int) []int {
	dist := make([]int, n)
	for v := range dist {
		dist[v] = unreachable
	}
	dist[source] = 0
	for round := 0; round < n-1; round++ { // a shortest path has at most n - 1 edges
		changed := false
		for _, edge := range edges {
			u, v, w := edge[0], edge[1], edge[2]
			// Wrong on purpose: no check that u is reachable, so an edge out of an unreachable node relaxes its target (10^18 + w).
			if dist[u]+w < dist[v] {
				dist[v] = dist[u] + w
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	for _, edge := range edges {
		u, v, w := edge[0], edge[1], edge[2]
		if dist[u]+w < dist[v] {
			return []int{} // still relaxing after n - 1 rounds: a negative cycle is reachable
		}
	}
	return dist
}
