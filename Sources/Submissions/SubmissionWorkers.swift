import Foundation
import Synchronization

/// The threads that take stored jobs and run them: workers that claim a job, run it through the
/// API's closure (which waits for a box slot like any request) and record its result; one
/// housekeeper that renews this daemon's leases and purges old results; and, for a store shared by
/// several daemons, one listener that wakes the workers when another daemon queues work.
///
/// Leases are what make a crash safe: a job is `running` only while its daemon keeps renewing the
/// lease (every third of its length). A daemon killed with SIGKILL stops renewing, the lease runs
/// out, and any worker (after a restart, or on another daemon) claims the job again. It may so run
/// twice; `complete` records only the first result.
public final class SubmissionWorkers: Sendable {
  /// What running a job gave.
  public enum RunOutcome: Sendable, Equatable {
    /// The result bytes the sync route would have answered, or its error object's bytes.
    case finished(Data, isError: Bool)
    /// No box slot could be had now (the sync lane is full): try again shortly, nothing recorded.
    case retryLater
  }

  /// Runs one job's body as its route would and returns what that route answers; the run is to
  /// stop (its boxes killed) when the cancellation fires, as it does when the submission is
  /// cancelled.
  public typealias Run = @Sendable (SubmissionKind, Data, RunCancellation) -> RunOutcome

  /// The knobs.
  public struct Settings: Sendable {
    /// Jobs run at once by this daemon (they also need a box slot each).
    public var workers: Int
    /// How long a lease lasts without renewal, milliseconds.
    public var leaseMilliseconds: Int64 = 15_000
    /// How long finished submissions are kept, milliseconds.
    public var retentionMilliseconds: Int64 = 24 * 3_600_000
    /// How often the housekeeper purges, milliseconds.
    public var purgeIntervalMilliseconds: Int64 = 60_000
    /// How long an idle worker sleeps before it looks at the store again, milliseconds.
    public var idlePollMilliseconds = 1000

    public init(workers: Int) {
      self.workers = max(1, workers)
    }
  }

  public let store: any SubmissionStore
  public let settings: Settings
  /// This daemon's name in leases: random, so a restarted daemon never mistakes a dead one's lease
  /// for its own.
  public let instance: String
  private let run: Run
  private let shared: Shared
  /// Called after a job's result is recorded (webhooks, waiters).
  private let onRecorded: (@Sendable (String) -> Void)?

  public init(
    store: any SubmissionStore, settings: Settings, instance: String? = nil,
    onRecorded: (@Sendable (String) -> Void)? = nil, run: @escaping Run
  ) {
    self.store = store
    self.settings = settings
    self.instance = instance ?? ((try? SubmissionID.make()) ?? UUID().uuidString)
    self.run = run
    self.onRecorded = onRecorded
    shared = Shared()
  }

  /// Jobs this daemon runs now.
  public var heldCount: Int { shared.locked { shared.held.count } }

  /// Stops the run of `id` if this daemon holds it (it was just cancelled here): its boxes are
  /// killed now, so its slot is free at once. A job cancelled through another daemon is stopped
  /// when the lease renewal finds it no longer held (within a second).
  public func stopRun(of id: String) {
    shared.locked { shared.held[id] }?.cancel()
  }

  /// Starts the threads.
  public func start() {
    for index in 0..<settings.workers {
      startThread(name: "dsa-run-submission-\(index)") { [self] in work() }
    }
    startThread(name: "dsa-run-submission-housekeeper") { [self] in keepHouse() }
    if store.wakesAcrossProcesses {
      startThread(name: "dsa-run-submission-listener") { [self] in listen() }
    }
  }

  /// Tells idle workers that work was queued here.
  public func wake() {
    shared.condition.lock()
    shared.generation += 1
    shared.condition.broadcast()
    shared.condition.unlock()
  }

