// attack: leave files in /box, /tmp and /dev/shm, written and memory-mapped, for the idle warm box to keep in RAM
// expect: status in [ok]; stdout contains "wrote"
// follow-up: status in [ok]; stdout contains "clean"
package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

func main() {
	places := []string{"/box", "/tmp", "/dev/shm"}
	if len(os.Args) > 1 && os.Args[1] == "follow-up" {
		clean := true
		for _, place := range places {
			entries, _ := os.ReadDir(place)
			for _, entry := range entries {
				if strings.HasPrefix(entry.Name(), "left-") {
					fmt.Println("LEFT", place+"/"+entry.Name())
					clean = false
				}
			}
		}
		if clean {
			fmt.Println("clean")
		}
		return
	}
	for index, place := range places {
		size := 12 << 20
		if index == 2 {
			size = 8 << 20
		}
		if err := os.WriteFile(place+"/left-data", bytes.Repeat([]byte{1}, size), 0o600); err != nil {
			fmt.Println(err)
		}
	}
	os.MkdirAll("/tmp/left-tree/a/b", 0o700)
	fmt.Println("wrote")
}
