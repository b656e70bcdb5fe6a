// Starting a box's init as a fresh process instead of a copy of its parent.
//
// A plain clone3 of the CLI copies the page tables of a large Swift process
// (about 1 ms), every page either side then writes is copied once more, and
// the init's exit tears that copy down again (another millisecond, on the
// path between the program's end and the CLI's). Here the child shares the
// parent's memory (CLONE_VM, on a stack of its own, with the parent's thread
// suspended: CLONE_VFORK) only for the few raw system calls that take it to
// execveat of this very binary, which a constructor turns into the init
// before anything else of the binary starts. The plan travels in a memfd:
// its strings and arrays as offsets into one block.
//
// Parent side: dsa_parent_clone_exec_init (from dsa_spawn, clone.c) and the child's raw way to
// the exec. Init side: the constructor, which reads the plan and runs dsa_init_run (init.c).
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int init_executable_fd = -1;

void dsa_start_inits_by_exec(int executable_fd) {
#if defined(__x86_64__)
  if (init_executable_fd >= 0) close(init_executable_fd);
  init_executable_fd = executable_fd;
#else
  close(executable_fd);
#endif
}

int dsa_parent_init_executable(void) { return init_executable_fd; }

// ---------------------------------------------------------------------------
// The plan as one block: a preamble, the plan with every pointer replaced by
// its offset in the block (0 for NULL), then what the pointers pointed to.

static const char plan_magic[8] = {'d', 's', 'a', 'p', 'l', 'a', 'n', '1'};

struct plan_preamble {
  char magic[8];
  uint64_t size;
};

struct plan_block {
  unsigned char *bytes;
  size_t length;
  size_t capacity;
  int failed;
};

static uint64_t block_append(struct plan_block *block, const void *data, size_t length) {
  size_t start = (block->length + 7) & ~(size_t)7;
  if (block->failed || start + length < start) {
    block->failed = 1;
    return 0;
  }
  if (start + length > block->capacity) {
    size_t capacity = block->capacity ? block->capacity : 4096;
    while (capacity < start + length) capacity *= 2;
    unsigned char *grown = realloc(block->bytes, capacity);
    if (grown == NULL) {
      block->failed = 1;
      return 0;
    }
    block->bytes = grown;
    block->capacity = capacity;
  }
  memset(block->bytes + block->length, 0, start - block->length);
  if (length > 0 && data != NULL) memcpy(block->bytes + start, data, length);
  block->length = start + length;
  return start;
}

static uint64_t block_string(struct plan_block *block, const char *text) {
  return text == NULL ? 0 : block_append(block, text, strlen(text) + 1);
}

// `count` strings, or (count < 0) up to and with the terminating NULL.
static uint64_t block_strings(struct plan_block *block, const char *const *strings, int32_t count) {
  if (strings == NULL) return 0;
  size_t total = 0;
  if (count < 0) {
    while (strings[total] != NULL) total++;
    total++;
  } else {
    total = (size_t)count;
  }
  uint64_t offsets[total > 0 ? total : 1];
  for (size_t i = 0; i < total; i++) offsets[i] = block_string(block, strings[i]);
  return block_append(block, offsets, total * sizeof offsets[0]);
}

#define AS_OFFSET(value) ((void *)(uintptr_t)(value))

