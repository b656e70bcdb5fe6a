// attack: raw system calls from Go (syscall.RawSyscall): unshare, mount, setns, ptrace, bpf, keyctl, io_uring, chroot, setuid
// expect: status in [ok]; stdout lacks "SUCCEEDED"; stdout contains "done"
package main

import (
	"fmt"
	"syscall"
	"unsafe"
)

func main() {
	tmpfs, _ := syscall.BytePtrFromString("tmpfs")
	target, _ := syscall.BytePtrFromString("/tmp")
	params := make([]byte, 120)
	calls := []struct {
		name   string
		number uintptr
		args   [3]uintptr
	}{
		{"unshare(NEWUSER)", syscall.SYS_UNSHARE, [3]uintptr{syscall.CLONE_NEWUSER}},
		{"unshare(NEWNET)", syscall.SYS_UNSHARE, [3]uintptr{syscall.CLONE_NEWNET}},
		{"mount", syscall.SYS_MOUNT, [3]uintptr{uintptr(unsafe.Pointer(tmpfs)), uintptr(unsafe.Pointer(target)), uintptr(unsafe.Pointer(tmpfs))}},
		{"setns", 308, [3]uintptr{0, 0}},
		{"ptrace(ATTACH,1)", syscall.SYS_PTRACE, [3]uintptr{syscall.PTRACE_ATTACH, 1}},
		{"bpf", 321, [3]uintptr{0, 0, 0}},
		{"keyctl", syscall.SYS_KEYCTL, [3]uintptr{0, ^uintptr(2), 0}},
		{"io_uring_setup", 425, [3]uintptr{1, uintptr(unsafe.Pointer(&params[0]))}},
		{"chroot", syscall.SYS_CHROOT, [3]uintptr{uintptr(unsafe.Pointer(target))}},
		{"setuid(0)", syscall.SYS_SETUID, [3]uintptr{0}},
	}
	for _, call := range calls {
		result, _, errno := syscall.RawSyscall(call.number, call.args[0], call.args[1], call.args[2])
		if errno == 0 {
			fmt.Println(call.name, "SUCCEEDED", result)
		} else {
			fmt.Println(call.name, "refused:", errno)
		}
	}
	fmt.Println("done")
}
