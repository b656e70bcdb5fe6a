// The clone (parent side): dsa_spawn, on the calling thread, makes the box's init in fresh
// namespaces, as the box root's host uid (user.c), in a prepared network namespace when there is
// one (netns.c), inside its cgroup v2 group when there is one. The child is forked and runs
// dsa_init_run (init.c) at once, or, with inits started by exec, execs this binary (init_exec.c),
// whose constructor runs it.
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

int dsa_spawn(const struct dsa_spawn_plan *plan, pid_t *pid_out, int *pidfd_out) {
  int pidfd = -1;
  // Entered before the owner's uid is taken: setns needs CAP_SYS_ADMIN.
  int original_network = -1;
  if (plan->network_namespace_fd >= 0) {
    int error = dsa_parent_enter_network_namespace(plan->network_namespace_fd, &original_network);
    if (error != 0) return error;
  }
  int owned = plan->user_namespace_owner != 0 && geteuid() == 0;
  int exec_init = dsa_parent_init_executable() >= 0;
  // The real uid goes back too when it was changed; -1 leaves it.
  long real_after = exec_init ? 0L : -1L;
  if (owned && dsa_parent_become_owner(plan->user_namespace_owner, exec_init) != 0) {
    int error = errno;
    // Back to uid 0, which also gives back the effective capabilities.
    (void)syscall(SYS_setresuid, real_after, 0, -1);
    dsa_parent_return_to_network_namespace(original_network);
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
    pid = dsa_parent_clone_exec_init(&args, plan);
  } else {
    pid = syscall(SYS_clone3, &args, sizeof args);
    if (pid == 0) dsa_init_run(plan);
  }
  int error = errno;
  // Going back to euid 0 makes the effective capabilities the permitted
  // set again; it cannot fail, since the saved uid is 0.
  if (owned && syscall(SYS_setresuid, real_after, 0, -1) != 0) abort();
  dsa_parent_return_to_network_namespace(original_network);
  if (pid < 0) return error;
  *pid_out = (pid_t)pid;
  *pidfd_out = pidfd;
  return 0;
}
