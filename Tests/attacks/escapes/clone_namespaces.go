// attack: start a child in fresh user, mount, pid and network namespaces through os/exec's SysProcAttr (clone with namespace flags)
// expect: status in [ok]; stdout lacks "SUCCEEDED"; stdout contains "done"
package main

import (
	"fmt"
	"os/exec"
	"syscall"
)

func main() {
	attempts := []struct {
		name  string
		attrs *syscall.SysProcAttr
	}{
		{"user+mount+pid+net", &syscall.SysProcAttr{
			Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWNET,
			UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: 1000, Size: 1}},
			GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: 1000, Size: 1}},
		}},
		{"mount only", &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS}},
		{"unshare net", &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNET}},
		{"chroot", &syscall.SysProcAttr{Chroot: "/tmp"}},
		{"setuid 0", &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 0, Gid: 0}}},
	}
	for _, attempt := range attempts {
		command := exec.Command("/usr/bin/id")
		command.SysProcAttr = attempt.attrs
		output, err := command.CombinedOutput()
		if err == nil {
			fmt.Printf("%s SUCCEEDED: %s", attempt.name, output)
		} else {
			fmt.Println(attempt.name, "refused:", err)
		}
	}
	fmt.Println("done")
}
