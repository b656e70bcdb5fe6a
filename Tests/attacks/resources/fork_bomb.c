// attack: fork bomb in C: fork forever from every process, ignoring failures
// limits: cpu_ms=2000 wall_ms=4000
// expect: status in [ok, runtime_error, time_limit, memory_limit]; elapsed_s < 20
// survivors: atkbomb-c
#include <sys/prctl.h>
#include <unistd.h>

int main(void) {
  prctl(PR_SET_NAME, "atkbomb-c", 0, 0, 0);
  for (;;) fork();
}
