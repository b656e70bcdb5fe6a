// CSandbox: the only code that runs between clone() and execve().
//
// Everything here runs in the child of a clone3() taken from a (possibly
// multi-threaded) Swift process, so it allocates nothing, takes no locks and
// calls only raw system calls. The Swift side prepares every string, array,
// mount entry and BPF program before calling dsa_spawn(); the child only
// reads that memory (its copy-on-write view of it), or, when inits are
// started by exec (dsa_start_inits_by_exec), a copy of it sent in a memfd.
//
// When it runs, per function:
//   dsa_spawn()          parent: clone3 into fresh namespaces, return the pid
//                        and a pidfd.
//   (child, as init)     waits for the parent's go byte (uid/gid maps
//                        written), builds the file system, pivots, joins
//                        its v1 cgroups (sent meanwhile, or given at clone),
//                        forks the program, reaps, reports.
//   (grandchild)         fds, rlimits, identity, no_new_privs, seccomp, execve.
//
// One C file per facility (mounts.c, cgroups.c, user.c, ...); spawn_internal.h lists them in
// the order they run, and init.c's set_up_box is the init's set-up as one checklist.
#ifndef CSANDBOX_H
#define CSANDBOX_H

#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Kinds of entries in the mount plan; executed in order by the box's init.
enum dsa_mount_kind {
  /// Bind a host directory read-only, nosuid, nodev.
  DSA_MOUNT_BIND_RO = 1,
  /// Bind a host directory writable, nosuid, nodev.
  DSA_MOUNT_BIND_RW = 2,
  /// A fresh tmpfs; `data` holds its options (size=, mode=).
  DSA_MOUNT_TMPFS = 3,
  /// A fresh procfs of the box's pid namespace.
  DSA_MOUNT_PROC = 4,
  /// Bind a host device node onto an empty file; nosuid, noexec.
  DSA_MOUNT_DEVICE = 5,
  /// Create a symlink at `target` whose text is `source`.
  DSA_MOUNT_SYMLINK = 6,
  /// Create a directory (and its parents).
  DSA_MOUNT_DIRECTORY = 7,
  /// Bind a single host file read-only, nosuid, nodev.
  DSA_MOUNT_FILE_RO = 8,
  /// A new devpts instance of the box's own (`data`: newinstance, ptmxmode, max); nosuid, noexec.
  DSA_MOUNT_DEVPTS = 9,
};

struct dsa_mount {
  int32_t kind;
  /// Host path for binds, link text for symlinks, NULL otherwise.
  const char *source;
  /// Host-side path of the target: the new root's path followed by the
  /// path inside the box, prepared by the parent.
  const char *target;
  /// tmpfs options, or NULL.
  const char *data;
};

struct dsa_rlimit {
  int32_t resource;
  uint64_t soft;
  uint64_t hard;
};

/// Steps named in setup failure reports; Swift turns them into words.
enum dsa_step {
  DSA_STEP_CLONE = 1,
  DSA_STEP_WAIT_FOR_PARENT,
  DSA_STEP_SETRESUID_ROOT,
  DSA_STEP_UNSHARE_CGROUP,
  DSA_STEP_MAKE_PRIVATE,
  DSA_STEP_MOUNT_ROOT,
  DSA_STEP_MKDIR,
  DSA_STEP_BIND,
  DSA_STEP_REMOUNT,
  DSA_STEP_MOUNT_TMPFS,
  DSA_STEP_MOUNT_PROC,
  DSA_STEP_CREATE_FILE,
  DSA_STEP_SYMLINK,
  DSA_STEP_PIVOT_ROOT,
  DSA_STEP_UNMOUNT_OLD_ROOT,
  DSA_STEP_REMOUNT_ROOT,
  DSA_STEP_SETHOSTNAME,
  DSA_STEP_FORK_PROGRAM,
  DSA_STEP_DUP_FDS,
  DSA_STEP_CLOSE_FDS,
  DSA_STEP_SETRLIMIT,
  DSA_STEP_SETSID,
  DSA_STEP_CHDIR,
  DSA_STEP_SETGROUPS,
  DSA_STEP_SETRESGID,
  DSA_STEP_SETRESUID,
  DSA_STEP_NO_NEW_PRIVS,
  DSA_STEP_SECCOMP,
  DSA_STEP_EXECVE,
  DSA_STEP_PDEATHSIG,
  DSA_STEP_CAPBSET,
  DSA_STEP_JOIN_CGROUP,
  DSA_STEP_SERVE,
  DSA_STEP_COMMAND,
  DSA_STEP_RESET_SCRATCH,
  DSA_STEP_USER_SYSCTL,
  /// Opening the run's pty on the box's devpts, or handing its master to the parent.
  DSA_STEP_TERMINAL,
  /// Making the pty the program's controlling terminal.
  DSA_STEP_CONTROLLING_TERMINAL,
  /// Starting the init by exec (`dsa_start_inits_by_exec`): its capabilities, or the execveat.
  DSA_STEP_EXEC_INIT,
};

