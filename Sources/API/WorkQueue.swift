import Glibc

/// A fixed number of slots for box work and a bounded, first-come-first-served line for them.
///
/// A request that finds every slot busy and the line full is refused at once (503 with
/// Retry-After), and one that waits longer than its deadline leaves the line: a daemon that queues
/// without bound only turns overload into timeouts for everybody.
public final class WorkQueue: @unchecked Sendable {
  /// How an attempt to get a slot ended.
  public enum Admission: Sendable, Equatable {
    /// A slot is held; call `release()` when done.
    case admitted
    /// Every slot was busy and the line was full.
    case full
    /// The deadline passed while waiting in line.
    case timedOut
  }

  /// Work that may run at once.
  public let slots: Int
  /// Requests that may wait for a slot.
  public let maximumWaiting: Int

  // pthread primitives rather than Synchronization.Mutex, which has no condition variable to sleep
  // on until a slot frees up. Both are heap-allocated so their addresses never move.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  // Guarded by `mutex`.
  private var running = 0
  private var line: [UInt64] = []
  private var nextTicket: UInt64 = 0

  /// A queue with `slots` slots (at least 1) and room for `maximumWaiting` waiters (default twice
  /// the slots).
  public init(slots: Int, maximumWaiting: Int? = nil) {
    self.slots = max(1, slots)
    self.maximumWaiting = max(0, maximumWaiting ?? 2 * max(1, slots))
    pthread_mutex_init(mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    // Deadlines on the monotonic clock, so a wall-clock step cannot stretch or cut a wait.
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    condition.deallocate()
  }

  /// Work holding a slot now.
  public var inFlight: Int { locked { running } }
  /// Requests waiting for a slot now.
  public var depth: Int { locked { line.count } }

  /// Takes a slot, waiting in line up to `timeout` when all are busy.
  public func acquire(timeout: Duration) -> Admission {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    // Nobody may overtake those already waiting.
    if running < slots && line.isEmpty {
      running += 1
      return .admitted
    }
    guard line.count < maximumWaiting else { return .full }
    let ticket = nextTicket
    nextTicket += 1
    line.append(ticket)
    let deadline = Self.monotonicDeadline(after: timeout)
    while true {
      if line.first == ticket && running < slots {
        line.removeFirst()
        running += 1
        // The next in line may also fit (several slots freed at once).
        pthread_cond_broadcast(condition)
        return .admitted
      }
      var until = deadline
      if pthread_cond_timedwait(condition, mutex, &until) == ETIMEDOUT {
        if line.first == ticket && running < slots { continue }
        line.removeAll { $0 == ticket }
        // Leaving may make someone else the head of the line.
        pthread_cond_broadcast(condition)
        return .timedOut
      }
    }
  }

  /// Gives back a slot taken by `acquire`.
  public func release() {
    locked {
      precondition(running > 0, "WorkQueue.release without a slot")
      running -= 1
    }
    pthread_cond_broadcast(condition)
  }

  /// Runs `work` in a slot; nil (and `work` not run) when no slot could be had.
  public func withSlot<Result>(timeout: Duration, _ work: () throws -> Result) rethrows -> (Admission, Result?) {
    let admission = acquire(timeout: timeout)
    guard admission == .admitted else { return (admission, nil) }
    defer { release() }
    return (admission, try work())
  }

  private func locked<Result>(_ body: () -> Result) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }

  private static func monotonicDeadline(after timeout: Duration) -> timespec {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let (seconds, attoseconds) = max(timeout, .zero).components
    var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
    var wholeSeconds = Int(now.tv_sec) + Int(seconds)
    wholeSeconds += nanoseconds / 1_000_000_000
    nanoseconds %= 1_000_000_000
    return timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
  }
}
