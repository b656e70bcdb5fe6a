// File descriptors: which ones the init keeps (child side, at its set-up), and messages that
// carry descriptors over a SOCK_SEQPACKET pair (both sides: a run command's stdio and the cgroups
// to join going to the init, a terminal's master coming back), and the pairs themselves (parent).
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// Init side

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

void dsa_init_keep_only_own_fds(const struct dsa_spawn_plan *plan) {
  int32_t keep[10] = {plan->program.stdin_fd, plan->program.stdout_fd, plan->program.stderr_fd,
                      plan->program.report_fd, plan->go_fd, plan->terminal_fd, plan->command_fd, -1, -1, -1};
  if (!plan->cgroup_join_late)
    for (int32_t i = 0; i < plan->cgroup_join_count && i < 3; i++) keep[7 + i] = plan->cgroup_join_fds[i];
  if (close_all_except(keep, 10) != 0) dsa_child_fail(plan->program.report_fd, DSA_STEP_CLOSE_FDS, -1);
}

// ---------------------------------------------------------------------------
// Both sides: descriptors in messages

// One buffer and room for 3 descriptors: the message dsa_sendmsg_fds and
// dsa_recvmsg_fds hand to sendmsg and recvmsg.
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

// The receiving side of dsa_sendmsg_fds: the run command and its stdio, the cgroups to join, a
// terminal's master. A message with more descriptors than fit is cut (MSG_CTRUNC) and the kernel
// installs none of the rest.
ssize_t dsa_recvmsg_fds(int socket_fd, void *bytes, size_t length, int flags, int fds[3], int *fd_count,
                        int *message_flags) {
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

// The run command's stdio going to the init, the cgroups to join, and a terminal's master coming back.
ssize_t dsa_sendmsg_fds(int socket_fd, const void *bytes, size_t length, const int *fds, int count) {
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

// ---------------------------------------------------------------------------
// Parent side

int dsa_seqpacket_pair(int fds[2]) { return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds); }
