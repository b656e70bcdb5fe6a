// attack: exhaust descriptors from Go: pipes in a loop until the runtime's own epoll cannot cope
// expect: status in [ok, runtime_error]; stdout contains "too many open files"
package main

import (
	"fmt"
	"os"
)

func main() {
	var held []*os.File
	for {
		reader, writer, err := os.Pipe()
		if err != nil {
			fmt.Println("after", len(held), "files:", err)
			return
		}
		held = append(held, reader, writer)
	}
}
