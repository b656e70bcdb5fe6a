package main

import "sort"

func DistinctPermutations(items []int) [][]int {
	values := append([]int{}, items...)
	sort.Ints(values)
	used := make([]bool, len(values))
	prefix := []int{}
	permutations := [][]int{}
	var extend func()
	extend = func() {
		if len(prefix) == len(values) {
			permutations = append(permutations, append([]int{}, prefix...))
			return
		}
		// Wrong on purpose: every position is tried, so equal values give the same permutation several times.
		for k, value := range values {
			if used[k] {
				continue
			}
			used[k] = true
			prefix = append(prefix, value)
			extend()
			prefix = prefix[:len(prefix)-1]
			used[k] = false
		}
	}
	extend()
	return permutations
}
