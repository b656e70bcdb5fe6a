import Foundation
import Glibc
import Synchronization

/// The threads that take stored jobs and run them, arranged so that a box slot never waits for the
/// store:
/// - one **claimer** keeps a few jobs claimed ahead (in one store call for several), so a worker
///   whose run ends finds its next job in memory;
/// - **workers** (one per job run at once) take a claimed job, run it through the API's closure
///   (which waits for a box slot like any request) and hand the result on;
/// - one **recorder** writes what the runs did, the starts and the results gathered since its last
///   write, in one transaction (on PostgreSQL one commit waiting for the disk covers them all), and
///   claims in it the jobs for the slots those results leave: while it has a write to make, the
///   claimer leaves the claiming to it, so a busy daemon's stored job costs one write after its submit;
/// - one **housekeeper** renews this daemon's leases and purges old results;
/// - for a store shared by several daemons, one **listener** wakes the claimer when another daemon
///   queues work (work queued here wakes it directly, through `wake()`). It listens only while this
///   daemon has room for more jobs (its claimer waits for work, or did within
///   `listenLingerMilliseconds`): a daemon with no room claims with each write of its results, and
///   a server that signals nobody for an insert does not wake this daemon's listener connection,
///   nor its listener and claimer threads, for every job queued.
///
/// Leases are what make a crash safe: a job is held only while its daemon keeps renewing the lease
/// (every third of its length), whether it runs, waits claimed ahead, or waits for its result to be
/// written. A daemon killed with SIGKILL stops renewing, the lease runs out, and any worker (after a
/// restart, or on another daemon) claims the job again. It may so run twice; `record` keeps only
/// the first result. A job claimed ahead stays `queued` to clients until it gets a slot; one
/// waiting when the daemon stops is given back at once (`release`).
public final class SubmissionWorkers: Sendable {
  /// What running a job gave.
  public enum RunOutcome: Sendable, Equatable {
    /// The result bytes the sync route would have answered, or its error object's bytes.
    case finished(Data, isError: Bool)
    /// No box slot could be had now (the sync lane is full), or the job was not to start after
    /// all (`Start` said so): nothing ran, nothing is recorded.
    case retryLater
  }

  /// Called on the box slot's thread just before the job runs there. False means do not run it
  /// (it was cancelled, or the daemon is stopping): the run then gives `.retryLater` at once.
  public typealias Start = @Sendable () -> Bool

  /// Runs one job's body as its route would and returns what that route answers; the run is to
  /// stop (its boxes killed) when the cancellation fires, as it does when the submission is
  /// cancelled. It calls `Start` when the job has its slot.
  public typealias Run = @Sendable (ClaimedSubmission, RunCancellation, @escaping Start) -> RunOutcome

  /// The knobs.
  public struct Settings: Sendable {
    /// Jobs run at once by this daemon (they also need a box slot each).
    public var workers: Int
    /// Jobs held claimed for the next free worker, beyond those the idle workers take: enough that a
    /// worker never waits for a claim, few enough that another daemon of a shared store is not
    /// kept from jobs it could start now (a job claimed ahead waits at most for one run to end).
    public var claimAhead: Int
    /// Whether the jobs claimed ahead wait in the box slots' line, each on a worker thread of its
    /// own, rather than in memory for a worker to free up: a slot that frees then takes the next
    /// job at once, with no thread to wake in between (on a busy host each wake-up is a wait for a
    /// CPU). Only when `workers` is at least the number of slots, as the slots then bound the jobs
    /// that run at once; with fewer workers, `workers` must.
    public var waitsInSlotLine = false
    /// How long a lease lasts without renewal, milliseconds.
    public var leaseMilliseconds: Int64 = 15_000
    /// How long finished submissions are kept, milliseconds.
    public var retentionMilliseconds: Int64 = 24 * 3_600_000
    /// How often the housekeeper purges, milliseconds.
    public var purgeIntervalMilliseconds: Int64 = 60_000
    /// How long the claimer waits, when it found nothing, before it looks at the store again.
    public var idlePollMilliseconds = 1000
    /// How long a job's start waits to be written with a result (of its own run, or of another):
    /// `running` shows up to that much later, and a start that finds no result within it costs a
    /// write of its own. With 10 ms, a third of the PostgreSQL bench lane's jobs wrote their start
    /// alone (2 slots, a loaded 2-core host: the result that freed the slot came later than that);
    /// with 50 ms, 1 in 100.
    public var startLingerMilliseconds = 50
    /// How long a result waits for another run's, when another job is running here, to share its
    /// write: a commit that waits for the disk (PostgreSQL's) for two results instead of one. 0: a
    /// result is written as soon as the recorder is free.
    public var resultLingerMilliseconds = 0

