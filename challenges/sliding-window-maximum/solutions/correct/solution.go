package main

import (
	"dsa"
	"fmt"
)

const stepped = 50 // indices whose operations record steps

func WindowMax(items []int, k int) []int {
	rec := dsa.NewSearchRecorder()
	var window []int // indices; the deque is window[head:], its items decreasing
	head := 0
	answers := []int{}
	record := func(action string, index int, caption string) {
		deque := append([]int{}, window[head:]...)
		rec.Step(action, map[string]any{"deque": deque, "ids": deque,
			"moved": map[string]any{"id": index, "value": index}}, caption)
	}
	for i, item := range items {
		if head < len(window) && window[head] == i-k {
			left := window[head]
			head++
			if i < stepped {
				record("pop_front", left, fmt.Sprintf("Index %d has left the window: drop it from the front", left))
			}
		}
		for head < len(window) && items[window[len(window)-1]] <= item {
			smaller := window[len(window)-1]
			window = window[:len(window)-1]
			if i < stepped {
				record("pop_back", smaller, fmt.Sprintf("%d at index %d is not larger than %d: drop it", items[smaller], smaller, item))
			}
		}
		window = append(window, i)
		if i < stepped {
			record("push_back", i, fmt.Sprintf("Push index %d (%d) at the back", i, item))
		}
		if i >= k-1 {
			answers = append(answers, items[window[head]])
		}
	}
	return answers
}
