package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	reader := bufio.NewReader(os.Stdin)
	writer := bufio.NewWriter(os.Stdout)
	defer writer.Flush()
	var n int
	fmt.Fscan(reader, &n)
	values := make([]int64, n)
	for k := range values {
		fmt.Fscan(reader, &values[k])
	}
	children := make([][]int, n)
	for child := 0; child < n; child++ {
		var parent int
		fmt.Fscan(reader, &parent)
		if parent >= 0 {
			children[parent] = append(children[parent], child)
		}
	}
	level := []int{}
	if n > 0 {
		level = append(level, 0)
	}
	for len(level) > 0 {
		var sum int64
		next := []int{}
		for _, node := range level {
			sum += values[node]
			next = append(next, children[node]...)
		}
		fmt.Fprintf(writer, "%.9f\n", float64(sum)/float64(len(level)))
		level = next
	}
}
