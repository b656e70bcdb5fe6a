import Foundation
import HTTP
import Runners
import Sandbox
import Submissions
import Synchronization
import SystemCore
import Wire

/// The knobs of stored submissions (docs/api.md "Submissions"); the daemon fills them from its
/// config's `submissions` object.
public struct SubmissionSettings: Sendable {
  /// Where submissions live; wrapped so every call is timed and its failure shows in health.
  public var store: MonitoredStore
  /// Workers, leases, retention.
  public var workers: SubmissionWorkers.Settings
  /// Items per `POST /v1/submissions/batch` and ids per `GET /v1/submissions?ids=`.
  public var maximumBatch = 20
  /// The longest `?wait=` a request may ask for, seconds.
  public var maximumWaitSeconds = 30.0
  /// How many requests may wait for a result at once (`?wait=`, and Judge0's `wait=true` once it is
  /// queued); one past them is answered as the submission stands, as `wait=0` would be, so waits
  /// never hold every connection. The daemon sets a quarter of `max_connections`.
  public var maximumWaiting = 64
  /// Webhook delivery; nil refuses `callback_url`.
  public var webhooks: WebhookSettings?

  public init(store: any SubmissionStore, workers: SubmissionWorkers.Settings) {
    self.store = (store as? MonitoredStore) ?? MonitoredStore(store)
    self.workers = workers
  }
}

/// The running parts of stored submissions: the store, the workers (once started) and the signal
/// that wakes `?wait=` requests when this daemon records a result.
public final class SubmissionService: Sendable {
  public let settings: SubmissionSettings
  public var store: MonitoredStore { settings.store }
  private let workers = Mutex<SubmissionWorkers?>(nil)
  private let webhookSender = Mutex<WebhookSender?>(nil)
  let recorded = CompletionSignal()
  /// This daemon's results of the last minutes, so the poll that finds one done needs no store.
  let recent: RecentResults
  /// The requests waiting for a result now (`SubmissionSettings.maximumWaiting`).
  let waits = HeldRequests()

  /// How long a result is answered from memory: a few minutes covers the polls that follow a
  /// result; never past the retention, so nothing purged is answered.
  static let recentMilliseconds: Int64 = 300_000

  init(settings: SubmissionSettings) {
    self.settings = settings
    recent = RecentResults(
      keepMilliseconds: min(Self.recentMilliseconds, settings.workers.retentionMilliseconds))
  }

  /// The submissions among `ids` of `owner`: those this daemon recorded lately from memory, the
  /// others from the store.
  func records(ids: [String], owner: String) throws(StoreError) -> [SubmissionRecord] {
    guard !ids.isEmpty else { return [] }
    let (found, missing) = recent.lookup(ids, owner: owner, now: wallClockMilliseconds())
    guard !missing.isEmpty else { return found }
    return try found + store.fetch(ids: missing, owner: owner)
  }

  /// The workers, once `start` made them.
  public var runningWorkers: SubmissionWorkers? { workers.withLock { $0 } }
  var sender: WebhookSender? { webhookSender.withLock { $0 } }

