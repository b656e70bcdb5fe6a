// attack: reach the network: TCP to a host listener, the daemon and the internet; UDP; raw, ICMP, packet and netlink sockets; the daemon's Unix socket; a host abstract Unix socket
// expect: status in [ok]; stdout lacks "CONNECTED"; stdout lacks "SENT"; stdout lacks "OPENED"; stdout contains "done"
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static void tcp(const char *address, int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    printf("tcp %s:%d socket refused: %s\n", address, port, strerror(errno));
    return;
  }
  struct sockaddr_in target;
  memset(&target, 0, sizeof target);
  target.sin_family = AF_INET;
  target.sin_port = htons((unsigned short)port);
  inet_pton(AF_INET, address, &target.sin_addr);
  printf("tcp %s:%d %s\n", address, port, connect(fd, (struct sockaddr *)&target, sizeof target) == 0 ? "CONNECTED" : strerror(errno));
}

static void unix_connect(const char *path, int abstract) {
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un target;
  memset(&target, 0, sizeof target);
  target.sun_family = AF_UNIX;
  strncpy(target.sun_path + abstract, path, sizeof target.sun_path - 2);
  socklen_t length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + abstract + strlen(path));
  printf("unix %s%s %s\n", abstract ? "@" : "", path, connect(fd, (struct sockaddr *)&target, length) == 0 ? "CONNECTED" : strerror(errno));
  close(fd);
}

int main(void) {
  tcp("127.0.0.1", @HOST_TCP_PORT@);
  tcp("127.0.0.1", @DAEMON_PORT@);
  tcp("10.0.2.2", 22);
  static const struct { const char *name; int family, type, protocol; } kinds[] = {
      {"udp", AF_INET, SOCK_DGRAM, 0}, {"raw icmp", AF_INET, SOCK_RAW, IPPROTO_ICMP},
      {"ping", AF_INET, SOCK_DGRAM, IPPROTO_ICMP}, {"raw6", AF_INET6, SOCK_RAW, 58},
      {"packet", AF_PACKET, SOCK_RAW, 0}, {"netlink", AF_NETLINK, SOCK_RAW, 0}, {"bluetooth", 31, SOCK_STREAM, 0},
      {"alg", 38, SOCK_SEQPACKET, 0}, {"vsock", 40, SOCK_STREAM, 0}, {"xdp", 44, SOCK_RAW, 0}};
  for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    int fd = socket(kinds[i].family, kinds[i].type, kinds[i].protocol);
    printf("%s %s\n", kinds[i].name, fd >= 0 ? "OPENED" : strerror(errno));
  }
  int udp = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in target;
  memset(&target, 0, sizeof target);
  target.sin_family = AF_INET;
  target.sin_port = htons(@HOST_UDP_PORT@);
  inet_pton(AF_INET, "127.0.0.1", &target.sin_addr);
  if (udp >= 0 && sendto(udp, "x", 1, 0, (struct sockaddr *)&target, sizeof target) == 1) puts("udp SENT");
  unix_connect("@DAEMON_SOCKET@", 0);
  unix_connect("@HOST_UNIX_SOCKET@", 0);
  unix_connect("@HOST_ABSTRACT_SOCKET@", 1);  // abstract names belong to the network namespace
  puts("done");
  return 0;
}
