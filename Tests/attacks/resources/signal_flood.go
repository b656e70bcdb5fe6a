// attack: exhaust the queued-signal quota from Go with POSIX timers (each preallocates a queued signal; charged to root, that made root's timer_create and sigqueue fail with EAGAIN)
// expect: status in [ok]; stdout matches "timers ([0-9]{1,3}|10[01][0-9]|102[0-4]) "; stdout contains "held"
// during: root_quota
package main

import (
	"fmt"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	const clockMonotonic = 1
	timers := 0
	var failure syscall.Errno
	for timers < 200000 {
		var id int32
		_, _, errno := syscall.RawSyscall(syscall.SYS_TIMER_CREATE, clockMonotonic, 0, uintptr(unsafe.Pointer(&id)))
		if errno != 0 {
			failure = errno
			break
		}
		timers++
	}
	fmt.Printf("timers %d (%v)\n", timers, failure)
	time.Sleep(2 * time.Second) // hold them while the host checks root's own
	fmt.Println("held")
}
