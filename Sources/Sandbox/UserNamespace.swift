import Glibc
import Synchronization

// CLONE_NEWUSER: the box's identities. Inside, the init is uid 0 (with
// capabilities only over the box's own namespaces) and the program is uid
// 1000 with none. Outside, both map to unprivileged host uids that no other
// live box uses, so a box can never signal or read another box's processes or
// files even if it found a way to name them.

/// The uid and gid of the learner's program inside every box.
public let boxProgramID: UInt32 = 1000

/// A pair of host ids owned by one box: `base` is the box's root, `base + 1`
/// its program.
struct HostIdentity: Sendable {
  let base: UInt32
  var programUID: UInt32 { base + 1 }

  /// Lines for /proc/PID/uid_map and gid_map (written by the parent).
  var mapping: String { "0 \(base) 1\n\(boxProgramID) \(base + 1) 1\n" }
}

/// Hands out host id pairs: unique per (process, counter), far above any
/// uid a distribution gives its users.
final class HostIdentityAllocator: Sendable {
  static let firstHostID: UInt32 = 0x7000_0000
  /// Process-wide, like box names, so two hosts in one process never share ids.
  private static let counter = Atomic<UInt32>(0)

  func next() -> HostIdentity {
    let sequence = Self.counter.add(1, ordering: .relaxed).newValue & 0xfff
    let processPart = UInt32(truncatingIfNeeded: getpid()) & 0xffff
    return HostIdentity(base: Self.firstHostID + ((processPart << 12) | sequence) * 2)
  }
}

/// Writes the box's uid and gid maps from the parent (which holds
/// CAP_SETUID/CAP_SETGID over the box's user namespace).
func writeIdentityMaps(pid: pid_t, identity: HostIdentity) throws(SandboxError) {
  try KernelFile.write(identity.mapping, to: "/proc/\(pid)/uid_map")
  try KernelFile.write(identity.mapping, to: "/proc/\(pid)/gid_map")
}
