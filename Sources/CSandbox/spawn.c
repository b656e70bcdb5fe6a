// The box's child side: init (PID 1 of the box) and the program's last steps
// before execve. See csandbox.h for the rules this file lives by: no
// allocation, no locks, raw system calls only, failures reported as a fixed
// {step, errno} record on the report pipe.
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
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
  if (mount(source, target, NULL, MS_BIND | MS_REC, NULL) != 0) fail(report_fd, DSA_STEP_BIND, index);
  unsigned long flags = MS_BIND | MS_REMOUNT | extra_flags | locked_flags_of(target);
  if (mount(NULL, target, NULL, flags, NULL) != 0) fail(report_fd, DSA_STEP_REMOUNT, index);
}

static void apply_mount(int report_fd, int index, const struct dsa_mount *entry) {
  switch (entry->kind) {
    case DSA_MOUNT_BIND_RO:
    case DSA_MOUNT_BIND_RW:
      if (make_directories(entry->target, 0755) != 0) fail(report_fd, DSA_STEP_MKDIR, index);
      bind_mount(report_fd, index, entry->source, entry->target,
           MS_NOSUID | MS_NODEV | (entry->kind == DSA_MOUNT_BIND_RO ? MS_RDONLY : 0));
      return;
    case DSA_MOUNT_FILE_RO:
      if (create_empty_file(entry->target) != 0) fail(report_fd, DSA_STEP_CREATE_FILE, index);
      bind_mount(report_fd, index, entry->source, entry->target, MS_NOSUID | MS_NODEV | MS_RDONLY);
      return;
    case DSA_MOUNT_DEVICE:
      if (create_empty_file(entry->target) != 0) fail(report_fd, DSA_STEP_CREATE_FILE, index);
      bind_mount(report_fd, index, entry->source, entry->target, MS_NOSUID | MS_NOEXEC);
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
    case DSA_MOUNT_DEVPTS:
      if (make_directories(entry->target, 0755) != 0) fail(report_fd, DSA_STEP_MKDIR, index);
      if (mount("devpts", entry->target, "devpts", MS_NOSUID | MS_NOEXEC, entry->data) != 0)
        fail(report_fd, DSA_STEP_BIND, index);
      return;
    default:
      errno = EINVAL;
      fail(report_fd, DSA_STEP_MKDIR, index);
  }
}

static void build_file_system(const struct dsa_spawn_plan *plan) {
  int report_fd = plan->program.report_fd;
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

// The parent thread may block signals or ignore SIGPIPE, and both survive
// execve; the program starts with every signal at its default.
static void reset_signals(void) {
  struct sigaction default_action;
  memset(&default_action, 0, sizeof default_action);
  default_action.sa_handler = SIG_DFL;
  for (int signal_number = 1; signal_number < 65; signal_number++) {
    if (signal_number != SIGKILL && signal_number != SIGSTOP) sigaction(signal_number, &default_action, NULL);
  }
  sigset_t empty;
  sigemptyset(&empty);
  sigprocmask(SIG_SETMASK, &empty, NULL);
}

__attribute__((noreturn)) static void become_program(const struct dsa_program *program) {
  int report_fd = program->report_fd;
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail(report_fd, DSA_STEP_PDEATHSIG, -1);
  // Dispositions were reset by the init; the init's blocked SIGCHLD is not
  // the program's business.
  sigset_t empty;
  sigemptyset(&empty);
  sigprocmask(SIG_SETMASK, &empty, NULL);

  // Move every fd we keep above the standard ones before dup2, so no dup2
  // overwrites a source that has not been copied yet.
  int in = move_high(program->stdin_fd), out = move_high(program->stdout_fd), err = move_high(program->stderr_fd);
  int report = move_high(report_fd);
  if (in < 0 || out < 0 || err < 0 || report < 0) fail(report_fd, DSA_STEP_DUP_FDS, -1);
  report_fd = report;
  if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) fail(report_fd, DSA_STEP_DUP_FDS, -1);
  if (dup3(report, 3, O_CLOEXEC) < 0) fail(report_fd, DSA_STEP_DUP_FDS, -1);
  report_fd = 3;
  if (syscall(SYS_close_range, 4U, ~0U, 0U) != 0) fail(report_fd, DSA_STEP_CLOSE_FDS, -1);

  if (setsid() < 0) fail(report_fd, DSA_STEP_SETSID, -1);
  // The new session's terminal: ^C, ^Z and the line discipline act on this program's group.
  if (program->terminal && ioctl(0, TIOCSCTTY, 0) != 0) fail(report_fd, DSA_STEP_CONTROLLING_TERMINAL, -1);
  if (chdir(program->working_directory) != 0) fail(report_fd, DSA_STEP_CHDIR, -1);

  for (int32_t i = 0; i < program->rlimit_count; i++) {
    struct rlimit64 value = {.rlim_cur = program->rlimits[i].soft, .rlim_max = program->rlimits[i].hard};
    if (syscall(SYS_prlimit64, 0, program->rlimits[i].resource, &value, NULL) != 0)
      fail(report_fd, DSA_STEP_SETRLIMIT, i);
  }

  // Leaving uid 0 of the box's user namespace clears every capability.
  if (syscall(SYS_setgroups, 0, NULL) != 0) fail(report_fd, DSA_STEP_SETGROUPS, -1);
  if (syscall(SYS_setresgid, program->gid, program->gid, program->gid) != 0) fail(report_fd, DSA_STEP_SETRESGID, -1);
  if (syscall(SYS_setresuid, program->uid, program->uid, program->uid) != 0) fail(report_fd, DSA_STEP_SETRESUID, -1);
  // The uid change cleared the parent-death signal set above.
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail(report_fd, DSA_STEP_PDEATHSIG, -1);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail(report_fd, DSA_STEP_NO_NEW_PRIVS, -1);

  if (program->seccomp_filter != NULL) {
    struct sock_fprog filter = {
        .len = program->seccomp_filter_length,
        .filter = (struct sock_filter *)program->seccomp_filter,
    };
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &filter) != 0) fail(report_fd, DSA_STEP_SECCOMP, -1);
  }

  syscall(SYS_execve, program->argv[0], program->argv, program->envp);
  fail(report_fd, DSA_STEP_EXECVE, -1);
}

