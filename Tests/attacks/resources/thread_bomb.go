// attack: thread bomb in Go: goroutines pinned to OS threads, each blocked in a raw sleep, until the runtime dies
// limits: cpu_ms=2000 wall_ms=5000
// expect: status in [ok, runtime_error, time_limit, memory_limit, output_limit]; elapsed_s < 20
package main

import (
	"fmt"
	"runtime"
	"syscall"
	"time"
)

func main() {
	for i := 0; i < 10000; i++ {
		go func() {
			runtime.LockOSThread()
			request := syscall.Timespec{Sec: 60}
			syscall.Nanosleep(&request, nil)
		}()
		if i%100 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	fmt.Println("threads 10000")
	time.Sleep(60 * time.Second)
}
