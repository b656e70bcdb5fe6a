package main

import "fmt"

// KthLargest is slow on purpose: k rounds of taking out the largest value left, O(n x k).
func KthLargest(nums []int, k int) int {
	comparisons := 0
	less := func(a, b int) bool {
		comparisons++
		return a < b
	}
	left := append([]int(nil), nums...)
	largest := left[0]
	for round := 0; round < k; round++ {
		at := 0
		for i := 1; i < len(left); i++ {
			if less(left[at], left[i]) {
				at = i
			}
		}
		largest = left[at]
		left[at] = left[len(left)-1]
		left = left[:len(left)-1]
	}
	fmt.Printf("@count %d\n", comparisons)
	return largest
}
