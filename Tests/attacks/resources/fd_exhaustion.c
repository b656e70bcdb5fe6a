// attack: exhaust file descriptors (here /dev/null, Unix sockets, pipes, epoll and eventfd, in several processes)
// expect: status in [ok]; stdout contains "EMFILE"; stdout matches "opened [0-9]{2,3} descriptors"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  pid_t children[4];
  for (int i = 0; i < 4; i++) {
    children[i] = fork();
    if (children[i] == 0) {
      int fds[2];
      while (pipe(fds) == 0 && eventfd(0, 0) >= 0 && epoll_create1(0) >= 0) {}
      _exit(0);
    }
  }
  int opened = 0;
  for (;;) {
    int fd = opened % 2 ? open("/dev/null", O_RDONLY) : socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) {
      printf("opened %d descriptors, then %s\n", opened, errno == EMFILE ? "EMFILE" : strerror(errno));
      break;
    }
    opened++;
  }
  for (int i = 0; i < 4; i++) waitpid(children[i], 0, 0);
  return 0;
}
