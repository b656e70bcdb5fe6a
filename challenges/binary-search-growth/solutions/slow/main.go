package main

import (
	"bufio"
	"fmt"
	"os"
)

var out = bufio.NewWriter(os.Stdout)

// probe prints one step line per item looked at.
func probe(index int) { fmt.Fprintf(out, "@step {\"action\": \"probe\", \"index\": %d}\n", index) }

func main() {
	// A scan from the start: right answers, about n probes.
	defer out.Flush()
	reader := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(reader, &n)
	items := make([]int64, n)
	for k := range items {
		fmt.Fscan(reader, &items[k])
	}
	var target int64
	fmt.Fscan(reader, &target)
	answer := -1
	for index := 0; index < n; index++ {
		probe(index)
		if items[index] == target {
			answer = index
			break
		}
		if items[index] > target {
			break
		}
	}
	fmt.Fprintln(out, answer)
}
