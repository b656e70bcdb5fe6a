// attack: block forever on a channel in Go (the runtime sleeps; no CPU)
// limits: wall_ms=2000
// expect: status in [time_limit]; elapsed_s < 8
package main

import "time"

func main() {
	go func() { time.Sleep(time.Hour) }()
	<-make(chan int)
}
