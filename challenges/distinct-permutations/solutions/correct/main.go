package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

var values []int64
var used []bool
var prefix []string
var writer = bufio.NewWriter(os.Stdout)

func extend() {
	if len(prefix) == len(values) {
		fmt.Fprintln(writer, strings.Join(prefix, " "))
		return
	}
	for k := range values {
		// Equal values are tried in sorted order only, so each distinct value is tried once here.
		if used[k] || (k > 0 && values[k] == values[k-1] && !used[k-1]) {
			continue
		}
		used[k] = true
		prefix = append(prefix, strconv.FormatInt(values[k], 10))
		extend()
		prefix = prefix[:len(prefix)-1]
		used[k] = false
	}
}

func main() {
	defer writer.Flush()
	reader := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(reader, &n)
	values = make([]int64, n)
	for k := range values {
		fmt.Fscan(reader, &values[k])
	}
	sort.Slice(values, func(a, b int) bool { return values[a] < values[b] })
	used = make([]bool, n)
	extend()
}
