package main

// Wrong on purpose: one counter per kind checks how many brackets there are, not how they nest.
func IsBalanced(s string) bool {
	opener := map[rune]rune{')': '(', ']': '[', '}': '{'}
	openCount := map[rune]int{'(': 0, '[': 0, '{': 0}
	for _, bracket := range s {
		if _, opening := openCount[bracket]; opening {
			openCount[bracket]++
			continue
		}
		openCount[opener[bracket]]--
		if openCount[opener[bracket]] < 0 {
			return false
		}
	}
	for _, count := range openCount {
		if count != 0 {
			return false
		}
	}
	return true
}
