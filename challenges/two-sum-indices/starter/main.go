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
	var target int64
	fmt.Fscan(reader, &n, &target)
	values := make([]int64, n)
	for k := range values {
		fmt.Fscan(reader, &values[k])
	}
	// TODO: find positions i < j with values[i]+values[j] == target (smallest j, then smallest i)
	// and print them counting from 1, or "0 0" when there is no such pair.
	fmt.Println(0, 0)
}
