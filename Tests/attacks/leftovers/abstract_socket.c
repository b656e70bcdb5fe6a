// attack: keep an abstract Unix socket alive after every process is gone (sent in flight to itself with SCM_RIGHTS), as a covert channel to the next run in this warm box
// expect: status in [ok]; stdout contains "in flight"
// follow-up: status in [ok]; stdout contains "clean"
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv) {
  struct sockaddr_un address;
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  memcpy(address.sun_path + 1, "dsa-attack-covert", 17);
  socklen_t length = offsetof(struct sockaddr_un, sun_path) + 18;
  if (argc > 1 && strcmp(argv[1], "follow-up") == 0) {
    int client = socket(AF_UNIX, SOCK_STREAM, 0);
    printf(connect(client, (struct sockaddr *)&address, length) == 0 ? "LEFT: connected to the last run\n" : "clean\n");
    return 0;
  }
  int listener = socket(AF_UNIX, SOCK_STREAM, 0);
  if (bind(listener, (struct sockaddr *)&address, length) != 0 || listen(listener, 8) != 0) {
    perror("bind");
    return 1;
  }
  int pair[2];
  socketpair(AF_UNIX, SOCK_DGRAM, 0, pair);
  char control[CMSG_SPACE(2 * sizeof(int))];
  memset(control, 0, sizeof control);
  char byte = 'x';
  struct iovec vector = {&byte, 1};
  struct msghdr message;
  memset(&message, 0, sizeof message);
  message.msg_iov = &vector;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  struct cmsghdr *header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(2 * sizeof(int));
  int fds[2] = {pair[0], listener};
  memcpy(CMSG_DATA(header), fds, sizeof fds);
  // pair[0] travels in its own receive queue, with the listener: a cycle only the kernel's collector can end.
  if (sendmsg(pair[1], &message, 0) != 1) {
    perror("sendmsg");
    return 1;
  }
  close(pair[1]);
  close(listener);
  close(pair[0]);
  printf("in flight\n");
  return 0;
}
