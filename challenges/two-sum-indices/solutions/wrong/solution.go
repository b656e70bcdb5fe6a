package main

func TwoSum(nums []int, target int) []int {
	firstIndex := map[int]int{}
	for j, value := range nums {
		// Wrong on purpose: the value is stored before the look-up, so it can pair with itself.
		if _, seen := firstIndex[value]; !seen {
			firstIndex[value] = j
		}
		if partner, seen := firstIndex[target-value]; seen {
			return []int{partner, j}
		}
	}
	return []int{}
}
