// attack: find other boxes' files: leave markers in /tmp and /dev/shm, wait while other attacks run, then look for anyone else's (here from Go)
// limits: wall_ms=8000
// expect: status in [ok]; stdout contains "own entries only"; stdout lacks "FOREIGN"
package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

func main() {
	os.WriteFile("/tmp/atk-marker-go", []byte("box secret\n"), 0o644)
	os.WriteFile("/dev/shm/sem.atk-marker-go", []byte("box secret\n"), 0o644)
	time.Sleep(2 * time.Second)
	foreign := 0
	for _, directory := range []string{"/tmp", "/dev/shm", "/box"} {
		entries, _ := os.ReadDir(directory)
		for _, entry := range entries {
			name := entry.Name()
			if !strings.Contains(name, "atk-marker-go") && !strings.HasSuffix(name, ".go") && name != "main" {
				fmt.Println("FOREIGN", directory, name)
				foreign++
			}
		}
	}
	if foreign == 0 {
		fmt.Println("own entries only")
	}
}
