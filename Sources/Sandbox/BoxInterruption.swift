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
    var killers: [UInt64: @Sendable () -> Void] = [:]
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
      for killer in state.killers.values { killer() }
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
      state.killers[state.nextKey] = killer
      if state.stopped { killer() }
      return state.nextKey
    }
  }

  static func unregister(_ key: UInt64) {
    _ = state.withLock { $0.killers.removeValue(forKey: key) }
  }
}
