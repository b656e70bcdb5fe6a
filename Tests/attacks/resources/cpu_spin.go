// attack: spin in 48 goroutines with GOMAXPROCS raised to 48, so that 48 threads burn CPU at once
// limits: cpu_ms=2000 wall_ms=10000
// expect: status in [time_limit]; elapsed_s < 9; cpu_ms >= 1500; cpu_ms < 5000
package main

import "runtime"

// 48, not 64: with the runtime's own threads, 64 spinning ones pass the box's 64 processes, and
// whether the runtime's failed thread creation (runtime_error) or the CPU limit (time_limit) came
// first was a race, lost once in a loaded corpus run.
const spinners = 48

func main() {
	runtime.GOMAXPROCS(spinners)
	for i := 0; i < spinners; i++ {
		go func() {
			x := 0
			for {
				x++
			}
		}()
	}
	select {}
}
