// The box's child side: init (PID 1 of the box) and the program's last steps
// before execve. See csandbox.h for the rules this file lives by: no
// allocation, no locks, raw system calls only, failures reported as a fixed
// {step, errno} record on the report pipe.
#define _GNU_SOURCE
#include "csandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

// ---------------------------------------------------------------------------
// Reporting (child side)

static void report_failure(int report_fd, int step, int error, int index) {
  struct dsa_report record;
  memset(&record, 0, sizeof record);
  record.kind = DSA_REPORT_SETUP_FAILED;
  record.step = step;
  record.error = error;
  record.index = index;
  // A short or failed write leaves the parent with EOF and no record, which
  // it reports as an unexplained setup failure; nothing better is possible.
  (void)!write(report_fd, &record, sizeof record);
}

__attribute__((noreturn)) static void fail(int report_fd, int step, int index) {
  report_failure(report_fd, step, errno, index);
  _exit(127);
}

// ---------------------------------------------------------------------------
// File system (child side, inside the box's mount namespace)

// mkdir -p on a stack copy of the path; no allocation.
static int make_directories(const char *path, mode_t mode) {
  char buffer[4096];
  size_t length = strlen(path);
  if (length == 0 || length >= sizeof buffer) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(buffer, path, length + 1);
  for (size_t i = 1; i <= length; i++) {
    if (buffer[i] == '/' || buffer[i] == '\0') {
      char saved = buffer[i];
      buffer[i] = '\0';
      if (mkdir(buffer, mode) != 0 && errno != EEXIST) return -1;
      buffer[i] = saved;
    }
  }
  return 0;
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

static void bind(int report_fd, int index, const char *source, const char *target,
                 unsigned long extra_flags) {
  if (mount(source, target, NULL, MS_BIND | MS_REC, NULL) != 0) fail(report_fd, DSA_STEP_BIND, index);
  unsigned long flags = MS_BIND | MS_REMOUNT | extra_flags | locked_flags_of(target);
  if (mount(NULL, target, NULL, flags, NULL) != 0) fail(report_fd, DSA_STEP_REMOUNT, index);
}

static void apply_mount(int report_fd, int index, const struct dsa_mount *entry) {
  switch (entry->kind) {
    case DSA_MOUNT_BIND_RO:
    case DSA_MOUNT_BIND_RW:
      if (make_directories(entry->target, 0755) != 0) fail(report_fd, DSA_STEP_MKDIR, index);
      bind(report_fd, index, entry->source, entry->target,
           MS_NOSUID | MS_NODEV | (entry->kind == DSA_MOUNT_BIND_RO ? MS_RDONLY : 0));
      return;
    case DSA_MOUNT_FILE_RO:
      if (create_empty_file(entry->target) != 0) fail(report_fd, DSA_STEP_CREATE_FILE, index);
      bind(report_fd, index, entry->source, entry->target, MS_NOSUID | MS_NODEV | MS_RDONLY);
      return;
    case DSA_MOUNT_DEVICE:
      if (create_empty_file(entry->target) != 0) fail(report_fd, DSA_STEP_CREATE_FILE, index);
      bind(report_fd, index, entry->source, entry->target, MS_NOSUID | MS_NOEXEC);
      return;
    case DSA_MOUNT_TMPFS:
      if (make_directories(entry->target, 0755) != 0) fail(report_fd, DSA_STEP_MKDIR, index);
      if (mount("tmpfs", entry->target, "tmpfs", MS_NOSUID | MS_NODEV, entry->data) != 0)
        fail(report_fd, DSA_STEP_MOUNT_TMPFS, index);
      return;
    case DSA_MOUNT_PROC:
      if (make_directories(entry->target, 0555) != 0) fail(report_fd, DSA_STEP_MKDIR, index);
      if (mount("proc", entry->target, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        fail(report_fd, DSA_STEP_MOUNT_PROC, index);
      return;
    case DSA_MOUNT_SYMLINK:
      if (make_parent_directories(entry->target) != 0) fail(report_fd, DSA_STEP_MKDIR, index);
      if (symlink(entry->source, entry->target) != 0) fail(report_fd, DSA_STEP_SYMLINK, index);
      return;
    case DSA_MOUNT_DIRECTORY:
      if (make_directories(entry->target, 0755) != 0) fail(report_fd, DSA_STEP_MKDIR, index);
      return;
    default:
      errno = EINVAL;
      fail(report_fd, DSA_STEP_MKDIR, index);
  }
}

static void build_file_system(const struct dsa_spawn_plan *plan) {
  int report_fd = plan->report_fd;
  // Nothing done below may propagate back to the host.
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) fail(report_fd, DSA_STEP_MAKE_PRIVATE, -1);
  if (mount("tmpfs", plan->root_path, "tmpfs", MS_NOSUID | MS_NODEV, plan->root_tmpfs_options) != 0)
    fail(report_fd, DSA_STEP_MOUNT_ROOT, -1);
  for (int32_t i = 0; i < plan->mount_count; i++) apply_mount(report_fd, i, &plan->mounts[i]);

  // pivot_root(".", ".") stacks the old root on top of the new one; detaching
  // it leaves only the new root, with no directory to hold the old one.
  if (chdir(plan->root_path) != 0) fail(report_fd, DSA_STEP_PIVOT_ROOT, -1);
  if (syscall(SYS_pivot_root, ".", ".") != 0) fail(report_fd, DSA_STEP_PIVOT_ROOT, -1);
  if (umount2(".", MNT_DETACH) != 0) fail(report_fd, DSA_STEP_UNMOUNT_OLD_ROOT, -1);
  if (chdir("/") != 0) fail(report_fd, DSA_STEP_PIVOT_ROOT, -1);
  if (mount(NULL, "/", NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0)
    fail(report_fd, DSA_STEP_REMOUNT_ROOT, -1);
}

// ---------------------------------------------------------------------------
// The program (grandchild): last steps before execve

static int move_high(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 64); }

__attribute__((noreturn)) static void become_program(const struct dsa_spawn_plan *plan) {
  int report_fd = plan->report_fd;
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail(report_fd, DSA_STEP_PDEATHSIG, -1);

  // Move every fd we keep above the standard ones before dup2, so no dup2
  // overwrites a source that has not been copied yet.
  int in = move_high(plan->stdin_fd), out = move_high(plan->stdout_fd), err = move_high(plan->stderr_fd);
  int report = move_high(report_fd);
  if (in < 0 || out < 0 || err < 0 || report < 0) fail(report_fd, DSA_STEP_DUP_FDS, -1);
  report_fd = report;
  if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) fail(report_fd, DSA_STEP_DUP_FDS, -1);
  if (dup3(report, 3, O_CLOEXEC) < 0) fail(report_fd, DSA_STEP_DUP_FDS, -1);
  report_fd = 3;
  if (syscall(SYS_close_range, 4U, ~0U, 0U) != 0) fail(report_fd, DSA_STEP_CLOSE_FDS, -1);

  if (setsid() < 0) fail(report_fd, DSA_STEP_SETSID, -1);
  if (chdir(plan->working_directory) != 0) fail(report_fd, DSA_STEP_CHDIR, -1);

  for (int32_t i = 0; i < plan->rlimit_count; i++) {
    struct rlimit64 value = {.rlim_cur = plan->rlimits[i].soft, .rlim_max = plan->rlimits[i].hard};
    if (syscall(SYS_prlimit64, 0, plan->rlimits[i].resource, &value, NULL) != 0)
      fail(report_fd, DSA_STEP_SETRLIMIT, i);
  }

  // An empty bounding set: even a setuid binary (nosuid mounts and
  // no_new_privs already refuse it) could never regain a capability.
  for (int capability = 0; capability < 64; capability++) {
    if (prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0 && errno != EINVAL) fail(report_fd, DSA_STEP_CAPBSET, capability);
  }

  // Leaving uid 0 of the box's user namespace clears every capability.
  if (syscall(SYS_setgroups, 0, NULL) != 0) fail(report_fd, DSA_STEP_SETGROUPS, -1);
  if (syscall(SYS_setresgid, plan->gid, plan->gid, plan->gid) != 0) fail(report_fd, DSA_STEP_SETRESGID, -1);
  if (syscall(SYS_setresuid, plan->uid, plan->uid, plan->uid) != 0) fail(report_fd, DSA_STEP_SETRESUID, -1);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail(report_fd, DSA_STEP_NO_NEW_PRIVS, -1);

  if (plan->seccomp_filter != NULL) {
    struct sock_fprog program = {
        .len = plan->seccomp_filter_length,
        .filter = (struct sock_filter *)plan->seccomp_filter,
    };
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) fail(report_fd, DSA_STEP_SECCOMP, -1);
  }

  syscall(SYS_execve, plan->argv[0], plan->argv, plan->envp);
  fail(report_fd, DSA_STEP_EXECVE, -1);
}