    public init(workers: Int, claimAhead: Int? = nil) {
      self.workers = max(1, workers)
      self.claimAhead = max(0, claimAhead ?? self.workers)
    }
  }

  public let store: any SubmissionStore
  public let settings: Settings
  /// This daemon's name in leases: random, so a restarted daemon never mistakes a dead one's lease
  /// for its own.
  public let instance: String
  private let run: Run
  private let shared: Shared
  /// Called after a job's result is recorded (webhooks, waiters, answers from memory), with the
  /// record as the store now holds it and its owner.
  private let onRecorded: (@Sendable (SubmissionRecord, String) -> Void)?

  public init(
    store: any SubmissionStore, settings: Settings, instance: String? = nil,
    onRecorded: (@Sendable (SubmissionRecord, String) -> Void)? = nil, run: @escaping Run
  ) {
    self.store = store
    self.settings = settings
    self.instance = instance ?? ((try? SubmissionID.make()) ?? UUID().uuidString)
    self.run = run
    self.onRecorded = onRecorded
    shared = Shared()
  }

  /// Jobs this daemon holds a lease on now: claimed ahead, running, or with a result to write.
  public var heldCount: Int { shared.locked { shared.held.count } }
  /// Jobs this daemon claimed that have not started yet (waiting for a worker, or in the slots' line).
  public var claimedAheadCount: Int { shared.locked { shared.unstarted.count } }

  /// Stops the run of `id` if this daemon holds it (it was just cancelled here): its boxes are
  /// killed now, so its slot is free at once; claimed ahead, it is dropped. A job cancelled through
  /// another daemon is stopped when the lease renewal finds it no longer held (within a second).
  public func stopRun(of id: String) {
    let cancellation = shared.locked { () -> RunCancellation? in
      if let index = shared.ready.firstIndex(where: { $0.id == id }) {
        shared.ready.remove(at: index)
        shared.unstarted.remove(id)
        return shared.held.removeValue(forKey: id)
      }
      return shared.held[id]
    }
    cancellation?.cancel()
    shared.wake(.claimer)
  }

  /// Starts the threads.
  public func start() {
    for index in 0..<(settings.workers + (settings.waitsInSlotLine ? settings.claimAhead : 0)) {
      startThread(name: "dsa-run-submission-\(index)", holdsJobs: true) { [self] in work() }
    }
    startThread(name: "dsa-run-submission-claimer", holdsJobs: true) { [self] in claimAhead() }
    startThread(name: "dsa-run-submission-recorder", holdsJobs: true) { [self] in recordRuns() }
    startThread(name: "dsa-run-submission-housekeeper", holdsJobs: false) { [self] in keepHouse() }
    if store.wakesAcrossProcesses {
      startThread(name: "dsa-run-submission-listener", holdsJobs: false) { [self] in listen() }
    }
  }

  /// Tells the claimer that work was queued (here, or by another daemon).
  public func wake() {
    shared.locked { shared.queuedGeneration += 1 }
    shared.wake(.claimer)
  }