// ---------------------------------------------------------------------------
// init: PID 1 of the box

// The init is a copy of a multi-threaded parent and never execs, so it holds
// every fd the parent had open at clone time, including other boxes' pipes
// (which would delay their EOF). Keep only the fds of this box.
static int close_all_except(const int32_t *keep, int count) {
  int sorted[16];
  if (count > 16) count = 16;
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

// The init never execs, so its /proc/1/cmdline and /proc/1/environ are the
// parent's own (the CLI's arguments with host paths, the daemon's config
// path and environment), and cmdline is readable by every box process. The
// kernel reads those from the memory ranges it recorded at the parent's
// execve, which it shows in /proc/self/stat (fields 48 to 51): read once at
// start-up, they let the init overwrite its own copy of the strings.
static uintptr_t parent_arguments[2], parent_environment[2];

__attribute__((constructor)) static void record_parent_strings(void) {
  char text[2048];
  int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t length = read(fd, text, sizeof text - 1);
  close(fd);
  if (length <= 0) return;
  text[length] = 0;
  // The name (field 2) may hold spaces and parentheses: count from its end.
  char *cursor = strrchr(text, ')');
  if (cursor == NULL) return;
  unsigned long long fields[4] = {0};
  for (int field = 3; field <= 51 && *cursor; field++) {
    cursor = strchr(cursor + 1, ' ');
    if (cursor == NULL) return;
    if (field >= 48) fields[field - 48] = strtoull(cursor + 1, NULL, 10);
  }
  if (fields[1] > fields[0] && fields[3] > fields[2]) {
    parent_arguments[0] = (uintptr_t)fields[0];
    parent_arguments[1] = (uintptr_t)fields[1];
    parent_environment[0] = (uintptr_t)fields[2];
    parent_environment[1] = (uintptr_t)fields[3];
  }
}

static void forget_parent_strings(void) {
  static const char name[] = "dsa-box-init";
  if (parent_arguments[1] > parent_arguments[0]) {
    size_t length = parent_arguments[1] - parent_arguments[0];
    memset((void *)parent_arguments[0], 0, length);
    if (length > sizeof name) memcpy((void *)parent_arguments[0], name, sizeof name);
  }
  if (parent_environment[1] > parent_environment[0])
    memset((void *)parent_environment[0], 0, parent_environment[1] - parent_environment[0]);
  prctl(PR_SET_NAME, name, 0, 0, 0);
}

// The program is started like posix_spawn does: sharing the init's memory
// (CLONE_VM) on a stack of its own, with the init suspended until the
// program execs or fails (CLONE_VFORK). The init is a copy of the large
// Swift parent, so a plain fork would copy its page tables once more per
// run. Between clone and execve the program only writes its own stack and
// its own per-process state (fds, signal handlers, credentials, rlimits).
static unsigned char program_stack[256 * 1024] __attribute__((aligned(64)));
static const struct dsa_program *starting_program;

static int program_entry(void *unused) {
  (void)unused;
  become_program(starting_program);
}

static long start_program(const struct dsa_program *program) {
  starting_program = program;
  return clone(program_entry, program_stack + sizeof program_stack, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
}

// The program's own CPU time as its RLIMIT_CPU charges it: the process CPU clock CPUCLOCK_PROF
// (user + system time of its threads, counted in clock ticks), not the scheduler's nanoseconds
// that rusage and the cgroups report. On a busy host the two part by several percent, and the
// limit's SIGXCPU must come with a figure at or above the limit (docs/security.md). 0 if unreadable.
static int64_t program_rlimit_cpu_us(pid_t program) {
  // MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_PROF) of the kernel's posix-timers.h.
  clockid_t clock = (clockid_t)(~(unsigned)program << 3);
  struct timespec spent;
  if (clock_gettime(clock, &spent) != 0) return 0;
  return (int64_t)spent.tv_sec * 1000000 + spent.tv_nsec / 1000;
}

static void add_usage(struct dsa_report *record, const struct rusage *usage) {
  record->user_cpu_us += (int64_t)usage->ru_utime.tv_sec * 1000000 + usage->ru_utime.tv_usec;
  record->system_cpu_us += (int64_t)usage->ru_stime.tv_sec * 1000000 + usage->ru_stime.tv_usec;
  if (usage->ru_maxrss > record->max_rss_kb) record->max_rss_kb = usage->ru_maxrss;
}

static void send_report(int report_fd, const struct dsa_report *record) {
  ssize_t written;
  do {
    written = write(report_fd, record, sizeof *record);
  } while (written < 0 && errno == EINTR);
}

// /proc/sys/user/* are the limits of the opener's user namespace: written by
// the box's root (CAP_SYS_RESOURCE over its own namespace), they bound what
// each uid of the box may hold, below the host's per-user limits that the
// kernel checks at the owner's level too. The host's /proc is still mounted
// here (before pivot_root), whether or not the box gets a /proc of its own.
static void write_user_sysctls(const struct dsa_spawn_plan *plan) {
  int report_fd = plan->program.report_fd;
  for (int32_t i = 0; i < plan->user_sysctl_count; i++) {
    int fd = open(plan->user_sysctl_paths[i], O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    // A kernel built without the facility (CONFIG_FANOTIFY=n) has no limit to set.
    if (fd < 0 && errno == ENOENT) continue;
    if (fd < 0) fail(report_fd, DSA_STEP_USER_SYSCTL, i);
    size_t length = strlen(plan->user_sysctl_values[i]);
    ssize_t written = write(fd, plan->user_sysctl_values[i], length);
    int error = errno;
    close(fd);
    if (written != (ssize_t)length) {
      errno = written < 0 ? error : EIO;
      fail(report_fd, DSA_STEP_USER_SYSCTL, i);
    }
  }
}

// Moves the init (only itself: a thread moving itself skips the threadgroup
// lock, see dsa_spawn_plan.cgroup_join_fds) into each v1 group, and closes
// the fds.
static void join_cgroups(int report_fd, const int32_t *fds, int32_t count) {
  for (int32_t i = 0; i < count && i < 3; i++) {
    ssize_t written;
    do {
      written = write(fds[i], "0", 1);
    } while (written < 0 && errno == EINTR);
    if (written != 1) fail(report_fd, DSA_STEP_JOIN_CGROUP, i);
    close(fds[i]);
  }
}

// One buffer and room for 3 descriptors: the message send_with_descriptors and
// receive_with_descriptors hand to sendmsg and recvmsg.
struct descriptor_message {
  struct iovec vector;
  struct msghdr message;
  union {
    char buffer[CMSG_SPACE(3 * sizeof(int))];
    struct cmsghdr align;
  } control;
};

static void prepare_descriptor_message(struct descriptor_message *m, void *bytes, size_t length) {
  memset(m, 0, sizeof *m);
  m->vector.iov_base = bytes;
  m->vector.iov_len = length;
  m->message.msg_iov = &m->vector;
  m->message.msg_iovlen = 1;
  m->message.msg_control = m->control.buffer;
  m->message.msg_controllen = sizeof m->control.buffer;
}

// One message into `bytes` (at most `length` of them) with at most 3 descriptors, as one recvmsg
// retried on EINTR: the receiving side of send_with_descriptors (the run command and its stdio, the
// cgroups to join, a terminal's master). The descriptors that came are in `fds`, their number in
// `*fd_count`; a message with more than fit is cut (MSG_CTRUNC in `*message_flags`) and the kernel
// installs none of the rest. recvmsg's length, or -1 with errno.
static ssize_t receive_with_descriptors(int socket_fd, void *bytes, size_t length, int flags, int fds[3],
                                        int *fd_count, int *message_flags) {
  struct descriptor_message m;
  prepare_descriptor_message(&m, bytes, length);
  ssize_t got;
  do {
    got = recvmsg(socket_fd, &m.message, flags | MSG_CMSG_CLOEXEC);
  } while (got < 0 && errno == EINTR);
  *fd_count = 0;
  *message_flags = 0;
  if (got < 0) return -1;
  *message_flags = m.message.msg_flags;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&m.message); header != NULL;
       header = CMSG_NXTHDR(&m.message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    int count = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    for (int i = 0; i < count; i++) {
      int fd;
      memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof fd);
      if (*fd_count < 3) fds[(*fd_count)++] = fd;
      else close(fd);
    }
  }
  return got;
}

// The parent's "c" message on the go pair with exactly `count` fds
// (dsa_send_cgroup_join). 0, or -1 with errno (EPIPE: the parent hung up;
// EPROTO: anything else arrived).
static int receive_cgroup_join(int go_fd, int fds[3], int32_t count) {
  char tag = 0;
  int received = 0, flags = 0;
  ssize_t got = receive_with_descriptors(go_fd, &tag, 1, 0, fds, &received, &flags);
  if (got < 0) return -1;
  if (got == 1 && tag == 'c' && received == count && !(flags & MSG_CTRUNC) && count <= 3) return 0;
  for (int i = 0; i < received; i++) close(fds[i]);
  errno = got == 0 ? EPIPE : EPROTO;
  return -1;
}

// Sets up the init's side of a box: leaves only its fds, joins the v1
// cgroups (or, with cgroup_join_late, takes them from the parent once the
// file system is built), waits for the parent's maps, becomes the box's
// root, builds the file system.
static void prepare_init(const struct dsa_spawn_plan *plan) {
  int report_fd = plan->program.report_fd;
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail(report_fd, DSA_STEP_PDEATHSIG, -1);
  forget_parent_strings();
  reset_signals();
  int32_t keep[10] = {plan->program.stdin_fd, plan->program.stdout_fd, plan->program.stderr_fd, plan->program.report_fd, plan->go_fd, plan->terminal_fd, plan->command_fd, -1, -1, -1};
  if (!plan->cgroup_join_late)
    for (int32_t i = 0; i < plan->cgroup_join_count && i < 3; i++) keep[7 + i] = plan->cgroup_join_fds[i];
  if (close_all_except(keep, 10) != 0) fail(report_fd, DSA_STEP_CLOSE_FDS, -1);

  if (!plan->cgroup_join_late) join_cgroups(report_fd, plan->cgroup_join_fds, plan->cgroup_join_count);

  // The parent writes our uid/gid maps, then sends one byte. EOF means the
  // parent died or gave up before that.
  char go = 0;
  ssize_t got;
  do {
    got = read(plan->go_fd, &go, 1);
  } while (got < 0 && errno == EINTR);
  if (got != 1) {
    errno = got == 0 ? EPIPE : errno;
    fail(report_fd, DSA_STEP_WAIT_FOR_PARENT, -1);
  }

  // Become the mapped root of the box (an unprivileged uid on the host); the
  // user namespace keeps our capabilities inside the box.
  if (syscall(SYS_setresgid, 0, 0, 0) != 0 || syscall(SYS_setresuid, 0, 0, 0) != 0)
    fail(report_fd, DSA_STEP_SETRESUID_ROOT, -1);
  // Changing the effective uid cleared the parent-death signal: arm it
  // again, then make sure the parent did not die in between. The parent
  // keeps the go pipe's write end open for the box's whole life, so a hang-up
  // there means it is gone.
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail(report_fd, DSA_STEP_PDEATHSIG, -1);
  struct pollfd parent = {.fd = plan->go_fd, .events = POLLIN};
  if (poll(&parent, 1, 0) != 0 && (parent.revents & POLLHUP)) _exit(1);
  if (!plan->cgroup_join_late) close(plan->go_fd);
  write_user_sysctls(plan);

  build_file_system(plan);
  if (plan->hostname != NULL && sethostname(plan->hostname, strlen(plan->hostname)) != 0)
    fail(report_fd, DSA_STEP_SETHOSTNAME, -1);
  if (plan->cgroup_join_late) {
    // The parent made the groups meanwhile, on the other CPU.
    int fds[3] = {-1, -1, -1};
    if (receive_cgroup_join(plan->go_fd, fds, plan->cgroup_join_count) != 0)
      fail(report_fd, DSA_STEP_WAIT_FOR_PARENT, -1);
    close(plan->go_fd);
    join_cgroups(report_fd, fds, plan->cgroup_join_count);
  }
  // Unshared after joining the cgroups, so the box's cgroup root is its own.
  if (unshare(CLONE_NEWCGROUP) != 0) fail(report_fd, DSA_STEP_UNSHARE_CGROUP, -1);

  // An empty bounding set, inherited by every program: even a setuid binary
  // (nosuid mounts and no_new_privs already refuse it) could never regain a
  // capability. The init keeps its own effective capabilities (it never
  // execs), so warm boxes can still unshare per run.
  // Up to the kernel's last capability: the first one it calls invalid ends the list.
  for (int capability = 0; capability < 64; capability++) {
    if (prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) == 0) continue;
    if (errno == EINVAL && capability > 0) break;
    fail(report_fd, DSA_STEP_CAPBSET, capability);
  }
}

