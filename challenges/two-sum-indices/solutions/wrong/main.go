package main

import (
	"bufio"
	"fmt"
	"os"
)

func solve(values []int64, target int64) (int, int) {
	firstPosition := map[int64]int{}
	for j, value := range values {
		// Mistake: the value is stored before the look-up, so it can pair with itself.
		if _, seen := firstPosition[value]; !seen {
			firstPosition[value] = j
		}
		if partner, ok := firstPosition[target-value]; ok {
			return partner + 1, j + 1
		}
	}
	return 0, 0
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var n int
	var target int64
	fmt.Fscan(reader, &n, &target)
	values := make([]int64, n)
	for k := range values {
		fmt.Fscan(reader, &values[k])
	}
	i, j := solve(values, target)
	fmt.Println(i, j)
}
