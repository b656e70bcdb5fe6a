// Warm boxes' run commands: the parent encodes and sends them (parent side); the warm box's init,
// once its set-up is done, receives, decodes and runs them one at a time, until the parent closes
// the control socket (child side: dsa_init_serve). Kill and signal requests travel the same
// socket, or a one-shot live run's command pair.
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// Init side: serving runs

// Commands are copied here; the program's argv and envp point into it.
static unsigned char command_buffer[DSA_COMMAND_MAXIMUM_BYTES] __attribute__((aligned(16)));
static const char *command_pointers[2 * DSA_COMMAND_MAXIMUM_STRINGS + 2];

// Decodes a run command in place; 0 on success, an errno otherwise.
static int decode_command(size_t length, struct dsa_program *program, struct dsa_run_command *header) {
  if (length < sizeof *header) return EINVAL;
  memcpy(header, command_buffer, sizeof *header);
  if (header->magic != DSA_RUN_COMMAND_MAGIC) return EINVAL;
  if (header->argument_count < 1 || header->argument_count + header->environment_count > DSA_COMMAND_MAXIMUM_STRINGS)
    return E2BIG;
  if (header->rlimit_count > 16 || header->filter_length > 4096) return E2BIG;
  size_t offset = sizeof *header;
  size_t rlimit_bytes = (size_t)header->rlimit_count * sizeof(struct dsa_rlimit);
  size_t filter_bytes = (size_t)header->filter_length * 8;
  if (offset + rlimit_bytes + filter_bytes > length) return EINVAL;
  program->rlimits = (const struct dsa_rlimit *)(command_buffer + offset);
  program->rlimit_count = (int32_t)header->rlimit_count;
  offset += rlimit_bytes;
  program->seccomp_filter = header->filter_length ? command_buffer + offset : NULL;
  program->seccomp_filter_length = (uint16_t)header->filter_length;
  offset += filter_bytes;
  // Strings: working directory, arguments, environment; each NUL-terminated.
  size_t needed = 1 + header->argument_count + header->environment_count;
  size_t found = 0;
  const char *strings[2 * DSA_COMMAND_MAXIMUM_STRINGS + 3];
  size_t start = offset;
  for (size_t i = offset; i < length && found < needed; i++) {
    if (command_buffer[i] == 0) {
      strings[found++] = (const char *)command_buffer + start;
      start = i + 1;
    }
  }
  if (found != needed) return EINVAL;
  program->working_directory = strings[0];
  size_t next = 0;
  program->argv = command_pointers;
  for (uint32_t i = 0; i < header->argument_count; i++) command_pointers[next++] = strings[1 + i];
  command_pointers[next++] = NULL;
  program->envp = command_pointers + next;
  for (uint32_t i = 0; i < header->environment_count; i++)
    command_pointers[next++] = strings[1 + header->argument_count + i];
  command_pointers[next] = NULL;
  program->uid = header->uid;
  program->gid = header->gid;
  return 0;
}

static ssize_t receive_command(int control_fd, int fds[3], int *fd_count) {
  int flags = 0;
  ssize_t length = dsa_recvmsg_fds(control_fd, command_buffer, sizeof command_buffer, 0, fds, fd_count, &flags);
  if (length > 0 && (flags & (MSG_TRUNC | MSG_CTRUNC))) {
    for (int i = 0; i < *fd_count; i++) close(fds[i]);
    *fd_count = 0;
    errno = EMSGSIZE;
    return -2;
  }
  return length;
}

// The filter this init installed on itself (DSA_RUN_INIT_FILTER); length 0 while it holds none.
static unsigned char init_filter[4096 * 8];
static size_t init_filter_length;

// Makes the command's filter the init's: installs it at the first run, afterwards only checks the
// run carries the same one. 0 or an errno (EINVAL: another filter, or none while the init holds one).
static int adopt_filter(struct dsa_program *program, const struct dsa_run_command *header) {
  size_t length = (size_t)program->seccomp_filter_length * 8;
  if (!(header->reserved & DSA_RUN_INIT_FILTER)) return init_filter_length == 0 ? 0 : EINVAL;
  if (length == 0) return EINVAL;
  if (init_filter_length == 0) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
    struct sock_fprog filter = {
        .len = program->seccomp_filter_length,
        .filter = (struct sock_filter *)program->seccomp_filter,
    };
    int notices = (header->reserved & DSA_RUN_INIT_IPC_NOTICE) != 0;
    long listener = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, notices ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0, &filter);
    if (listener < 0) return errno;
    if (notices) dsa_init_ipc_notices = (int)listener;
    memcpy(init_filter, program->seccomp_filter, length);
    init_filter_length = length;
  } else if (length != init_filter_length || memcmp(init_filter, program->seccomp_filter, length) != 0) {
    return EINVAL;
  }
  program->seccomp_filter = NULL;
  program->seccomp_filter_length = 0;
  program->inherits_filter = 1;
  return 0;
}

