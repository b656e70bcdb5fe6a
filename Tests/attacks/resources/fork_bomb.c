// attack: fork bomb: processes that start processes forever, ignoring failures (here fork() in C)
// limits: cpu_ms=2000 wall_ms=4000
// expect: status in [ok, runtime_error, time_limit, memory_limit]; elapsed_s < 20
// survivors: atkbomb-c
#include <sys/prctl.h>
#include <unistd.h>

int main(void) {
  prctl(PR_SET_NAME, "atkbomb-c", 0, 0, 0);
  for (;;) fork();
}
