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
	low, high := 0, n-1
	for low <= high {
		middle := low + (high-low)/2
		probe(middle)
		if items[middle] == target {
			answer = middle
			break
		}
		if items[middle] < target {
			low = middle + 1
		} else {
			high = middle - 1
		}
	}
	fmt.Fprintln(out, answer)
}
