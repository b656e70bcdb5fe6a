// attack: flood stdout from Go with one huge write, then from many goroutines
// limits: output_kb=64
// expect: status in [output_limit]; stdout_truncated == true; elapsed_s < 15
package main

import (
	"bytes"
	"os"
)

func main() {
	block := bytes.Repeat([]byte("G"), 64<<20)
	os.Stdout.Write(block)
	for i := 0; i < 8; i++ {
		go func() {
			for {
				os.Stdout.Write(block[:1<<16])
			}
		}()
	}
	select {}
}
