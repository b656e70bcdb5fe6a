// Mounts: the box's file system (child side: the init's set-up, inside the box's mount namespace,
// after the go byte), and the CLI's own mount namespace (parent side, at its start).
//
// The init executes the mount plan the parent prepared (Mounts.swift): every target is a
// host-side path under the new root, every string already in memory. Then pivot_root into it.
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// Init side

// mkdir -p in place: the deepest missing directory first, then back down.
// Every target lies under the box's root, whose own components exist, so
// most targets take one mkdir instead of one per component of the whole path
// (a box's plan made about 100 of them, each a path walk under the parent's
// inode lock).
static int make_directories_in(char *path, mode_t mode) {
  if (mkdir(path, mode) == 0 || errno == EEXIST) return 0;
  if (errno != ENOENT) return -1;
  char *slash = strrchr(path, '/');
  if (slash == NULL || slash == path) return -1;
  *slash = '\0';
  int made = make_directories_in(path, mode);
  *slash = '/';
  if (made != 0) return -1;
  return mkdir(path, mode) == 0 || errno == EEXIST ? 0 : -1;
}

// On a stack copy of the path; no allocation.
static int make_directories(const char *path, mode_t mode) {
  char buffer[4096];
  size_t length = strlen(path);
  if (length == 0 || length >= sizeof buffer) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(buffer, path, length + 1);
  // "a/b/" names "a/b": without the slash, the walk up never meets an empty component.
  while (length > 1 && buffer[length - 1] == '/') buffer[--length] = '\0';
  return make_directories_in(buffer, mode);
}

static int make_parent_directories(const char *path) {
  char buffer[4096];
  size_t length = strlen(path);
  if (length >= sizeof buffer) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(buffer, path, length + 1);
  char *slash = strrchr(buffer, '/');
  if (slash == NULL || slash == buffer) return 0;
  *slash = '\0';
  return make_directories(buffer, 0755);
}

static int create_empty_file(const char *path) {
  // An existing file (one covered inside a read-only bound directory) is its
  // own mount point.
  struct stat info;
  if (lstat(path, &info) == 0 && S_ISREG(info.st_mode)) return 0;
  if (make_parent_directories(path) != 0) return -1;
  int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0444);
  if (fd < 0) return errno == EEXIST ? 0 : -1;
  close(fd);
  return 0;
}

