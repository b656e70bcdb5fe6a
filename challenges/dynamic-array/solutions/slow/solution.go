package main

import "dsa"

// PushAll grows by a fixed 16 slots: about n²/32 copies in all, O(n²).
func PushAll(values []int) []int {
	rec := dsa.NewRecorder([]int(nil))
	capacity, size := 1, 0
	buffer := make([]int, capacity)
	capacities := make([]int, 0, len(values))
	for _, value := range values {
		if size == capacity {
			capacity = capacity + 16
			bigger := make([]int, capacity)
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
