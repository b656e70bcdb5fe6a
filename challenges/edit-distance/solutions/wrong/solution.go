package main

func EditDistance(a string, b string) int {
	// Wrong on purpose: the first row and column start at 0, as if deleting or inserting a prefix were free.
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			replace := prev[j-1]
			if a[i-1] != b[j-1] {
				replace++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, replace)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
