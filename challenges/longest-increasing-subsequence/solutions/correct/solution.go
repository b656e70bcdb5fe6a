package main

import "sort"

func LisLength(items []int) int {
	var tails []int // tails[n]: the smallest last item of an increasing run of length n + 1
	for _, item := range items {
		place := sort.SearchInts(tails, item) // the first tail >= item
		if place == len(tails) {
			tails = append(tails, item)
		} else {
			tails[place] = item
		}
	}
	return len(tails)
}
