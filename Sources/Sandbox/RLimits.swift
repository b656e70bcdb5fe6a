internal import CSandbox
import Glibc

// rlimits: per-process backstops applied by the program's last C steps. The
// cgroup limits are the real ones where a cgroup exists; in rlimit-only mode
// these are all there is.

/// Queued signals a box's uid may hold (RLIMIT_SIGPENDING).
let boxSignalsPending: UInt64 = 1024
/// POSIX message queue bytes a box's uid may hold (RLIMIT_MSGQUEUE).
let boxMessageQueueBytes: UInt64 = 256 << 10

/// RLIMIT_CPU's soft limit for a box's program, in whole seconds (the rlimit's unit). With a
/// cgroup the limit is enforced by the pump on the cgroup's figure, the one reported: RLIMIT_CPU
/// charges the kernel's tick-based count, which ran up to a third ahead of the cgroup's on a busy
/// host (SIGXCPU at a reported 1.48 s of a 2 s limit), so here it is only a backstop, at the limit
/// plus half of it or a second, whichever is more. Without a cgroup it is the enforcement, at the
/// limit, and the figure reported is its own count (`BoxLease.account`).
func cpuRLimitSeconds(for limits: BoxLimits, mode: CgroupMode) -> UInt64 {
  let limit = limits.cpuTimeMilliseconds
  let milliseconds = mode == .rlimitOnly ? limit : limit + max(1_000, limit / 2)
  return (milliseconds + 999) / 1000
}

/// The rlimits for a box's program.
func plannedRLimits(for limits: BoxLimits, mode: CgroupMode) -> [dsa_rlimit] {
  let cpuSeconds = cpuRLimitSeconds(for: limits, mode: mode)
  var planned: [(Int32, UInt64, UInt64)] = [
    // SIGXCPU at the soft limit, SIGKILL a second later for a program that ignores it.
    (Int32(RLIMIT_CPU.rawValue), cpuSeconds, cpuSeconds + 1),
    (Int32(RLIMIT_FSIZE.rawValue), limits.fileSizeBytes, limits.fileSizeBytes),
    (Int32(RLIMIT_NOFILE.rawValue), limits.openFiles, limits.openFiles),
    (Int32(RLIMIT_STACK.rawValue), limits.stackBytes, limits.stackBytes),
    // 1, not 0: a pipe core_pattern (systemd-coredump, apport) runs its
    // helper whatever RLIMIT_CORE is, except at exactly 1, the kernel's mark
    // of a crashing helper ("RLIMIT_CORE is set to 1, aborting core"); and 1
    // byte is below the smallest ELF core file (a page), so no file is
    // written either. The policy refuses changing it (docs/security.md).
    (Int32(RLIMIT_CORE.rawValue), UInt64(DSA_CORE_FILE_BYTES), UInt64(DSA_CORE_FILE_BYTES)),
    // Counted per uid of the box (every box has its own), and at the box
    // namespace owner's level (the box root's host uid), never root's.
    (dsa_rlimit_nproc, limits.processes, limits.processes),
    (dsa_rlimit_memlock, 64 << 10, 64 << 10),
    // Queued signals (real-time ones and siginfo of standard ones) and
    // POSIX timers: 96,363 by default here, each a kernel allocation.
    (dsa_rlimit_sigpending, boxSignalsPending, boxSignalsPending),
    // POSIX message queue bytes (a queue of the default 10 x 8 KiB costs
    // about 82 KiB).
    (dsa_rlimit_msgqueue, boxMessageQueueBytes, boxMessageQueueBytes),
  ]
  if let addressSpace = limits.addressSpaceBytes {
    planned.append((Int32(RLIMIT_AS.rawValue), addressSpace, addressSpace))
  } else if mode == .rlimitOnly {
    // Without a memory cgroup, RLIMIT_DATA bounds heap growth (brk and private
    // mappings) without counting PROT_NONE reservations the way RLIMIT_AS does.
    // It does count writable mappings never touched, so the runtime's own
    // (reservedBytes) come on top.
    let (data, overflow) = limits.memoryBytes.addingReportingOverflow(limits.reservedBytes)
    let dataBytes = overflow ? UInt64.max : data
    planned.append((Int32(RLIMIT_DATA.rawValue), dataBytes, dataBytes))
  }
  return planned.map { dsa_rlimit(resource: $0.0, soft: $0.1, hard: $0.2) }
}
