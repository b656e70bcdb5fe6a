// attack: crash with a core dump after lowering RLIMIT_CORE to 0 (a pipe core_pattern such as systemd-coredump or apport still runs at 0, on the host, as root) or raising it
// expect: status in [runtime_error]; signal == SIGSEGV; stdout contains "core 1 1"; stdout contains "to 0 refused"; stdout contains "to unlimited refused"
#include <stdio.h>
#include <sys/resource.h>

int main(void) {
  struct rlimit limit;
  getrlimit(RLIMIT_CORE, &limit);
  printf("core %lu %lu\n", (unsigned long)limit.rlim_cur, (unsigned long)limit.rlim_max);
  struct rlimit zero = {0, 0}, unlimited = {RLIM_INFINITY, RLIM_INFINITY};
  printf("to 0 %s\n", setrlimit(RLIMIT_CORE, &zero) == 0 ? "CHANGED" : "refused");
  printf("to unlimited %s\n", setrlimit(RLIMIT_CORE, &unlimited) == 0 ? "CHANGED" : "refused");
  fflush(stdout);
  volatile int *nowhere = (int *)0;
  *nowhere = 1;
  return 0;
}
