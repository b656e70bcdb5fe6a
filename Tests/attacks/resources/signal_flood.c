// attack: queue blocked real-time signals to ourselves until the kernel refuses (about 96,000 charged to root made root's timer_create and sigqueue fail with EAGAIN)
// expect: status in [ok]; stdout matches "queued ([0-9]{1,3}|10[01][0-9]|102[0-4]) "; stdout contains "held"
// during: root_quota
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(void) {
  sigset_t set;
  sigemptyset(&set);
  for (int signal_number = SIGRTMIN; signal_number <= SIGRTMAX; signal_number++) sigaddset(&set, signal_number);
  sigprocmask(SIG_BLOCK, &set, NULL);
  int queued = 0;
  union sigval value = {0};
  for (int signal_number = SIGRTMIN; queued < 200000; signal_number = signal_number == SIGRTMAX ? SIGRTMIN : signal_number + 1) {
    if (sigqueue(getpid(), signal_number, value) != 0) break;
    queued++;
  }
  int error = errno;
  timer_t timer;
  int timers = 0;
  while (timers < 10000 && timer_create(CLOCK_MONOTONIC, NULL, &timer) == 0) timers++;
  printf("queued %d (%s), then %d timers\n", queued, strerror(error), timers);
  fflush(stdout);
  sleep(2);  // hold them while the host checks root's own
  printf("held\n");
  return 0;
}
