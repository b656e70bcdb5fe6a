// attack: sleep past the wall-clock limit without using CPU (here blocked on stdin, then pause() in a child it waits for)
// limits: wall_ms=2000
// expect: status in [time_limit]; elapsed_s < 8
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  char buffer[16];
  while (read(0, buffer, sizeof buffer) > 0) {}
  if (fork() == 0) for (;;) pause();
  wait(0);
  return 0;
}
