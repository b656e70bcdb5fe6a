// attack: run the C toolchain from go build through cgo, with a preamble that #includes /etc/shadow
// expect: status in [compile_error]; output lacks "root:"
package main

// #include "/etc/shadow"
import "C"

func main() {}
