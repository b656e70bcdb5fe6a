package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	var n int
	fmt.Fscan(in, &n)
	if n == 1 {
		fmt.Fprintln(out, "! 0")
		out.Flush()
		return
	}
	distance := make([]int, n+1)
	for node := range distance {
		distance[node] = -1
	}
	distance[1] = 0
	frontier := []int{1}
	for len(frontier) > 0 {
		node := frontier[0]
		frontier = frontier[1:]
		fmt.Fprintln(out, "?", node)
		out.Flush()
		var count int
		fmt.Fscan(in, &count)
		for index := 0; index < count; index++ {
			var neighbour int
			fmt.Fscan(in, &neighbour)
			if distance[neighbour] >= 0 {
				continue
			}
			distance[neighbour] = distance[node] + 1
			if neighbour == n {
				fmt.Fprintln(out, "!", distance[neighbour])
				out.Flush()
				return
			}
			frontier = append(frontier, neighbour)
		}
	}
	fmt.Fprintln(out, "! -1")
	out.Flush()
}
