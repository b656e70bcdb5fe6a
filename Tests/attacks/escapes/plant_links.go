// attack: swap the Go binary /box/main for a symlink into the host canary and leave a listening Unix socket and fifo behind
// expect: status in [ok]; stdout contains "swapped"
package main

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

func main() {
	os.Remove("/box/main")
	if os.Symlink("@CANARY_DIR@", "/box/main") == nil {
		fmt.Println("swapped")
	}
	syscall.Mkfifo("/box/pipe", 0o666)
	syscall.Mkfifo("/tmp/pipe", 0o666)
	if _, err := net.Listen("unix", "/box/listening.sock"); err != nil {
		fmt.Println("unix listen:", err)
	}
	os.Symlink("@CANARY_DIR@/keep.txt", "/dev/shm/keep")
	fmt.Println(os.Link("/usr/bin/su", "/box/su"))
}