// Reaps until the box is empty. Once the program itself has ended, whatever
// it left behind is killed. `control_fd` (warm boxes) may ask for a kill
// meanwhile; EOF on it means the parent is gone.
static void reap_box(long program, int control_fd, int signal_fd, struct dsa_report *record) {
  int program_seen = 0;
  for (;;) {
    int status = 0;
    struct rusage usage;
    // Looked at before it is reaped: only then is the program's CPU clock still readable.
    siginfo_t ended;
    ended.si_pid = 0;
    pid_t reaped = -1;
    if (waitid(P_ALL, 0, &ended, WEXITED | WNOWAIT | __WALL | (signal_fd >= 0 ? WNOHANG : 0)) == 0) {
      reaped = ended.si_pid;
      if (reaped == program && !program_seen) record->program_rlimit_cpu_us = program_rlimit_cpu_us(program);
      if (reaped > 0) reaped = wait4(reaped, &status, __WALL, &usage);
    }
    if (reaped > 0) {
      add_usage(record, &usage);
      if (reaped == program && !program_seen) {
        program_seen = 1;
        record->wait_status = status;
        kill(-1, SIGKILL);
      }
      continue;
    }
    if (reaped < 0) {
      if (errno == EINTR) continue;
      return;  // ECHILD: nothing left in the box.
    }
    // Children remain (warm boxes only): wait for SIGCHLD or a command.
    struct pollfd waiting[2] = {{.fd = control_fd, .events = POLLIN}, {.fd = signal_fd, .events = POLLIN}};
    if (poll(waiting, 2, -1) < 0) continue;
    if (waiting[0].revents) {
      char command[16];
      ssize_t length = recv(control_fd, command, sizeof command, MSG_DONTWAIT);
      if (length == 0) {
        kill(-1, SIGKILL);
        _exit(0);
      }
      if (length > 0 && command[0] == 'K') kill(-1, SIGKILL);
      // Only while the program is unreaped: its pid (and so its group's id) is still its own.
      // The group, as a terminal's ^C reaches it; a program that left its group gets it alone.
      int signal_number = length == 2 ? (unsigned char)command[1] : 0;
      if (signal_number >= 1 && signal_number <= 64 && command[0] == 'S' && !program_seen) {
        if (kill(-(pid_t)program, signal_number) != 0) kill((pid_t)program, signal_number);
      }
    }
    if (waiting[1].revents) {
      struct signalfd_siginfo info[8];
      (void)!read(signal_fd, info, sizeof info);
    }
  }
}