  /// Stops claiming, gives back the jobs claimed ahead, lets running jobs finish and their results
  /// be written for up to `timeout`, and returns whether they all were. Queued jobs stay in the
  /// store for the next start (or another daemon).
  public func stop(drainingFor timeout: Duration) -> Bool {
    let unstarted = shared.locked { () -> [ClaimedSubmission] in
      shared.stopping = true
      defer { shared.ready = [] }
      for job in shared.ready {
        shared.held.removeValue(forKey: job.id)
        shared.unstarted.remove(job.id)
      }
      return shared.ready
    }
    shared.wakeAll()
    // Given back now, another daemon (or the next start) takes them at once; if the store is down
    // their leases lapse instead.
    try? store.release(ids: unstarted.map(\.id), worker: instance)
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if shared.locked({ shared.held.isEmpty && shared.threadsHoldingJobs == 0 }) { return true }
      usleep(10_000)
    }
    return shared.locked { shared.held.isEmpty }
  }

  /// `holdsJobs`: a thread that may take a job (so a stop waits for it to end).
  private func startThread(name: String, holdsJobs: Bool, _ body: @escaping @Sendable () -> Void) {
    if holdsJobs { shared.locked { shared.threadsHoldingJobs += 1 } }
    let thread = Thread { [shared] in
      body()
      if holdsJobs { shared.locked { shared.threadsHoldingJobs -= 1 } }
    }
    thread.name = name
    thread.start()
  }

  private func now() -> Int64 { wallClockMilliseconds() }

  /// Keeps `workers + claimAhead` jobs held that have no result yet: so each idle worker has one,
  /// and `claimAhead` more wait (in memory, or in the slots' line on threads of their own).
  private func claimAhead() {
    while true {
      let (wanted, generation, foundEmpty) =
        shared.locked { () -> (Int, UInt64, Bool)? in
          while !shared.stopping {
            // While results or starts wait to be written, the recorder claims in the same write.
            if shared.wanted(settings) > 0 && !shared.recorderHasWork {
              return (
                shared.wanted(settings), shared.queuedGeneration, shared.emptyAtGeneration == shared.queuedGeneration
              )
            }
            shared.sleep(.claimer)
          }
          return nil
        } ?? (0, 0, false)
      guard wanted > 0 else { return }
      if foundEmpty {
        // The recorder's claim just found the queue empty: wait for news of more (or the next look).
        shared.waitForQueued(after: generation, milliseconds: settings.idlePollMilliseconds)
        shared.locked { shared.emptyAtGeneration = nil }
        continue
      }
      shared.locked { shared.claiming += wanted }
      let claimed: [ClaimedSubmission]
      do throws(StoreError) {
        let time = now()
        claimed = try store.claim(
          worker: instance, now: time, leaseUntil: time + settings.leaseMilliseconds, limit: wanted)
      } catch {
        // The store is down: health says so; try again after a pause rather than spin.
        claimed = []
      }
      let stoppedMeanwhile = shared.locked { () -> Bool in
        shared.claiming -= wanted
        return !shared.take(claimed)
      }
      if stoppedMeanwhile {
        try? store.release(ids: claimed.map(\.id), worker: instance)
        return
      }
      if !claimed.isEmpty { shared.wake(.workers) }
      // Fewer than wanted: the queue is empty now; wait for news of more (or the next look).
      if claimed.count < wanted {
        shared.waitForQueued(after: generation, milliseconds: settings.idlePollMilliseconds)
      }
    }
  }

  private func work() {
    while true {
      let taken = shared.locked { () -> (ClaimedSubmission, RunCancellation)? in
        while !shared.stopping {
          if !shared.ready.isEmpty {
            let job = shared.ready.removeFirst()
            guard let cancellation = shared.held[job.id] else { continue }
            shared.busyWorkers += 1
            return (job, cancellation)
          }
          shared.sleep(.workers)
        }
        return nil
      }
      guard let (job, cancellation) = taken else { return }
      // The claimer tops up what this worker took.
      shared.wake(.claimer)
      let start: Start = { [shared] in
        shared.locked { () -> Bool in
          guard !shared.stopping && !cancellation.isCancelled else { return false }
          shared.started.append(job.id)
          shared.unstarted.remove(job.id)
          shared.wake(.recorder)
          return true
        }
      }
      var outcome = cancellation.isCancelled ? .retryLater : run(job, cancellation, start)
      while outcome == .retryLater && !shared.isStopping && !cancellation.isCancelled {
        usleep(50_000)
        outcome = run(job, cancellation, start)
      }
      switch outcome {
      case .retryLater:
        // Stopping (or cancelled) before it could run: back in the queue for whoever starts next.
        if !cancellation.isCancelled { try? store.release(ids: [job.id], worker: instance) }
        shared.locked {
          shared.held.removeValue(forKey: job.id)
          shared.unstarted.remove(job.id)
          shared.busyWorkers -= 1
        }
        shared.wake(.claimer)
        shared.wake(.recorder)
      case .finished(var data, var isError):
        if data.count > store.maximumResultBytes {
          (data, isError) = (Self.tooLargeResult(bytes: data.count, maximum: store.maximumResultBytes), true)
        }
        shared.locked {
          shared.finished.append(FinishedRun(id: job.id, result: data, isError: isError))
          shared.finishedJobs[job.id] = job
          shared.busyWorkers -= 1
        }
        shared.wake(.recorder)
        shared.wake(.claimer)
      }
    }
  }

  /// Writes the starts and results the workers gathered, all in one store call, retrying while the
  /// store is down: the leases are renewed meanwhile, so the jobs are not taken over, and if this
  /// daemon dies first another run records them.
  private func recordRuns() {
    var pause: UInt32 = 100_000
    while true {
      let batch = shared.locked { () -> (started: [String], finished: [FinishedRun], claim: Int, generation: UInt64)? in
        var lingerUntil: Date?
        while shared.finished.isEmpty {
          if !shared.started.isEmpty {
            // Starts alone wait a moment for a result to share their write: the status shows
            // `running` up to that much later, and a job that ends as the next starts costs one.
            let deadline =
              lingerUntil ?? Date(timeIntervalSinceNow: Double(settings.startLingerMilliseconds) / 1000)
            lingerUntil = deadline
            if shared.stopping || Date() >= deadline { break }
            shared.sleep(.recorder, until: deadline)
            continue
          }
          // Done once nothing can add more: stopping, and no worker holds a job.
          if shared.stopping && shared.busyWorkers == 0 { return nil }
          shared.sleep(.recorder)
        }
        if settings.resultLingerMilliseconds > 0 && !shared.finished.isEmpty {
          let deadline = Date(timeIntervalSinceNow: Double(settings.resultLingerMilliseconds) / 1000)
          while !shared.stopping && shared.finished.count < 2 && shared.runningCount > 0 && Date() < deadline {
            shared.sleep(.recorder, until: deadline)
          }
        }
        let finished = Self.oneWrite(of: shared.finished, maximumBytes: store.maximumResultBytes)
        shared.finished.removeFirst(finished.count)
        // A run that started and ended since the last write is written as ended only (one whose
        // result waits for the next write, as started now).
        let ended = Set(finished.map(\.id))
        let started = shared.started.filter { !ended.contains($0) }
        shared.started = []
        // The jobs for the slots these results leave are claimed in the same transaction.
        let claim = shared.stopping ? 0 : max(0, shared.wanted(settings))
        shared.claiming += claim
        shared.recording = true
        return (started, finished, claim, shared.queuedGeneration)
      }
      guard let batch else { return }
      let outcome: RecordOutcome
      let time = now()
      do throws(StoreError) {
        outcome = try store.record(
          started: batch.started, finished: batch.finished, worker: instance, now: time,
          claim: ClaimRequest(leaseUntil: time + settings.leaseMilliseconds, limit: batch.claim))
        pause = 100_000
      } catch {
        shared.locked {
          shared.started = batch.started + shared.started
          shared.finished = batch.finished + shared.finished
          shared.claiming -= batch.claim
          shared.recording = false
        }
        shared.wake(.claimer)
        usleep(pause)
        pause = min(pause * 2, 2_000_000)
        continue
      }
      let recorded = outcome.recorded
      let (jobs, stoppedMeanwhile) = shared.locked { () -> ([String: ClaimedSubmission], Bool) in
        var jobs: [String: ClaimedSubmission] = [:]
        for run in batch.finished {
          shared.held.removeValue(forKey: run.id)
          jobs[run.id] = shared.finishedJobs.removeValue(forKey: run.id)
        }
        shared.claiming -= batch.claim
        shared.recording = false
        if outcome.claimed.count < batch.claim { shared.emptyAtGeneration = batch.generation }
        return (jobs, !shared.take(outcome.claimed))
      }
      if stoppedMeanwhile { try? store.release(ids: outcome.claimed.map(\.id), worker: instance) }
      if !outcome.claimed.isEmpty { shared.wake(.workers) }
      shared.wake(.claimer)
      for run in batch.finished where recorded.contains(run.id) {
        guard let job = jobs[run.id] else { continue }
        onRecorded?(
          SubmissionRecord(
            id: run.id, kind: job.kind, state: .done, createdMilliseconds: job.createdMilliseconds,
            finishedMilliseconds: time, result: run.result, resultIsError: run.isError),
          job.owner)
      }
    }
  }

  /// The first of `runs` whose results come to `maximumBytes` at most (one at least): the rest wait
  /// for the next write. PostgreSQL carries a write's results in one text[] value, which may not
  /// pass 1 GB; a write refused for its size would be tried again and again, and no later result
  /// of this daemon written.
  static func oneWrite(of runs: [FinishedRun], maximumBytes: Int) -> [FinishedRun] {
    var bytes = 0
    var count = 0
    for run in runs {
      bytes += run.result.count
      if count > 0 && bytes > maximumBytes { break }
      count += 1
    }
    return Array(runs.prefix(count))
  }

  /// What is recorded in place of a result over the store's `maximumResultBytes`, which the store
  /// refuses: an error object as the routes write theirs. The API keeps results under the bound;
  /// without this, one that passed it would be offered to the store again at every write, its job
  /// held and no later result of this daemon written.
  static func tooLargeResult(bytes: Int, maximum: Int) -> Data {
    Data(
      (#"{"error":{"code":"result_too_large","message":"the result was \#(bytes) bytes, over the "#
        + #"\#(maximum) bytes this server stores"}}"#).utf8)
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
        // Cancelled (perhaps through another daemon) or lost: nobody will take its result. One
        // claimed ahead is dropped; a running one is stopped.
        for (id, cancellation) in held where !kept.contains(id) {
          shared.locked {
            if let index = shared.ready.firstIndex(where: { $0.id == id }) {
              shared.ready.remove(at: index)
              shared.held.removeValue(forKey: id)
              shared.unstarted.remove(id)
            }
          }
          cancellation.cancel()
        }
        shared.wake(.claimer)
      }
      if time - lastPurge >= settings.purgeIntervalMilliseconds {
        if (try? store.purge(finishedBefore: time - settings.retentionMilliseconds)) != nil { lastPurge = time }
      }
      usleep(UInt32(min(renewEvery, 1000)) * 1000)
    }
  }

  /// How long the listener keeps listening after the claimer last waited for work: a daemon that
  /// gets room now and then (as each job ends, when jobs come about as fast as it runs them) would
  /// otherwise stop and start listening for each, and claim once more at each start; at most 10
  /// times a second so.
  static let listenLingerMilliseconds = 100

  private func listen() {
    var listening = false
    while true {
      // How long to listen now: 0 when this daemon has no room (stop listening and sleep until it
      // has), nil when stopping.
      let milliseconds = shared.locked { () -> Int? in
        if shared.stopping { return nil }
        if shared.waitingForQueued { return 1000 }
        guard let last = shared.lastWaitedForQueued else { return 0 }
        let left = Duration.milliseconds(Self.listenLingerMilliseconds) - (ContinuousClock.now - last)
        return left > .zero ? max(1, Int(left / .milliseconds(1))) : 0
      }
      guard let milliseconds else { return }
      if milliseconds > 0 {
        do throws(StoreError) {
          // Returns at once when it had to start listening: the claimer then looks for what was
          // queued while nobody here listened.
          try store.waitForOtherProcesses(timeoutMilliseconds: milliseconds)
          listening = true
          wake()
        } catch {
          listening = false
          usleep(500_000)
        }
        continue
      }
      if listening {
        // A failure drops the listener's connection; either way nothing is heard until the next wait.
        try? store.stopWaitingForOtherProcesses()
        listening = false
      }
      shared.locked {
        while !shared.stopping && !shared.waitingForQueued { shared.sleep(.listener) }
      }
    }
  }
}

