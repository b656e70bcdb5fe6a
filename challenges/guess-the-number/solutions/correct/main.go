package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	var n int64
	fmt.Fscan(in, &n)
	low, high := int64(1), n
	for low < high {
		middle := low + (high-low)/2
		fmt.Fprintln(out, "?", middle)
		out.Flush()
		var reply string
		fmt.Fscan(in, &reply)
		switch reply {
		case "=":
			low, high = middle, middle
		case "<":
			high = middle - 1
		default:
			low = middle + 1
		}
	}
	fmt.Fprintln(out, "!", low)
	out.Flush()
}
