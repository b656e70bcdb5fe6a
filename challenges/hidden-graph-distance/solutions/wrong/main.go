package main

import (
	"bufio"
	"fmt"
	"os"
)

// A depth-first search: it finds a path to node n, but not always a shortest one.
func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	var n int
	fmt.Fscan(in, &n)
	seen := make([]bool, n+1)
	seen[1] = true
	stack := [][2]int{{1, 0}}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if top[0] == n {
			fmt.Fprintln(out, "!", top[1])
			out.Flush()
			return
		}
		fmt.Fprintln(out, "?", top[0])
		out.Flush()
		var count int
		fmt.Fscan(in, &count)
		neighbours := make([]int, count)
		for index := range neighbours {
			fmt.Fscan(in, &neighbours[index])
		}
		for index := count - 1; index >= 0; index-- {
			if seen[neighbours[index]] {
				continue
			}
			seen[neighbours[index]] = true
			stack = append(stack, [2]int{neighbours[index], top[1] + 1})
		}
	}
	fmt.Fprintln(out, "! -1")
	out.Flush()
}