/// State the threads share, guarded by one mutex; each kind of thread sleeps on a condition of its
/// own, so a change wakes only the threads it concerns.
private final class Shared: @unchecked Sendable {
  enum Sleeper: Int, CaseIterable {
    case claimer
    case workers
    case recorder
    case listener
  }

  // pthread primitives, heap-allocated so their addresses never move: NSCondition cannot share one
  // lock between several conditions.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let conditions = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: Sleeper.allCases.count)

  /// Bumped when work may have been queued; the claimer sleeps on it when the store had nothing.
  var queuedGeneration: UInt64 = 0
  var stopping = false
  /// Every job this daemon holds a lease on, each with the cancellation that stops its boxes.
  var held: [String: RunCancellation] = [:]
  /// Jobs claimed ahead, oldest first, not yet taken by a worker.
  var ready: [ClaimedSubmission] = []
  /// Jobs held that have not started in a slot (in `ready`, or taken by a worker and waiting).
  var unstarted = Set<String>()
  /// Workers that hold a job (from taking it until its result is handed to the recorder).
  var busyWorkers = 0
  /// Jobs that got a slot, and results, not yet written.
  var started: [String] = []
  var finished: [FinishedRun] = []
  /// The claims of `finished`, until their results are written.
  var finishedJobs: [String: ClaimedSubmission] = [:]
  /// Jobs asked for by claims under way (the claimer's, or the recorder's with its write).
  var claiming = 0
  /// Whether the recorder is writing now.
  var recording = false
  /// The `queuedGeneration` at which the recorder's claim found fewer jobs than it asked for: the
  /// claimer then waits for news of more rather than look again at once.
  var emptyAtGeneration: UInt64?
  /// The claimer, workers and recorder still running.
  var threadsHoldingJobs = 0
  /// Whether the claimer waits for news of queued work (this daemon has room), and when it last
  /// stopped waiting: the listener listens meanwhile, and for a while after.
  var waitingForQueued = false
  var lastWaitedForQueued: ContinuousClock.Instant?

