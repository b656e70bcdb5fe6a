package main

func EditDistance(a string, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j // row 0: insert b's first j characters
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i // column 0: delete a's first i characters
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
