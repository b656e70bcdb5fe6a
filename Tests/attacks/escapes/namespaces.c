// attack: build a nested sandbox of our own: unshare, setns, clone with each namespace flag, mount, pivot_root, chroot
// expect: status in [ok]; stdout lacks "SUCCEEDED"; stdout contains "done"
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void report(const char *name, long result) {
  printf("%-26s %s %s\n", name, result >= 0 ? "SUCCEEDED" : "failed", result >= 0 ? "" : strerror(errno));
}

int main(void) {
  static const struct { const char *name; int flag; } flags[] = {
      {"user", CLONE_NEWUSER}, {"mount", CLONE_NEWNS}, {"pid", CLONE_NEWPID}, {"net", CLONE_NEWNET},
      {"uts", CLONE_NEWUTS}, {"ipc", CLONE_NEWIPC}, {"cgroup", CLONE_NEWCGROUP}, {"time", 0x80}};
  char name[64];
  for (unsigned i = 0; i < sizeof flags / sizeof flags[0]; i++) {
    snprintf(name, sizeof name, "unshare %s", flags[i].name);
    report(name, unshare(flags[i].flag));
    snprintf(name, sizeof name, "clone %s", flags[i].name);
    long child = syscall(SYS_clone, flags[i].flag | SIGCHLD, 0, 0, 0, 0);
    if (child == 0) _exit(0);
    if (child > 0) waitpid((pid_t)child, 0, 0);
    report(name, child);
  }
  // clone3 hides its flags from seccomp in memory: the policy must refuse it outright.
  unsigned long long args[11] = {0};
  args[0] = CLONE_NEWUSER;
  args[4] = SIGCHLD;
  long child = syscall(435, args, sizeof args);
  if (child == 0) _exit(0);
  report("clone3 newuser", child);
  int ns = open("/proc/1/ns/mnt", O_RDONLY);
  report("setns /proc/1/ns/mnt", ns >= 0 ? setns(ns, 0) : -1);
  report("mount tmpfs", mount("none", "/tmp", "tmpfs", 0, 0));
  report("mount proc", mount("proc", "/box", "proc", 0, 0));
  report("remount / rw", mount(0, "/", 0, MS_REMOUNT, 0));
  report("umount /proc", umount2("/proc", MNT_DETACH));
  report("pivot_root", syscall(SYS_pivot_root, "/tmp", "/tmp"));
  report("chroot", chroot("/tmp"));
  report("open_tree", syscall(428, -100, "/", 1));
  report("fsopen", syscall(430, "tmpfs", 0));
  report("mknod", syscall(SYS_mknodat, -100, "/box/null", 0020666, 0x103));
  puts("done");
  return 0;
}
