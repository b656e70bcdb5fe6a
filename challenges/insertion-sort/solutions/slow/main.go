package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

var out = bufio.NewWriter(os.Stdout)

// jsonInts writes a JSON array of integers: "[1, 2, 3]".
func jsonInts(values []int) string {
	parts := make([]string, len(values))
	for k, value := range values {
		parts[k] = strconv.Itoa(value)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// step prints one step line: "@step " and a JSON object with the step's fields.
func step(action string, active []int, array []int) {
	fmt.Fprintf(out, "@step {\"action\": \"%s\", \"active\": %s, \"array\": %s}\n", action, jsonInts(active), jsonInts(array))
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
	for i := 1; i < n; i++ {
		for j := i; j > 0; j-- {
			step("compare", []int{j - 1, j}, array)
			// Too slow: no stop once the item is in place, so a sorted array costs n²/2 compares.
			if array[j-1] <= array[j] {
				continue
			}
			array[j-1], array[j] = array[j], array[j-1]
			step("swap", []int{j - 1, j}, array)
		}
	}
	step("done", []int{}, array)
	fmt.Fprintln(out, strings.Trim(fmt.Sprint(array), "[]"))
}
