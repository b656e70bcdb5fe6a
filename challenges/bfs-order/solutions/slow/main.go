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

// jsonInts writes a JSON array of integers: "[1, 2, 3]".
func jsonInts(values []int) string {
	parts := make([]string, len(values))
	for k, value := range values {
		parts[k] = strconv.Itoa(value)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// step prints one step line: "@step " and a JSON object with the step's fields (a nil current prints as null).
func step(current *int, visited []int, frontier []int) {
	currentText := "null"
	if current != nil {
		currentText = strconv.Itoa(*current)
	}
	fmt.Fprintf(out, "@step {\"current\": %s, \"visited\": %s, \"frontier\": %s}\n", currentText, jsonInts(visited), jsonInts(frontier))
}

func main() {
	defer out.Flush()
	reader := bufio.NewReader(os.Stdin)
	var n, m, source int
	fmt.Fscan(reader, &n, &m, &source)
	neighbours := make([][]int, n)
	for k := 0; k < m; k++ {
		var u, v int
		fmt.Fscan(reader, &u, &v)
		neighbours[u] = append(neighbours[u], v)
		neighbours[v] = append(neighbours[v], u)
	}
	for _, adjacent := range neighbours {
		sort.Ints(adjacent)
	}

	// The queue keeps every node ever queued: it is the visited order, and queue[head:] the frontier.
	matrix := make([][]bool, n)
	for u := range matrix {
		matrix[u] = make([]bool, n)
		for _, v := range neighbours[u] {
			matrix[u][v] = true
		}
	}
	seen := make([]bool, n)
	seen[source] = true
	queue := []int{source}
	head := 0
	step(nil, queue, queue[head:])
	// Every neighbour looked at is counted, for the growth grade (@count).
	checks := 0
	for head < len(queue) {
		node := queue[head]
		head++
		// Too slow: every node is looked at, neighbour or not (n² checks instead of n + m).
		for neighbour := 0; neighbour < n; neighbour++ {
			checks++
			if matrix[node][neighbour] && !seen[neighbour] {
				seen[neighbour] = true
				queue = append(queue, neighbour)
			}
		}
		step(&node, queue, queue[head:])
	}
	fmt.Fprintf(out, "@count %d\n", checks)
	fmt.Fprintln(out, strings.Trim(fmt.Sprint(queue), "[]"))
}
