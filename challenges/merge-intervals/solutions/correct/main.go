package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
)

func main() {
	reader := bufio.NewReader(os.Stdin)
	writer := bufio.NewWriter(os.Stdout)
	defer writer.Flush()
	var n int
	fmt.Fscan(reader, &n)
	intervals := make([][2]int64, n)
	for k := range intervals {
		fmt.Fscan(reader, &intervals[k][0], &intervals[k][1])
	}
	sort.Slice(intervals, func(a, b int) bool {
		if intervals[a][0] != intervals[b][0] {
			return intervals[a][0] < intervals[b][0]
		}
		return intervals[a][1] < intervals[b][1]
	})
	merged := [][2]int64{}
	for _, interval := range intervals {
		if len(merged) > 0 && interval[0] <= merged[len(merged)-1][1] {
			current := &merged[len(merged)-1]
			if interval[1] > current[1] {
				current[1] = interval[1]
			}
		} else {
			merged = append(merged, interval)
		}
	}
	for _, interval := range merged {
		fmt.Fprintln(writer, interval[0], interval[1])
	}
}
