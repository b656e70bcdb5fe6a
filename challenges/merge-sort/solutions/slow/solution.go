package main

import "dsa"

// MergeSort is insertion sort: right answers, but about n²/4 comparisons on random input.
func MergeSort(items []int) []int {
	rec := dsa.NewRecorder([]int(nil))
	sorted := append([]int(nil), items...)
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0; j-- {
			rec.Step("compare", map[string]any{"values": []int{sorted[j-1], sorted[j]}})
			if sorted[j-1] <= sorted[j] {
				break
			}
			sorted[j-1], sorted[j] = sorted[j], sorted[j-1]
		}
	}
	return sorted
}
