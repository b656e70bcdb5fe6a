package main

import "sort"

func TopKFrequent(items []int, k int) []int {
	counts := map[int]int{}
	for _, item := range items {
		counts[item]++
	}
	values := make([]int, 0, len(counts))
	for value := range counts {
		values = append(values, value)
	}
	sort.Slice(values, func(a, b int) bool {
		if counts[values[a]] != counts[values[b]] {
			return counts[values[a]] > counts[values[b]]
		}
		return values[a] < values[b]
	})
	return values[:k]
}
