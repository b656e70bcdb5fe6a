package main

import "dsa"

func BubbleSort(items []int) []int {
	rec := dsa.NewRecorder(items)
	n := len(items)
	for donePasses := 0; donePasses < n-1; donePasses++ {
		swapped := false
		// Wrong on purpose: every pass runs to the end, over items already bubbled into place.
		for j := 0; j < n-1; j++ {
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
