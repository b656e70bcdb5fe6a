// The user namespace and capabilities: who owns the box's namespace (parent side, around
// dsa_spawn's clone), and the init becoming the box's root, bounding its user namespace and
// emptying the bounding set every program inherits (child side, the init's set-up).
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// Parent side

// A new user namespace is owned by the effective uid of the thread that
// creates it, and the kernel charges every per-user count made inside it
// (inotify instances and watches, queued signals, mqueue bytes, locked shm)
// to that owner in the parent namespace as well. Created by root, a box could
// exhaust root's own quotas (128 inotify instances, RLIMIT_SIGPENDING) for
// every root service and every other box. So this thread alone (raw system
// calls; glibc's setresuid would change every thread) takes the box root's
// host uid as its effective uid for the clone, keeps root as real and saved
// uid, re-raises its effective capabilities from the permitted set (the clone
// still needs them: CLONE_INTO_CGROUP checks the caller's write access, and
// LSMs that police user namespaces look at CAP_SYS_ADMIN), and returns to
// uid 0 right after (dsa_spawn). The child's credentials are replaced by the new
// namespace's anyway, and the parent still writes its uid/gid maps.
// An init started by exec (`exec_init`) takes the owner as its real uid too:
// on Debian 12's 6.1 (not on 6.18) an exec whose effective uid differs from
// the real one counts as set-uid (commoncap's __is_setuid) and clears the
// ambient capabilities the child carries over it (the box then failed at
// "become box root: EPERM"); the saved uid stays root.
int dsa_parent_become_owner(uint32_t owner, int exec_init) {
  if (syscall(SYS_setresuid, exec_init ? (long)owner : -1L, owner, -1) != 0) return -1;
  struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
  memset(data, 0, sizeof data);
  if (syscall(SYS_capget, &header, data) != 0) return -1;
  for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) data[i].effective = data[i].permitted;
  if (syscall(SYS_capset, &header, data) != 0) return -1;
  return 0;
}

// ---------------------------------------------------------------------------
// Init side

// Become the mapped root of the box (an unprivileged uid on the host); the
// user namespace keeps our capabilities inside the box.
void dsa_init_become_box_root(int report_fd) {
  if (syscall(SYS_setresgid, 0, 0, 0) != 0 || syscall(SYS_setresuid, 0, 0, 0) != 0)
    dsa_child_fail(report_fd, DSA_STEP_SETRESUID_ROOT, -1);
}

// /proc/sys/user/* are the limits of the opener's user namespace: written by
// the box's root (CAP_SYS_RESOURCE over its own namespace), they bound what
// each uid of the box may hold, below the host's per-user limits that the
// kernel checks at the owner's level too. The host's /proc is still mounted
// here (before pivot_root), whether or not the box gets a /proc of its own.
void dsa_init_write_user_sysctls(const struct dsa_spawn_plan *plan) {
  int report_fd = plan->program.report_fd;
  for (int32_t i = 0; i < plan->user_sysctl_count; i++) {
    int fd = open(plan->user_sysctl_paths[i], O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    // A kernel built without the facility (CONFIG_FANOTIFY=n) has no limit to set.
    if (fd < 0 && errno == ENOENT) continue;
    if (fd < 0) dsa_child_fail(report_fd, DSA_STEP_USER_SYSCTL, i);
    size_t length = strlen(plan->user_sysctl_values[i]);
    ssize_t written = write(fd, plan->user_sysctl_values[i], length);
    int error = errno;
    close(fd);
    if (written != (ssize_t)length) {
      errno = written < 0 ? error : EIO;
      dsa_child_fail(report_fd, DSA_STEP_USER_SYSCTL, i);
    }
  }
}

// An empty bounding set, inherited by every program: even a setuid binary
// (nosuid mounts and no_new_privs already refuse it) could never regain a
// capability. The init keeps its own effective capabilities (it never
// execs), so warm boxes can still unshare per run.
// Up to the kernel's last capability: the first one it calls invalid ends the list.
void dsa_init_drop_bounding_set(int report_fd) {
  for (int capability = 0; capability < 64; capability++) {
    if (prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) == 0) continue;
    if (errno == EINVAL && capability > 0) break;
    dsa_child_fail(report_fd, DSA_STEP_CAPBSET, capability);
  }
}
