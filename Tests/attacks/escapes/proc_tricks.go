// attack: leave the box through /proc: /proc/1/root, /proc/*/cwd and /proc/*/root magic links, and the program's own descriptors
// expect: status in [ok]; stdout contains "done"; stdout lacks "HOST"; stdout lacks "EXTRA_FD"
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

var hostOnly = []string{"etc/shadow", "root", "home", "var", "sys/kernel", "run", "etc/machine-id", "boot"}

func probe(base string) {
	for _, name := range hostOnly {
		if _, err := os.Lstat(filepath.Join(base, name)); err == nil {
			fmt.Println("HOST", base+"/"+name)
		}
	}
	if data, err := os.ReadFile(base + "/etc/shadow"); err == nil {
		fmt.Println("HOST read shadow", len(data))
	}
}

func main() {
	probe("/proc/1/root")
	entries, _ := os.ReadDir("/proc")
	for _, entry := range entries {
		if _, err := strconv.Atoi(entry.Name()); err != nil {
			continue
		}
		for _, link := range []string{"root", "cwd"} {
			base := "/proc/" + entry.Name() + "/" + link
			probe(base)
			probe(base + "/../../../..")
		}
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		number, _ := strconv.Atoi(fd.Name())
		target, err := os.Readlink("/proc/self/fd/" + fd.Name())
		if err != nil {
			continue // the directory listing's own descriptor, closed by now
		}
		// Go's runtime holds an epoll descriptor and the directory being read; anything else is a leak.
		if number > 2 && !strings.HasPrefix(target, "anon_inode:") && target != "/proc/self/fd" &&
			!strings.HasPrefix(target, "/proc/") && !strings.HasPrefix(target, "pipe:") {
			fmt.Println("EXTRA_FD", number, target)
		}
	}
	fmt.Println("done")
}
