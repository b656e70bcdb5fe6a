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

func mergeSort(items, scratch []int64, lo, hi int) {
	if hi-lo < 2 {
		return
	}
	mid := lo + (hi-lo)/2
	mergeSort(items, scratch, lo, mid)
	mergeSort(items, scratch, mid, hi)
	i, j, k := lo, mid, lo
	for i < mid && j < hi {
		compare()
		if items[i] <= items[j] {
			scratch[k] = items[i]
			i++
		} else {
			scratch[k] = items[j]
			j++
		}
		k++
	}
	k += copy(scratch[k:], items[i:mid])
	copy(scratch[k:], items[j:hi])
	copy(items[lo:hi], scratch[lo:hi])
}

func main() {
	defer out.Flush()
	reader := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(reader, &n)
	items := make([]int64, n)
	for k := range items {
		fmt.Fscan(reader, &items[k])
	}
	mergeSort(items, make([]int64, n), 0, n)
	fmt.Fprintln(out, strings.Trim(fmt.Sprint(items), "[]"))
}
