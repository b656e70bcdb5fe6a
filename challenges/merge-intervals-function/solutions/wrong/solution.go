package main

import "sort"

// Wrong on purpose: the current end is taken from the last interval, not the largest seen.
func MergeIntervals(intervals [][]int) [][]int {
	sorted := append([][]int{}, intervals...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i][0] != sorted[j][0] {
			return sorted[i][0] < sorted[j][0]
		}
		return sorted[i][1] < sorted[j][1]
	})
	merged := [][]int{}
	for _, interval := range sorted {
		if n := len(merged); n > 0 && interval[0] <= merged[n-1][1] {
			merged[n-1][1] = interval[1]
		} else {
			merged = append(merged, []int{interval[0], interval[1]})
		}
	}
	return merged
}
