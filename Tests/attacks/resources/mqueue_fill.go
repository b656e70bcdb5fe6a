// attack: create POSIX message queues with the raw mq_open system call until the kernel refuses (their bytes are counted per user, and were charged to root)
// expect: status in [ok]; stdout matches "queues [0-3] "; stdout contains "held"
// during: root_quota
package main

import (
	"fmt"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	queues := 0
	var failure syscall.Errno
	for queues < 1000 {
		// The kernel's name has no leading slash (glibc strips it).
		name, _ := syscall.BytePtrFromString(fmt.Sprintf("attack-%d", queues))
		_, _, errno := syscall.Syscall6(syscall.SYS_MQ_OPEN, uintptr(unsafe.Pointer(name)),
			syscall.O_CREAT|syscall.O_RDWR, 0o600, 0, 0, 0)
		if errno != 0 {
			failure = errno
			break
		}
		queues++
	}
	fmt.Printf("queues %d (%v)\n", queues, failure)
	time.Sleep(2 * time.Second) // hold them while the host checks root's own
	fmt.Println("held")
}