// The plan's block in a sealed-size memfd; the fd, or -1 with errno.
static int write_plan(const struct dsa_spawn_plan *plan) {
  struct plan_block block = {0};
  struct plan_preamble preamble;
  memcpy(preamble.magic, plan_magic, sizeof plan_magic);
  preamble.size = 0;
  block_append(&block, &preamble, sizeof preamble);
  uint64_t plan_offset = block_append(&block, NULL, sizeof *plan);

  struct dsa_spawn_plan copy = *plan;
  copy.program.argv = AS_OFFSET(block_strings(&block, plan->program.argv, -1));
  copy.program.envp = AS_OFFSET(block_strings(&block, plan->program.envp, -1));
  copy.program.working_directory = AS_OFFSET(block_string(&block, plan->program.working_directory));
  copy.program.seccomp_filter =
      plan->program.seccomp_filter == NULL
          ? NULL
          : AS_OFFSET(block_append(&block, plan->program.seccomp_filter, (size_t)plan->program.seccomp_filter_length * 8));
  copy.program.rlimits =
      plan->program.rlimits == NULL || plan->program.rlimit_count <= 0
          ? NULL
          : AS_OFFSET(block_append(&block, plan->program.rlimits,
                                   (size_t)plan->program.rlimit_count * sizeof plan->program.rlimits[0]));
  copy.root_path = AS_OFFSET(block_string(&block, plan->root_path));
  copy.root_tmpfs_options = AS_OFFSET(block_string(&block, plan->root_tmpfs_options));
  copy.hostname = AS_OFFSET(block_string(&block, plan->hostname));
  copy.user_sysctl_paths = AS_OFFSET(block_strings(&block, plan->user_sysctl_paths, plan->user_sysctl_count));
  copy.user_sysctl_values = AS_OFFSET(block_strings(&block, plan->user_sysctl_values, plan->user_sysctl_count));
  if (plan->mounts != NULL && plan->mount_count > 0) {
    uint64_t mounts_offset = block_append(&block, NULL, (size_t)plan->mount_count * sizeof(struct dsa_mount));
    for (int32_t i = 0; i < plan->mount_count; i++) {
      struct dsa_mount entry = plan->mounts[i];
      entry.source = AS_OFFSET(block_string(&block, plan->mounts[i].source));
      entry.target = AS_OFFSET(block_string(&block, plan->mounts[i].target));
      entry.data = AS_OFFSET(block_string(&block, plan->mounts[i].data));
      if (!block.failed) memcpy(block.bytes + mounts_offset + (size_t)i * sizeof entry, &entry, sizeof entry);
    }
    copy.mounts = AS_OFFSET(mounts_offset);
  } else {
    copy.mounts = NULL;
  }
  if (block.failed) {
    free(block.bytes);
    errno = ENOMEM;
    return -1;
  }
  memcpy(block.bytes + plan_offset, &copy, sizeof copy);
  preamble.size = block.length;
  memcpy(block.bytes, &preamble, sizeof preamble);

  int fd = (int)syscall(SYS_memfd_create, "dsa-box-plan", 1U /* MFD_CLOEXEC */);
  if (fd < 0) {
    int error = errno;
    free(block.bytes);
    errno = error;
    return -1;
  }
  size_t written = 0;
  while (written < block.length) {
    ssize_t result = write(fd, block.bytes + written, block.length - written);
    if (result < 0 && errno == EINTR) continue;
    if (result <= 0) {
      int error = result < 0 ? errno : EIO;
      free(block.bytes);
      close(fd);
      errno = error;
      return -1;
    }
    written += (size_t)result;
  }
  free(block.bytes);
  return fd;
}

// The block's pointer at `offset`, or NULL; a bad offset invalidates the plan.
static void *resolve(unsigned char *base, uint64_t size, const void *stored, int *valid) {
  uint64_t offset = (uint64_t)(uintptr_t)stored;
  if (offset == 0) return NULL;
  if (offset >= size) {
    *valid = 0;
    return NULL;
  }
  return base + offset;
}

static void *resolve_strings(unsigned char *base, uint64_t size, const void *stored, int32_t count, int *valid) {
  uint64_t *offsets = resolve(base, size, stored, valid);
  if (offsets == NULL) return NULL;
  for (int32_t i = 0; count < 0 || i < count; i++) {
    if ((unsigned char *)(offsets + i + 1) > base + size) {
      *valid = 0;
      return NULL;
    }
    if (count < 0 && offsets[i] == 0) break;
    // In place: on x86-64 a pointer is as wide as the offset it replaces.
    ((char **)offsets)[i] = resolve(base, size, (const void *)(uintptr_t)offsets[i], valid);
  }
  return offsets;
}

