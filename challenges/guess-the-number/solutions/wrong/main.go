package main

import (
	"bufio"
	"fmt"
	"os"
)

// Asks every number in turn: right in the end, but far more questions than a binary search.
func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	var n int64
	fmt.Fscan(in, &n)
	for guess := int64(1); guess <= n; guess++ {
		fmt.Fprintln(out, "?", guess)
		out.Flush()
		var reply string
		if _, err := fmt.Fscan(in, &reply); err != nil {
			return
		}
		if reply == "=" {
			fmt.Fprintln(out, "!", guess)
			out.Flush()
			return
		}
	}
}
