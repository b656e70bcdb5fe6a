package main

import "dsa"

func BubbleSort(items []int) []int {
	rec := dsa.NewRecorder(items)
	n := len(items)
	for donePasses := 0; donePasses < n-1; donePasses++ {
		swapped := false
		for j := 0; j < n-1-donePasses; j++ {
			rec.Compare(j, j+1)
			if rec.Int(j) > rec.Int(j+1) {
				rec.Swap(j, j+1)
				swapped = true
			}
		}
		if !swapped {
			break
		}
	}
	rec.Done()
	return rec.Ints()
}