// Mount flags a user namespace may not clear on a bind remount ("locked"
// flags) must be carried over from the source mount, or the remount fails
// with EPERM.
static unsigned long locked_flags_of(const char *path) {
  struct statfs info;
  if (statfs(path, &info) != 0) return 0;
  unsigned long flags = 0;
  if (info.f_flags & ST_NOSUID) flags |= MS_NOSUID;
  if (info.f_flags & ST_NODEV) flags |= MS_NODEV;
  if (info.f_flags & ST_NOEXEC) flags |= MS_NOEXEC;
  if (info.f_flags & ST_NOATIME) flags |= MS_NOATIME;
  if (info.f_flags & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (info.f_flags & ST_RELATIME) flags |= MS_RELATIME;
  return flags;
}

static void bind_mount(int report_fd, int index, const char *source, const char *target,
                 unsigned long extra_flags) {
  if (mount(source, target, NULL, MS_BIND | MS_REC, NULL) != 0) dsa_child_fail(report_fd, DSA_STEP_BIND, index);
  unsigned long flags = MS_BIND | MS_REMOUNT | extra_flags | locked_flags_of(target);
  if (mount(NULL, target, NULL, flags, NULL) != 0) dsa_child_fail(report_fd, DSA_STEP_REMOUNT, index);
}

static void apply_mount(int report_fd, int index, const struct dsa_mount *entry) {
  switch (entry->kind) {
    case DSA_MOUNT_BIND_RO:
    case DSA_MOUNT_BIND_RW:
      if (make_directories(entry->target, 0755) != 0) dsa_child_fail(report_fd, DSA_STEP_MKDIR, index);
      bind_mount(report_fd, index, entry->source, entry->target,
           MS_NOSUID | MS_NODEV | (entry->kind == DSA_MOUNT_BIND_RO ? MS_RDONLY : 0));
      return;
    case DSA_MOUNT_FILE_RO:
      if (create_empty_file(entry->target) != 0) dsa_child_fail(report_fd, DSA_STEP_CREATE_FILE, index);
      bind_mount(report_fd, index, entry->source, entry->target, MS_NOSUID | MS_NODEV | MS_RDONLY);
      return;
    case DSA_MOUNT_DEVICE:
      if (create_empty_file(entry->target) != 0) dsa_child_fail(report_fd, DSA_STEP_CREATE_FILE, index);
      bind_mount(report_fd, index, entry->source, entry->target, MS_NOSUID | MS_NOEXEC);
      return;
    case DSA_MOUNT_TMPFS:
      if (make_directories(entry->target, 0755) != 0) dsa_child_fail(report_fd, DSA_STEP_MKDIR, index);
      if (mount("tmpfs", entry->target, "tmpfs", MS_NOSUID | MS_NODEV, entry->data) != 0)
        dsa_child_fail(report_fd, DSA_STEP_MOUNT_TMPFS, index);
      return;
    case DSA_MOUNT_PROC:
      if (make_directories(entry->target, 0555) != 0) dsa_child_fail(report_fd, DSA_STEP_MKDIR, index);
      if (mount("proc", entry->target, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        dsa_child_fail(report_fd, DSA_STEP_MOUNT_PROC, index);
      return;
    case DSA_MOUNT_SYMLINK:
      if (make_parent_directories(entry->target) != 0) dsa_child_fail(report_fd, DSA_STEP_MKDIR, index);
      if (symlink(entry->source, entry->target) != 0) dsa_child_fail(report_fd, DSA_STEP_SYMLINK, index);
      return;
    case DSA_MOUNT_DIRECTORY:
      if (make_directories(entry->target, 0755) != 0) dsa_child_fail(report_fd, DSA_STEP_MKDIR, index);
      return;
    case DSA_MOUNT_DEVPTS:
      if (make_directories(entry->target, 0755) != 0) dsa_child_fail(report_fd, DSA_STEP_MKDIR, index);
      if (mount("devpts", entry->target, "devpts", MS_NOSUID | MS_NOEXEC, entry->data) != 0)
        dsa_child_fail(report_fd, DSA_STEP_BIND, index);
      return;
    default:
      errno = EINVAL;
      dsa_child_fail(report_fd, DSA_STEP_MKDIR, index);
  }
}

void dsa_init_build_file_system(const struct dsa_spawn_plan *plan) {
  int report_fd = plan->program.report_fd;
  // Nothing done below may propagate back to the host.
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) dsa_child_fail(report_fd, DSA_STEP_MAKE_PRIVATE, -1);
  if (mount("tmpfs", plan->root_path, "tmpfs", MS_NOSUID | MS_NODEV, plan->root_tmpfs_options) != 0)
    dsa_child_fail(report_fd, DSA_STEP_MOUNT_ROOT, -1);
  for (int32_t i = 0; i < plan->mount_count; i++) apply_mount(report_fd, i, &plan->mounts[i]);

  // pivot_root(".", ".") stacks the old root on top of the new one; detaching
  // it leaves only the new root, with no directory to hold the old one.
  if (chdir(plan->root_path) != 0) dsa_child_fail(report_fd, DSA_STEP_PIVOT_ROOT, -1);
  if (syscall(SYS_pivot_root, ".", ".") != 0) dsa_child_fail(report_fd, DSA_STEP_PIVOT_ROOT, -1);
  if (umount2(".", MNT_DETACH) != 0) dsa_child_fail(report_fd, DSA_STEP_UNMOUNT_OLD_ROOT, -1);
  if (chdir("/") != 0) dsa_child_fail(report_fd, DSA_STEP_PIVOT_ROOT, -1);
  if (mount(NULL, "/", NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0)
    dsa_child_fail(report_fd, DSA_STEP_REMOUNT_ROOT, -1);
}

// ---------------------------------------------------------------------------
// Parent side

int dsa_enter_private_mount_namespace(void) {
  int original = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
  if (original < 0) return errno;
  int error = 0;
  if (unshare(CLONE_NEWNS) != 0) {
    error = errno;
  } else if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) != 0) {
    error = errno;
    // Still sharing propagation with the host: a mount made here would show there.
    if (setns(original, CLONE_NEWNS) != 0) abort();
  }
  close(original);
  return error;
}
