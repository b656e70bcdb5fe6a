// attack: read the expected answers under /usr from Go (the runner installs the data at @DATA_DIR@): filepath.Glob for tests/*.out, then open each by name
// expect: status in [ok]; stdout lacks "FOUND"; stdout contains "done"
package main

import (
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	patterns := []string{
		"@DATA_DIR@/challenges/*/tests/*.out", "@DATA_DIR@/challenges/*/expected/*.steps", "@DATA_DIR@/runners/*.json",
		"@DATA_DIR@/policies/*.json",
		"/usr/local/share/*/challenges/*/tests/*.out", "/usr/share/*/challenges/*/tests/*.out",
	}
	for _, pattern := range patterns {
		matches, _ := filepath.Glob(pattern)
		for _, path := range matches {
			if data, err := os.ReadFile(path); err == nil {
				fmt.Println("FOUND", path, len(data), "bytes")
			}
		}
	}
	// By name, in case listing is refused but opening is not.
	// A stdin challenge's expected output, a function challenge's recorded expected steps, a runner.
	for _, path := range []string{
		"@DATA_DIR@/challenges/insertion-sort/tests/empty.out", "@DATA_DIR@/challenges/bubble-sort/expected/sample.steps",
		"@DATA_DIR@/runners/python.json",
	} {
		if data, err := os.ReadFile(path); err == nil {
			fmt.Println("FOUND", path, len(data), "bytes")
		} else {
			fmt.Println("refused", path, err)
		}
	}
	fmt.Println("done")
}
