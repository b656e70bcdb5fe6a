package main

import "sort"

func LisLength(items []int) int {
	var tails []int // tails[n]: the smallest last item of an increasing run of length n + 1
	for _, item := range items {
		place := sort.Search(len(tails), func(k int) bool { return tails[k] > item }) // wrong: an equal item extends a run
		if place == len(tails) {
			tails = append(tails, item)
		} else {
			tails[place] = item
		}
	}
	return len(tails)
}