enum dsa_report_kind {
  /// A sandbox step failed: `step`, `error` (errno) and `index` are set.
  DSA_REPORT_SETUP_FAILED = 1,
  /// The program ended: `wait_status` and the rusage figures are set.
  DSA_REPORT_PROGRAM_ENDED = 2,
  /// A warm box's init reset the box after a run (sent after the run's end, so the answer does not
  /// wait for it): `reset_step` and `reset_error` are set.
  DSA_REPORT_RESET_DONE = 3,
};

/// Fixed-size record written to the report pipe (smaller than PIPE_BUF, so
/// each write is atomic).
struct dsa_report {
  int32_t kind;
  int32_t step;
  int32_t error;
  /// Mount plan index or rlimit index for the failing step; -1 otherwise.
  int32_t index;
  int32_t wait_status;
  int32_t reserved;
  /// CPU time of every process the init reaped (program and descendants).
  int64_t user_cpu_us;
  int64_t system_cpu_us;
  /// Largest resident set of any single reaped process, in KiB.
  int64_t max_rss_kb;
  /// Warm boxes' DSA_REPORT_RESET_DONE: the DSA_RESET_* step that failed after the run (0: the
  /// box's IPC objects and pid counter are reset), and its errno.
  int32_t reset_step;
  int32_t reset_error;
  /// The program's own CPU time as its RLIMIT_CPU charges it (the kernel's tick-based process
  /// clock, read just before the program was reaped; its reaped children not included); 0 if
  /// unknown.
  int64_t program_rlimit_cpu_us;
};

/// What a warm box's init resets after every run, reported after the run's end (DSA_REPORT_RESET_DONE).
enum dsa_reset_step {
  /// IPC_RMID of every SysV shared memory segment, message queue and
  /// semaphore set.
  DSA_RESET_IPC_OBJECTS = 1,
  /// unshare(CLONE_NEWIPC): drops POSIX message queues.
  DSA_RESET_IPC_NAMESPACE = 2,
  /// The pid namespace's last pid back to 1.
  DSA_RESET_PID_COUNTER = 3,
};

/// What the program's last steps need: from a one-shot plan, or from a
/// warm box's run command.
struct dsa_program {
  /// NULL-terminated; argv[0] is an absolute path inside the box.
  const char *const *argv;
  /// NULL-terminated; exactly the declared variables.
  const char *const *envp;
  /// Working directory inside the box.
  const char *working_directory;
  /// Classic BPF program (struct sock_filter array); NULL disables seccomp,
  /// which only tests of the sandbox itself may ask for.
  const void *seccomp_filter;
  uint16_t seccomp_filter_length;
  const struct dsa_rlimit *rlimits;
  int32_t rlimit_count;
  /// Identity of the program inside the box (mapped by the parent).
  uint32_t uid;
  uint32_t gid;
  int32_t stdin_fd;
  int32_t stdout_fd;
  int32_t stderr_fd;
  /// Write end of the report pipe (O_CLOEXEC), or a warm box's control
  /// socket.
  int32_t report_fd;
  /// Non-zero when stdin, stdout and stderr are one pty slave, which the
  /// program takes as its controlling terminal.
  int32_t terminal;
  /// The init holds the run's seccomp filter (DSA_RUN_INIT_FILTER) and the program inherits it:
  /// the program installs none and keeps the init's RLIMIT_CORE (DSA_CORE_FILE_BYTES), which the
  /// policies refuse setting.
  int32_t inherits_filter;
};

