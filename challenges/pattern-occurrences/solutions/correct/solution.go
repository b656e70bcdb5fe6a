package main

import "fmt"

func FindOccurrences(text string, pattern string) []int {
	comparisons := 0 // character comparisons, for the growth grade
	same := func(a, b byte) bool {
		comparisons++
		return a == b
	}
	// fail[i]: the longest proper prefix of pattern[0..i] that is also its suffix.
	fail := make([]int, len(pattern))
	k := 0
	for i := 1; i < len(pattern); i++ {
		for k > 0 && !same(pattern[i], pattern[k]) {
			k = fail[k-1]
		}
		if same(pattern[i], pattern[k]) {
			k++
		}
		fail[i] = k
	}
	found := []int{}
	k = 0
	for i := 0; i < len(text); i++ {
		for k > 0 && !same(text[i], pattern[k]) {
			k = fail[k-1]
		}
		if same(text[i], pattern[k]) {
			k++
		}
		if k == len(pattern) {
			found = append(found, i-k+1)
			k = fail[k-1]
		}
	}
	fmt.Printf("@count %d\n", comparisons)
	return found
}
