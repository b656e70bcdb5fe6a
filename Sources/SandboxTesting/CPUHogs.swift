import Glibc

/// Host processes that spin until stopped: the loaded host under which a verdict must still agree
/// with its figures. A busy host is where the kernel's per-process CPU count (clock ticks, which
/// RLIMIT_CPU charges) and a cgroup's (the scheduler's own nanoseconds) part, and where a busy
/// loop gets less of the wall clock than it would alone.
public final class CPUHogs {
  private var pids: [pid_t] = []

  /// Starts `count` spinning `/bin/sh` loops (one per core of the host by default).
  public init(count: Int = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) {
    // Each in a session of its own, as other users' processes are: with autogroup scheduling
    // (kernel.sched_autogroup_enabled) hogs sharing the test's session share one group's weight,
    // and a box (its init makes a session) got 97% of a core beside six of them.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // POSIX_SPAWN_SETSID (glibc's spawn.h, 0x80), which is behind _GNU_SOURCE and not imported.
    posix_spawnattr_setflags(&attributes, 0x80)
    for _ in 0..<max(1, count) {
      var pid: pid_t = 0
      let argv: [UnsafeMutablePointer<CChar>?] = [
        strdup("/bin/sh"), strdup("-c"), strdup("while :; do :; done"), nil,
      ]
      defer { for argument in argv { free(argument) } }
      // posix_spawn, not fork: the test process has many threads.
      if posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ) == 0 { pids.append(pid) }
    }
  }

  /// Kills and reaps every hog; idempotent.
  public func stop() {
    for pid in pids {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
    pids = []
  }

  deinit { stop() }
}
