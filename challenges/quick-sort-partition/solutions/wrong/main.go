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

func quickSort(array []int, lo, hi int) {
	if lo >= hi {
		return
	}
	pivot := array[hi]
	step("pivot", []int{hi}, array)
	i := lo
	for j := lo; j < hi; j++ {
		step("compare", []int{j, hi}, array)
		// Wrong on purpose: items equal to the pivot stay in the right part.
		if array[j] < pivot {
			if i != j {
				array[i], array[j] = array[j], array[i]
				step("swap", []int{i, j}, array)
			}
			i++
		}
	}
	array[i], array[hi] = array[hi], array[i]
	step("place", []int{i}, array)
	quickSort(array, lo, i-1)
	quickSort(array, i+1, hi)
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
	quickSort(array, 0, n-1)
	step("done", []int{}, array)
	fmt.Fprintln(out, strings.Trim(fmt.Sprint(array), "[]"))
}
