package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

var out = bufio.NewWriter(os.Stdout)

// compare prints one step line per comparison of two items.
func compare() { out.WriteString("@step {\"action\": \"compare\"}\n") }

func main() {
	// Insertion sort: right answers, but about n²/4 comparisons on random input.
	defer out.Flush()
	reader := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(reader, &n)
	items := make([]int64, n)
	for k := range items {
		fmt.Fscan(reader, &items[k])
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0; j-- {
			compare()
			if items[j-1] <= items[j] {
				break
			}
			items[j-1], items[j] = items[j], items[j-1]
		}
	}
	fmt.Fprintln(out, strings.Trim(fmt.Sprint(items), "[]"))
}
