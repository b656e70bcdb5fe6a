internal import CSandbox
import Glibc

// What a run could leave in a warm box for the next run to see, read from the
// host. A warm box's fingerprint is taken when the box is fresh and again
// after every end-of-run reset; any difference makes the pool discard the box
// instead of handing it to the next learner.
//
// Everything that can outlive a box's processes lives in one of these places:
// a file system (the three writable tmpfs roots), the IPC namespace (reset by
// the init, which reports it), a socket kept in flight by another socket
// (counted per network namespace), or memory charged to the box's cgroup.

/// Why a warm box was discarded instead of reused; the label values of the
/// daemon's `dsa_run_box_discards_total`.
public enum BoxDiscardReason: String, Sendable, CaseIterable, Comparable {
  /// The init died, the command protocol failed, or a setup step failed.
  case broken
  /// The mode, owner or extended attributes of /box, /tmp or /dev/shm could
  /// not be reset.
  case rootModes = "root_modes"
  /// Files could not be removed, or their tmpfs usage stayed (a file kept
  /// open by a socket in flight).
  case files
  /// The init did not report its IPC objects removed and its IPC namespace replaced.
  case ipc
  /// The init could not reset the pid namespace's counter.
  case pidCounter = "pid_counter"
  /// A socket (or a TCP TIME_WAIT entry) is left in the box's network namespace.
  case sockets
  /// A process other than the init is left in the box.
  case processes
  /// Memory beyond reclaimable page cache stays charged to the box's cgroup.
  case memory
  /// The init's resource limits changed.
  case rlimits

  public static func < (left: Self, right: Self) -> Bool { left.rawValue < right.rawValue }
}

/// The host-visible state of a warm box between runs.
public struct BoxFingerprint: Sendable, Equatable {
  /// One writable tmpfs root (/box, /tmp, /dev/shm) as the host sees it.
  public struct Root: Sendable, Equatable {
    public var mode: UInt32
    public var owner: UInt32
    public var group: UInt32
    public var links: UInt64
    /// The size of the root's extended attribute name list (ACLs included); 0 for none.
    public var extendedAttributeBytes: Int
    public var usedBlocks: UInt64
    public var usedInodes: UInt64
  }

  /// In the order /box, /tmp, /dev/shm; nil where a root cannot be read.
  public var roots: [Root?]
  /// Processes in the box's cgroup, the init included (its children where
  /// no cgroup exists).
  public var processes: Int?
  /// Sockets in use in the box's network namespace, plus its TCP TIME_WAIT
  /// entries (each keeps a port busy: one bit the next run could read).
  public var sockets: Int?
  /// Memory charged to the box's cgroup, less reclaimable file cache.
  public var memoryChargeBytes: UInt64?
  /// The init's soft and hard limits of every resource, in order.
  public var rlimits: [UInt64]

  /// How much more memory than when fresh the box may keep charged: the
  /// init's own pages touched while it serves runs, slab of the mounts and
  /// namespaces. What a learner can leave (a SysV segment, a file) is far
  /// larger or is caught by the other fields.
  public static let memoryAllowanceBytes: UInt64 = 4 << 20

  /// Reads a box's fingerprint; a memory charge within the allowance of `fresh`'s is taken as it is.
  /// `roots`: the scratch roots (tmpfs mount roots) as read (`readRoot`), `sockstat`: a descriptor of the init's
  /// /proc/<pid>/net/sockstat (`dsa_open_socket_count`), `limits`: of its /proc/<pid>/limits
  /// (`dsa_open_limits`), both kept open by the box (-1: unreadable).
  static func read(
    roots: [Root?], sockstat: Int32, limits: Int32, initPID: Int32, cgroup: BoxCgroup?, fresh: BoxFingerprint?
  ) -> BoxFingerprint {
    let allowed = (fresh?.memoryChargeBytes ?? 0) + memoryAllowanceBytes
    let sockets = sockstat < 0 ? -1 : dsa_socket_count_in(sockstat)
    return BoxFingerprint(
      roots: roots, processes: processCount(initPID: initPID, cgroup: cgroup),
      sockets: sockets < 0 ? nil : sockets, memoryChargeBytes: cgroup?.memoryChargeBytes(cacheCountedUpTo: allowed),
      rlimits: initRLimits(limits))
  }

