package main

func FindOccurrences(text string, pattern string) []int {
	// fail[i]: the longest proper prefix of pattern[0..i] that is also its suffix.
	fail := make([]int, len(pattern))
	k := 0
	for i := 1; i < len(pattern); i++ {
		for k > 0 && pattern[i] != pattern[k] {
			k = fail[k-1]
		}
		if pattern[i] == pattern[k] {
			k++
		}
		fail[i] = k
	}
	found := []int{}
	k = 0
	for i := 0; i < len(text); i++ {
		for k > 0 && text[i] != pattern[k] {
			k = fail[k-1]
		}
		if text[i] == pattern[k] {
			k++
		}
		if k == len(pattern) {
			found = append(found, i-k+1)
			k = fail[k-1]
		}
	}
	return found
}