static struct dsa_spawn_plan *read_plan(int fd) {
  struct stat info;
  if (fstat(fd, &info) != 0 || info.st_size < (off_t)(sizeof(struct plan_preamble) + sizeof(struct dsa_spawn_plan)))
    return NULL;
  uint64_t size = (uint64_t)info.st_size;
  unsigned char *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  if (base == MAP_FAILED) return NULL;
  struct plan_preamble preamble;
  memcpy(&preamble, base, sizeof preamble);
  if (memcmp(preamble.magic, plan_magic, sizeof plan_magic) != 0 || preamble.size != size) return NULL;
  struct dsa_spawn_plan *plan = (struct dsa_spawn_plan *)(base + ((sizeof preamble + 7) & ~(size_t)7));
  int valid = 1;
  plan->program.argv = resolve_strings(base, size, plan->program.argv, -1, &valid);
  plan->program.envp = resolve_strings(base, size, plan->program.envp, -1, &valid);
  plan->program.working_directory = resolve(base, size, plan->program.working_directory, &valid);
  plan->program.seccomp_filter = resolve(base, size, plan->program.seccomp_filter, &valid);
  plan->program.rlimits = resolve(base, size, plan->program.rlimits, &valid);
  plan->root_path = resolve(base, size, plan->root_path, &valid);
  plan->root_tmpfs_options = resolve(base, size, plan->root_tmpfs_options, &valid);
  plan->hostname = resolve(base, size, plan->hostname, &valid);
  plan->user_sysctl_paths = resolve_strings(base, size, plan->user_sysctl_paths, plan->user_sysctl_count, &valid);
  plan->user_sysctl_values = resolve_strings(base, size, plan->user_sysctl_values, plan->user_sysctl_count, &valid);
  struct dsa_mount *mounts = resolve(base, size, plan->mounts, &valid);
  if (mounts != NULL) {
    if ((uint64_t)((unsigned char *)(mounts + plan->mount_count) - base) > size) return NULL;
    for (int32_t i = 0; i < plan->mount_count; i++) {
      mounts[i].source = resolve(base, size, mounts[i].source, &valid);
      mounts[i].target = resolve(base, size, mounts[i].target, &valid);
      mounts[i].data = resolve(base, size, mounts[i].data, &valid);
    }
  }
  plan->mounts = mounts;
  return valid ? plan : NULL;
}

// ---------------------------------------------------------------------------
// Init mode: the first constructor of the binary, before the Swift runtime's.

static const char init_name[] = "dsa-box-init";
static const char plan_flag[] = "--plan-fd=";

__attribute__((constructor(101))) static void become_init_when_asked(int argc, char **argv, char **envp) {
  (void)envp;
  if (argc != 2 || strcmp(argv[0], init_name) != 0 || strncmp(argv[1], plan_flag, sizeof plan_flag - 1) != 0)
    return;
  char *end = NULL;
  long fd = strtol(argv[1] + sizeof plan_flag - 1, &end, 10);
  if (end == NULL || *end != '\0' || fd < 0 || fd > 65535) return;
  struct dsa_spawn_plan *plan = read_plan((int)fd);
  // Started by hand, or with a plan that is not ours: a normal start.
  if (plan == NULL) return;
  close((int)fd);
  // /proc/1/cmdline, which every box process may read, says only what a forked init's says.
  memset(argv[1], 0, strlen(argv[1]));
  // The capabilities only had to survive the exec (permitted and effective
  // keep them); a program must never inherit any.
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
  if (syscall(SYS_capget, &header, data) == 0) {
    for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) data[i].inheritable = 0;
    if (syscall(SYS_capset, &header, data) != 0) _exit(127);
  }
  dsa_init_run(plan);
}

// ---------------------------------------------------------------------------
// Parent side: the clone and the child's way to the exec.

#if defined(__x86_64__)

// System calls that never touch errno: between clone and exec the child runs
// on the parent's memory, and errno lives in the parent thread's TLS.
static long raw_syscall(long number, long a, long b, long c, long d, long e) {
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  long result;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
                   : "rcx", "r11", "memory");
  return result;
}

struct exec_start {
  int executable_fd;
  int report_fd;
  int keep[12];
  int keep_count;
  char *const *argv;
  char *const *envp;
};

