// cgroups (child side: the init's set-up; dsa_send_cgroup_join is the parent's).
//
// v2 boxes start inside their group (CLONE_INTO_CGROUP, clone.c). v1 groups are joined by the
// init itself, only itself: a thread moving itself skips the threadgroup lock (see
// dsa_spawn_plan.cgroup_join_fds). Either before the go byte, with fds given at the clone, or, for
// a one-shot box (`cgroup_join_late`), after the file system is built, with fds the parent sends
// on the go pair once it made the groups meanwhile. Then a cgroup namespace of the box's own.
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// Init side

// Moves the init into each v1 group, and closes the fds.
static void join_cgroups(int report_fd, const int32_t *fds, int32_t count) {
  for (int32_t i = 0; i < count && i < 3; i++) {
    ssize_t written;
    do {
      written = write(fds[i], "0", 1);
    } while (written < 0 && errno == EINTR);
    if (written != 1) dsa_child_fail(report_fd, DSA_STEP_JOIN_CGROUP, i);
    close(fds[i]);
  }
}

void dsa_init_join_cgroups(const struct dsa_spawn_plan *plan) {
  join_cgroups(plan->program.report_fd, plan->cgroup_join_fds, plan->cgroup_join_count);
}

// The parent's "c" message on the go pair with exactly `count` fds
// (dsa_send_cgroup_join). 0, or -1 with errno (EPIPE: the parent hung up;
// EPROTO: anything else arrived).
static int receive_cgroup_join(int go_fd, int fds[3], int32_t count) {
  char tag = 0;
  int received = 0, flags = 0;
  ssize_t got = dsa_recvmsg_fds(go_fd, &tag, 1, 0, fds, &received, &flags);
  if (got < 0) return -1;
  if (got == 1 && tag == 'c' && received == count && !(flags & MSG_CTRUNC) && count <= 3) return 0;
  for (int i = 0; i < received; i++) close(fds[i]);
  errno = got == 0 ? EPIPE : EPROTO;
  return -1;
}

// The parent made the groups meanwhile, on the other CPU.
void dsa_init_join_late_cgroups(const struct dsa_spawn_plan *plan) {
  int report_fd = plan->program.report_fd;
  int fds[3] = {-1, -1, -1};
  if (receive_cgroup_join(plan->go_fd, fds, plan->cgroup_join_count) != 0)
    dsa_child_fail(report_fd, DSA_STEP_WAIT_FOR_PARENT, -1);
  close(plan->go_fd);
  join_cgroups(report_fd, fds, plan->cgroup_join_count);
}

// Unshared after joining the cgroups, so the box's cgroup root is its own.
void dsa_init_unshare_cgroup_namespace(int report_fd) {
  if (unshare(CLONE_NEWCGROUP) != 0) dsa_child_fail(report_fd, DSA_STEP_UNSHARE_CGROUP, -1);
}

// ---------------------------------------------------------------------------
// Parent side

int dsa_send_cgroup_join(int go_fd, const int *fds, int count) {
  if (count < 1 || count > 3) {
    errno = EINVAL;
    return -1;
  }
  char tag = 'c';
  return dsa_sendmsg_fds(go_fd, &tag, 1, fds, count) == 1 ? 0 : -1;
}
