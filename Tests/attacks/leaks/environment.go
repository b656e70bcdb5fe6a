// attack: read the host's environment from Go: os.Environ, the auxiliary vector and /proc/*/environ
// expect: status in [ok]; stdout contains "LANG="; stdout lacks "DSA_ATTACK_HOST_SECRET"; stdout lacks "DSA_RUN_DATA"; stdout lacks "HOME=/root"
package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	fmt.Println(strings.Join(os.Environ(), "\n"))
	for _, pid := range []string{"self", "1"} {
		data, err := os.ReadFile("/proc/" + pid + "/environ")
		fmt.Println(pid, strings.ReplaceAll(string(data), "\x00", " "), err)
	}
}
