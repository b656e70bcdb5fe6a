// Signals (child side): the parent-death signal the init and the program arm, the dispositions
// and mask every program starts from (the init resets them once, at its set-up), and the SIGCHLD
// signalfd an init waits on when it also reads commands while its program runs.
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>

void dsa_child_arm_parent_death(int report_fd) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) dsa_child_fail(report_fd, DSA_STEP_PDEATHSIG, -1);
}

// The parent thread may block signals or ignore SIGPIPE, and both survive
// execve; the program starts with every signal at its default.
void dsa_init_reset_signals(void) {
  struct sigaction default_action;
  memset(&default_action, 0, sizeof default_action);
  default_action.sa_handler = SIG_DFL;
  for (int signal_number = 1; signal_number < 65; signal_number++) {
    if (signal_number != SIGKILL && signal_number != SIGSTOP) sigaction(signal_number, &default_action, NULL);
  }
  sigset_t empty;
  sigemptyset(&empty);
  sigprocmask(SIG_SETMASK, &empty, NULL);
}

// Blocked before the program starts, so no SIGCHLD is lost (the program unblocks it).
int dsa_init_child_signal_fd(void) {
  sigset_t child_signal;
  sigemptyset(&child_signal);
  sigaddset(&child_signal, SIGCHLD);
  sigprocmask(SIG_BLOCK, &child_signal, NULL);
  return signalfd(-1, &child_signal, SFD_CLOEXEC | SFD_NONBLOCK);
}
