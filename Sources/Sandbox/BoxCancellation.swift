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
    var killers = Killers()
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
      state.killers.killAll()
    }
  }

  /// Runs `body` with this cancellation current on the calling thread.
  public func within<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
    let outer = pthread_getspecific(Self.threadKey)
    // Unretained: `self` outlives this call, which is as long as it is current.
    pthread_setspecific(Self.threadKey, Unmanaged.passUnretained(self).toOpaque())
    defer { pthread_setspecific(Self.threadKey, outer) }
    return try body()
  }

  /// The calling thread's cancellation, if any: a thread that runs a box on the caller's behalf
  /// (an interactive test's second box) makes it current there too, with `within`.
  public static var current: BoxCancellation? {
    pthread_getspecific(threadKey).map { Unmanaged<BoxCancellation>.fromOpaque($0).takeUnretainedValue() }
  }

  /// A POSIX thread-specific slot, not Foundation's `Thread.current.threadDictionary`: every box run
  /// asks for the current cancellation, and in a one-shot CLI that was a Foundation `Thread` for the
  /// main thread, an NSDictionary and a bridging cast (a scan of the binary's conformances).
  private static let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
    return key
  }()

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
      state.killers.add(killer, key: state.nextKey)
      if state.cancelled { killer() }
      return state.nextKey
    }
  }

  private func detach(_ key: UInt64) {
    state.withLock { $0.killers.remove(key) }
  }
}
