// attack: read the box init (a copy of the CLI or daemon process): its command line, environment, memory map, memory, auxv and links
// expect: status in [ok]; stdout contains "cmdline=dsa-box-init"; stdout lacks "dsa-run "; stdout lacks "--json"; stdout lacks "--config"; stdout lacks "READABLE"
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  char buffer[4096];
  int fd = open("/proc/1/cmdline", O_RDONLY);
  ssize_t length = fd >= 0 ? read(fd, buffer, sizeof buffer - 1) : -1;
  for (ssize_t i = 0; i < length; i++)
    if (buffer[i] == 0) buffer[i] = ' ';
  if (length >= 0) buffer[length] = 0;
  printf("cmdline=%s\n", length >= 0 ? buffer : "(unreadable)");
  const char *secrets[] = {"environ", "maps", "mem", "auxv", "stack", "syscall", "smaps", "pagemap", "io"};
  for (unsigned i = 0; i < sizeof secrets / sizeof secrets[0]; i++) {
    char path[64];
    snprintf(path, sizeof path, "/proc/1/%s", secrets[i]);
    fd = open(path, O_RDONLY);
    if (fd >= 0 && read(fd, buffer, 64) > 0) printf("READABLE %s\n", path);
    if (fd >= 0) close(fd);
  }
  const char *links[] = {"exe", "cwd", "root", "fd/3"};
  for (unsigned i = 0; i < sizeof links / sizeof links[0]; i++) {
    char path[64];
    snprintf(path, sizeof path, "/proc/1/%s", links[i]);
    ssize_t n = readlink(path, buffer, sizeof buffer - 1);
    if (n > 0) {
      buffer[n] = 0;
      printf("link %s -> %s\n", path, buffer);
    }
  }
  return 0;
}
