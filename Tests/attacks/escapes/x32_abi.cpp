// attack: make system calls through the x32 ABI (number | 0x40000000) with a raw syscall instruction, which some filters forget
// expect: status in [forbidden]; stdout lacks "ESCAPED"
#include <cstdio>

int main() {
  long result;
  long number = 0x40000000L | 272;  // x32 unshare
  __asm__ volatile("syscall" : "=a"(result) : "a"(number), "D"(0x10000000L) : "rcx", "r11", "memory");
  std::printf("ESCAPED %ld\n", result);
}
