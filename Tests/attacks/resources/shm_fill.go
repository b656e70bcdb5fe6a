// attack: fill /dev/shm and /tmp through memory-mapped files (tmpfs pages written by stores, not by write(2))
// expect: status in [ok, runtime_error, memory_limit]; stdout contains "mapped"; stdout lacks "filled 1500 MiB"
package main

import (
	"fmt"
	"os"
	"syscall"
)

func main() {
	for _, directory := range []string{"/dev/shm", "/tmp"} {
		filled := 0
		// Files just under RLIMIT_FSIZE, each sized with ftruncate and then touched page by page through
		// a shared mapping; when the tmpfs is full the store faults (SIGBUS, a Go panic).
		for i := 0; i < 100; i++ {
			file, err := os.Create(fmt.Sprintf("%s/fill%d", directory, i))
			if err != nil {
				fmt.Println(directory, err)
				break
			}
			if err := file.Truncate(15 << 20); err != nil {
				fmt.Println(directory, "truncate:", err)
				break
			}
			data, err := syscall.Mmap(int(file.Fd()), 0, 15<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
			if err != nil {
				fmt.Println(directory, "mmap:", err)
				break
			}
			if i == 0 {
				fmt.Println(directory, "mapped")
			}
			for offset := 0; offset < len(data); offset += 4096 {
				data[offset] = 1
			}
			filled += 15
		}
		fmt.Println(directory, "filled", filled, "MiB")
	}
}
