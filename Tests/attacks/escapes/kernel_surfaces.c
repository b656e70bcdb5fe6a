// attack: reach the kernel's big attack surfaces: io_uring, bpf, perf_event_open, keyctl, add_key, userfaultfd, fanotify, modules, kexec, iopl
// expect: status in [ok]; stdout lacks "SUCCEEDED"; stdout contains "done"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void report(const char *name, long result) {
  printf("%-18s %s %s\n", name, result >= 0 ? "SUCCEEDED" : "failed", result >= 0 ? "" : strerror(errno));
}

int main(void) {
  char params[120] = {0};
  report("io_uring_setup", syscall(425, 8, params));
  report("io_uring_enter", syscall(426, 0, 1, 0, 0, 0, 0));
  report("io_uring_register", syscall(427, 0, 0, 0, 0));
  char attributes[128] = {0};
  attributes[0] = 1;  /* BPF_PROG_TYPE_SOCKET_FILTER */
  report("bpf prog_load", syscall(SYS_bpf, 5, attributes, sizeof attributes));
  report("bpf map_create", syscall(SYS_bpf, 0, attributes, sizeof attributes));
  char perf[128] = {0};
  report("perf_event_open", syscall(SYS_perf_event_open, perf, 0, -1, -1, 0));
  report("keyctl", syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3, 0));
  report("add_key", syscall(SYS_add_key, "user", "atk", "x", 1, -3));
  report("request_key", syscall(SYS_request_key, "user", "atk", 0, 0));
  report("userfaultfd", syscall(SYS_userfaultfd, 0));
  report("fanotify_init", syscall(SYS_fanotify_init, 0, 0));
  report("init_module", syscall(SYS_init_module, 0, 0, ""));
  report("finit_module", syscall(SYS_finit_module, 0, "", 0));
  report("kexec_load", syscall(SYS_kexec_load, 0, 0, 0, 0));
  report("iopl", syscall(SYS_iopl, 3));
  report("ioperm", syscall(SYS_ioperm, 0x3f8, 8, 1));
  report("syslog", syscall(SYS_syslog, 3, attributes, sizeof attributes));
  report("sethostname", syscall(SYS_sethostname, "pwned", 5));
  report("settimeofday", syscall(SYS_settimeofday, 0, 0));
  report("reboot", syscall(SYS_reboot, 0xfee1dead, 672274793, 0x4321fedc, 0));
  puts("done");
  return 0;
}
