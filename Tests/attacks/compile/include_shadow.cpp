// attack: make the compiler read a host secret: #include "/etc/shadow" (a compiler outside the box would print its lines in the errors)
// expect: status in [compile_error]; output contains "/etc/shadow"; output lacks "root:"
#include "/etc/shadow"

int main() {}
