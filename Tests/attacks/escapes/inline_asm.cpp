// attack: issue mount, unshare, setns, ptrace and bpf with a raw syscall instruction, bypassing libc wrappers
// expect: status in [ok]; stdout lacks "SUCCEEDED"; stdout contains "done"
#include <cstdio>

static long raw(long number, long a = 0, long b = 0, long c = 0, long d = 0) {
  long result;
  register long r10 __asm__("r10") = d;
  __asm__ volatile("syscall" : "=a"(result) : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
  return result;
}

int main() {
  struct { const char *name; long result; } calls[] = {
      {"unshare(NEWUSER)", raw(272, 0x10000000)},
      {"unshare(NEWNS)", raw(272, 0x00020000)},
      {"mount", raw(165, (long)"none", (long)"/tmp", (long)"tmpfs", 0)},
      {"setns", raw(308, 0, 0)},
      {"ptrace(ATTACH,1)", raw(101, 16, 1)},
      {"bpf", raw(321, 0, 0, 0)},
      {"chroot", raw(161, (long)"/tmp")},
      {"setuid(0)", raw(105, 0)},
      {"io_uring_setup", raw(425, 1, 0)},
  };
  for (auto &call : calls) std::printf("%-18s %s (%ld)\n", call.name, call.result >= 0 ? "SUCCEEDED" : "failed", call.result);
  std::puts("done");
}
