// attack: fork bomb in Go: every process re-executes itself twice, forever
// limits: cpu_ms=2000 wall_ms=4000
// expect: status in [ok, runtime_error, time_limit, memory_limit]; elapsed_s < 20
// survivors: atkbomb-go
package main

import (
	"os/exec"
	"sync"
)

func main() {
	var group sync.WaitGroup
	for i := 0; i < 2; i++ {
		group.Add(1)
		go func() {
			defer group.Done()
			for {
				child := &exec.Cmd{Path: "/proc/self/exe", Args: []string{"atkbomb-go"}}
				child.Run()
			}
		}()
	}
	group.Wait()
}
