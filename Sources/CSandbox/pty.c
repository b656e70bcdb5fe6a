// Terminals: a live run's pty (child side: the init opens it before the program starts, and sends
// the master out), and receiving that master (parent side, before the run's stdin flows).
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// Init side

// A run's terminal: a new pty of the box's own devpts instance, opened by the
// init (the box's root; ptmx is mode 0600, so the program cannot make ptys).
// The master goes to the parent, which alone holds it; the slave becomes the
// program's stdio. Returns the slave, or -1 with errno.
int dsa_init_open_terminal(int socket_fd) {
  int master = open("/dev/pts/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0) return -1;
  int unlock = 0;
  int slave = -1;
  if (ioctl(master, TIOCSPTLCK, &unlock) == 0) slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (slave >= 0) {
    char tag = 'T';
    ssize_t sent = dsa_sendmsg_fds(socket_fd, &tag, 1, &master, 1);
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

// ---------------------------------------------------------------------------
// Parent side

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
  ssize_t length = dsa_recvmsg_fds(socket_fd, record, record_size, MSG_DONTWAIT, fds, &fd_count, &flags);
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
