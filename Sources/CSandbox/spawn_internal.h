// What the files of CSandbox share; not part of the module's interface (that is csandbox.h).
//
// One file per facility, as nsjail's, each opening with what it owns and on which side of the
// clone it runs. A name says the side:
//   dsa_parent_*   the Swift process (dsa_spawn's thread, for the clone).
//   dsa_init_*     the box's init, PID 1 of the box, from the clone (or the exec, init_exec.c) to
//                  its _exit. The daemon's is a copy of a multi-threaded parent: no allocation, no
//                  locks, raw system calls only, failures as the fixed {step, errno} record.
//   dsa_child_*    either child: the init, or the program before its execve.
//   dsa_sendmsg_fds, dsa_recvmsg_fds   both sides.
// Hidden, so every call between these files is a direct call, as between the static functions
// of one file: nothing in a child goes through the PLT or the dynamic loader.
//
// The box's life, in the order it runs (init.c's set_up_box is the init's checklist):
//   clone.c          parent  dsa_spawn: the clone into the box's namespaces (init_exec.c: by exec)
//   signals.c        init    the parent-death signal; every signal at its default
//   cmdline.c        init    its copy of the parent's arguments and environment wiped
//   fds.c            init    only the box's own fds kept
//   cgroups.c        init    v1 groups joined (at once, or "late": after the file system)
//   user.c           init    root of the box once the parent wrote the maps; user-namespace limits
//   mounts.c         init    the file system built, pivot_root
//   cgroups.c        init    a cgroup namespace of its own
//   user.c           init    an empty capability bounding set
//   pty.c            init    a live run's terminal, its master sent to the parent
//   program.c        init    the program started; then, in the program, its last steps and execve
//   reap.c           init    every process reaped until the box is empty; kills and signals
//   report.c         init, program   the records on the report fd
//   warm_commands.c  init    a warm box's runs, one command at a time (and the parent's encoder)
//   warm_reset.c     init    a warm box's IPC objects, IPC namespace and pid counter after each run
// Parent side only: netns.c (a network namespace made ahead), syscalls.c (shims for Swift).
#ifndef CSANDBOX_SPAWN_INTERNAL_H
#define CSANDBOX_SPAWN_INTERNAL_H

#include "csandbox.h"

#include <sys/types.h>

struct clone_args;

#pragma GCC visibility push(hidden)

// ---- init.c

/// Init: the box's whole life (set-up checklist, then one run or serving runs); never returns.
/// Called in the forked clone (clone.c) or by init_exec.c's constructor after the exec.
__attribute__((noreturn)) void dsa_init_run(const struct dsa_spawn_plan *plan);

// ---- init_exec.c

/// Parent: the fd given to dsa_start_inits_by_exec, or -1: inits are then forked.
int dsa_parent_init_executable(void);

/// Parent, from dsa_spawn: clone3 with `args` (CLONE_VM, CLONE_VFORK and a stack are added) into a
/// child that execs the init binary with `plan`; the child's pid, or -1 with errno. A failure
/// after the clone reaches the parent as a DSA_STEP_EXEC_INIT report on `plan->program.report_fd`.
long dsa_parent_clone_exec_init(struct clone_args *args, const struct dsa_spawn_plan *plan);

// ---- report.c

/// Init or program: writes a DSA_REPORT_SETUP_FAILED record (`step`, `error`, `index`).
void dsa_child_report_failure(int report_fd, int step, int error, int index);

/// Init or program: reports `step` with the current errno and exits 127.
__attribute__((noreturn)) void dsa_child_fail(int report_fd, int step, int index);

/// Init, when the program's box is empty: the end-of-run record.
void dsa_init_send_report(int report_fd, const struct dsa_report *record);

// ---- signals.c

/// Init (first step, and again after the uid change cleared it) and program (the same twice):
/// SIGKILL when the parent thread dies.
void dsa_child_arm_parent_death(int report_fd);

/// Init, set-up: every signal at its default, none blocked (both survive the program's execve).
void dsa_init_reset_signals(void);

/// Init, before a program it reaps while reading commands: SIGCHLD blocked, and a signalfd
/// for it (non-blocking, close-on-exec); the fd, or -1 with errno.
int dsa_init_child_signal_fd(void);

// ---- cmdline.c

/// Init, set-up: overwrites its copy of the parent's arguments and environment, names itself
/// dsa-box-init.
void dsa_init_forget_parent_strings(void);

// ---- fds.c

/// Init, set-up: closes every fd but the box's own (stdio, report, go, terminal, command, the
/// cgroup fds it joins at once).
void dsa_init_keep_only_own_fds(const struct dsa_spawn_plan *plan);

