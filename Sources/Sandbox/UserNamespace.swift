import Glibc
import Synchronization

// CLONE_NEWUSER: the box's identities. Inside, the init is uid 0 (with
// capabilities only over the box's own namespaces) and the program is uid
// 1000 with none. Outside, both map to unprivileged host uids that no other
// live box on the host uses (a lease), so a box can never signal or read
// another box's processes or files even if it found a way to name them. The
// box root's host uid also owns the box's user namespace, so the kernel's
// per-user counts of the box land on it, never on root (dsa_spawn).

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

/// Hands out host id pairs, unique host-wide: each pair is a lease, an
/// exclusive flock on its own file under a root-only directory, held while
/// the box lives (a warm box keeps its pair for its whole life). The kernel
/// drops the lock when the holder closes it or dies, so the pairs of a
/// killed dsa-run come back by themselves, and no two processes (CLI,
/// daemon, tests, any pid) can ever hold the same pair. Far above any uid a
/// distribution gives its users.
final class HostIdentityAllocator: Sendable {
  static let firstHostID: UInt32 = 0x7000_0000
  /// 32,768 pairs: host uids 0x7000_0000 to 0x7000_ffff.
  static let defaultSlotCount: UInt32 = 0x8000
  static let defaultDirectory = "/run/dsa-run/uids"

  let directory: String
  let slotCount: UInt32
  /// Where this allocator starts looking: random within the first
  /// `startWindow` slots, so processes that start together seldom try the
  /// same file first, and low, so every process reuses the same few lock
  /// files. A start anywhere in all 32,768 slots made most one-shot CLIs
  /// create a new file: on an ext4 `/run` that open waited 0.3 to 2.2 ms for
  /// the journal, in a third of the runs (`perf` sched trace, 2026-12-02).
  private let start: UInt32
  static let startWindow: UInt32 = 64
  /// Each held slot and the fd holding its lock. A list, as many as boxes run at once: the first
  /// `[UInt32: Int32]` of a process cost a one-shot CLI a scan of every protocol conformance in the
  /// binary (UInt32: Hashable), for one entry.
  private let held = Mutex<[(slot: UInt32, fd: Int32)]>([])

  init(directory: String = HostIdentityAllocator.defaultDirectory, slotCount: UInt32 = defaultSlotCount) {
    self.directory = directory
    self.slotCount = slotCount
    start = UInt32.random(in: 0..<min(slotCount, Self.startWindow))
  }

  func next() throws(SandboxError) -> HostIdentity {
    try prepareDirectory()
    let directory = self.directory
    let slotCount = self.slotCount
    let start = self.start
    let leased = held.withLock { held -> Result<UInt32, SandboxError> in
      for offset in 0..<slotCount {
        let slot = (start + offset) % slotCount
        if held.contains(where: { $0.slot == slot }) { continue }
        let path = "\(directory)/\(slot)"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 { return .failure(SandboxError(step: "open the uid lease \(path)", errorNumber: errno)) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
          held.append((slot, fd))
          return .success(slot)
        }
        let error = errno
        close(fd)
        if error != EWOULDBLOCK {
          return .failure(SandboxError(step: "lock the uid lease \(path)", errorNumber: error))
        }
      }
      return .failure(
        SandboxError(step: "lease a host uid pair: all \(slotCount) in \(directory) are held", errorNumber: EAGAIN))
    }
    switch leased {
    case .success(let slot): return HostIdentity(base: Self.firstHostID + slot * 2)
    case .failure(let error): throw error
    }
  }

  /// Gives a destroyed box's pair back (its processes are gone by then).
  func release(_ identity: HostIdentity) {
    let slot = (identity.base - Self.firstHostID) / 2
    let fd = held.withLock { held -> Int32? in
      guard let index = held.firstIndex(where: { $0.slot == slot }) else { return nil }
      return held.remove(at: index).fd
    }
    if let fd { close(fd) }
  }

  /// Slots this allocator holds (tests).
  var heldSlots: Set<UInt32> { held.withLock { Set($0.map(\.slot)) } }

  /// Root-only, so no other user can take (or block) a lease.
  private func prepareDirectory() throws(SandboxError) {
    var info = stat()
    if lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid(),
      info.st_mode & 0o777 == 0o700
    {
      return
    }
    var partial = ""
    for component in directory.split(separator: "/") {
      partial += "/" + component
      let isLast = partial == directory
      if mkdir(partial, isLast ? 0o700 : 0o755) != 0 && errno != EEXIST {
        throw SandboxError(step: "mkdir \(partial)", errorNumber: errno, hint: "dsa-run needs root")
      }
    }
    guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid(),
      chmod(directory, 0o700) == 0
    else {
      throw SandboxError(
        step: "\(directory) must be a directory owned by uid \(geteuid())", errorNumber: EPERM)
    }
  }
}

/// Limits of the box's own user namespace, per uid of the box, written by
/// its init to /proc/sys/user/. The host's per-user limits (128 inotify
/// instances by default) still apply at the level of the namespace's owner,
/// the box root's host uid (see dsa_spawn), so one box can only ever
/// exhaust its own; these keep a program well below even that.
let boxUserNamespaceLimits: [(name: String, value: Int)] = [
  ("max_inotify_instances", 32),
  ("max_inotify_watches", 8192),
  // Not the fanotify limits: the policy refuses fanotify_init, so a box can
  // never hold a group, and every write here is paid by each one-shot box
  // (tens of microseconds; docs/security.md).
]

/// Writes the box's uid and gid maps from the parent (which holds
/// CAP_SETUID/CAP_SETGID over the box's user namespace).
func writeIdentityMaps(pid: pid_t, identity: HostIdentity) throws(SandboxError) {
  try KernelFile.write(identity.mapping, to: "/proc/\(pid)/uid_map")
  try KernelFile.write(identity.mapping, to: "/proc/\(pid)/gid_map")
}
