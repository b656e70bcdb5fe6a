// attack: outlive the box from Go: a child in its own session (Setsid) and process group that the parent never waits for
// expect: status in [ok]; stdout contains "alive in box"
// survivors: atksv-go
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

func main() {
	child := exec.Command("/bin/sh", "-c", "trap '' TERM HUP INT; sleep 60; : atksv-go")
	child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := child.Start(); err != nil {
		fmt.Println("start:", err)
		return
	}
	child.Process.Release()
	time.Sleep(300 * time.Millisecond)
	entries, _ := os.ReadDir("/proc")
	for _, entry := range entries {
		data, err := os.ReadFile("/proc/" + entry.Name() + "/cmdline")
		if err == nil && strings.Contains(string(data), "atksv-go") {
			fmt.Println("alive in box as pid", entry.Name())
		}
	}
}