struct dsa_spawn_plan {
  /// The program of a one-shot box; for a warm box only `report_fd` (its
  /// control socket) is used.
  struct dsa_program program;
  /// Existing empty host directory on which the box's root tmpfs is mounted
  /// inside the box's own mount namespace.
  const char *root_path;
  const char *root_tmpfs_options;
  const struct dsa_mount *mounts;
  int32_t mount_count;
  const char *hostname;
  /// The init's end of the go socket pair (SOCK_SEQPACKET, O_CLOEXEC): a
  /// one-byte message means "maps written, go on"; EOF means "the parent
  /// gave up or died". With `cgroup_join_late` a second message follows.
  int32_t go_fd;
  /// A cgroup v2 directory fd to start the box in (CLONE_INTO_CGROUP), or -1.
  int32_t cgroup_fd;
  /// cgroup v1: write-only fds of the box groups' `tasks` files, opened by
  /// the parent (the kernel checks the opener's credentials). The
  /// single-threaded init writes "0" to each itself: a thread moving only
  /// itself skips the global threadgroup lock and its RCU grace period,
  /// which cost 7-20 ms per box when the parent moved the init through
  /// cgroup.procs.
  int32_t cgroup_join_fds[3];
  int32_t cgroup_join_count;
  /// cgroup v1, non-zero: the groups do not exist yet at clone time. The parent makes them while
  /// the init builds the box's file system and then sends their `tasks` fds on `go_fd` (a
  /// SOCK_SEQPACKET pair: one "c" message with `cgroup_join_count` fds, `dsa_send_cgroup_join`);
  /// the init joins them before it starts the program. `cgroup_join_fds` are unused then.
  int32_t cgroup_join_late;
  /// Extra clone flags chosen by the parent (the namespaces).
  uint64_t namespace_flags;
  /// A fresh network namespace made ahead (`dsa_make_network_namespace`), or
  /// -1. The calling thread enters it for the clone, so the init starts in it
  /// (CLONE_NEWNET is then dropped from the flags), and goes back to its own.
  int32_t network_namespace_fd;
  /// Non-zero for a warm box: the init builds the box once, then serves run
  /// commands from `program.report_fd` (a SOCK_SEQPACKET socket) one at a
  /// time; the rest of `program` is then unused.
  int32_t serve;
  /// Host uid that owns the box's user namespace (the box root's host uid),
  /// or 0 to leave it to the caller's effective uid. The kernel charges the
  /// box's per-user counts (inotify, queued signals, mqueue bytes, locked
  /// shm) to this uid in the host's namespace too.
  uint32_t user_namespace_owner;
  /// Limits of the box's own user namespace (/proc/sys/user/<name>),
  /// written by the init: `user_sysctl_paths[i]` gets `user_sysctl_values[i]`.
  const char *const *user_sysctl_paths;
  const char *const *user_sysctl_values;
  int32_t user_sysctl_count;
  /// One-shot boxes with a terminal: the init's end of a SOCK_SEQPACKET pair.
  /// The init opens a pty on the box's devpts (/dev/pts/ptmx), sends its
  /// master over this socket (one "T" message with SCM_RIGHTS) and gives the
  /// program the slave as stdin, stdout and stderr. -1 for none.
  int32_t terminal_fd;
  /// One-shot live runs: the init's end of a SOCK_SEQPACKET pair on which it
  /// takes the commands a warm box's control socket takes while its program
  /// runs ("K", and "S" with a signal, `dsa_send_signal`). -1 for none.
  int32_t command_fd;
};

/// A warm box's run command flag (`dsa_run_command.reserved`): run the program
/// on a new pty of the box's devpts; the init answers the command with a "T"
/// message carrying the master, before the program starts.
#define DSA_RUN_TERMINAL 1u

/// A warm box's run command flag (`dsa_run_command.reserved`): the command's filter is the init's.
/// At its first such run the init installs it on itself (with no_new_privs) and its programs
/// inherit it, so no run pays for compiling a filter into the kernel again; later runs must carry
/// the same filter (the init compares it) and a run without the flag is refused once the init
/// holds one: programs must never stack a second policy on the init's.
#define DSA_RUN_INIT_FILTER 2u

/// With DSA_RUN_INIT_FILTER, at the first run: the filter sends the calls that make IPC objects to
/// the init (SECCOMP_RET_USER_NOTIF), which installs it with a listener, lets each through and,
/// after a run that made none, keeps the IPC namespace instead of replacing it.
#define DSA_RUN_INIT_IPC_NOTICE 4u

/// Every program's RLIMIT_CORE, soft and hard (RLimits.swift says why 1). A warm box's init sets
/// its own to it when it starts serving: the policies refuse setting it, so a program under the
/// init's filter keeps the init's.
#define DSA_CORE_FILE_BYTES 1

