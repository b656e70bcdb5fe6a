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
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

// The program's own CPU time as its RLIMIT_CPU charges it: the process CPU clock CPUCLOCK_PROF
// (user + system time of its threads, counted in clock ticks), not the scheduler's nanoseconds
// that rusage and the cgroups report. On a busy host the two part by several percent, and the
// limit's SIGXCPU must come with a figure at or above the limit (docs/security.md). 0 if unreadable.
static int64_t program_rlimit_cpu_us(pid_t program) {
  // MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_PROF) of the kernel's posix-timers.h.
  clockid_t clock = (clockid_t)(~(unsigned)program << 3);
  struct timespec spent;
  if (clock_gettime(clock, &spent) != 0) return 0;
  return (int64_t)spent.tv_sec * 1000000 + spent.tv_nsec / 1000;
}

static void add_usage(struct dsa_report *record, const struct rusage *usage) {
  record->user_cpu_us += (int64_t)usage->ru_utime.tv_sec * 1000000 + usage->ru_utime.tv_usec;
  record->system_cpu_us += (int64_t)usage->ru_stime.tv_sec * 1000000 + usage->ru_stime.tv_usec;
  if (usage->ru_maxrss > record->max_rss_kb) record->max_rss_kb = usage->ru_maxrss;
}

int dsa_init_ipc_notices = -1;
int dsa_init_ipc_used;

// A call that makes an IPC object, sent by the init's filter: noted for the reset, then let through
// to the policy's own answer (the filter's notice decides nothing).
static void answer_ipc_notice(void) {
  struct seccomp_notif notice;
  memset(&notice, 0, sizeof notice);
  // ENOENT: the caller died (killed) before this; its call never ran.
  if (ioctl(dsa_init_ipc_notices, SECCOMP_IOCTL_NOTIF_RECV, &notice) != 0) return;
  dsa_init_ipc_used = 1;
  struct seccomp_notif_resp answer;
  memset(&answer, 0, sizeof answer);
  answer.id = notice.id;
  answer.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
  (void)ioctl(dsa_init_ipc_notices, SECCOMP_IOCTL_NOTIF_SEND, &answer);
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
    // Looked at before it is reaped: only then is the program's CPU clock still readable.
    siginfo_t ended;
    ended.si_pid = 0;
    pid_t reaped = -1;
    if (waitid(P_ALL, 0, &ended, WEXITED | WNOWAIT | __WALL | (signal_fd >= 0 ? WNOHANG : 0)) == 0) {
      reaped = ended.si_pid;
      if (reaped == program && !program_seen) record->program_rlimit_cpu_us = program_rlimit_cpu_us(program);
      if (reaped > 0) reaped = wait4(reaped, &status, __WALL, &usage);
    }
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
    struct pollfd waiting[3] = {
        {.fd = control_fd, .events = POLLIN},
        {.fd = signal_fd, .events = POLLIN},
        {.fd = dsa_init_ipc_notices, .events = POLLIN},
    };
    if (poll(waiting, 3, -1) < 0) continue;
    if (waiting[2].revents & POLLIN) answer_ipc_notice();
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