  /// The reasons this fingerprint is not that of the same box when fresh;
  /// empty when the box may be reused.
  public func differences(from fresh: BoxFingerprint) -> Set<BoxDiscardReason> {
    var reasons: Set<BoxDiscardReason> = []
    for (now, then) in zip(roots, fresh.roots) {
      guard let now, let then else {
        reasons.insert(.rootModes)
        continue
      }
      if now.mode != then.mode || now.owner != then.owner || now.group != then.group
        || now.extendedAttributeBytes != then.extendedAttributeBytes
      {
        reasons.insert(.rootModes)
      }
      if now.links != then.links || now.usedBlocks != then.usedBlocks || now.usedInodes != then.usedInodes {
        reasons.insert(.files)
      }
    }
    if processes != fresh.processes { reasons.insert(.processes) }
    if sockets != fresh.sockets { reasons.insert(.sockets) }
    if let then = fresh.memoryChargeBytes {
      if (memoryChargeBytes ?? .max) > then + Self.memoryAllowanceBytes { reasons.insert(.memory) }
    }
    if rlimits != fresh.rlimits { reasons.insert(.rlimits) }
    return reasons
  }

  static func readRoot(_ fd: Int32) -> Root? {
    if fd < 0 { return nil }
    var info = stat()
    var usage = statvfs()
    guard fstat(fd, &info) == 0, fstatvfs(fd, &usage) == 0 else { return nil }
    let attributes = dsa_extended_attribute_bytes(fd)
    return Root(
      mode: info.st_mode, owner: info.st_uid, group: info.st_gid, links: UInt64(info.st_nlink),
      extendedAttributeBytes: attributes < 0 ? -1 : attributes,
      usedBlocks: UInt64(usage.f_blocks) - UInt64(usage.f_bfree),
      usedInodes: UInt64(usage.f_files) - UInt64(usage.f_ffree))
  }

  static func processCount(initPID: Int32, cgroup: BoxCgroup?) -> Int? {
    if let cgroup { return cgroup.processCount() }
    // Orphans are reparented to the box's init, so its children are every
    // other process of the box.
    guard let text = KernelFile.read("/proc/\(initPID)/task/\(initPID)/children") else { return nil }
    return 1 + text.split(separator: " ").filter { !$0.trimmed.isEmpty }.count
  }

  /// From the box's /proc/net/sockstat ("sockets: used N", "TCP: ... tw N"),
  /// which the kernel counts per network namespace.
  static func socketCount(initPID: Int32) -> Int? {
    let count = dsa_socket_count(initPID)
    return count < 0 ? nil : count
  }

  /// Sets the init's RLIMIT_CORE, soft and hard, as read; an unreadable one stays unreadable.
  mutating func setInitCoreLimit(_ bytes: UInt64) {
    let soft = Int(RLIMIT_CORE.rawValue) * 2
    guard rlimits.count > soft + 1, rlimits[soft] != .max - 1 else { return }
    rlimits[soft] = bytes
    rlimits[soft + 1] = bytes
  }

  /// The init's 16 limits (RLIMIT_NLIMITS on Linux), soft and hard in turn, from a descriptor of
  /// its /proc/<pid>/limits.
  static func initRLimits(_ limits: Int32) -> [UInt64] {
    var values = [UInt64](repeating: 0, count: 32)
    if limits < 0 || dsa_read_limits_in(limits, &values) != 0 {
      // Unreadable (the init is gone): never equal to a fresh box's.
      return [UInt64](repeating: .max - 1, count: 32)
    }
    return values
  }
}
