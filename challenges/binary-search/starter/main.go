package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

var out = bufio.NewWriter(os.Stdout)

// step prints one step line: "@step " and a JSON object with the step's fields (a nil mid prints as null).
func step(low, high int, mid *int, found bool) {
	midText := "null"
	if mid != nil {
		midText = strconv.Itoa(*mid)
	}
	fmt.Fprintf(out, "@step {\"low\": %d, \"high\": %d, \"mid\": %s, \"found\": %t}\n", low, high, midText, found)
}

func search(array []int, target int) int {
	// TODO: binary search for target in array. Report each probe, and the end of a failed search:
	//   step(low, high, &mid, array[mid] == target)
	//   step(low, high, nil, false)
	return -1
}

func main() {
	defer out.Flush()
	reader := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(reader, &n)
	array := make([]int, n)
	for k := range array {
		fmt.Fscan(reader, &array[k])
	}
	var target int
	fmt.Fscan(reader, &target)
	fmt.Fprintln(out, search(array, target))
}
