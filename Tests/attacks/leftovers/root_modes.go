// attack: chmod /box and /dev/shm to 0 and /tmp to 0500, so the next learner's Go program on this warm box cannot even be built
// expect: status in [ok]; stdout contains "changed"
// follow-up: status in [ok]; stdout contains "clean"
package main

import (
	"fmt"
	"os"
)

func main() {
	roots := []string{"/box", "/tmp", "/dev/shm"}
	if len(os.Args) > 1 && os.Args[1] == "follow-up" {
		clean := true
		for _, root := range roots {
			// A fresh box's roots are the program's to read, write and search (0700 warm, 1777 one-shot).
			_, listErr := os.ReadDir(root)
			writeErr := os.WriteFile(root+"/probe", []byte("x"), 0o600)
			if listErr != nil || writeErr != nil {
				fmt.Println("LEFT", root, listErr, writeErr)
				clean = false
			}
		}
		if clean {
			fmt.Println("clean")
		}
		return
	}
	os.Chmod("/tmp", 0o500)
	os.Chmod("/dev/shm", 0)
	os.Chmod("/box", 0)
	fmt.Println("changed")
}
