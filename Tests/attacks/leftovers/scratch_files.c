// attack: leave files, a directory tree and a symlink in /box, /tmp and /dev/shm for the idle warm box to keep in RAM
// expect: status in [ok]; stdout contains "wrote"
// follow-up: status in [ok]; stdout contains "clean"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
  const char *places[] = {"/box", "/tmp", "/dev/shm"};
  if (argc > 1 && strcmp(argv[1], "follow-up") == 0) {
    int left = 0;
    for (int i = 0; i < 3; i++) {
      DIR *directory = opendir(places[i]);
      struct dirent *entry;
      while (directory && (entry = readdir(directory)) != NULL) {
        if (strncmp(entry->d_name, "left-", 5) == 0) {
          printf("LEFT %s/%s\n", places[i], entry->d_name);
          left = 1;
        }
      }
      if (directory) closedir(directory);
    }
    if (!left) printf("clean\n");
    return 0;
  }
  char *block = (char *)malloc(1 << 20);
  memset(block, 1, 1 << 20);
  for (int i = 0; i < 3; i++) {
    char path[64];
    snprintf(path, sizeof path, "%s/left-data", places[i]);
    FILE *file = fopen(path, "wb");
    for (int megabyte = 0; file && megabyte < (i == 2 ? 8 : 12); megabyte++) fwrite(block, 1, 1 << 20, file);
    if (file) fclose(file);
  }
  mkdir("/box/left-tree", 0700);
  mkdir("/box/left-tree/a", 0700);
  symlink("/", "/tmp/left-link");
  printf("wrote\n");
  return 0;
}