  init() {
    pthread_mutex_init(mutex, nil)
    for sleeper in Sleeper.allCases {
      var attributes = pthread_condattr_t()
      pthread_condattr_init(&attributes)
      // Deadlines on the monotonic clock: a step of the wall clock neither stalls nor spins a sleeper.
      pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
      pthread_cond_init(conditions + sleeper.rawValue, &attributes)
      pthread_condattr_destroy(&attributes)
    }
  }

  deinit {
    for sleeper in Sleeper.allCases { pthread_cond_destroy(conditions + sleeper.rawValue) }
    pthread_mutex_destroy(mutex)
    conditions.deallocate()
    mutex.deallocate()
  }

  func locked<T>(_ body: () -> T) -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }

  var isStopping: Bool { locked { stopping } }

  /// Jobs to claim now so that each idle worker has one and `claimAhead` more wait; only inside
  /// `locked`.
  func wanted(_ settings: SubmissionWorkers.Settings) -> Int {
    settings.workers + settings.claimAhead - busyWorkers - ready.count - claiming
  }

  /// Jobs running in a slot here now (started, their result not handed on); only inside `locked`.
  var runningCount: Int { held.count - unstarted.count - finished.count }

  /// Whether the recorder has a write to make (or makes one now), which will claim what is wanted;
  /// only inside `locked`.
  var recorderHasWork: Bool { recording || !finished.isEmpty || !started.isEmpty }

  /// Holds the jobs just claimed for the workers; false (nothing taken) when stopping, and the
  /// caller gives them back. Only inside `locked`.
  func take(_ claimed: [ClaimedSubmission]) -> Bool {
    guard !stopping else { return false }
    for job in claimed { held[job.id] = RunCancellation() }
    ready += claimed
    unstarted.formUnion(claimed.map(\.id))
    return true
  }

  /// Sleeps until woken, or until `deadline`; only inside `locked`.
  func sleep(_ sleeper: Sleeper, until deadline: Date? = nil) {
    guard let deadline else {
      pthread_cond_wait(conditions + sleeper.rawValue, mutex)
      return
    }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let nanoseconds = Int(max(0, deadline.timeIntervalSinceNow) * 1e9) + now.tv_nsec
    var until = timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    pthread_cond_timedwait(conditions + sleeper.rawValue, mutex, &until)
  }

  func wake(_ sleeper: Sleeper) {
    pthread_cond_broadcast(conditions + sleeper.rawValue)
  }

  func wakeAll() {
    for sleeper in Sleeper.allCases { wake(sleeper) }
  }

  func waitForQueued(after generation: UInt64, milliseconds: Int) {
    let deadline = Date(timeIntervalSinceNow: Double(milliseconds) / 1000)
    locked {
      waitingForQueued = true
      wake(.listener)
      defer {
        waitingForQueued = false
        lastWaitedForQueued = .now
      }
      while queuedGeneration == generation && !stopping && Date() < deadline {
        sleep(.claimer, until: deadline)
      }
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
