// attack: outlive the box: double fork, setsid, ignore SIGHUP/SIGTERM, and sleep on after the program exits
// expect: status in [ok]; stdout contains "alive in box"
// survivors: atksv-c
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
  FILE *comm;
  char name[64], path[64];
  for (int pid = 2; pid < 64; pid++) {
    snprintf(path, sizeof path, "/proc/%d/comm", pid);
    if ((comm = fopen(path, "r")) != NULL) {
      if (fgets(name, sizeof name, comm) && strncmp(name, "atksv-c", 7) == 0) printf("alive in box as pid %d\n", pid);
      fclose(comm);
    }
  }
  return 0;
}
