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
		for k, value := range values {
			// An equal value whose earlier copy is free would start a permutation already made.
			if used[k] || (k > 0 && value == values[k-1] && !used[k-1]) {
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
