// attack: leave a 600 MiB SysV shared memory segment and a full message queue behind through raw system calls, charged to the idle warm box
// limits: memory_mb=1024
// expect: status in [ok]; stdout contains "left"
// follow-up: status in [ok]; stdout contains "clean"
package main

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

const key = 0x5EED0003

func main() {
	if len(os.Args) > 1 && os.Args[1] == "follow-up" {
		shm, _, _ := syscall.Syscall(syscall.SYS_SHMGET, key, 0, 0)
		msg, _, _ := syscall.Syscall(syscall.SYS_MSGGET, key, 0, 0)
		if int(shm) == -1 && int(msg) == -1 {
			fmt.Println("clean")
		} else {
			fmt.Println("LEFT shm", int(shm), "msg", int(msg))
		}
		return
	}
	size := uintptr(600 << 20)
	id, _, err := syscall.Syscall(syscall.SYS_SHMGET, key, size, 0o1666)
	if int(id) == -1 {
		fmt.Println("shmget:", err)
		os.Exit(1)
	}
	address, _, err := syscall.Syscall(syscall.SYS_SHMAT, id, 0, 0)
	if int(address) == -1 {
		fmt.Println("shmat:", err)
		os.Exit(1)
	}
	memory := unsafe.Slice((*byte)(unsafe.Pointer(address)), size)
	for i := range memory {
		if i%4096 == 0 {
			memory[i] = 1
		}
	}
	syscall.Syscall(syscall.SYS_SHMDT, address, 0, 0)
	queue, _, _ := syscall.Syscall(syscall.SYS_MSGGET, key, 0o1666, 0)
	message := make([]byte, 8+4000)
	message[0] = 1
	for {
		sent, _, _ := syscall.Syscall6(syscall.SYS_MSGSND, queue, uintptr(unsafe.Pointer(&message[0])), 4000, 0o4000, 0, 0)
		if int(sent) == -1 {
			break
		}
	}
	fmt.Println("left")
}
