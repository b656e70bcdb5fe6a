package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// step is optional: it prints one step for the app's step player,
// e.g. step(map[string]any{"action": "look", "j": 3}).
func step(fields map[string]any) {
	line, _ := json.Marshal(fields)
	fmt.Println("@step " + string(line))
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(reader, &n)
	intervals := make([][2]int64, n)
	for k := range intervals {
		fmt.Fscan(reader, &intervals[k][0], &intervals[k][1])
	}
	// TODO: merge the overlapping intervals and print them from left to right, one "l r" per line.
	_ = intervals
}
