package main

import "fmt"

// FindOccurrences is slow on purpose: the pattern is checked at every start,
// O(len(text) x len(pattern)).
func FindOccurrences(text string, pattern string) []int {
	comparisons := 0
	same := func(a, b byte) bool {
		comparisons++
		return a == b
	}
	found := []int{}
	for start := 0; start+len(pattern) <= len(text); start++ {
		j := 0
		for j < len(pattern) && same(text[start+j], pattern[j]) {
			j++
		}
		if j == len(pattern) {
			found = append(found, start)
		}
	}
	fmt.Printf("@count %d\n", comparisons)
	return found
}
