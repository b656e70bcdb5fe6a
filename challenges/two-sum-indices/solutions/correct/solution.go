package main

func TwoSum(nums []int, target int) []int {
	firstIndex := map[int]int{}
	for j, value := range nums {
		if partner, seen := firstIndex[target-value]; seen {
			return []int{partner, j}
		}
		// Keep the first index of each value: the smallest i wins.
		if _, seen := firstIndex[value]; !seen {
			firstIndex[value] = j
		}
	}
	return []int{}
}