  /// Starts the workers that run stored jobs through `run` and the webhook sender; does nothing when
  /// they run already. A job runs with a context that is charged nothing (it was charged when it
  /// was submitted), waits past the wait budget (no client waits on it), and whose boxes die when
  /// it is cancelled.
  func start(
    service: RunService, callbacks: [any StoredJobRunner],
    run: @escaping @Sendable (ClaimedSubmission, inout RunContext) -> SubmissionWorkers.RunOutcome
  ) {
    guard runningWorkers == nil else { return }
    // Sent as the settings in effect say; whether they are sent at all was fixed at start.
    let sender = service.settings.webhooks.map {
      WebhookSender(
        settings: $0, store: store,
        method: { webhook in
          callbacks.lazy.compactMap { $0.callback(webhook) }.first?.method ?? "POST"
        },
        makeBody: { webhook in
          if let body = callbacks.lazy.compactMap({ $0.callback(webhook) }).first?.body { return body }
          return Self.recordData(
            [
              "id": .string(webhook.id), "kind": .string(webhook.kind.rawValue),
              "status": .string(SubmissionState.done.rawValue),
            ],
            result: webhook.result, isError: webhook.resultIsError)
        })
    }
    let signal = recorded
    let recent = self.recent
    let onRecorded: @Sendable (SubmissionRecord, String) -> Void = { record, owner in
      // Remembered before the waiters wake, so their next look finds it in memory.
      recent.remember(record, owner: owner)
      signal.recorded(record.id)
      sender?.wake()
    }
    let made = SubmissionWorkers(store: store, settings: settings.workers, onRecorded: onRecorded) {
      job, cancellation, start in
      // The job's boxes die when it is cancelled; what they leave is not recorded (the store keeps
      // a cancelled submission cancelled).
      let boxes = BoxCancellation()
      cancellation.onCancel { boxes.cancel() }
      var context = RunContext(requestID: "submission-\(job.id)", route: "stored:\(job.kind.rawValue)")
      context.checksWaitBudget = false
      context.boxCancellation = boxes
      context.startsInSlot = start
      context.prepaid = true
      let outcome = run(job, &context)
      if case .finished(_, isError: true) = outcome, context.detail != nil, !boxes.isCancelled {
        // As for a request: the detail is the operator's; the stored answer says only that it failed.
        service.log(context, method: "-", status: 500, error: "internal_error", totalMilliseconds: 0)
      }
      return outcome
    }
    workers.withLock { $0 = made }
    webhookSender.withLock { $0 = sender }
    made.start()
    sender?.start()
  }

  /// Stops claiming stored jobs and waits up to `timeout` for the running ones; queued jobs stay.
  func stop(drainingFor timeout: Duration) -> Bool {
    let drained = runningWorkers?.stop(drainingFor: timeout) ?? true
    // The running jobs' results are recorded by now; held polls answer as things stand.
    recorded.close()
    sender?.stop()
    return drained
  }

  // MARK: Storing and reading

  /// Stores new submissions and wakes the workers; 503 `store_unavailable` when the store fails.
  func insert(_ submissions: [NewSubmission], context: inout RunContext, log: RunService) throws(APIError) {
    do throws(StoreError) {
      try store.insert(submissions, now: wallClockMilliseconds())
    } catch {
      throw unavailable(error, context: &context, log: log)
    }
    runningWorkers?.wake()
  }

  /// `records(ids:owner:)`, a store failure answered 503.
  func fetch(_ ids: [String], owner: String, context: inout RunContext, log: RunService) throws(APIError)
    -> [SubmissionRecord]
  {
    do throws(StoreError) {
      return try records(ids: ids, owner: owner)
    } catch {
      throw unavailable(error, context: &context, log: log)
    }
  }

  /// A fresh submission id; 503 when the system's random source fails.
  func newID(context: inout RunContext, log: RunService) throws(APIError) -> String {
    do throws(StoreError) {
      return try SubmissionID.make()
    } catch {
      throw unavailable(error, context: &context, log: log)
    }
  }

  /// The answer to a store failure: 503 `store_unavailable`, the store's own words in the log.
  func unavailable(_ error: StoreError, context: inout RunContext, log service: RunService) -> APIError {
    context.detail = "submission store: \(error)"
    var failure = RunContext(requestID: context.requestID, route: "submission-store")
    failure.detail = error.description
    service.log(failure, method: "-", status: 503, error: "store_unavailable", totalMilliseconds: 0)
    var answer = APIError.busy(
      "the submission store is not available; nothing was stored, try again shortly",
      retryAfterSeconds: service.configuration.retryAfterSeconds)
    answer.code = "store_unavailable"
    return answer
  }

