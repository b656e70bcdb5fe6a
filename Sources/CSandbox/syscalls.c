// System call shims (parent side): calls the Swift side cannot make through Glibc's module (GNU-only
// functions, system calls without a wrapper, RLIMIT_* numbers behind __USE_MISC), each as thin as
// the kernel's own answer allows, and a warm box's scratch roots given their fresh state.
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <linux/ioctl.h>
#include <linux/seccomp.h>
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

int dsa_pidfd_send_signal(int pidfd, int signal) {
  return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
}

int dsa_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int dsa_open_beneath(int directory_fd, const char *path, int flags, uint32_t mode) {
  struct open_how how;
  memset(&how, 0, sizeof how);
  how.flags = (uint64_t)(flags | O_CLOEXEC | O_NOFOLLOW);
  how.mode = (flags & O_CREAT) ? mode : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
  long fd;
  do {
    fd = syscall(SYS_openat2, directory_fd, path, &how, sizeof how);
  } while (fd < 0 && (errno == EINTR || errno == EAGAIN));
  return fd < 0 ? -errno : (int)fd;
}

int dsa_open_existing_beneath(int directory_fd, const char *path, int flags, int symlinks_within) {
  struct open_how how;
  memset(&how, 0, sizeof how);
  how.flags = (uint64_t)(flags | O_CLOEXEC);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  if (!symlinks_within) {
    how.flags |= O_NOFOLLOW;
    how.resolve |= RESOLVE_NO_SYMLINKS;
  }
  long fd;
  do {
    fd = syscall(SYS_openat2, directory_fd, path, &how, sizeof how);
  } while (fd < 0 && (errno == EINTR || errno == EAGAIN));
  return fd < 0 ? -errno : (int)fd;
}

int dsa_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int dsa_memfd(const char *name) { return (int)syscall(SYS_memfd_create, name, 1U /* MFD_CLOEXEC */); }

ssize_t dsa_extended_attribute_bytes(int fd) {
  ssize_t size = flistxattr(fd, NULL, 0);
  return size < 0 ? -errno : size;
}

// The number after `key` (" used ", " tw ") on the line that starts with `line`; -1 if none.
static long sockstat_number(const char *text, const char *line, const char *key) {
  size_t line_length = strlen(line);
  for (const char *start = text; *start; ) {
    const char *end = strchr(start, '\n');
    if (end == NULL) end = start + strlen(start);
    if ((size_t)(end - start) >= line_length && memcmp(start, line, line_length) == 0) {
      const char *found = memmem(start, (size_t)(end - start), key, strlen(key));
      if (found == NULL) return -1;
      const char *digit = found + strlen(key);
      if (*digit < '0' || *digit > '9') return -1;
      long value = 0;
      for (; digit < end && *digit >= '0' && *digit <= '9'; digit++) value = value * 10 + (*digit - '0');
      return value;
    }
    start = *end ? end + 1 : end;
  }
  return -1;
}

// Reads a small seq file (/proc) from its start into `text` (NUL-terminated): the length, or -1
// with errno. A seq file fills a read as far as it has text, so a short read is its end: one call
// for the files read here, through descriptors kept open from reset to reset.
static ssize_t read_seq_file(int fd, char *text, size_t capacity) {
  size_t total = 0;
  while (total < capacity - 1) {
    size_t wanted = capacity - 1 - total;
    ssize_t count = pread(fd, text + total, wanted, (off_t)total);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return -1;
    total += (size_t)count;
    if ((size_t)count < wanted) break;
  }
  text[total] = 0;
  return (ssize_t)total;
}

long dsa_socket_count_in(int fd) {
  char text[2048];
  if (read_seq_file(fd, text, sizeof text) < 0) return -1;
  long used = sockstat_number(text, "sockets:", " used ");
  long time_wait = sockstat_number(text, "TCP:", " tw ");
  return used < 0 || time_wait < 0 ? -1 : used + time_wait;
}

int dsa_open_socket_count(pid_t pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/net/sockstat", (int)pid);
  return open(path, O_RDONLY | O_CLOEXEC);
}

long dsa_socket_count(pid_t pid) {
  int fd = dsa_open_socket_count(pid);
  if (fd < 0) return -1;
  long count = dsa_socket_count_in(fd);
  close(fd);
  return count;
}

int dsa_reset_directory_root(int fd, uint32_t owner, uint32_t mode) {
  if (fchown(fd, owner, owner) != 0 || fchmod(fd, mode) != 0) return errno;
  char names[4096];
  ssize_t length = flistxattr(fd, names, sizeof names);
  if (length < 0 && errno != ENOTSUP) return errno;
  for (ssize_t offset = 0; offset < length; offset += (ssize_t)strlen(names + offset) + 1) {
    if (fremovexattr(fd, names + offset) != 0) return errno;
  }
  return dsa_reset_directory_times(fd);
}

int dsa_reset_directory_times(int fd) {
  const struct timespec now[2] = {{.tv_nsec = UTIME_NOW}, {.tv_nsec = UTIME_NOW}};
  return futimens(fd, now) != 0 ? errno : 0;
}

int dsa_open_limits(pid_t pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/limits", (int)pid);
  return open(path, O_RDONLY | O_CLOEXEC);
}

// A column of /proc/<pid>/limits: "unlimited" or a decimal number; -1 when it is neither.
static int limit_value(const char *text, uint64_t *value) {
  if (strncmp(text, "unlimited", 9) == 0) {
    *value = UINT64_MAX;
    return 0;
  }
  if (*text < '0' || *text > '9') return -1;
  char *end;
  errno = 0;
  unsigned long long number = strtoull(text, &end, 10);
  if (errno != 0 || (*end != ' ' && *end != '\n' && *end != 0)) return -1;
  *value = number;
  return 0;
}

int dsa_read_limits_in(int fd, uint64_t values[32]) {
  char text[4096];
  if (read_seq_file(fd, text, sizeof text) < 0) return errno;
  // A header line, then one line per limit: the name in 25 columns, a space, the soft limit in
  // 20, a space, the hard limit (fs/proc/base.c, proc_pid_limits).
  const char *line = strchr(text, '\n');
  for (int resource = 0; resource < 16; resource++) {
    if (line == NULL) return EPROTO;
    line++;
    const char *end = strchr(line, '\n');
    if (end == NULL || end - line < 47) return EPROTO;
    if (limit_value(line + 26, &values[2 * resource]) != 0 || limit_value(line + 47, &values[2 * resource + 1]) != 0)
      return EPROTO;
    line = end;
  }
  return 0;
}

const int dsa_rlimit_nproc = RLIMIT_NPROC;
const int dsa_rlimit_memlock = RLIMIT_MEMLOCK;
const int dsa_rlimit_msgqueue = RLIMIT_MSGQUEUE;
const int dsa_rlimit_sigpending = RLIMIT_SIGPENDING;
const uint32_t dsa_clone_newipc = CLONE_NEWIPC;
const uint32_t dsa_seccomp_ioctl_receive = SECCOMP_IOCTL_NOTIF_RECV;
const uint32_t dsa_seccomp_ioctl_send = SECCOMP_IOCTL_NOTIF_SEND;

int dsa_release_free_heap(void) { return malloc_trim(0); }

long dsa_file_system_type(const char *path) {
  struct statfs info;
  if (statfs(path, &info) != 0) return -1;
  return (long)info.f_type;
}
