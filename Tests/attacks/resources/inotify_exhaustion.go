// attack: take every inotify instance the kernel gives, from Go's syscall package (charged to root, that left root's own inotify_init1 failing with EMFILE)
// expect: status in [ok]; stdout matches "instances ([0-9]|[12][0-9]|3[0-2]) "; stdout contains "held"
// during: root_quota
package main

import (
	"fmt"
	"syscall"
	"time"
)

func main() {
	var held []int
	var failure error
	for len(held) < 100000 {
		fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
		if err != nil {
			failure = err
			break
		}
		held = append(held, fd)
	}
	fmt.Printf("instances %d (%v)\n", len(held), failure)
	time.Sleep(2 * time.Second) // hold them while the host checks root's own
	fmt.Println("held")
}
