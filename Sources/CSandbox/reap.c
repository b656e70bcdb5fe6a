// Reaping (child side: the init, from the program's start until its box is empty).
//
// The init is PID 1 of the box's pid namespace: every process of the box ends up its child. It
// reaps them all, adds up their CPU time and largest resident set for the report, and once the
// program itself has ended kills whatever it left. Meanwhile it takes a kill or a signal for the
// program from its command socket (warm boxes, one-shot live runs).
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void add_usage(struct dsa_report *record, const struct rusage *usage) {
  record->user_cpu_us += (int64_t)usage->ru_utime.tv_sec * 1000000 + usage->ru_utime.tv_usec;
  record->system_cpu_us += (int64_t)usage->ru_stime.tv_sec * 1000000 + usage->ru_stime.tv_usec;
  if (usage->ru_maxrss > record->max_rss_kb) record->max_rss_kb = usage->ru_maxrss;
}

// Reaps until the box is empty. Once the program itself has ended, whatever
// it left behind is killed. `control_fd` (warm boxes) may ask for a kill
// meanwhile; EOF on it means the parent is gone. With `signal_fd` -1 (no
// commands to take) the init only blocks in wait4.
void dsa_init_reap_box(long program, int control_fd, int signal_fd, struct dsa_report *record) {
  int program_seen = 0;
  for (;;) {
    int status = 0;
    struct rusage usage;
    pid_t reaped = wait4(-1, &status, __WALL | (signal_fd >= 0 ? WNOHANG : 0), &usage);
    if (reaped > 0) {
      add_usage(record, &usage);
      if (reaped == program && !program_seen) {
        program_seen = 1;
        record->wait_status = status;
        kill(-1, SIGKILL);
      }
      continue;
    }
    if (reaped < 0) {
      if (errno == EINTR) continue;
      return;  // ECHILD: nothing left in the box.
    }
    // Children remain (warm boxes only): wait for SIGCHLD or a command.
    struct pollfd waiting[2] = {{.fd = control_fd, .events = POLLIN}, {.fd = signal_fd, .events = POLLIN}};
    if (poll(waiting, 2, -1) < 0) continue;
    if (waiting[0].revents) {
      char command[16];
      ssize_t length = recv(control_fd, command, sizeof command, MSG_DONTWAIT);
      if (length == 0) {
        kill(-1, SIGKILL);
        _exit(0);
      }
      if (length > 0 && command[0] == 'K') kill(-1, SIGKILL);
      // Only while the program is unreaped: its pid (and so its group's id) is still its own.
      // The group, as a terminal's ^C reaches it; a program that left its group gets it alone.
      int signal_number = length == 2 ? (unsigned char)command[1] : 0;
      if (signal_number >= 1 && signal_number <= 64 && command[0] == 'S' && !program_seen) {
        if (kill(-(pid_t)program, signal_number) != 0) kill((pid_t)program, signal_number);
      }
    }
    if (waiting[1].revents) {
      struct signalfd_siginfo info[8];
      (void)!read(signal_fd, info, sizeof info);
    }
  }
}
