import Glibc
import Synchronization
import SystemCore

/// Stops every box of this process at once: the CLI calls `stopAll()` when it gets SIGINT, SIGTERM
/// or SIGHUP, so the program ends now rather than at its limit, and then waits for `boxesGone` before
/// it exits, so no work directory, mount or cgroup outlives it.
///
/// Boxes count themselves from their creation to the end of their `destroy()`; a running box (or a
/// warm box's init) registers how to kill it. After `stopAll()`, no new box can be created (its
/// `init` throws), and a box that registers late is killed at once.
public enum BoxInterruption {
  struct State {
    var stopped = false
    var liveBoxes = 0
    var nextKey: UInt64 = 0
    /// A list, not a dictionary: as many entries as boxes run at once, and the first
    /// `[UInt64: ...]` of a process cost a one-shot CLI a scan of every protocol conformance in the
    /// binary (UInt64: Hashable).
    var killers = Killers()
  }

  private static let state = Mutex(State())

  public static var isStopped: Bool { state.withLock { $0.stopped } }

  /// Boxes created and not yet destroyed.
  public static var liveBoxCount: Int { state.withLock { $0.liveBoxes } }

  /// Kills every running box and refuses new ones, for good.
  public static func stopAll() {
    // Killers run under the lock, so none runs after its box unregistered (and closed its pidfd).
    state.withLock { state in
      state.stopped = true
      state.killers.killAll()
    }
  }

  /// Waits until every box is destroyed, or the timeout; returns whether they all were.
  public static func waitUntilBoxesAreGone(timeoutMilliseconds: UInt64) -> Bool {
    let deadline = monotonicMilliseconds() + timeoutMilliseconds
    while liveBoxCount > 0 {
      if monotonicMilliseconds() >= deadline { return false }
      usleep(1_000)
    }
    return true
  }

  /// Counts a new box; throws once stopped.
  static func admit() throws(SandboxError) {
    let admitted = state.withLock { state -> Bool in
      if state.stopped { return false }
      state.liveBoxes += 1
      return true
    }
    if !admitted { throw SandboxError(step: "create a box: dsa-run was interrupted", errorNumber: EINTR) }
  }

  /// The end of an admitted box's `destroy()`.
  static func leave() {
    state.withLock { $0.liveBoxes -= 1 }
  }

  /// Registers how to kill a running box; killed at once if already stopped.
  static func register(killer: @escaping @Sendable () -> Void) -> UInt64 {
    state.withLock { state in
      state.nextKey += 1
      state.killers.add(killer, key: state.nextKey)
      if state.stopped { killer() }
      return state.nextKey
    }
  }

  static func unregister(_ key: UInt64) {
    state.withLock { $0.killers.remove(key) }
  }
}

/// How to kill each running box, by the key its registration returned.
struct Killers {
  private var entries: [(key: UInt64, kill: @Sendable () -> Void)] = []

  mutating func add(_ kill: @escaping @Sendable () -> Void, key: UInt64) { entries.append((key, kill)) }

  mutating func remove(_ key: UInt64) { entries.removeAll { $0.key == key } }

  func killAll() {
    for entry in entries { entry.kill() }
  }
}