// ---------------------------------------------------------------------------
// init: PID 1 of the box

// The init is a copy of a multi-threaded parent and never execs, so it holds
// every fd the parent had open at clone time, including other boxes' pipes
// (which would delay their EOF). Keep only the fds of this box.
static int close_all_except(const int32_t *keep, int count) {
  int sorted[8];
  for (int i = 0; i < count; i++) sorted[i] = keep[i];
  for (int i = 1; i < count; i++)
    for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
      int swap = sorted[j];
      sorted[j] = sorted[j - 1];
      sorted[j - 1] = swap;
    }
  unsigned int next = 0;
  for (int i = 0; i < count; i++) {
    if (sorted[i] < 0) continue;
    if ((unsigned int)sorted[i] > next && syscall(SYS_close_range, next, (unsigned int)sorted[i] - 1, 0U) != 0)
      return -1;
    if ((unsigned int)sorted[i] + 1 > next) next = (unsigned int)sorted[i] + 1;
  }
  return (int)syscall(SYS_close_range, next, ~0U, 0U);
}

static long fork_like(void) {
  struct clone_args args;
  memset(&args, 0, sizeof args);
  args.exit_signal = SIGCHLD;
  return syscall(SYS_clone3, &args, sizeof args);
}

__attribute__((noreturn)) static void run_init(const struct dsa_spawn_plan *plan) {
  int report_fd = plan->report_fd;
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail(report_fd, DSA_STEP_PDEATHSIG, -1);
  int32_t keep[8] = {plan->stdin_fd, plan->stdout_fd, plan->stderr_fd, plan->report_fd, plan->go_fd, -1, -1, -1};
  for (int32_t i = 0; i < plan->cgroup_join_count && i < 3; i++) keep[5 + i] = plan->cgroup_join_fds[i];
  if (close_all_except(keep, 8) != 0) fail(report_fd, DSA_STEP_CLOSE_FDS, -1);

  for (int32_t i = 0; i < plan->cgroup_join_count && i < 3; i++) {
    ssize_t written;
    do {
      written = write(plan->cgroup_join_fds[i], "0", 1);
    } while (written < 0 && errno == EINTR);
    if (written != 1) fail(report_fd, DSA_STEP_JOIN_CGROUP, i);
    close(plan->cgroup_join_fds[i]);
  }

  // The parent writes our uid/gid maps and joins us to the cgroup, then sends
  // one byte. EOF means the parent died or gave up before that.
  char go = 0;
  ssize_t got;
  do {
    got = read(plan->go_fd, &go, 1);
  } while (got < 0 && errno == EINTR);
  if (got != 1) {
    errno = got == 0 ? EPIPE : errno;
    fail(report_fd, DSA_STEP_WAIT_FOR_PARENT, -1);
  }
  close(plan->go_fd);

  // Become the mapped root of the box (an unprivileged uid on the host); the
  // user namespace keeps our capabilities inside the box.
  if (syscall(SYS_setresgid, 0, 0, 0) != 0 || syscall(SYS_setresuid, 0, 0, 0) != 0)
    fail(report_fd, DSA_STEP_SETRESUID_ROOT, -1);
  // Unshared after the parent placed us, so the box's cgroup root is its own.
  if (unshare(CLONE_NEWCGROUP) != 0) fail(report_fd, DSA_STEP_UNSHARE_CGROUP, -1);

  build_file_system(plan);
  if (plan->hostname != NULL && sethostname(plan->hostname, strlen(plan->hostname)) != 0)
    fail(report_fd, DSA_STEP_SETHOSTNAME, -1);

  long program = fork_like();
  if (program < 0) fail(report_fd, DSA_STEP_FORK_PROGRAM, -1);
  if (program == 0) become_program(plan);

  // The init keeps none of the program's stdio open, so EOF on the parent's
  // pipes means every box process that held them is gone.
  close(plan->stdin_fd);
  close(plan->stdout_fd);
  close(plan->stderr_fd);

  int program_status = 0;
  int program_seen = 0;
  for (;;) {
    int status = 0;
    pid_t reaped = wait4(-1, &status, __WALL, NULL);
    if (reaped < 0) {
      if (errno == EINTR) continue;
      break;  // ECHILD: nothing left in the box.
    }
    if (reaped == program && !program_seen) {
      program_seen = 1;
      program_status = status;
      // Whatever the program left behind dies with it.
      kill(-1, SIGKILL);
    }
  }

  struct rusage usage;
  memset(&usage, 0, sizeof usage);
  getrusage(RUSAGE_CHILDREN, &usage);
  struct dsa_report record;
  memset(&record, 0, sizeof record);
  record.kind = DSA_REPORT_PROGRAM_ENDED;
  record.index = -1;
  record.wait_status = program_status;
  record.user_cpu_us = (int64_t)usage.ru_utime.tv_sec * 1000000 + usage.ru_utime.tv_usec;
  record.system_cpu_us = (int64_t)usage.ru_stime.tv_sec * 1000000 + usage.ru_stime.tv_usec;
  record.max_rss_kb = usage.ru_maxrss;
  (void)!write(report_fd, &record, sizeof record);
  _exit(0);
}

// ---------------------------------------------------------------------------
// Parent side

int dsa_spawn(const struct dsa_spawn_plan *plan, pid_t *pid_out, int *pidfd_out) {
  int pidfd = -1;
  struct clone_args args;
  memset(&args, 0, sizeof args);
  args.flags = plan->namespace_flags | CLONE_PIDFD;
  args.pidfd = (uint64_t)(uintptr_t)&pidfd;
  args.exit_signal = SIGCHLD;
  if (plan->cgroup_fd >= 0) {
    args.flags |= CLONE_INTO_CGROUP;
    args.cgroup = (uint64_t)plan->cgroup_fd;
  }
  long pid = syscall(SYS_clone3, &args, sizeof args);
  if (pid < 0) return errno;
  if (pid == 0) run_init(plan);
  *pid_out = (pid_t)pid;
  *pidfd_out = pidfd;
  return 0;
}

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

int dsa_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int dsa_memfd(const char *name) { return (int)syscall(SYS_memfd_create, name, 1U /* MFD_CLOEXEC */); }

const int dsa_rlimit_nproc = RLIMIT_NPROC;
const int dsa_rlimit_memlock = RLIMIT_MEMLOCK;
const int dsa_rlimit_msgqueue = RLIMIT_MSGQUEUE;