/// Both sides: one message with `count` (at most 3) descriptors, one sendmsg retried on EINTR;
/// its length, or -1 with errno.
ssize_t dsa_sendmsg_fds(int socket_fd, const void *bytes, size_t length, const int *fds, int count);

/// Both sides: one message into `bytes` with at most 3 descriptors (close-on-exec), one recvmsg
/// retried on EINTR; the fds in `fds`, their number in `*fd_count`, the message's flags in
/// `*message_flags` (MSG_CTRUNC: more came than fit, and none of the rest was installed).
/// recvmsg's length, or -1 with errno.
ssize_t dsa_recvmsg_fds(int socket_fd, void *bytes, size_t length, int flags, int fds[3], int *fd_count,
                        int *message_flags);

// ---- cgroups.c

/// Init, set-up, before the go byte (not `cgroup_join_late`): joins the plan's v1 groups.
void dsa_init_join_cgroups(const struct dsa_spawn_plan *plan);

/// Init, set-up, after the file system (`cgroup_join_late`): takes the groups' fds from the
/// parent's "c" message on the go pair, closes the pair, joins them.
void dsa_init_join_late_cgroups(const struct dsa_spawn_plan *plan);

/// Init, set-up, after every join: a cgroup namespace of its own.
void dsa_init_unshare_cgroup_namespace(int report_fd);

// ---- user.c

/// Parent, around dsa_spawn's clone: this thread alone takes `owner` as effective uid (and real
/// uid for an exec'd init) with its effective capabilities raised again; 0, or -1 with errno.
int dsa_parent_become_owner(uint32_t owner, int exec_init);

/// Init, set-up, once the parent wrote the maps: uid and gid 0 of the box.
void dsa_init_become_box_root(int report_fd);

/// Init, set-up, before pivot_root (the host's /proc): the user namespace's own limits.
void dsa_init_write_user_sysctls(const struct dsa_spawn_plan *plan);

/// Init, set-up, last: an empty capability bounding set for every program.
void dsa_init_drop_bounding_set(int report_fd);

// ---- mounts.c

/// Init, set-up: the plan's file system on a fresh root tmpfs, pivoted into and made read-only.
void dsa_init_build_file_system(const struct dsa_spawn_plan *plan);

// ---- netns.c

/// Parent, from dsa_spawn before the owner's uid: moves the calling thread into `namespace_fd`;
/// `*original` is then an fd of its own namespace. 0, or an errno with nothing changed.
int dsa_parent_enter_network_namespace(int namespace_fd, int *original);

/// Parent, from dsa_spawn after the clone: back into `original` (or nothing for -1), closed.
void dsa_parent_return_to_network_namespace(int original);

// ---- pty.c

/// Init, before the program starts: a new pty on the box's devpts, its master sent on
/// `socket_fd` as a "T" message; the slave, or -1 with errno.
int dsa_init_open_terminal(int socket_fd);

// ---- program.c

/// Init: starts `program` (CLONE_VM | CLONE_VFORK on a stack of its own; the init waits until
/// the program execs or fails). The program's pid, or -1 with errno.
long dsa_init_start_program(const struct dsa_program *program);

// ---- reap.c

/// Init, while the program runs: reaps until the box is empty (killing what the program left once
/// it ended), adding every process's usage to `record`; takes kill and signal commands on
/// `control_fd` when `signal_fd` (dsa_init_child_signal_fd) is not -1.
void dsa_init_reap_box(long program, int control_fd, int signal_fd, struct dsa_report *record);

/// A warm box's init whose filter sends it the calls that make IPC objects (DSA_RUN_INIT_IPC_NOTICE):
/// the listener (-1 for none), and whether a call of the run went through since the last reset.
extern int dsa_init_ipc_notices;
extern int dsa_init_ipc_used;

// ---- warm_commands.c

/// Init of a warm box, after the set-up: serves run commands on its control socket, one at a
/// time, until the parent closes it; never returns.
__attribute__((noreturn)) void dsa_init_serve(const struct dsa_spawn_plan *plan);

// ---- warm_reset.c

/// Init of a warm box, before its first run: opens the pid namespace's counter.
void dsa_init_open_pid_counter(void);

/// Init of a warm box, with the box empty after a run, after the run's report: removes every SysV IPC
/// object and replaces the IPC namespace (unless the init is told of every call that makes one and
/// none went through), rewinds the pid counter. The failing DSA_RESET_* step (errno set), or 0.
int dsa_init_reset_after_run(void);

#pragma GCC visibility pop

#endif
