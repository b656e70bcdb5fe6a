// attack: exhaust the inodes and space of /box and /tmp with hundreds of thousands of small files
// limits: cpu_ms=4000 wall_ms=8000
// expect: status in [ok, time_limit]; stdout matches "/box: [0-9]+ files"; stdout matches "/tmp: [0-9]+ files"; elapsed_s < 20
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  const char *directories[] = {"/box", "/tmp"};
  for (int d = 0; d < 2; d++) {
    char path[64];
    long made = 0;
    for (; made < 1000000; made++) {
      snprintf(path, sizeof path, "%s/f%ld", directories[d], made);
      int fd = open(path, O_CREAT | O_WRONLY, 0644);
      if (fd < 0) break;
      write(fd, "0123456789", 10);
      close(fd);
    }
    printf("%s: %ld files\n", directories[d], made);
    fflush(stdout);
  }
  return 0;
}
