// attack: switch persona (READ_IMPLIES_EXEC, ADDR_NO_RANDOMIZE, PER_LINUX32, MMAP_PAGE_ZERO) to weaken the process before exec
// expect: status in [forbidden]; stdout lacks "SUCCEEDED"; stdout contains "current persona 0"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>

int main(void) {
  printf("current persona %#x\n", personality(0xffffffff));
  fflush(stdout);
  static const struct { const char *name; unsigned long persona; } personas[] = {
      {"READ_IMPLIES_EXEC", READ_IMPLIES_EXEC}, {"ADDR_NO_RANDOMIZE", ADDR_NO_RANDOMIZE},
      {"MMAP_PAGE_ZERO", MMAP_PAGE_ZERO}, {"PER_LINUX32", PER_LINUX32}, {"ADDR_COMPAT_LAYOUT", ADDR_COMPAT_LAYOUT}};
  for (unsigned i = 0; i < sizeof personas / sizeof personas[0]; i++) {
    int before = personality(0xffffffff);
    personality(personas[i].persona);
    int after = personality(0xffffffff);
    printf("%s %s\n", personas[i].name, after != before ? "SUCCEEDED" : "unchanged");
    fflush(stdout);
  }
  return 0;
}
