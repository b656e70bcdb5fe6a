package main

import (
	"dsa"
	"fmt"
)

const empty = -1

func InsertAll(capacity int, keys []int) []int {
	rec := dsa.NewSearchRecorder()
	table := make([]int, capacity)
	ids := make([]int, capacity) // the id of the entry in each bucket: its insertion order
	for b := range table {
		table[b] = empty
	}
	nextID := 0
	record := func(action string, key, home int, probe []int, caption string) {
		buckets := make([]any, capacity)
		for b := range table {
			if table[b] == empty {
				buckets[b] = []any{}
			} else {
				buckets[b] = []any{map[string]any{"id": ids[b], "key": table[b], "value": nil}}
			}
		}
		rec.Step(action, map[string]any{"buckets": buckets, "key": key, "hash": home,
			"probe": append([]int{}, probe...)}, caption)
	}
	for _, key := range keys {
		home := key % capacity
		var probe []int
		for bucket := home; ; bucket = (bucket + 1) % capacity {
			probe = append(probe, bucket)
			// wrong: stops only at an empty bucket, so a key already there is inserted again
			if table[bucket] == empty {
				table[bucket], ids[bucket] = key, nextID
				nextID++
				record("insert", key, home, probe, fmt.Sprintf("Insert %d in bucket %d (its hash is %d)", key, bucket, home))
				break
			}
		}
	}
	return table
}
