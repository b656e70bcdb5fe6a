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

/// Hands out host id pairs: unique among the live boxes of this process
/// (a warm box keeps its pair for its whole life), and apart from other
/// processes' by the pid in the middle bits; far above any uid a
/// distribution gives its users.
final class HostIdentityAllocator: Sendable {
  static let firstHostID: UInt32 = 0x7000_0000
  private static let sequenceSize: UInt32 = 0x1000
  /// Process-wide, like box names, so two hosts in one process never share ids.
  private static let state = Mutex<(next: UInt32, live: Set<UInt32>)>((0, []))

  func next() -> HostIdentity {
    let processPart = UInt32(truncatingIfNeeded: getpid()) & 0xffff
    let base = Self.state.withLock { state -> UInt32 in
      for _ in 0..<Self.sequenceSize {
        let sequence = state.next
        state.next = (state.next + 1) % Self.sequenceSize
        let base = Self.firstHostID + ((processPart << 12) | sequence) * 2
        if state.live.insert(base).inserted { return base }
      }
      // 4096 live boxes in one process: more than any pool holds; share
      // rather than fail (the pid namespaces still keep them apart).
      return Self.firstHostID + (processPart << 12) * 2
    }
    return HostIdentity(base: base)
  }

  /// Gives a destroyed box's pair back.
  func release(_ identity: HostIdentity) {
    _ = Self.state.withLock { $0.live.remove(identity.base) }
  }
}

/// Writes the box's uid and gid maps from the parent (which holds
/// CAP_SETUID/CAP_SETGID over the box's user namespace).
func writeIdentityMaps(pid: pid_t, identity: HostIdentity) throws(SandboxError) {
  try KernelFile.write(identity.mapping, to: "/proc/\(pid)/uid_map")
  try KernelFile.write(identity.mapping, to: "/proc/\(pid)/gid_map")
}
