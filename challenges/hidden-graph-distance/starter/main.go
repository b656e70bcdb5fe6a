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
	// Ask with fmt.Fprintln(out, ...) and out.Flush(), then read a reply: "k u1 ... uk" with fmt.Fscan(in, ...).
	fmt.Fprintln(out, "!", -1)
	out.Flush()
}
