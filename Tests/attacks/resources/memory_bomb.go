// attack: allocate and touch memory forever in Go, past GOMEMLIMIT
// limits: memory_mb=128
// expect: status in [memory_limit]; elapsed_s < 15
package main

func main() {
	var held [][]byte
	for {
		block := make([]byte, 8<<20)
		for i := range block {
			block[i] = 1
		}
		held = append(held, block)
	}
}