void dsa_init_serve(const struct dsa_spawn_plan *plan) {
  int control_fd = plan->program.report_fd;
  int signal_fd = dsa_init_child_signal_fd();
  if (signal_fd < 0) dsa_child_fail(control_fd, DSA_STEP_SERVE, -1);
  dsa_init_open_pid_counter();
  // Before any filter: the policies refuse programs setting it, so under the init's they keep this.
  struct rlimit core = {.rlim_cur = DSA_CORE_FILE_BYTES, .rlim_max = DSA_CORE_FILE_BYTES};
  if (setrlimit(RLIMIT_CORE, &core) != 0) dsa_child_fail(control_fd, DSA_STEP_SERVE, -1);

  for (;;) {
    int fds[3] = {-1, -1, -1};
    int fd_count = 0;
    ssize_t length = receive_command(control_fd, fds, &fd_count);
    if (length == 0) _exit(0);  // The parent destroyed the box.
    if (length == -1) _exit(1);
    // A kill or a signal that arrived after its run ended.
    if (fd_count == 0 && (length == 1 || (length == 2 && command_buffer[0] == 'S'))) continue;

    struct dsa_program program;
    struct dsa_run_command header;
    memset(&program, 0, sizeof program);
    int problem = length < 0 ? EMSGSIZE : (fd_count == 3 ? decode_command((size_t)length, &program, &header) : EBADF);
    if (problem == 0) problem = adopt_filter(&program, &header);
    if (problem != 0) {
      for (int i = 0; i < fd_count; i++) close(fds[i]);
      dsa_child_report_failure(control_fd, DSA_STEP_COMMAND, problem, -1);
      continue;
    }
    program.stdin_fd = fds[0];
    program.stdout_fd = fds[1];
    program.stderr_fd = fds[2];
    program.report_fd = control_fd;
    int slave = -1;
    if (header.reserved & DSA_RUN_TERMINAL) {
      slave = dsa_init_open_terminal(control_fd);
      if (slave < 0) {
        for (int i = 0; i < 3; i++) close(fds[i]);
        dsa_child_report_failure(control_fd, DSA_STEP_TERMINAL, errno, -1);
        continue;
      }
      program.stdin_fd = program.stdout_fd = program.stderr_fd = slave;
      program.terminal = 1;
    }
    long pid = dsa_init_start_program(&program);
    for (int i = 0; i < 3; i++) close(fds[i]);
    if (slave >= 0) close(slave);
    if (pid < 0) {
      dsa_child_report_failure(control_fd, DSA_STEP_FORK_PROGRAM, errno, -1);
      continue;
    }
    struct dsa_report record;
    memset(&record, 0, sizeof record);
    record.kind = DSA_REPORT_PROGRAM_ENDED;
    record.index = -1;
    dsa_init_reap_box(pid, control_fd, signal_fd, &record);
    // The run's end first, so its answer does not wait for the reset; the next command is read
    // only after the reset, and the parent takes the box as reset only on its record.
    dsa_init_send_report(control_fd, &record);
    struct dsa_report reset;
    memset(&reset, 0, sizeof reset);
    reset.kind = DSA_REPORT_RESET_DONE;
    reset.index = -1;
    reset.reset_step = dsa_init_reset_after_run();
    reset.reset_error = reset.reset_step != 0 ? errno : 0;
    dsa_init_send_report(control_fd, &reset);
  }
}

// ---------------------------------------------------------------------------
// Parent side

size_t dsa_encode_run_command(void *buffer, size_t capacity, const struct dsa_run_command *header,
                              const struct dsa_rlimit *rlimits, const void *filter, const char *working_directory,
                              const char *const *argv, const char *const *envp) {
  unsigned char *out = buffer;
  size_t used = 0;
#define DSA_APPEND(source, count)                      \
  do {                                                 \
    size_t dsa_count = (count);                        \
    if (used + dsa_count > capacity) return 0;         \
    memcpy(out + used, (source), dsa_count);           \
    used += dsa_count;                                 \
  } while (0)
  DSA_APPEND(header, sizeof *header);
  DSA_APPEND(rlimits, header->rlimit_count * sizeof(struct dsa_rlimit));
  DSA_APPEND(filter, (size_t)header->filter_length * 8);
  DSA_APPEND(working_directory, strlen(working_directory) + 1);
  for (uint32_t i = 0; i < header->argument_count; i++) DSA_APPEND(argv[i], strlen(argv[i]) + 1);
  for (uint32_t i = 0; i < header->environment_count; i++) DSA_APPEND(envp[i], strlen(envp[i]) + 1);
#undef DSA_APPEND
  return used;
}

int dsa_send_run_command(int control_fd, const void *buffer, size_t length, int stdin_fd, int stdout_fd,
                         int stderr_fd) {
  int fds[3] = {stdin_fd, stdout_fd, stderr_fd};
  return dsa_sendmsg_fds(control_fd, buffer, length, fds, 3) == (ssize_t)length ? 0 : -1;
}

int dsa_send_kill(int control_fd) {
  ssize_t sent = send(control_fd, "K", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
  return sent == 1 ? 0 : -1;
}

int dsa_send_signal(int control_fd, int signal) {
  if (signal < 1 || signal > 64) {
    errno = EINVAL;
    return -1;
  }
  char command[2] = {'S', (char)signal};
  ssize_t sent = send(control_fd, command, sizeof command, MSG_NOSIGNAL | MSG_DONTWAIT);
  return sent == (ssize_t)sizeof command ? 0 : -1;
}

int dsa_control_socketpair(int fds[2]) {
  if (dsa_seqpacket_pair(fds) != 0) return -1;
  int size = DSA_COMMAND_MAXIMUM_BYTES + 4096;
  setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
  setsockopt(fds[1], SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  return 0;
}
