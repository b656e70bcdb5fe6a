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
	values := make([]int64, n)
	for k := range values {
		fmt.Fscan(reader, &values[k])
	}
	// TODO: print every distinct permutation of values once, one per line (any order).
	_ = values
}