  /// Submission `id` once it is final (done or cancelled), or as it stands when `seconds` run out;
  /// nil when `fetch` finds none: the one wait for a result, of `?wait=` and of Judge0's `wait=true`.
  /// Past `maximumWaiting` waits at once, as it stands, so waits never hold every connection. Woken by
  /// its result recorded here, or a cancel; the short bound also catches one recorded by another
  /// daemon.
  func awaitFinal(_ id: String, upTo seconds: Double, fetch: () throws(APIError) -> SubmissionRecord?)
    throws(APIError) -> SubmissionRecord?
  {
    let holds = seconds > 0 && waits.enter(maximum: settings.maximumWaiting)
    defer { if holds { waits.leave() } }
    let deadline = Date(timeIntervalSinceNow: holds ? seconds : 0)
    let watch = recorded.watch(id)
    defer { recorded.end(watch) }
    while true {
      guard let record = try fetch() else { return nil }
      if record.state == .done || record.state == .cancelled || Date() >= deadline { return record }
      watch.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.2)))
    }
  }

  // MARK: Health and metrics

  /// `/healthz`: 200 `{"status": "ok"}`, or 503 naming the failing part when the submission store's
  /// last operation failed (the operator's log has why).
  func healthResponse() -> HTTPResponse {
    if let failure = store.snapshot.lastFailure {
      return HTTPResponse(
        status: .serviceUnavailable, headers: ["Content-Type": "application/json"],
        body: ResultEncoder.data([
          "status": "degraded", "failing": ["submission_store"],
          "message": "the submission store's last operation (\(failure.operation)) failed",
        ]))
    }
    return HTTPResponse(
      status: .ok, headers: ["Content-Type": "application/json"], body: ResultEncoder.data(["status": "ok"]))
  }

  /// The submission gauges and counters for `/metrics`.
  func metricsText(_ writer: inout PrometheusText) {
    let statistics = try? store.statistics(now: wallClockMilliseconds())
    let snapshot = store.snapshot
    writer.gauge(
      "dsa_run_submission_store_up", help: "1 when the submission store's last operation succeeded.",
      snapshot.lastFailure == nil ? 1 : 0)
    if let statistics {
      writer.gauge(
        "dsa_run_submissions_queued", help: "Stored submissions waiting to run (all daemons of the store).",
        Double(statistics.queued))
      writer.gauge(
        "dsa_run_submissions_running", help: "Stored submissions running (all daemons of the store).",
        Double(statistics.running))
      writer.gauge(
        "dsa_run_submission_oldest_queued_seconds", help: "Age of the oldest queued submission, seconds.",
        Double(statistics.oldestQueuedSeconds))
    }
    if let workers = runningWorkers {
      writer.gauge(
        "dsa_run_submissions_claimed_ahead",
        help: "Stored submissions this daemon claimed for its next free worker (still queued to clients).",
        Double(workers.claimedAheadCount))
    }
    writer.counter(
      "dsa_run_submission_store_failures_total", help: "Submission store operations that failed.", snapshot.failures)
    writer.histogram(
      "dsa_run_submission_store_seconds", help: "Time of one submission store operation, seconds.",
      bounds: MonitoredStore.latencyBuckets, bucketCounts: snapshot.bucketCounts, count: snapshot.count,
      sum: snapshot.sumSeconds)
    writer.counter(
      "dsa_run_submissions_answered_from_memory_total",
      help: "Submissions shown done from this daemon's memory of its recent results, without the store.",
      recent.hits)
    writer.counter(
      "dsa_run_webhook_failures_total", help: "Webhook deliveries given up on after every try.",
      sender?.failures ?? 0)
  }

  // MARK: Answers

  /// `{"id", "kind", "status", "created_ms", "finished_ms", "result"|"error"}`, the stored result
  /// bytes placed as they are. Built as a `JSONValue` (not a Foundation tree to be cast): every
  /// poll answers with it.
  static func recordData(_ record: SubmissionRecord) -> Data {
    let fields: [String: JSONValue] = [
      "id": .string(record.id), "kind": .string(record.kind.rawValue), "status": .string(record.state.rawValue),
      "created_ms": .number(Double(record.createdMilliseconds)),
      "finished_ms": record.finishedMilliseconds.map { .number(Double($0)) } ?? .null,
    ]
    return recordData(fields, result: record.state == .done ? record.result : nil, isError: record.resultIsError)
  }

  /// `fields` with `result` (or `error`) added as the very bytes given.
  static func recordData(_ given: [String: JSONValue], result: Data?, isError: Bool) -> Data {
    var fields = given
    guard let result else { return ResultEncoder.data(.object(fields)) }
    fields[isError ? "error" : "result"] = .null
    let envelope = ResultEncoder.data(.object(fields))
    // Splice the bytes in for the placeholder: the result is exactly what the sync route sent.
    let placeholder = Data("\"\(isError ? "error" : "result")\":null".utf8)
    guard let range = Self.firstRange(of: placeholder, in: envelope) else { return envelope }
    var spliced = envelope
    spliced.replaceSubrange(range, with: placeholder.dropLast(4) + result)
    return spliced
  }

  /// Where `needle` first occurs in `haystack` (indices of `haystack`), compared over raw bytes:
  /// Foundation's `Data.range(of:)` cost more than the rest of a poll's encoding.
  static func firstRange(of needle: Data, in haystack: Data) -> Range<Data.Index>? {
    guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
    return haystack.withUnsafeBytes { hay -> Range<Data.Index>? in
      needle.withUnsafeBytes { wanted -> Range<Data.Index>? in
        for offset in 0...(hay.count - wanted.count)
        where hay[offset] == wanted[0] && memcmp(hay.baseAddress! + offset, wanted.baseAddress!, wanted.count) == 0 {
          return (haystack.startIndex + offset)..<(haystack.startIndex + offset + wanted.count)
        }
        return nil
      }
    }
  }
}

