import Dispatch
import Foundation
import Glibc
import SystemCore

/// A fixed number of box slots, each a long-lived worker thread, and a first-come-first-served
/// line of work for them, admitted by wait budget.
///
/// A request is refused at once (503 with Retry-After) when the wait it would have is estimated
/// to pass the budget: its place in line times the recent run time per slot (a moving average of
/// how long a job held its slot, divided by the slots). A fixed line length does not fit a real
/// backend: four waiters behind two slots turned away six of twenty concurrent hello-worlds that
/// queueing would have finished in under half a second, while the same four behind two slow grades
/// admit waits of many seconds. A hard cap on the line (`maximumWaiting`, off by default; the HTTP
/// server's connection cap bounds it anyway) and a per-request deadline stay as backstops: a
/// daemon that queues without bound only turns overload into timeouts for everybody.
///
/// Why workers that pull, rather than callers that take a slot and run on their own thread: a
/// worker that finishes a run takes the next job at once, so no thread has to be woken between one
/// box run and the next (with callers holding slots, a release had to wake a waiter, which on a busy
/// 2-core host cost a scheduling delay per run). And boxes are made on threads that live as long as
/// the daemon: Linux ties `PR_SET_PDEATHSIG` to the *thread* that created a process, and an HTTP
/// connection's thread ends with its connection.
public final class WorkQueue: Sendable {
  /// How an attempt to run work ended.
  public enum Admission: Sendable, Equatable {
    /// The work ran in a slot.
    case admitted
    /// Every slot was busy and the line was full.
    case full
    /// The estimated wait passed the budget (see `estimatedWait`).
    case overBudget(estimatedWait: Duration)
    /// The deadline passed while waiting in line.
    case timedOut
  }

  /// Work that may run at once (the number of worker threads).
  public let slots: Int
  /// Jobs that may wait for a slot at most, whatever the estimate; `Int.max` when only the budget
  /// bounds the line.
  public let maximumWaiting: Int
  /// The longest estimated wait a job is admitted with; nil admits up to `maximumWaiting`.
  public let waitBudget: Duration?

  private let shared: Shared

  /// A queue with `slots` slots (at least 1), admitting a job while its estimated wait is within
  /// `waitBudget` and fewer than `maximumWaiting` wait (nil: no cap). Until a run has been timed,
  /// a job is taken to hold its slot `initialRunEstimate`. Its worker threads end when the queue is
  /// released.
  public init(
    slots: Int, maximumWaiting: Int? = nil, waitBudget: Duration? = nil,
    initialRunEstimate: Duration = .milliseconds(250)
  ) {
    self.slots = max(1, slots)
    self.maximumWaiting = max(0, maximumWaiting ?? Int.max)
    self.waitBudget = waitBudget
    shared = Shared(
      slots: self.slots, maximumWaiting: self.maximumWaiting,
      initialRunSeconds: Self.seconds(initialRunEstimate))
    for index in 0..<self.slots {
      let shared = self.shared
      let thread = Thread { shared.serve() }
      thread.name = "dsa-run-slot-\(index)"
      thread.start()
    }
  }

  deinit {
    shared.close()
  }

  /// Work running in a slot now.
  public var inFlight: Int { shared.locked { shared.running } }
  /// Jobs waiting for a slot now (not counting those a free worker is about to take).
  public var depth: Int { shared.locked { shared.waiting } }
  /// How long a job arriving now would wait for a slot, by the estimate admission uses.
  public var estimatedWait: Duration { shared.locked { Self.duration(shared.estimatedWaitSeconds) } }
  /// The moving average of how long a job held its slot.
  public var recentRunTime: Duration { shared.locked { Self.duration(shared.averageRunSeconds) } }

  /// Runs `work` on a slot's thread, waiting in line up to `timeout` when every slot is busy, and
  /// returns its value; `(.full, nil)`, `(.overBudget, nil)` or `(.timedOut, nil)`, with `work`
  /// never run, otherwise. `checksBudget: false` admits past the budget (up to `maximumWaiting`):
  /// for stored jobs, which no client waits on and whose number the workers bound.
  public func withSlot<Value: Sendable>(
    timeout: Duration, checksBudget: Bool = true, _ work: @escaping @Sendable () -> Value
  ) -> (Admission, Value?) {
    let job = Job<Value>(work)
    let budget = checksBudget ? waitBudget.map(Self.seconds) : nil
    switch shared.enqueue(job, budgetSeconds: budget) {
    case .admitted: break
    case .full: return (.full, nil)
    case .overBudget(let estimate): return (.overBudget(estimatedWait: Self.duration(estimate)), nil)
    }
    if job.finished.wait(timeout: .now() + Self.dispatchInterval(timeout)) == .timedOut {
      guard shared.started(job) else { return (.timedOut, nil) }
      // Already running: its own time limits bound it.
      job.finished.wait()
    }
    return (.admitted, job.value)
  }

  /// Runs `work` on a slot only when one is idle and nobody waits (`PrewarmSlots`), and, with more
  /// than one slot, only when another stays idle for the next request: true when it was put in line
  /// for that slot, false at once otherwise. Not timed, so the estimate that admission uses stays
  /// the requests' own.
  public func runIfIdle(_ work: @escaping @Sendable () -> Void) -> Bool {
    shared.enqueueIfIdle(Job<Void>(work))
  }

