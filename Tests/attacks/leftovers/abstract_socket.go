// attack: keep an abstract Unix socket alive after every process is gone (sent in flight to itself with SCM_RIGHTS), as a covert channel to the next run in this warm box
// expect: status in [ok]; stdout contains "in flight"
// follow-up: status in [ok]; stdout contains "clean"
package main

import (
	"fmt"
	"os"
	"syscall"
)

func main() {
	address := &syscall.SockaddrUnix{Name: "@dsa-attack-covert-go"}
	if len(os.Args) > 1 && os.Args[1] == "follow-up" {
		client, _ := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if syscall.Connect(client, address) == nil {
			fmt.Println("LEFT: connected to the last run")
		} else {
			fmt.Println("clean")
		}
		return
	}
	listener, _ := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err := syscall.Bind(listener, address); err != nil {
		fmt.Println("bind:", err)
		os.Exit(1)
	}
	syscall.Listen(listener, 8)
	pair, _ := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_DGRAM, 0)
	rights := syscall.UnixRights(pair[0], listener)
	if err := syscall.Sendmsg(pair[1], []byte("x"), rights, nil, 0); err != nil {
		fmt.Println("sendmsg:", err)
		os.Exit(1)
	}
	syscall.Close(pair[1])
	syscall.Close(listener)
	syscall.Close(pair[0])
	fmt.Println("in flight")
}
