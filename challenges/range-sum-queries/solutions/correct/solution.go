package main

func RangeSums(nums []int, queries [][]int) []int {
	n := len(nums)
	values := append([]int{}, nums...) // the current values, to know each update's change
	tree := make([]int, n+1)           // Fenwick tree: tree[i] sums values[i-(i&-i) .. i-1]
	add := func(i, delta int) {
		for i++; i <= n; i += i & -i {
			tree[i] += delta
		}
	}
	prefix := func(i int) int { // values[0] + ... + values[i-1]
		total := 0
		for ; i > 0; i -= i & -i {
			total += tree[i]
		}
		return total
	}
	for i, v := range values {
		add(i, v)
	}
	answers := []int{}
	for _, q := range queries {
		if q[0] == 0 {
			add(q[1], q[2]-values[q[1]])
			values[q[1]] = q[2]
		} else {
			answers = append(answers, prefix(q[2]+1)-prefix(q[1]))
		}
	}
	return answers
}
