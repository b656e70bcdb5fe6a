package main

import "dsa"

func QuickSort(items []int) []int {
	rec := dsa.NewRecorder([]int{})
	array := append([]int{}, items...)
	step := func(action string, active ...int) {
		rec.Step(action, map[string]any{"active": append([]int{}, active...), "array": array})
	}
	var sort func(lo, hi int)
	sort = func(lo, hi int) {
		if lo >= hi {
			return
		}
		pivot := array[hi]
		step("pivot", hi)
		i := lo
		for j := lo; j < hi; j++ {
			step("compare", j, hi)
			// Wrong on purpose: items equal to the pivot stay in the right part.
			if array[j] < pivot {
				if i != j {
					array[i], array[j] = array[j], array[i]
					step("swap", i, j)
				}
				i++
			}
		}
		array[i], array[hi] = array[hi], array[i]
		step("place", i)
		sort(lo, i-1)
		sort(i+1, hi)
	}
	sort(0, len(array)-1)
	step("done")
	return array
}
