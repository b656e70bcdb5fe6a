// System call shims (parent side): calls the Swift side cannot make through Glibc's module (GNU-only
// functions, system calls without a wrapper, RLIMIT_* numbers behind __USE_MISC), each as thin as
// the kernel's own answer allows, and a warm box's scratch roots given their fresh state.
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

int dsa_get_rlimit(pid_t pid, int resource, uint64_t *soft, uint64_t *hard) {
  struct rlimit64 value;
  if (syscall(SYS_prlimit64, pid, resource, NULL, &value) != 0) return errno;
  *soft = value.rlim_cur;
  *hard = value.rlim_max;
  return 0;
}

int dsa_reset_directory_root(int fd, uint32_t owner, uint32_t mode) {
  if (fchown(fd, owner, owner) != 0 || fchmod(fd, mode) != 0) return errno;
  char names[4096];
  ssize_t length = flistxattr(fd, names, sizeof names);
  if (length < 0 && errno != ENOTSUP) return errno;
  for (ssize_t offset = 0; offset < length; offset += (ssize_t)strlen(names + offset) + 1) {
    if (fremovexattr(fd, names + offset) != 0) return errno;
  }
  const struct timespec now[2] = {{.tv_nsec = UTIME_NOW}, {.tv_nsec = UTIME_NOW}};
  if (futimens(fd, now) != 0) return errno;
  return 0;
}

const int dsa_rlimit_nproc = RLIMIT_NPROC;
const int dsa_rlimit_memlock = RLIMIT_MEMLOCK;
const int dsa_rlimit_msgqueue = RLIMIT_MSGQUEUE;
const int dsa_rlimit_sigpending = RLIMIT_SIGPENDING;
