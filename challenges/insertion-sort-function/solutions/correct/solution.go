package main

import "dsa"

func InsertionSort(items []int) []int {
	rec := dsa.NewRecorder(items)
	for i := 1; i < len(items); i++ {
		for j := i; j > 0; j-- {
			rec.Compare(j-1, j)
			if rec.Int(j-1) <= rec.Int(j) {
				break
			}
			rec.Swap(j-1, j)
		}
	}
	rec.Done()
	return rec.Ints()
}