/// Receives a "T" message's descriptor (the pty master) from `socket_fd`,
/// waiting up to `timeout_ms`: the fd, or -1 with errno (EPIPE: the sender
/// hung up; ETIMEDOUT; EPROTO: a message that was not one, e.g. a failure
/// report, which is then left in `record` when it fits).
int dsa_receive_terminal(int socket_fd, int timeout_ms, void *record, size_t record_size, size_t *record_length);


#define DSA_RUN_COMMAND_MAGIC 0x52415344u
#define DSA_COMMAND_MAXIMUM_BYTES (256 * 1024)
#define DSA_COMMAND_MAXIMUM_STRINGS 4096

/// A run command for a warm box (whose init resets IPC and the pid counter
/// after each run; the parent resets /box, /tmp and /dev/shm), followed by: rlimits, the BPF filter
/// (filter_length * 8 bytes), then NUL-terminated strings: working
/// directory, arguments, environment. Sent with SCM_RIGHTS stdin, stdout,
/// stderr. A one-byte "K" message kills the running program and all its
/// descendants, a two-byte "S" message (the second byte a signal number)
/// signals the program's process group; closing the socket ends the box.
struct dsa_run_command {
  uint32_t magic;
  uint32_t uid;
  uint32_t gid;
  uint32_t argument_count;
  uint32_t environment_count;
  uint32_t rlimit_count;
  uint32_t filter_length;
  uint32_t reserved;
};

/// Encodes a run command; returns its length, or 0 when it does not fit.
size_t dsa_encode_run_command(void *buffer, size_t capacity, const struct dsa_run_command *header,
                              const struct dsa_rlimit *rlimits, const void *filter, const char *working_directory,
                              const char *const *argv, const char *const *envp);

/// Sends an encoded command with the run's three stdio fds; 0 or -1/errno.
int dsa_send_run_command(int control_fd, const void *buffer, size_t length, int stdin_fd, int stdout_fd,
                         int stderr_fd);

/// Asks a warm box's init to kill the running program and its descendants.
int dsa_send_kill(int control_fd);

/// Asks a box's init (a warm box's control socket, a one-shot box's
/// `command_fd` pair) to send `signal` (1-64) to the running program's process
/// group. The init alone knows, race-free, whether the program is still
/// unreaped (its pid cannot have been reused); once it was reaped, or between
/// runs, the request is dropped. 0, or -1 with errno.
int dsa_send_signal(int control_fd, int signal);

/// A plain SOCK_SEQPACKET | SOCK_CLOEXEC pair (a box's go pair); 0, or -1 with errno.
int dsa_seqpacket_pair(int fds[2]);

/// A SOCK_SEQPACKET | SOCK_CLOEXEC pair sized for the largest command.
int dsa_control_socketpair(int fds[2]);

/// Sends a box's cgroup v1 `tasks` fds to its init (`dsa_spawn_plan.cgroup_join_late`) on the
/// parent's end of the go pair: 0, or -1 with errno.
int dsa_send_cgroup_join(int go_fd, const int *fds, int count);

/// A new network namespace (lo only, down), for one box: the calling thread
/// is moved into it (a thread made for this and then ended). Returns an fd of
/// it, or -errno.
int dsa_make_network_namespace(void);

/// Starts a thread that makes a network namespace (`dsa_make_network_namespace`)
/// for `dsa_take_network_namespace` and ends.
void dsa_prepare_network_namespace(void);

/// The namespace `dsa_prepare_network_namespace` made, once (the first caller
/// waits for the thread if it is not done): its fd, which the caller closes, or
/// -1 when none was prepared, it was taken, or making it failed.
int dsa_take_network_namespace(void);

/// Clones the box's init. On success returns 0 and stores the init's pid and
/// a pidfd for it; on failure returns an errno value and no process exists.
int dsa_spawn(const struct dsa_spawn_plan *plan, pid_t *pid_out, int *pidfd_out);

/// From now on, dsa_spawn starts each box's init as a fresh process: the clone shares this
/// process's memory only until the child has exec'd `executable_fd` (this very binary, opened
/// from /proc/self/exe) in init mode, which reads the plan from a memfd (`init_exec.c`). So no
/// box's init holds a copy of this process's memory, the clone copies no page tables, and the
/// init's exit tears down a small address space. For the one-shot CLI; the daemon forks its
/// inits (its dynamic binary would spend milliseconds in the dynamic loader at each exec).
/// Takes ownership of the fd (O_CLOEXEC). x86-64 only; elsewhere it does nothing.
void dsa_start_inits_by_exec(int executable_fd);

