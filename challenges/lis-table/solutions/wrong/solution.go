package main

import (
	"dsa"
	"fmt"
)

func LisTable(items []int) []int {
	rec := dsa.NewSearchRecorder()
	best := make([]int, len(items)) // best[i]: the longest increasing run ending at item i
	for i := range items {
		reads := []any{}
		longest := 0
		for j := 0; j < i; j++ {
			if items[j] <= items[i] { // wrong: an equal item extends a run
				reads = append(reads, []int{j})
				longest = max(longest, best[j])
			}
		}
		best[i] = longest + 1
		table := make([]any, len(items))
		for k := range table {
			if k <= i {
				table[k] = best[k]
			}
		}
		rec.Step("fill", map[string]any{"table": table, "cell": []int{i}, "reads": reads}, fmt.Sprintf("best[%d] = %d", i, best[i]))
	}
	return best
}
