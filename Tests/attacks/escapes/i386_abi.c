// attack: call setuid(0) and unshare through the i386 ABI (int 0x80) from a 64-bit process, around the x86_64 filter
// expect: status in [forbidden]; stdout lacks "ESCAPED"
#include <stdio.h>

int main(void) {
  long result;
  /* i386 unshare is 310; int 0x80 takes 32-bit numbers and arguments. */
  __asm__ volatile("int $0x80" : "=a"(result) : "a"(310L), "b"(0x10000000L) : "memory");
  printf("ESCAPED unshare %ld\n", result);
  __asm__ volatile("int $0x80" : "=a"(result) : "a"(213L), "b"(0L) : "memory");
  printf("ESCAPED setuid %ld\n", result);
  return 0;
}