/// A front end whose jobs are stored: it runs its kinds of stored job through the run service (a
/// worker calls it; no request is made up), and may send its own webhooks.
protocol StoredJobRunner: Sendable {
  /// Whether this front end stored `job` and runs it.
  func handles(_ job: ClaimedSubmission) -> Bool
  /// Runs a stored job with `context` (charged already, past the wait budget): the result's bytes as
  /// stored, its error object's, or `.retryLater` when no slot could be had.
  func runStored(_ job: ClaimedSubmission, context: inout RunContext) -> SubmissionWorkers.RunOutcome
  /// The method and body of a webhook of one of its jobs; nil for a job of another front end.
  func callback(_ webhook: PendingWebhook) -> (method: String, body: Data)?
}

/// How many requests of one kind are held open now, waiting for a result: Judge0 polls, bounded by
/// `Judge0Settings.maximumHeldPolls`, and waits (`?wait=`, `wait=true`), by
/// `SubmissionSettings.maximumWaiting`.
final class HeldRequests: Sendable {
  private let held = Mutex(0)

  /// Takes a hold; false (none taken) when `maximum` are held.
  func enter(maximum: Int) -> Bool {
    held.withLock { count in
      guard count < maximum else { return false }
      count += 1
      return true
    }
  }

  func leave() {
    held.withLock { $0 -= 1 }
  }
}

/// Wakes the requests waiting for a submission when this daemon records its result. Each waiter
/// watches its own ids, so a result wakes only the requests that wait for it (woken all at once, each
/// would read the store again to find its own still running).
final class CompletionSignal: Sendable {
  private let watchers = Mutex<[String: [Watch]]>([:])
  private let closed = Atomic<Bool>(false)

  /// One request's watch on one or more ids (a Judge0 batch GET waits for any of its tokens).
  final class Watch: Sendable {
    let ids: Set<String>
    fileprivate let semaphore = DispatchSemaphore(value: 0)

    fileprivate init(ids: Set<String>) {
      self.ids = ids
    }