  /// Stops claiming, lets running jobs finish for up to `timeout`, and returns whether they all did.
  /// Queued jobs stay in the store for the next start (or another daemon).
  public func stop(drainingFor timeout: Duration) -> Bool {
    shared.condition.lock()
    shared.stopping = true
    shared.condition.broadcast()
    shared.condition.unlock()
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if shared.locked({ shared.held.isEmpty && shared.liveWorkers == 0 }) { return true }
      usleep(10_000)
    }
    return shared.locked { shared.held.isEmpty }
  }

  private func startThread(name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.name = name
    thread.start()
  }

  private func now() -> Int64 { wallClockMilliseconds() }

  private func work() {
    shared.locked { shared.liveWorkers += 1 }
    defer { shared.locked { shared.liveWorkers -= 1 } }
    while !shared.isStopping {
      let generation = shared.currentGeneration
      let claimed: ClaimedSubmission?
      do throws(StoreError) {
        let time = now()
        claimed = try store.claim(worker: instance, now: time, leaseUntil: time + settings.leaseMilliseconds)
      } catch {
        // The store is down: health says so; try again after a pause rather than spin.
        claimed = nil
      }
      guard let job = claimed else {
        shared.waitForChange(from: generation, milliseconds: settings.idlePollMilliseconds)
        continue
      }
      let cancellation = RunCancellation()
      shared.locked { shared.held[job.id] = cancellation }
      var outcome = run(job.kind, job.body, cancellation)
      while outcome == .retryLater && !shared.isStopping && !cancellation.isCancelled {
        usleep(50_000)
        outcome = run(job.kind, job.body, cancellation)
      }
      switch outcome {
      case .retryLater:
        // Stopping before it could run: back in the queue for whoever starts next.
        try? store.release(id: job.id, worker: instance)
      case .finished(let data, let isError):
        record(job.id, data, isError: isError)
      }
      shared.locked { _ = shared.held.removeValue(forKey: job.id) }
    }
  }

  /// Records a result, retrying while the store is down: the lease is renewed meanwhile, so the job
  /// is not taken over, and if this daemon dies first another run records it.
  private func record(_ id: String, _ data: Data, isError: Bool) {
    var pause: UInt32 = 100_000
    while true {
      do throws(StoreError) {
        if try store.complete(id: id, result: data, isError: isError, now: now()) { onRecorded?(id) }
        return
      } catch {
        usleep(pause)
        pause = min(pause * 2, 2_000_000)
      }
    }
  }

  private func keepHouse() {
    var lastPurge: Int64 = 0
    let renewEvery = max(10, Int(settings.leaseMilliseconds / 3))
    while !(shared.isStopping && shared.locked({ shared.held.isEmpty })) {
      let held = shared.locked { shared.held }
      let time = now()
      if !held.isEmpty,
        let kept = try? store.renew(
          ids: Array(held.keys), worker: instance, leaseUntil: time + settings.leaseMilliseconds)
      {
        // Cancelled (perhaps through another daemon) or lost: nobody will take its result.
        for (id, cancellation) in held where !kept.contains(id) { cancellation.cancel() }
      }
      if time - lastPurge >= settings.purgeIntervalMilliseconds {
        if (try? store.purge(finishedBefore: time - settings.retentionMilliseconds)) != nil { lastPurge = time }
      }
      usleep(UInt32(min(renewEvery, 1000)) * 1000)
    }
  }

  private func listen() {
    while !shared.isStopping {
      do throws(StoreError) {
        try store.waitForOtherProcesses(timeoutMilliseconds: 1000)
        wake()
      } catch {
        usleep(500_000)
      }
    }
  }
}

/// State the threads share; the condition also guards the generation and the stop flag.
private final class Shared: @unchecked Sendable {
  let condition = NSCondition()
  // Guarded by `condition`.
  var generation: UInt64 = 0
  var stopping = false
  /// The jobs this daemon runs, each with the cancellation that stops its boxes.
  var held: [String: RunCancellation] = [:]
  var liveWorkers = 0

  func locked<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  var isStopping: Bool { locked { stopping } }
  var currentGeneration: UInt64 { locked { generation } }

  func waitForChange(from generation: UInt64, milliseconds: Int) {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date(timeIntervalSinceNow: Double(milliseconds) / 1000)
    while self.generation == generation && !stopping {
      if !condition.wait(until: deadline) { return }
    }
  }
}

/// The signal that a running job was cancelled: its run registers how to stop (the API kills the
/// job's boxes), and a handler registered after the signal runs at once.
public final class RunCancellation: Sendable {
  private let state = Mutex<(cancelled: Bool, handlers: [@Sendable () -> Void])>((false, []))

  public init() {}

  public var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Fires the handlers, once.
  public func cancel() {
    let handlers = state.withLock { state -> [@Sendable () -> Void] in
      if state.cancelled { return [] }
      state.cancelled = true
      defer { state.handlers = [] }
      return state.handlers
    }
    for handler in handlers { handler() }
  }

  /// Calls `handler` when cancelled (now, if it already is).
  public func onCancel(_ handler: @escaping @Sendable () -> Void) {
    let now = state.withLock { state -> Bool in
      if state.cancelled { return true }
      state.handlers.append(handler)
      return false
    }
    if now { handler() }
  }
}