  static func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) + Double(fraction) / 1e18
  }

  static func duration(_ seconds: Double) -> Duration {
    .nanoseconds(Int64((max(0, seconds) * 1e9).rounded()))
  }

  private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
    let (seconds, attoseconds) = max(duration, .zero).components
    let nanoseconds = min(Int64(Int32.max) * 1_000_000_000, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    return .nanoseconds(Int(nanoseconds))
  }
}

/// One unit of work in the line.
private class AnyJob: @unchecked Sendable {
  /// Guarded by the queue's mutex: whether a worker took it.
  var taken = false
  /// A pool's refill: its time is not a request's, so the run-time average leaves it out.
  var untimed = false
  let finished = DispatchSemaphore(value: 0)
  func run() {}
}

private final class Job<Value: Sendable>: AnyJob, @unchecked Sendable {
  private let work: @Sendable () -> Value
  // Written by the worker before `finished` is signalled, read by the caller after.
  var value: Value?

  init(_ work: @escaping @Sendable () -> Value) {
    self.work = work
  }

  override func run() {
    value = work()
  }
}

/// The line and the counters, shared by the queue and its workers (which must not keep the queue
/// itself alive).
private final class Shared: @unchecked Sendable {
  let slots: Int
  let maximumWaiting: Int
  // pthread primitives rather than Synchronization.Mutex, which has no condition variable to sleep
  // on. Both are heap-allocated so their addresses never move.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  // Guarded by `mutex`.
  private var line: [AnyJob] = []
  private var head = 0
  var running = 0
  private var closed = false
  /// The moving average of a job's time in its slot, seconds.
  private(set) var averageRunSeconds: Double

  /// How much one timed run moves the average: recent enough to follow a change of load within a
  /// few dozen runs, steady enough that one slow run does not close the door.
  static let averageWeight = 0.1

  enum Entry {
    case admitted
    case full
    case overBudget(Double)
  }

  init(slots: Int, maximumWaiting: Int, initialRunSeconds: Double) {
    self.slots = slots
    self.maximumWaiting = maximumWaiting
    averageRunSeconds = initialRunSeconds
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    condition.deallocate()
  }

  /// Jobs in line beyond those the free slots are about to take. Call with the mutex held.
  var waiting: Int { max(0, (line.count - head) - (slots - running)) }

  func locked<Result>(_ body: () -> Result) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }

  /// The estimated wait of a job arriving now, seconds: a free slot takes it at once; else it
  /// waits for the jobs ahead of it and one more run to end, `slots` at a time. Call with the
  /// mutex held.
  var estimatedWaitSeconds: Double {
    let ahead = line.count - head + running
    guard ahead >= slots else { return 0 }
    return Double(ahead - slots + 1) * averageRunSeconds / Double(slots)
  }

  /// Puts a job in line unless the line is full or its estimated wait passes `budgetSeconds`.
  func enqueue(_ job: AnyJob, budgetSeconds: Double?) -> Entry {
    let entry = locked { () -> Entry in
      guard (line.count - head) - (slots - running) < maximumWaiting else { return .full }
      if let budgetSeconds {
        let estimate = estimatedWaitSeconds
        if estimate > budgetSeconds { return .overBudget(estimate) }
      }
      line.append(job)
      return .admitted
    }
    if case .admitted = entry { pthread_cond_signal(condition) }
    return entry
  }

  /// Puts a job in line only when nobody waits and it leaves a slot idle (or takes the only one).
  func enqueueIfIdle(_ job: AnyJob) -> Bool {
    let entered = locked { () -> Bool in
      guard line.count - head == 0, running + 1 < slots || (slots == 1 && running == 0) else { return false }
      job.untimed = true
      line.append(job)
      return true
    }
    if entered { pthread_cond_signal(condition) }
    return entered
  }

  /// Whether a worker took `job`; if not, it leaves the line for good.
  /// A job a free worker is about to take counts as started: the deadline is for waiting behind
  /// busy slots, not for a thread's wake-up.
  func started(_ job: AnyJob) -> Bool {
    locked {
      if job.taken { return true }
      guard let index = line[head...].firstIndex(where: { $0 === job }) else { return true }
      if index - head < slots - running { return true }
      line.remove(at: index)
      return false
    }
  }

  func close() {
    locked { closed = true }
    pthread_cond_broadcast(condition)
  }

  /// A worker's life: take the oldest job, run it, repeat, until the queue is gone.
  func serve() {
    pthread_mutex_lock(mutex)
    while true {
      while head == line.count && !closed { pthread_cond_wait(condition, mutex) }
      if head == line.count {
        pthread_mutex_unlock(mutex)
        return
      }
      let job = line[head]
      head += 1
      // Compact now and then instead of removing from the front each time.
      if head > 64 && head * 2 > line.count {
        line.removeFirst(head)
        head = 0
      }
      job.taken = true
      running += 1
      pthread_mutex_unlock(mutex)
      let started = monotonicMicroseconds()
      job.run()
      let ranSeconds = Double(monotonicMicroseconds() - started) / 1e6
      pthread_mutex_lock(mutex)
      if !job.untimed { averageRunSeconds += Self.averageWeight * (ranSeconds - averageRunSeconds) }
      running -= 1
      job.finished.signal()
    }
  }
}
