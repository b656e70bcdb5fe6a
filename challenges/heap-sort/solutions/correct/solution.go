package main

import (
	"dsa"
	"fmt"
)

func HeapSort(items []int) []int {
	rec := dsa.NewSearchRecorder()
	array := append([]int{}, items...)
	ids := make([]int, len(array)) // item k of the input has id k; a swap swaps ids too
	for k := range ids {
		ids[k] = k
	}
	record := func(action string, size int, active []int, caption string) {
		rec.Step(action, map[string]any{"heap": append([]int{}, array[:size]...), "ids": append([]int{}, ids[:size]...),
			"active": active}, caption)
	}
	swap := func(i, j int) {
		array[i], array[j] = array[j], array[i]
		ids[i], ids[j] = ids[j], ids[i]
	}
	siftDown := func(parent, size int) {
		for {
			left, right := 2*parent+1, 2*parent+2
			larger := left // the larger child; the left one when they are equal
			if right < size && array[right] > array[left] {
				larger = right
			}
			if larger >= size || array[larger] <= array[parent] {
				return
			}
			swap(parent, larger)
			record("swap", size, []int{parent, larger},
				fmt.Sprintf("Sift down: swap %d with its larger child %d", array[larger], array[parent]))
			parent = larger
		}
	}
	n := len(array)
	for parent := n/2 - 1; parent >= 0; parent-- {
		siftDown(parent, n)
	}
	for end := n - 1; end > 0; end-- {
		swap(0, end)
		record("pop", end, []int{0}, fmt.Sprintf("Move the largest, %d, to index %d; %d takes the root", array[end], end, array[0]))
		siftDown(0, end)
	}
	record("done", 0, []int{}, "Done: the heap is empty and the items are sorted")
	return array
}
