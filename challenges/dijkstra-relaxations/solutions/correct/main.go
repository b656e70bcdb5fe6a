package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

var out = bufio.NewWriter(os.Stdout)

// step prints one step line: "@step " and a JSON object with the step's fields. A distance of -1 (not
// reached yet) prints as null; a settle step passes a nil edge, so it has no edge or relaxed field.
func step(action string, current int, dist []int, edge []int, relaxed bool) {
	parts := make([]string, len(dist))
	for k, d := range dist {
		if d < 0 {
			parts[k] = "null"
		} else {
			parts[k] = strconv.Itoa(d)
		}
	}
	fmt.Fprintf(out, "@step {\"action\": \"%s\", \"current\": %d, \"dist\": [%s]", action, current, strings.Join(parts, ", "))
	if edge != nil {
		fmt.Fprintf(out, ", \"edge\": [%d, %d, %d], \"relaxed\": %t", edge[0], edge[1], edge[2], relaxed)
	}
	fmt.Fprintln(out, "}")
}

type edgeTo struct{ to, weight int }

func main() {
	defer out.Flush()
	reader := bufio.NewReader(os.Stdin)
	var n, m, source int
	fmt.Fscan(reader, &n, &m, &source)
	outgoing := make([][]edgeTo, n)
	for k := 0; k < m; k++ {
		var u, v, w int
		fmt.Fscan(reader, &u, &v, &w)
		outgoing[u] = append(outgoing[u], edgeTo{v, w})
	}
	for _, edges := range outgoing {
		sort.Slice(edges, func(a, b int) bool {
			if edges[a].to != edges[b].to {
				return edges[a].to < edges[b].to
			}
			return edges[a].weight < edges[b].weight
		})
	}

	dist := make([]int, n)
	for v := range dist {
		dist[v] = -1
	}
	settled := make([]bool, n)
	dist[source] = 0
	for {
		node := -1
		for v := 0; v < n; v++ {
			if !settled[v] && dist[v] >= 0 && (node < 0 || dist[v] < dist[node]) {
				node = v
			}
		}
		if node < 0 {
			break
		}
		settled[node] = true
		step("settle", node, dist, nil, false)
		for _, edge := range outgoing[node] {
			if settled[edge.to] {
				continue
			}
			through := dist[node] + edge.weight
			relaxed := dist[edge.to] < 0 || through < dist[edge.to]
			if relaxed {
				dist[edge.to] = through
			}
			step("relax", node, dist, []int{node, edge.to, edge.weight}, relaxed)
		}
	}
	fmt.Fprintln(out, strings.Trim(fmt.Sprint(dist), "[]"))
}
