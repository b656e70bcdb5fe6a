package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	reader := bufio.NewReader(os.Stdin)
	var n, m int
	fmt.Fscan(reader, &n, &m)
	successors := make([][]int, n+1)
	inDegree := make([]int, n+1)
	for k := 0; k < m; k++ {
		var u, v int
		fmt.Fscan(reader, &u, &v)
		successors[u] = append(successors[u], v)
		inDegree[v]++
	}
	order := []int{}
	for node := 1; node <= n; node++ {
		if inDegree[node] == 0 {
			order = append(order, node)
		}
	}
	// order doubles as the queue: the nodes after index head are ready but not yet expanded.
	for head := 0; head < len(order); head++ {
		for _, successor := range successors[order[head]] {
			inDegree[successor]--
			if inDegree[successor] == 0 {
				order = append(order, successor)
			}
		}
	}
	// Tasks on or behind a cycle never reach in-degree 0.
	if len(order) != n {
		fmt.Println("IMPOSSIBLE")
		return
	}
	words := make([]string, len(order))
	for k, node := range order {
		words[k] = strconv.Itoa(node)
	}
	fmt.Println(strings.Join(words, " "))
}
