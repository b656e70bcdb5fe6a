package main

import "sort"

func KthLargest(nums []int, k int) int {
	// Wrong on purpose: repeated values are counted once (a set), so it finds the k-th largest distinct value.
	seen := map[int]bool{}
	distinct := []int{}
	for _, value := range nums {
		if !seen[value] {
			seen[value] = true
			distinct = append(distinct, value)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(distinct)))
	return distinct[k-1]
}