/// Sends a signal through a pidfd (never hits a recycled pid).
int dsa_pidfd_send_signal(int pidfd, int signal);

/// pidfd_open(2) for processes this process did not clone itself.
int dsa_pidfd_open(pid_t pid);

/// Moves the calling thread into a new mount namespace whose mounts are recursive slaves of the
/// current one (mounts made there never propagate back). Returns 0, or an errno value with the
/// thread back in its original namespace.
int dsa_enter_private_mount_namespace(void);

/// malloc_trim(3): gives the heap's free pages back to the kernel. Returns 1 if any were.
int dsa_release_free_heap(void);

/// The type of the file system `path` is on (statfs(2)'s f_type: a *_SUPER_MAGIC), or -1.
long dsa_file_system_type(const char *path);

/// openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS
/// | RESOLVE_NO_XDEV: host-side opens of paths inside a box directory never
/// follow anything the box planted. Returns an fd or -errno.
int dsa_open_beneath(int directory_fd, const char *path, int flags, uint32_t mode);

/// openat2(2) of an existing file with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS, and with
/// RESOLVE_NO_SYMLINKS too unless `symlinks_within` is set (then a link may be followed as long as
/// it stays beneath `directory_fd`). Returns an fd or -errno.
int dsa_open_existing_beneath(int directory_fd, const char *path, int flags, int symlinks_within);

/// pipe2(fds, O_CLOEXEC); 0, or -1 with errno. (Glibc's Swift module does
/// not export the GNU-only calls.)
int dsa_pipe_cloexec(int fds[2]);

/// memfd_create(name, MFD_CLOEXEC); an fd, or -1 with errno.
int dsa_memfd(const char *name);

/// flistxattr(fd, NULL, 0): the size of a file's extended attribute name
/// list (ACLs included), or -errno.
ssize_t dsa_extended_attribute_bytes(int fd);

/// A process's network namespace's sockets in use plus its TCP TIME_WAIT entries, from
/// /proc/<pid>/net/sockstat ("sockets: used N", "TCP: ... tw N"); -1 when unreadable. A warm box's
/// fingerprint, read after every run: parsed here, without the allocations of a Swift string.
long dsa_socket_count(pid_t pid);

/// The network namespace's sockstat of `pid` opened for `dsa_socket_count_in`, or -1.
int dsa_open_socket_count(pid_t pid);

/// `dsa_socket_count` from a descriptor `dsa_open_socket_count` gave (read from its start).
long dsa_socket_count_in(int fd);

/// Gives a warm box's scratch root (an open directory fd) its fresh state:
/// owner and group `owner`, exactly `mode`, no extended attributes (names
/// listing over 4 KiB fail with ERANGE), times now. 0 or an errno.
int dsa_reset_directory_root(int fd, uint32_t owner, uint32_t mode);

/// A directory's access and modification times set to now; 0 or the errno.
int dsa_reset_directory_times(int fd);

/// /proc/<pid>/limits opened for `dsa_read_limits_in`, or -1.
int dsa_open_limits(pid_t pid);

/// The 16 limits of a `dsa_open_limits` descriptor (read from its start), soft and hard in turn
/// (RLIM_INFINITY as UINT64_MAX): one read instead of 16 prlimit calls, and readable without
/// CAP_SYS_RESOURCE over the process. 0 or an errno (EPROTO: not the kernel's layout).
int dsa_read_limits_in(int fd, uint64_t values[32]);

/// RLIMIT_* numbers the Swift Glibc module hides behind __USE_MISC.
extern const int dsa_rlimit_nproc;
extern const int dsa_rlimit_memlock;
extern const int dsa_rlimit_msgqueue;
extern const int dsa_rlimit_sigpending;

/// For the allowance in front of a warm box init's filter (Seccomp.swift): CLONE_NEWIPC, which
/// Swift's Glibc module does not export.
extern const uint32_t dsa_clone_newipc;
/// SECCOMP_IOCTL_NOTIF_RECV and SECCOMP_IOCTL_NOTIF_SEND, with which the init answers its notices.
extern const uint32_t dsa_seccomp_ioctl_receive;
extern const uint32_t dsa_seccomp_ioctl_send;

#ifdef __cplusplus
}
#endif

#endif
