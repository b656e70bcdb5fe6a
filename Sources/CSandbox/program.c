// The program: how the init starts it (init side), and its last steps before execve (the program's
// side, a child of the init sharing its memory until the execve).
//
// become_program is the program's checklist: fds, session and terminal, working directory,
// rlimits, identity (which drops every capability), no_new_privs, seccomp, execve.
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// The program's side: last steps before execve

static int move_high(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 64); }

__attribute__((noreturn)) static void become_program(const struct dsa_program *program) {
  int report_fd = program->report_fd;
  dsa_child_arm_parent_death(report_fd);
  // Dispositions were reset by the init; the init's blocked SIGCHLD is not
  // the program's business.
  sigset_t empty;
  sigemptyset(&empty);
  sigprocmask(SIG_SETMASK, &empty, NULL);

  // Move every fd we keep above the standard ones before dup2, so no dup2
  // overwrites a source that has not been copied yet.
  int in = move_high(program->stdin_fd), out = move_high(program->stdout_fd), err = move_high(program->stderr_fd);
  int report = move_high(report_fd);
  if (in < 0 || out < 0 || err < 0 || report < 0) dsa_child_fail(report_fd, DSA_STEP_DUP_FDS, -1);
  report_fd = report;
  if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) dsa_child_fail(report_fd, DSA_STEP_DUP_FDS, -1);
  if (dup3(report, 3, O_CLOEXEC) < 0) dsa_child_fail(report_fd, DSA_STEP_DUP_FDS, -1);
  report_fd = 3;
  if (syscall(SYS_close_range, 4U, ~0U, 0U) != 0) dsa_child_fail(report_fd, DSA_STEP_CLOSE_FDS, -1);

  if (setsid() < 0) dsa_child_fail(report_fd, DSA_STEP_SETSID, -1);
  // The new session's terminal: ^C, ^Z and the line discipline act on this program's group.
  if (program->terminal && ioctl(0, TIOCSCTTY, 0) != 0) dsa_child_fail(report_fd, DSA_STEP_CONTROLLING_TERMINAL, -1);
  if (chdir(program->working_directory) != 0) dsa_child_fail(report_fd, DSA_STEP_CHDIR, -1);

  for (int32_t i = 0; i < program->rlimit_count; i++) {
    struct rlimit64 value = {.rlim_cur = program->rlimits[i].soft, .rlim_max = program->rlimits[i].hard};
    // Under the init's filter, which refuses setting it, RLIMIT_CORE is the init's: set to this
    // value when it started serving.
    if (program->inherits_filter && program->rlimits[i].resource == RLIMIT_CORE &&
        value.rlim_cur == DSA_CORE_FILE_BYTES && value.rlim_max == DSA_CORE_FILE_BYTES)
      continue;
    if (syscall(SYS_prlimit64, 0, program->rlimits[i].resource, &value, NULL) != 0)
      dsa_child_fail(report_fd, DSA_STEP_SETRLIMIT, i);
  }

  // Leaving uid 0 of the box's user namespace clears every capability.
  if (syscall(SYS_setgroups, 0, NULL) != 0) dsa_child_fail(report_fd, DSA_STEP_SETGROUPS, -1);
  if (syscall(SYS_setresgid, program->gid, program->gid, program->gid) != 0)
    dsa_child_fail(report_fd, DSA_STEP_SETRESGID, -1);
  if (syscall(SYS_setresuid, program->uid, program->uid, program->uid) != 0)
    dsa_child_fail(report_fd, DSA_STEP_SETRESUID, -1);
  // The uid change cleared the parent-death signal set above.
  dsa_child_arm_parent_death(report_fd);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) dsa_child_fail(report_fd, DSA_STEP_NO_NEW_PRIVS, -1);

  if (program->seccomp_filter != NULL) {
    struct sock_fprog filter = {
        .len = program->seccomp_filter_length,
        .filter = (struct sock_filter *)program->seccomp_filter,
    };
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &filter) != 0) dsa_child_fail(report_fd, DSA_STEP_SECCOMP, -1);
  }

  // ETXTBSY: a process this one did not start (a test's ChildProcess, an operator's tool)
  // forked while the program file was open for writing and holds that descriptor until its own
  // exec; SpawnLock covers only our clones. The window is short, but a loaded host can stretch it:
  // up to a second of waits, spent only when the file is busy.
  for (int attempt = 0; attempt < 200; attempt++) {
    syscall(SYS_execve, program->argv[0], program->argv, program->envp);
    if (errno != ETXTBSY) break;
    struct timespec pause = {.tv_sec = 0, .tv_nsec = 5 * 1000 * 1000};
    syscall(SYS_nanosleep, &pause, NULL);
  }
  dsa_child_fail(report_fd, DSA_STEP_EXECVE, -1);
}

// ---------------------------------------------------------------------------
// Init side

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

long dsa_init_start_program(const struct dsa_program *program) {
  starting_program = program;
  return clone(program_entry, program_stack + sizeof program_stack, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
}
