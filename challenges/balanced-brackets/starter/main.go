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

func balanced(text string) bool {
	// TODO: return true when the brackets of text are balanced.
	return false
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	var count int
	fmt.Fscan(reader, &count)
	for k := 0; k < count; k++ {
		var text string
		fmt.Fscan(reader, &text)
		if balanced(text) {
			fmt.Println("YES")
		} else {
			fmt.Println("NO")
		}
	}
}
