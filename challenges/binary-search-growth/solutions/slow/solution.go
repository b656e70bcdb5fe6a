package main

import "dsa"

// BinarySearch scans from the start: right answers, about n probes.
func BinarySearch(items []int, target int) int {
	rec := dsa.NewSearchRecorder()
	for index, item := range items {
		rec.Probe(index, index, len(items)-1, item == target)
		if item == target {
			return index
		}
		if item > target {
			break
		}
	}
	return -1
}
