package main

import "dsa"

func BinarySearch(items []int, target int) int {
	rec := dsa.NewSearchRecorder()
	low, high := 0, len(items)-1
	for low <= high {
		mid := low + (high-low)/2
		rec.Probe(low, mid, high, items[mid] == target)
		if items[mid] == target {
			return mid
		}
		if items[mid] < target {
			low = mid + 1
		} else {
			high = mid - 1
		}
	}
	rec.ProbeEmpty(low, high)
	return -1
}
