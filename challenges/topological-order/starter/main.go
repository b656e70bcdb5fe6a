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
	var n, m int
	fmt.Fscan(reader, &n, &m)
	rules := make([][2]int, m)
	for k := range rules {
		fmt.Fscan(reader, &rules[k][0], &rules[k][1])
	}
	// TODO: print an order of tasks 1..n that obeys every rule, or "IMPOSSIBLE".
	_ = n
}
