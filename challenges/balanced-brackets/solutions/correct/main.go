package main

import (
	"bufio"
	"fmt"
	"os"
)

var opener = map[byte]byte{')': '(', ']': '[', '}': '{'}

func balanced(text string) bool {
	stack := []byte{}
	for k := 0; k < len(text); k++ {
		bracket := text[k]
		if bracket == '(' || bracket == '[' || bracket == '{' {
			stack = append(stack, bracket)
			continue
		}
		if len(stack) == 0 || stack[len(stack)-1] != opener[bracket] {
			return false
		}
		stack = stack[:len(stack)-1]
	}
	return len(stack) == 0
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
