// attack: from C++: resolve names through the system resolver, then connect to every address found, the host listener and the daemon
// expect: status in [ok]; stdout lacks "CONNECTED"; stdout lacks "RESOLVED"; stdout contains "done"
#include <bits/stdc++.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

static void connect_to(const char *host, const char *port) {
  addrinfo hints{}, *found = nullptr;
  hints.ai_socktype = SOCK_STREAM;
  int error = getaddrinfo(host, port, &hints, &found);
  if (error != 0) {
    std::cout << host << ':' << port << " unresolved: " << gai_strerror(error) << '\n';
    return;
  }
  // localhost comes from the box's own /etc/hosts; any other name answered means a resolver was reached.
  if (std::strcmp(host, "localhost") != 0 && std::isalpha(static_cast<unsigned char>(host[0]))) std::cout << host << " RESOLVED\n";
  for (addrinfo *address = found; address; address = address->ai_next) {
    int fd = socket(address->ai_family, address->ai_socktype, address->ai_protocol);
    if (fd < 0) {
      std::cout << host << ':' << port << " socket refused: " << std::strerror(errno) << '\n';
      continue;
    }
    std::cout << host << ':' << port << (connect(fd, address->ai_addr, address->ai_addrlen) == 0 ? " CONNECTED" : " refused") << '\n';
    close(fd);
  }
  freeaddrinfo(found);
}

int main() {
  connect_to("example.com", "80");
  connect_to("localhost", "@DAEMON_PORT@");
  connect_to("127.0.0.1", "@HOST_TCP_PORT@");
  connect_to("::1", "@DAEMON_PORT@");
  std::cout << "done" << std::endl;
}
