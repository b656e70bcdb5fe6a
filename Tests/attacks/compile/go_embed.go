// attack: //go:embed a host file (/etc/shadow) into the binary at build time
// expect: status in [compile_error]; output lacks "root:"
package main

import (
	_ "embed"
	"fmt"
)

//go:embed /etc/shadow
var shadow string

func main() {
	fmt.Println(shadow)
}
