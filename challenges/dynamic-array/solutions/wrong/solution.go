package main

import "dsa"

// PushAll off by one: grows only when the array holds one item more than its capacity (a spare slot hides the overflow).
func PushAll(values []int) []int {
	rec := dsa.NewRecorder([]int(nil))
	capacity, size := 1, 0
	buffer := make([]int, capacity+1)
	capacities := make([]int, 0, len(values))
	for _, value := range values {
		if size > capacity {
			capacity = capacity * 2
			bigger := make([]int, capacity+1)
			for i := 0; i < size; i++ {
				bigger[i] = buffer[i]
				rec.Step("copy", map[string]any{"index": i})
			}
			buffer = bigger
		}
		buffer[size] = value
		size++
		capacities = append(capacities, capacity)
	}
	return capacities
}
