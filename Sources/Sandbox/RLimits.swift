internal import CSandbox
import Glibc

// rlimits: per-process backstops applied by the program's last C steps. The
// cgroup limits are the real ones where a cgroup exists; in rlimit-only mode
// these are all there is.

/// The rlimits for a box's program.
func plannedRLimits(for limits: BoxLimits, mode: CgroupMode) -> [dsa_rlimit] {
  let cpuSeconds = (limits.cpuTimeMilliseconds + 999) / 1000
  var planned: [(Int32, UInt64, UInt64)] = [
    // SIGXCPU at the limit, SIGKILL one second later.
    (Int32(RLIMIT_CPU.rawValue), cpuSeconds, cpuSeconds + 1),
    (Int32(RLIMIT_FSIZE.rawValue), limits.fileSizeBytes, limits.fileSizeBytes),
    (Int32(RLIMIT_NOFILE.rawValue), limits.openFiles, limits.openFiles),
    (Int32(RLIMIT_STACK.rawValue), limits.stackBytes, limits.stackBytes),
    (Int32(RLIMIT_CORE.rawValue), 0, 0),
    // Counted per host uid, and every box has its own.
    (dsa_rlimit_nproc, limits.processes, limits.processes),
    (dsa_rlimit_memlock, 64 << 10, 64 << 10),
  ]
  if let addressSpace = limits.addressSpaceBytes {
    planned.append((Int32(RLIMIT_AS.rawValue), addressSpace, addressSpace))
  } else if mode == .rlimitOnly {
    // Without a memory cgroup, RLIMIT_DATA bounds heap growth (brk and private
    // mappings) without counting reservations the way RLIMIT_AS does.
    planned.append((Int32(RLIMIT_DATA.rawValue), limits.memoryBytes, limits.memoryBytes))
  }
  return planned.map { dsa_rlimit(resource: $0.0, soft: $0.1, hard: $0.2) }
}
