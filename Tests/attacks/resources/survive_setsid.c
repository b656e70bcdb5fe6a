// attack: outlive the box: double fork, setsid, SIGHUP and SIGTERM ignored, sleeping on after the program exits
// expect: status in [ok]; stdout contains "alive in box"
// survivors: atksv-c
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(void) {
  if (fork() == 0) {
    setsid();
    if (fork() == 0) {
      signal(SIGHUP, SIG_IGN);
      signal(SIGTERM, SIG_IGN);
      prctl(PR_SET_NAME, "atksv-c", 0, 0, 0);
      prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0);
      for (;;) pause();
    }
    _exit(0);
  }
  usleep(300000);
  // A warm box's pid namespace serves many runs, so pids are not small: walk /proc.
  DIR *proc = opendir("/proc");
  struct dirent *entry;
  char name[64], path[300];
  while (proc && (entry = readdir(proc)) != NULL) {
    snprintf(path, sizeof path, "/proc/%s/comm", entry->d_name);
    FILE *comm = fopen(path, "r");
    if (comm == NULL) continue;
    if (fgets(name, sizeof name, comm) && strncmp(name, "atksv-c", 7) == 0) printf("alive in box as pid %s\n", entry->d_name);
    fclose(comm);
  }
  return 0;
}