static int exec_init_entry(void *argument) {
  const struct exec_start *start = argument;
  // Until the parent writes the uid map, the child's uid is nobody in its new
  // user namespace, and execve would clear its capabilities; ambient ones
  // survive it (raising them needs them inheritable first).
  struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
  long result = raw_syscall(SYS_capget, (long)&header, (long)data, 0, 0, 0);
  if (result == 0) {
    for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) data[i].inheritable = data[i].permitted;
    result = raw_syscall(SYS_capset, (long)&header, (long)data, 0, 0, 0);
  }
  // Up to the kernel's last capability, the first one it calls invalid.
  for (long capability = 0; result == 0 && capability < 64; capability++) {
    long raised = raw_syscall(SYS_prctl, PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, capability, 0, 0);
    if (raised == -EINVAL && capability > 0) break;
    if (raised != 0) result = raised;
  }
  // The fds the init is handed are O_CLOEXEC in the parent; this copy of the fd table is the child's own.
  for (int i = 0; result == 0 && i < start->keep_count; i++)
    if (start->keep[i] >= 0) result = raw_syscall(SYS_fcntl, start->keep[i], F_SETFD, 0, 0, 0);
  if (result == 0)
    result = raw_syscall(SYS_execveat, start->executable_fd, (long)"", (long)start->argv, (long)start->envp,
                         AT_EMPTY_PATH);
  // Not report.c's dsa_child_report_failure: its write() sets errno, which lives in the parent thread's TLS.
  struct dsa_report record;
  for (size_t i = 0; i < sizeof record; i++) ((volatile unsigned char *)&record)[i] = 0;
  record.kind = DSA_REPORT_SETUP_FAILED;
  record.step = DSA_STEP_EXEC_INIT;
  record.error = (int32_t)-result;
  record.index = -1;
  raw_syscall(SYS_write, start->report_fd, (long)&record, sizeof record, 0, 0);
  return 127;
}

// clone3 onto `stack`; the child calls entry(argument) there and exits with its result.
static long clone3_calling(struct clone_args *args, int (*entry)(void *), void *argument) {
  register long r12 __asm__("r12") = (long)entry;
  register long r13 __asm__("r13") = (long)argument;
  long result;
  __asm__ volatile(
      "syscall\n\t"
      "test %%rax, %%rax\n\t"
      "jnz 1f\n\t"
      "xor %%ebp, %%ebp\n\t"
      "mov %%r13, %%rdi\n\t"
      "call *%%r12\n\t"
      "mov %%eax, %%edi\n\t"
      "mov %[exit_number], %%eax\n\t"
      "syscall\n\t"
      "hlt\n\t"
      "1:\n\t"
      : "=a"(result)
      : "a"((long)SYS_clone3), "D"(args), "S"(sizeof *args), "r"(r12), "r"(r13), [exit_number] "i"(SYS_exit)
      : "rcx", "r11", "memory");
  return result;
}

long dsa_parent_clone_exec_init(struct clone_args *args, const struct dsa_spawn_plan *plan) {
  int plan_fd = write_plan(plan);
  if (plan_fd < 0) return -1;
  char flag[32];
  int written = snprintf(flag, sizeof flag, "%s%d", plan_flag, plan_fd);
  if (written < 0 || (size_t)written >= sizeof flag) {
    close(plan_fd);
    errno = EINVAL;
    return -1;
  }
  char *argv[] = {(char *)init_name, flag, NULL};
  char *envp[] = {NULL};
  struct exec_start start = {.executable_fd = init_executable_fd,
                             .report_fd = plan->program.report_fd,
                             .argv = argv,
                             .envp = envp};
  int candidates[] = {plan->program.stdin_fd, plan->program.stdout_fd, plan->program.stderr_fd,
                      plan->program.report_fd, plan->go_fd, plan->terminal_fd, plan->command_fd, plan_fd};
  for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) start.keep[start.keep_count++] = candidates[i];
  if (!plan->cgroup_join_late)
    for (int32_t i = 0; i < plan->cgroup_join_count && i < 3; i++) start.keep[start.keep_count++] = plan->cgroup_join_fds[i];

  const size_t stack_size = 64 * 1024;
  void *stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) {
    int error = errno;
    close(plan_fd);
    errno = error;
    return -1;
  }
  args->flags |= CLONE_VM | CLONE_VFORK;
  args->stack = (uint64_t)(uintptr_t)stack;
  args->stack_size = stack_size;
  // No handler of this process may run on the child's stack before the exec
  // resets them; the init sets its own mask.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  long pid = clone3_calling(args, exec_init_entry, &start);
  pthread_sigmask(SIG_SETMASK, &previous, NULL);
  int error = pid < 0 ? (int)-pid : 0;
  munmap(stack, stack_size);
  close(plan_fd);
  if (pid < 0) {
    errno = error;
    return -1;
  }
  return pid;
}

#else

long dsa_parent_clone_exec_init(struct clone_args *args, const struct dsa_spawn_plan *plan) {
  (void)args;
  (void)plan;
  errno = ENOSYS;
  return -1;
}

#endif