// One message of `length` bytes with `count` (at most 3) descriptors attached, as one sendmsg
// retried on EINTR: the run command's stdio going to the init, and a terminal's master coming back.
static ssize_t send_with_descriptors(int socket_fd, const void *bytes, size_t length, const int *fds, int count) {
  struct descriptor_message m;
  prepare_descriptor_message(&m, (void *)bytes, length);
  m.message.msg_controllen = CMSG_SPACE(count * sizeof(int));
  struct cmsghdr *header = CMSG_FIRSTHDR(&m.message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(count * sizeof(int));
  memcpy(CMSG_DATA(header), fds, count * sizeof(int));
  ssize_t sent;
  do {
    sent = sendmsg(socket_fd, &m.message, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  return sent;
}

// A run's terminal: a new pty of the box's own devpts instance, opened by the
// init (the box's root; ptmx is mode 0600, so the program cannot make ptys).
// The master goes to the parent, which alone holds it; the slave becomes the
// program's stdio. Returns the slave, or -1 with errno.
static int open_terminal(int socket_fd) {
  int master = open("/dev/pts/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0) return -1;
  int unlock = 0;
  int slave = -1;
  if (ioctl(master, TIOCSPTLCK, &unlock) == 0) slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (slave >= 0) {
    char tag = 'T';
    ssize_t sent = send_with_descriptors(socket_fd, &tag, 1, &master, 1);
    if (sent != 1) {
      int error = errno;
      close(slave);
      slave = -1;
      errno = error;
    }
  }
  int error = errno;
  close(master);
  errno = error;
  return slave;
}

__attribute__((noreturn)) static void run_once(const struct dsa_spawn_plan *plan) {
  struct dsa_program program = plan->program;
  int slave = -1;
  if (plan->terminal_fd >= 0) {
    slave = open_terminal(plan->terminal_fd);
    if (slave < 0) fail(plan->program.report_fd, DSA_STEP_TERMINAL, -1);
    close(plan->terminal_fd);
    program.stdin_fd = program.stdout_fd = program.stderr_fd = slave;
    program.terminal = 1;
  }
  // A live run takes commands while its program runs (reap_box), woken by SIGCHLD through a
  // signalfd; blocked before the program starts, so no SIGCHLD is lost (the program unblocks).
  int signal_fd = -1;
  if (plan->command_fd >= 0) {
    sigset_t child_signal;
    sigemptyset(&child_signal);
    sigaddset(&child_signal, SIGCHLD);
    sigprocmask(SIG_BLOCK, &child_signal, NULL);
    signal_fd = signalfd(-1, &child_signal, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signal_fd < 0) fail(plan->program.report_fd, DSA_STEP_SERVE, -1);
  }
  long pid = start_program(&program);
  if (pid < 0) fail(plan->program.report_fd, DSA_STEP_FORK_PROGRAM, -1);

  // The init keeps none of the program's stdio open, so EOF on the parent's
  // pipes means every box process that held them is gone.
  close(plan->program.stdin_fd);
  close(plan->program.stdout_fd);
  close(plan->program.stderr_fd);
  if (slave >= 0) close(slave);

  struct dsa_report record;
  memset(&record, 0, sizeof record);
  record.kind = DSA_REPORT_PROGRAM_ENDED;
  record.index = -1;
  reap_box(pid, plan->command_fd, signal_fd, &record);
  send_report(plan->program.report_fd, &record);
  _exit(0);
}

// ---- Warm boxes: the init serves many runs, one at a time.

// Commands are copied here; the program's argv and envp point into it.
static unsigned char command_buffer[DSA_COMMAND_MAXIMUM_BYTES] __attribute__((aligned(16)));
static const char *command_pointers[2 * DSA_COMMAND_MAXIMUM_STRINGS + 2];

// Decodes a run command in place; 0 on success, an errno otherwise.
static int decode_command(size_t length, struct dsa_program *program, struct dsa_run_command *header) {
  if (length < sizeof *header) return EINVAL;
  memcpy(header, command_buffer, sizeof *header);
  if (header->magic != DSA_RUN_COMMAND_MAGIC) return EINVAL;
  if (header->argument_count < 1 || header->argument_count + header->environment_count > DSA_COMMAND_MAXIMUM_STRINGS)
    return E2BIG;
  if (header->rlimit_count > 16 || header->filter_length > 4096) return E2BIG;
  size_t offset = sizeof *header;
  size_t rlimit_bytes = (size_t)header->rlimit_count * sizeof(struct dsa_rlimit);
  size_t filter_bytes = (size_t)header->filter_length * 8;
  if (offset + rlimit_bytes + filter_bytes > length) return EINVAL;
  program->rlimits = (const struct dsa_rlimit *)(command_buffer + offset);
  program->rlimit_count = (int32_t)header->rlimit_count;
  offset += rlimit_bytes;
  program->seccomp_filter = header->filter_length ? command_buffer + offset : NULL;
  program->seccomp_filter_length = (uint16_t)header->filter_length;
  offset += filter_bytes;
  // Strings: working directory, arguments, environment; each NUL-terminated.
  size_t needed = 1 + header->argument_count + header->environment_count;
  size_t found = 0;
  const char *strings[2 * DSA_COMMAND_MAXIMUM_STRINGS + 3];
  size_t start = offset;
  for (size_t i = offset; i < length && found < needed; i++) {
    if (command_buffer[i] == 0) {
      strings[found++] = (const char *)command_buffer + start;
      start = i + 1;
    }
  }
  if (found != needed) return EINVAL;
  program->working_directory = strings[0];
  size_t next = 0;
  program->argv = command_pointers;
  for (uint32_t i = 0; i < header->argument_count; i++) command_pointers[next++] = strings[1 + i];
  command_pointers[next++] = NULL;
  program->envp = command_pointers + next;
  for (uint32_t i = 0; i < header->environment_count; i++)
    command_pointers[next++] = strings[1 + header->argument_count + i];
  command_pointers[next] = NULL;
  program->uid = header->uid;
  program->gid = header->gid;
  return 0;
}

// ---- Warm boxes: what the init resets once a run's last process is gone.

// Frees every SysV object of the box's IPC namespace now. Replacing the
// namespace alone would do it too, but the kernel frees an old namespace
// later, from a workqueue, so its memory would stay charged to the idle box
// for a while; IPC_RMID of an object no process has attached frees it
// before this call returns to user space.
static int remove_ipc_objects(void) {
  struct shm_info shared;
  int highest = shmctl(0, SHM_INFO, (struct shmid_ds *)&shared);
  if (highest < 0) return -1;
  for (int index = 0; shared.used_ids > 0 && index <= highest; index++) {
    struct shmid_ds segment;
    int id = shmctl(index, SHM_STAT_ANY, &segment);
    if (id >= 0 && shmctl(id, IPC_RMID, NULL) != 0) return -1;
  }
  struct msginfo messages;
  highest = msgctl(0, MSG_INFO, (struct msqid_ds *)&messages);
  if (highest < 0) return -1;
  for (int index = 0; messages.msgpool > 0 && index <= highest; index++) {
    struct msqid_ds queue;
    int id = msgctl(index, MSG_STAT_ANY, &queue);
    if (id >= 0 && msgctl(id, IPC_RMID, NULL) != 0) return -1;
  }
  struct seminfo semaphores;
  highest = semctl(0, 0, SEM_INFO, &semaphores);
  if (highest < 0) return -1;
  for (int index = 0; semaphores.semusz > 0 && index <= highest; index++) {
    struct semid_ds set;
    int id = semctl(index, 0, SEM_STAT_ANY, &set);
    if (id >= 0 && semctl(id, 0, IPC_RMID) != 0) return -1;
  }
  return 0;
}

// The box's pid counter, opened once (a layout without /proc cannot
// reset it): the next run's program gets pid 2 again, as in a fresh box,
// and cannot learn from its pid how many processes the last run made.
static int last_pid_fd = -1;

// Called with the box empty, before the run's report: the parent takes the
// report as "the box is reset" and checks the rest itself (BoxFingerprint).
// Returns the failing DSA_RESET_* step, or 0, with errno set on failure.
static int reset_after_run(void) {
  if (remove_ipc_objects() != 0) return DSA_RESET_IPC_OBJECTS;
  // POSIX message queues cannot be listed without a mount: a new namespace
  // drops them (their memory is freed when the kernel frees the old one).
  if (unshare(CLONE_NEWIPC) != 0) return DSA_RESET_IPC_NAMESPACE;
  if (last_pid_fd >= 0 && pwrite(last_pid_fd, "1", 1, 0) != 1) return DSA_RESET_PID_COUNTER;
  return 0;
}

static ssize_t receive_command(int control_fd, int fds[3], int *fd_count) {
  int flags = 0;
  ssize_t length = receive_with_descriptors(control_fd, command_buffer, sizeof command_buffer, 0, fds, fd_count, &flags);
  if (length > 0 && (flags & (MSG_TRUNC | MSG_CTRUNC))) {
    for (int i = 0; i < *fd_count; i++) close(fds[i]);
    *fd_count = 0;
    errno = EMSGSIZE;
    return -2;
  }
  return length;
}

__attribute__((noreturn)) static void serve(const struct dsa_spawn_plan *plan) {
  int control_fd = plan->program.report_fd;
  sigset_t child_signal;
  sigemptyset(&child_signal);
  sigaddset(&child_signal, SIGCHLD);
  sigprocmask(SIG_BLOCK, &child_signal, NULL);
  int signal_fd = signalfd(-1, &child_signal, SFD_CLOEXEC | SFD_NONBLOCK);
  if (signal_fd < 0) fail(control_fd, DSA_STEP_SERVE, -1);
  last_pid_fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);

  for (;;) {
    int fds[3] = {-1, -1, -1};
    int fd_count = 0;
    ssize_t length = receive_command(control_fd, fds, &fd_count);
    if (length == 0) _exit(0);  // The parent destroyed the box.
    if (length == -1) _exit(1);
    // A kill or a signal that arrived after its run ended.
    if (fd_count == 0 && (length == 1 || (length == 2 && command_buffer[0] == 'S'))) continue;

    struct dsa_program program;
    struct dsa_run_command header;
    memset(&program, 0, sizeof program);
    int problem = length < 0 ? EMSGSIZE : (fd_count == 3 ? decode_command((size_t)length, &program, &header) : EBADF);
    if (problem != 0) {
      for (int i = 0; i < fd_count; i++) close(fds[i]);
      report_failure(control_fd, DSA_STEP_COMMAND, problem, -1);
      continue;
    }
    program.stdin_fd = fds[0];
    program.stdout_fd = fds[1];
    program.stderr_fd = fds[2];
    program.report_fd = control_fd;
    int slave = -1;
    if (header.reserved & DSA_RUN_TERMINAL) {
      slave = open_terminal(control_fd);
      if (slave < 0) {
        for (int i = 0; i < 3; i++) close(fds[i]);
        report_failure(control_fd, DSA_STEP_TERMINAL, errno, -1);
        continue;
      }
      program.stdin_fd = program.stdout_fd = program.stderr_fd = slave;
      program.terminal = 1;
    }
    long pid = start_program(&program);
    for (int i = 0; i < 3; i++) close(fds[i]);
    if (slave >= 0) close(slave);
    if (pid < 0) {
      report_failure(control_fd, DSA_STEP_FORK_PROGRAM, errno, -1);
      continue;
    }
    struct dsa_report record;
    memset(&record, 0, sizeof record);
    record.kind = DSA_REPORT_PROGRAM_ENDED;
    record.index = -1;
    reap_box(pid, control_fd, signal_fd, &record);
    record.reset_step = reset_after_run();
    record.reset_error = record.reset_step != 0 ? errno : 0;
    send_report(control_fd, &record);
  }
}

__attribute__((noreturn)) static void run_init(const struct dsa_spawn_plan *plan) {
  prepare_init(plan);
  if (plan->serve) serve(plan);
  run_once(plan);
}

void dsa_internal_run_init(const struct dsa_spawn_plan *plan) { run_init(plan); }

// ---------------------------------------------------------------------------
// Parent side

// A new user namespace is owned by the effective uid of the thread that
// creates it, and the kernel charges every per-user count made inside it
// (inotify instances and watches, queued signals, mqueue bytes, locked shm)
// to that owner in the parent namespace as well. Created by root, a box could
// exhaust root's own quotas (128 inotify instances, RLIMIT_SIGPENDING) for
// every root service and every other box. So this thread alone (raw system
// calls; glibc's setresuid would change every thread) takes the box root's
// host uid as its effective uid for the clone, keeps root as real and saved
// uid, re-raises its effective capabilities from the permitted set (the clone
// still needs them: CLONE_INTO_CGROUP checks the caller's write access, and
// LSMs that police user namespaces look at CAP_SYS_ADMIN), and returns to
// uid 0 right after. The child's credentials are replaced by the new
// namespace's anyway, and the parent still writes its uid/gid maps.
// An init started by exec (`exec_init`) takes the owner as its real uid too:
// on Debian 12's 6.1 (not on 6.18) an exec whose effective uid differs from
// the real one counts as set-uid (commoncap's __is_setuid) and clears the
// ambient capabilities the child carries over it (the box then failed at
// "become box root: EPERM"); the saved uid stays root.
static int become_owner(uint32_t owner, int exec_init) {
  if (syscall(SYS_setresuid, exec_init ? (long)owner : -1L, owner, -1) != 0) return -1;
  struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
  memset(data, 0, sizeof data);
  if (syscall(SYS_capget, &header, data) != 0) return -1;
  for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) data[i].effective = data[i].permitted;
  if (syscall(SYS_capset, &header, data) != 0) return -1;
  return 0;
}

int dsa_make_network_namespace(void) {
  if (unshare(CLONE_NEWNET) != 0) return -errno;
  int fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  return fd < 0 ? -errno : fd;
}

// The thread that makes the next box's network namespace, and what it made:
// its fd or -errno, read once the thread is joined.
static pthread_t network_namespace_thread;
static int network_namespace_thread_started;
static int prepared_network_namespace = -1;

static void *make_prepared_network_namespace(void *unused) {
  (void)unused;
  prepared_network_namespace = dsa_make_network_namespace();
  return NULL;
}

void dsa_prepare_network_namespace(void) {
  if (pthread_create(&network_namespace_thread, NULL, make_prepared_network_namespace, NULL) == 0)
    __atomic_store_n(&network_namespace_thread_started, 1, __ATOMIC_RELEASE);
}

int dsa_take_network_namespace(void) {
  // One caller joins the thread; waiting for it is never longer than making a namespace anew.
  if (!__atomic_exchange_n(&network_namespace_thread_started, 0, __ATOMIC_ACQ_REL)) return -1;
  if (pthread_join(network_namespace_thread, NULL) != 0) return -1;
  return prepared_network_namespace >= 0 ? prepared_network_namespace : -1;
}

// Puts the calling thread back into the network namespace `original` (an fd of
// its own one), and closes it. It cannot fail: the fd is valid and we are root.
static void return_to_network_namespace(int original) {
  if (original < 0) return;
  if (setns(original, CLONE_NEWNET) != 0) abort();
  close(original);
}

int dsa_spawn(const struct dsa_spawn_plan *plan, pid_t *pid_out, int *pidfd_out) {
  int pidfd = -1;
  // Entered before the owner's uid is taken: setns needs CAP_SYS_ADMIN.
  int original_network = -1;
  if (plan->network_namespace_fd >= 0) {
    original_network = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    if (original_network < 0) return errno;
    if (setns(plan->network_namespace_fd, CLONE_NEWNET) != 0) {
      int error = errno;
      close(original_network);
      return error;
    }
  }
  int owned = plan->user_namespace_owner != 0 && geteuid() == 0;
  int exec_init = dsa_internal_init_executable() >= 0;
  // The real uid goes back too when it was changed; -1 leaves it.
  long real_after = exec_init ? 0L : -1L;
  if (owned && become_owner(plan->user_namespace_owner, exec_init) != 0) {
    int error = errno;
    // Back to uid 0, which also gives back the effective capabilities.
    (void)syscall(SYS_setresuid, real_after, 0, -1);
    return_to_network_namespace(original_network);
    return error;
  }
  struct clone_args args;
  memset(&args, 0, sizeof args);
  args.flags = plan->namespace_flags | CLONE_PIDFD;
  if (plan->network_namespace_fd >= 0) args.flags &= ~(uint64_t)CLONE_NEWNET;
  args.pidfd = (uint64_t)(uintptr_t)&pidfd;
  args.exit_signal = SIGCHLD;
  if (plan->cgroup_fd >= 0) {
    args.flags |= CLONE_INTO_CGROUP;
    args.cgroup = (uint64_t)plan->cgroup_fd;
  }
  long pid;
  if (exec_init) {
    pid = dsa_internal_clone_exec_init(&args, plan);
  } else {
    pid = syscall(SYS_clone3, &args, sizeof args);
    if (pid == 0) run_init(plan);
  }
  int error = errno;
  // Going back to euid 0 makes the effective capabilities the permitted
  // set again; it cannot fail, since the saved uid is 0.
  if (owned && syscall(SYS_setresuid, real_after, 0, -1) != 0) abort();
  return_to_network_namespace(original_network);
  if (pid < 0) return error;
  *pid_out = (pid_t)pid;
  *pidfd_out = pidfd;
  return 0;
}

int dsa_seqpacket_pair(int fds[2]) { return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds); }

int dsa_send_cgroup_join(int go_fd, const int *fds, int count) {
  if (count < 1 || count > 3) {
    errno = EINVAL;
    return -1;
  }
  char tag = 'c';
  return send_with_descriptors(go_fd, &tag, 1, fds, count) == 1 ? 0 : -1;
}

int dsa_pidfd_send_signal(int pidfd, int signal) {
  return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
}

int dsa_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

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

// ---- Warm boxes: the parent's side of the command channel.

size_t dsa_encode_run_command(void *buffer, size_t capacity, const struct dsa_run_command *header,
                              const struct dsa_rlimit *rlimits, const void *filter, const char *working_directory,
                              const char *const *argv, const char *const *envp) {
  unsigned char *out = buffer;
  size_t used = 0;
#define DSA_APPEND(source, count)                      \
  do {                                                 \
    size_t dsa_count = (count);                        \
    if (used + dsa_count > capacity) return 0;         \
    memcpy(out + used, (source), dsa_count);           \
    used += dsa_count;                                 \
  } while (0)
  DSA_APPEND(header, sizeof *header);
  DSA_APPEND(rlimits, header->rlimit_count * sizeof(struct dsa_rlimit));
  DSA_APPEND(filter, (size_t)header->filter_length * 8);
  DSA_APPEND(working_directory, strlen(working_directory) + 1);
  for (uint32_t i = 0; i < header->argument_count; i++) DSA_APPEND(argv[i], strlen(argv[i]) + 1);
  for (uint32_t i = 0; i < header->environment_count; i++) DSA_APPEND(envp[i], strlen(envp[i]) + 1);
#undef DSA_APPEND
  return used;
}

int dsa_send_run_command(int control_fd, const void *buffer, size_t length, int stdin_fd, int stdout_fd,
                         int stderr_fd) {
  int fds[3] = {stdin_fd, stdout_fd, stderr_fd};
  return send_with_descriptors(control_fd, buffer, length, fds, 3) == (ssize_t)length ? 0 : -1;
}

int dsa_send_kill(int control_fd) {
  ssize_t sent = send(control_fd, "K", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
  return sent == 1 ? 0 : -1;
}

int dsa_send_signal(int control_fd, int signal) {
  if (signal < 1 || signal > 64) {
    errno = EINVAL;
    return -1;
  }
  char command[2] = {'S', (char)signal};
  ssize_t sent = send(control_fd, command, sizeof command, MSG_NOSIGNAL | MSG_DONTWAIT);
  return sent == (ssize_t)sizeof command ? 0 : -1;
}

int dsa_control_socketpair(int fds[2]) {
  if (dsa_seqpacket_pair(fds) != 0) return -1;
  int size = DSA_COMMAND_MAXIMUM_BYTES + 4096;
  setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
  setsockopt(fds[1], SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  return 0;
}

int dsa_receive_terminal(int socket_fd, int timeout_ms, void *record, size_t record_size, size_t *record_length) {
  *record_length = 0;
  struct pollfd entry = {.fd = socket_fd, .events = POLLIN};
  int ready;
  do {
    ready = poll(&entry, 1, timeout_ms);
  } while (ready < 0 && errno == EINTR);
  if (ready < 0) return -1;
  if (ready == 0) {
    errno = ETIMEDOUT;
    return -1;
  }
  int fds[3] = {-1, -1, -1};
  int fd_count = 0, flags = 0;
  ssize_t length = receive_with_descriptors(socket_fd, record, record_size, MSG_DONTWAIT, fds, &fd_count, &flags);
  if (length < 0) return -1;
  if (length == 1 && ((const char *)record)[0] == 'T' && fd_count == 1 && !(flags & MSG_CTRUNC)) return fds[0];
  for (int i = 0; i < fd_count; i++) close(fds[i]);
  if (length == 0) {
    errno = EPIPE;
    return -1;
  }
  *record_length = (size_t)length;
  errno = EPROTO;
  return -1;
}
