// The box's init (child side): PID 1 of the box, from the clone (clone.c) or the exec
// (init_exec.c) to its _exit. set_up_box is what the box does before it runs a program, top to
// bottom, one step per line; each step lives in its facility's file (spawn_internal.h). Then the
// init runs the plan's one program (run_once, below) or serves a warm box's runs
// (dsa_init_serve, warm_commands.c).
//
// Allocation-free, raw system calls only: the daemon's init is a copy of a multi-threaded parent.
// Every failure is reported as the fixed {step, errno} record (report.c) before _exit(127).
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

// The parent writes our uid/gid maps, then sends one byte. EOF means the
// parent died or gave up before that.
static void wait_for_go(const struct dsa_spawn_plan *plan) {
  char go = 0;
  ssize_t got;
  do {
    got = read(plan->go_fd, &go, 1);
  } while (got < 0 && errno == EINTR);
  if (got != 1) {
    errno = got == 0 ? EPIPE : errno;
    dsa_child_fail(plan->program.report_fd, DSA_STEP_WAIT_FOR_PARENT, -1);
  }
}

// The parent keeps the go pair's end open for the box's whole life, so a hang-up there means it
// is gone (and died before the parent-death signal was armed again).
static void exit_if_parent_gone(const struct dsa_spawn_plan *plan) {
  struct pollfd parent = {.fd = plan->go_fd, .events = POLLIN};
  if (poll(&parent, 1, 0) != 0 && (parent.revents & POLLHUP)) _exit(1);
}

static void set_hostname(const struct dsa_spawn_plan *plan) {
  if (plan->hostname != NULL && sethostname(plan->hostname, strlen(plan->hostname)) != 0)
    dsa_child_fail(plan->program.report_fd, DSA_STEP_SETHOSTNAME, -1);
}

// The checklist: the box's set-up, in order. The comments name the file of each step.
static void set_up_box(const struct dsa_spawn_plan *plan) {
  int report_fd = plan->program.report_fd;
  dsa_child_arm_parent_death(report_fd);                         // signals.c
  dsa_init_forget_parent_strings();                              // cmdline.c
  dsa_init_reset_signals();                                      // signals.c
  dsa_init_keep_only_own_fds(plan);                              // fds.c
  if (!plan->cgroup_join_late) dsa_init_join_cgroups(plan);      // cgroups.c: fds given at the clone
  wait_for_go(plan);                                             // until the parent wrote the uid/gid maps
  dsa_init_become_box_root(report_fd);                           // user.c
  dsa_child_arm_parent_death(report_fd);                         // again: the uid change cleared it
  exit_if_parent_gone(plan);                                     // if it died before that
  if (!plan->cgroup_join_late) close(plan->go_fd);
  dsa_init_write_user_sysctls(plan);                             // user.c: while the host's /proc is there
  dsa_init_build_file_system(plan);                              // mounts.c: mounts, pivot_root
  set_hostname(plan);
  if (plan->cgroup_join_late) dsa_init_join_late_cgroups(plan);  // cgroups.c: made meanwhile
  dsa_init_unshare_cgroup_namespace(report_fd);                  // cgroups.c: after every join
  dsa_init_drop_bounding_set(report_fd);                         // user.c
}

// A one-shot box: its one program, reaped with everything it started, then the report.
__attribute__((noreturn)) static void run_once(const struct dsa_spawn_plan *plan) {
  struct dsa_program program = plan->program;
  int slave = -1;
  if (plan->terminal_fd >= 0) {
    slave = dsa_init_open_terminal(plan->terminal_fd);
    if (slave < 0) dsa_child_fail(plan->program.report_fd, DSA_STEP_TERMINAL, -1);
    close(plan->terminal_fd);
    program.stdin_fd = program.stdout_fd = program.stderr_fd = slave;
    program.terminal = 1;
  }
  // A live run takes commands while its program runs (dsa_init_reap_box), woken by SIGCHLD
  // through a signalfd.
  int signal_fd = -1;
  if (plan->command_fd >= 0) {
    signal_fd = dsa_init_child_signal_fd();
    if (signal_fd < 0) dsa_child_fail(plan->program.report_fd, DSA_STEP_SERVE, -1);
  }
  long pid = dsa_init_start_program(&program);
  if (pid < 0) dsa_child_fail(plan->program.report_fd, DSA_STEP_FORK_PROGRAM, -1);

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
  dsa_init_reap_box(pid, plan->command_fd, signal_fd, &record);
  dsa_init_send_report(plan->program.report_fd, &record);
  _exit(0);
}

void dsa_init_run(const struct dsa_spawn_plan *plan) {
  set_up_box(plan);
  if (plan->serve) dsa_init_serve(plan);
  run_once(plan);
}
