// attack: ptrace the box's init (pid 1) and itself, read another process's memory with process_vm_readv and /proc/1/mem
// expect: status in [ok]; stdout lacks "SUCCEEDED"; stdout contains "done"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static void report(const char *name, long result) {
  printf("%s %s (%s)\n", name, result >= 0 ? "SUCCEEDED" : "failed", result >= 0 ? "" : strerror(errno));
}

int main(void) {
  report("ptrace attach 1", ptrace(PTRACE_ATTACH, 1, 0, 0));
  report("ptrace seize 1", ptrace(PTRACE_SEIZE, 1, 0, 0));
  report("ptrace traceme", ptrace(PTRACE_TRACEME, 0, 0, 0));
  char buffer[64];
  struct iovec local = {buffer, sizeof buffer}, remote = {(void *)0x400000, sizeof buffer};
  report("process_vm_readv 1", syscall(SYS_process_vm_readv, 1, &local, 1, &remote, 1, 0));
  int mem = open("/proc/1/mem", O_RDONLY);
  report("open /proc/1/mem", mem);
  report("kcmp", syscall(SYS_kcmp, 1, getpid(), 0, 0, 0));
  report("pidfd_getfd", syscall(SYS_pidfd_getfd, 0, 0, 0));
  puts("done");
  return 0;
}
