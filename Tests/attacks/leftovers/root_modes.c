// attack: chmod /box and /dev/shm to 0 and /tmp to 0500 (also setuid/sticky bits), so later runs on this warm box cannot compile or read their files
// expect: status in [ok]; stdout contains "changed"
// follow-up: status in [ok]; stdout contains "clean"
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
  const char *roots[] = {"/box", "/tmp", "/dev/shm"};
  if (argc > 1 && strcmp(argv[1], "follow-up") == 0) {
    int clean = 1;
    for (int i = 0; i < 3; i++) {
      char path[64];
      snprintf(path, sizeof path, "%s/probe", roots[i]);
      int fd = open(path, O_WRONLY | O_CREAT, 0600);
      // A fresh box's roots are the program's to read, write and search (0700 warm, 1777 one-shot).
      if (access(roots[i], R_OK | W_OK | X_OK) != 0 || fd < 0) {
        struct stat info;
        stat(roots[i], &info);
        printf("LEFT %s mode %o\n", roots[i], (unsigned)(info.st_mode & 07777));
        clean = 0;
      }
      if (fd >= 0) close(fd);
    }
    if (clean) printf("clean\n");
    return 0;
  }
  chmod("/tmp", 04500);
  chmod("/dev/shm", 01000);
  chmod("/box", 0);
  printf("changed\n");
  return 0;
}
