// attack: spin in 64 goroutines with GOMAXPROCS raised, plus forked children spinning too
// limits: cpu_ms=2000 wall_ms=10000
// expect: status in [time_limit]; elapsed_s < 9; cpu_ms >= 1500; cpu_ms < 5000
package main

import "runtime"

func main() {
	runtime.GOMAXPROCS(64)
	for i := 0; i < 64; i++ {
		go func() {
			x := 0
			for {
				x++
			}
		}()
	}
	select {}
}