    /// Sleeps until a result of its ids is recorded here (at any time since the watch began), the
    /// signal closes, or `deadline`.
    func wait(until deadline: Date) {
      _ = semaphore.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow))
    }
  }

  /// Starts watching `id`; begin before reading its state, so a result recorded in between is seen.
  func watch(_ id: String) -> Watch { watch([id]) }

  /// Starts watching every id of `ids` with one watch, woken by the first of them recorded.
  func watch(_ ids: [String]) -> Watch {
    let watch = Watch(ids: Set(ids))
    watchers.withLock { all in
      for id in watch.ids { all[id, default: []].append(watch) }
    }
    return watch
  }

  func end(_ watch: Watch) {
    watchers.withLock { all in
      for id in watch.ids {
        all[id]?.removeAll { $0 === watch }
        if all[id]?.isEmpty == true { all.removeValue(forKey: id) }
      }
    }
  }

  /// `id`'s result is recorded.
  func recorded(_ id: String) {
    for watch in watchers.withLock({ $0[id] ?? [] }) { watch.semaphore.signal() }
  }

  /// This daemon records no more results (its workers stopped for a drain): every watch is woken
  /// once, and a wait that is only a hold (a Judge0 poll) ends rather than keep the drain waiting.
  func close() {
    closed.store(true, ordering: .sequentiallyConsistent)
    let all = watchers.withLock { all in all.values.flatMap { $0 } }
    for watch in all { watch.semaphore.signal() }
  }

  /// Whether `close()` was called.
  var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }
}

/// Jobs kept as checked at submit, for the worker of this daemon that runs them; the oldest go
/// first past `capacity` jobs or `maximumBytes` of their stored bodies (one run by another daemon
/// is never taken here, and ages out). Only a cache: a job not here is read from the store.
final class PreparedJobs<Job: Sendable>: Sendable {
  let capacity: Int
  let maximumBytes: Int

  private struct State {
    var jobs: [String: (job: Job, bytes: Int)] = [:]
    /// Ids in the order kept (some taken since); `first` is the oldest not yet dropped.
    var order: [String] = []
    var first = 0
    var bytes = 0
  }

  private let state = Mutex(State())

  init(capacity: Int, maximumBytes: Int) {
    self.capacity = max(1, capacity)
    self.maximumBytes = max(0, maximumBytes)
  }

  /// Keeps `job` (its stored body `bytes` long) for `id`; one larger than the whole bound is not kept.
  func keep(_ job: Job, id: String, bytes: Int) {
    guard bytes <= maximumBytes else { return }
    state.withLock { state in
      if let old = state.jobs.removeValue(forKey: id) { state.bytes -= old.bytes }
      while state.jobs.count >= capacity || state.bytes + bytes > maximumBytes, state.first < state.order.count {
        if let dropped = state.jobs.removeValue(forKey: state.order[state.first]) { state.bytes -= dropped.bytes }
        state.first += 1
      }
      // Ids taken or dropped are let go of once they are most of the list (amortized: after at
      // least `capacity` keeps), so the list stays within three times the capacity.
      if state.first > capacity || state.order.count - state.first > 2 * capacity {
        state.order = state.order[state.first...].filter { state.jobs[$0] != nil }
        state.first = 0
      }
      state.jobs[id] = (job, bytes)
      state.bytes += bytes
      state.order.append(id)
    }
  }

  /// The job kept for `id`, no longer kept; nil when there is none.
  func take(_ id: String) -> Job? {
    state.withLock { state in
      guard let kept = state.jobs.removeValue(forKey: id) else { return nil }
      state.bytes -= kept.bytes
      return kept.job
    }
  }

  /// Jobs kept now.
  var count: Int { state.withLock { $0.jobs.count } }
  /// Ids in the order list now, dropped ones included (tests: it must not grow with the jobs seen).
  var trackedCount: Int { state.withLock { $0.order.count } }
}
