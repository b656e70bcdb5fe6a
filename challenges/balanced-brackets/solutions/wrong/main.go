package main

import (
	"bufio"
	"fmt"
	"os"
)

var opener = map[byte]byte{')': '(', ']': '[', '}': '{'}

func balanced(text string) bool {
	// Mistake: one counter per kind checks the numbers of brackets but not how they nest.
	openCount := map[byte]int{'(': 0, '[': 0, '{': 0}
	for k := 0; k < len(text); k++ {
		bracket := text[k]
		if _, isOpener := openCount[bracket]; isOpener {
			openCount[bracket]++
			continue
		}
		openCount[opener[bracket]]--
		if openCount[opener[bracket]] < 0 {
			return false
		}
	}
	return openCount['('] == 0 && openCount['['] == 0 && openCount['{'] == 0
}

func main() {
	reader := bufio.NewReader(os.Stdin)
	writer := bufio.NewWriter(os.Stdout)
	defer writer.Flush()
	var count int
	fmt.Fscan(reader, &count)
	for k := 0; k < count; k++ {
		var text string
		fmt.Fscan(reader, &text)
		if balanced(text) {
			fmt.Fprintln(writer, "YES")
		} else {
			fmt.Fprintln(writer, "NO")
		}
	}
}
