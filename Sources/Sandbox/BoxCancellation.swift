internal import CSandbox
import Foundation
import Glibc
import Synchronization

/// Stops the boxes of one piece of work when it is cancelled: a stored submission deleted while it
/// runs. `within(_:)` makes a cancellation current on this thread; every box run started there
/// attaches to it while its program runs, and `cancel()` SIGKILLs the box's init (its pid namespace
/// dies with it), so the program ends now and its slot is free, rather than running to its limit
/// for a result nobody will read. A box that attaches after `cancel()` is killed at once.
///
/// The kill goes to the init, not through a warm box's control socket: a kill sent as the run ends
/// could otherwise reach the next run of that box. A warm box so killed is broken and the pool
/// drops it. (Unlike `BoxInterruption`, which stops every box of the process for good.)
public final class BoxCancellation: Sendable {
  private struct State {
    var cancelled = false
    var nextKey: UInt64 = 0
    var killers: [UInt64: @Sendable () -> Void] = [:]
  }

  private let state = Mutex(State())

  public init() {}

  /// Whether `cancel()` was called.
  public var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Kills the attached boxes and every box that attaches from now on.
  public func cancel() {
    // Killers run under the lock, so none runs after its box detached (and closed its pidfd).
    state.withLock { state in
      state.cancelled = true
      for killer in state.killers.values { killer() }
    }
  }

  /// Runs `body` with this cancellation current on the calling thread.
  public func within<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
    let thread = Thread.current.threadDictionary
    let outer = thread[Self.key]
    thread[Self.key] = self
    defer { thread[Self.key] = outer }
    return try body()
  }

  /// The calling thread's cancellation, if any.
  static var current: BoxCancellation? { Thread.current.threadDictionary[key] as? BoxCancellation }

  private static let key = "dsa-run.box-cancellation"

  /// Runs `body` (a box's run of one program) with `process` (the box's init) attached to the
  /// current cancellation, if there is one.
  static func attached<Value>(_ process: BoxProcess, _ body: () -> Value) -> Value {
    guard let cancellation = current else { return body() }
    let pidfd = process.pidfd
    let key = cancellation.attach { _ = dsa_pidfd_send_signal(pidfd, SIGKILL) }
    defer { cancellation.detach(key) }
    return body()
  }

  private func attach(_ killer: @escaping @Sendable () -> Void) -> UInt64 {
    state.withLock { state in
      state.nextKey += 1
      state.killers[state.nextKey] = killer
      if state.cancelled { killer() }
      return state.nextKey
    }
  }

  private func detach(_ key: UInt64) {
    _ = state.withLock { $0.killers.removeValue(forKey: key) }
  }
}
