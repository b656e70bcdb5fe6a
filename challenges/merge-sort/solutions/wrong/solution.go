package main

import "dsa"

func MergeSort(items []int) []int {
	return sortPart(items, dsa.NewRecorder([]int(nil)))
}

func sortPart(items []int, rec *dsa.Recorder) []int {
	if len(items) < 2 {
		return items
	}
	middle := len(items) / 2
	left := sortPart(append([]int(nil), items[:middle]...), rec)
	right := sortPart(append([]int(nil), items[middle:]...), rec)
	merged := make([]int, 0, len(items))
	i, j := 0, 0
	for i < len(left) && j < len(right) {
		rec.Step("compare", map[string]any{"values": []int{left[i], right[j]}})
		if left[i] < right[j] {
			merged = append(merged, left[i])
			i++
		} else if left[i] > right[j] {
			merged = append(merged, right[j])
			j++
		} else {
			// Wrong on purpose: two equal items are written once, so a duplicate is lost.
			merged = append(merged, left[i])
			i++
			j++
		}
	}
	merged = append(merged, left[i:]...)
	return append(merged, right[j:]...)
}
