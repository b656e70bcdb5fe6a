import Foundation
import Synchronization

/// A store wrapped so that every call is timed and its failure remembered: `/metrics` shows the
/// latency, `/healthz` which operation failed last and why, until the next call succeeds.
public final class MonitoredStore: SubmissionStore, Sendable {
  /// Upper bounds of the store-latency histogram, seconds.
  public static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5]

  /// The latency histogram and failure count, read for `/metrics`.
  public struct Snapshot: Sendable {
    public var bucketCounts = [UInt64](repeating: 0, count: MonitoredStore.latencyBuckets.count)
    public var count: UInt64 = 0
    public var sumSeconds: Double = 0
    public var failures: UInt64 = 0
    /// The last failure, cleared by the next success.
    public var lastFailure: StoreError?
  }

  public let inner: any SubmissionStore
  private let state = Mutex(Snapshot())

  public init(_ inner: any SubmissionStore) {
    self.inner = inner
  }

  public var kindName: String { inner.kindName }
  public var wakesAcrossProcesses: Bool { inner.wakesAcrossProcesses }
  public var maximumResultBytes: Int { inner.maximumResultBytes }
  public var snapshot: Snapshot { state.withLock { $0 } }

  // A read that works says little about a full disk, so only a write that did write clears a
  // failure (a claim or purge that found nothing may have written nothing).
  private func timed<T>(write: Bool, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    let start = ContinuousClock.now
    let outcome: Result<T, StoreError>
    do throws(StoreError) {
      outcome = .success(try body())
    } catch {
      outcome = .failure(error)
    }
    let (whole, fraction) = (ContinuousClock.now - start).components
    let seconds = Double(whole) + Double(fraction) / 1e18
    state.withLock { state in
      if let index = Self.latencyBuckets.firstIndex(where: { seconds <= $0 }) { state.bucketCounts[index] += 1 }
      state.count += 1
      state.sumSeconds += seconds
      switch outcome {
      case .success: if write { state.lastFailure = nil }
      // A call refused for what it asked (a result too large) says nothing of the store's health.
      case .failure(let error) where error.isRefusal: break
      case .failure(let error):
        state.failures += 1
        state.lastFailure = error
      }
    }
    return try outcome.get()
  }

  public func insert(_ submissions: [NewSubmission], now: Int64) throws(StoreError) {
    try timed(write: true) { () throws(StoreError) in try inner.insert(submissions, now: now) }
  }
  public func fetch(ids: [String], owner: String) throws(StoreError) -> [SubmissionRecord] {
    try timed(write: false) { () throws(StoreError) in try inner.fetch(ids: ids, owner: owner) }
  }
  public func cancel(id: String, owner: String, now: Int64) throws(StoreError) -> CancelOutcome {
    try timed(write: true) { () throws(StoreError) in try inner.cancel(id: id, owner: owner, now: now) }
  }
  public func insertDone(_ submission: NewSubmission, result: Data, isError: Bool, now: Int64) throws(StoreError) {
    try timed(write: true) { () throws(StoreError) in
      try inner.insertDone(submission, result: result, isError: isError, now: now)
    }
  }
  public func claim(worker: String, now: Int64, leaseUntil: Int64, limit: Int) throws(StoreError)
    -> [ClaimedSubmission]
  {
    try timed(write: false) { () throws(StoreError) in
      try inner.claim(worker: worker, now: now, leaseUntil: leaseUntil, limit: limit)
    }
  }
  @discardableResult
  public func renew(ids: [String], worker: String, leaseUntil: Int64) throws(StoreError) -> Set<String> {
    try timed(write: true) { () throws(StoreError) in try inner.renew(ids: ids, worker: worker, leaseUntil: leaseUntil)
    }
  }
  public func record(
    started: [String], finished: [FinishedRun], worker: String, now: Int64, claim: ClaimRequest?
  ) throws(StoreError) -> RecordOutcome {
    try timed(write: true) { () throws(StoreError) in
      try inner.record(started: started, finished: finished, worker: worker, now: now, claim: claim)
    }
  }
  public func release(ids: [String], worker: String) throws(StoreError) {
    try timed(write: true) { () throws(StoreError) in try inner.release(ids: ids, worker: worker) }
  }
  public func pendingWebhooks(limit: Int, after: WebhookPosition) throws(StoreError) -> [PendingWebhook] {
    try timed(write: false) { () throws(StoreError) in try inner.pendingWebhooks(limit: limit, after: after) }
  }
  public func finishWebhook(id: String, delivered: Bool) throws(StoreError) {
    try timed(write: true) { () throws(StoreError) in try inner.finishWebhook(id: id, delivered: delivered) }
  }
  public func purge(finishedBefore: Int64) throws(StoreError) -> Int {
    try timed(write: false) { () throws(StoreError) in try inner.purge(finishedBefore: finishedBefore) }
  }
  public func statistics(now: Int64) throws(StoreError) -> SubmissionStatistics {
    try timed(write: false) { () throws(StoreError) in try inner.statistics(now: now) }
  }
  public func waitForOtherProcesses(timeoutMilliseconds: Int) throws(StoreError) {
    // Not timed: it blocks by design.
    try inner.waitForOtherProcesses(timeoutMilliseconds: timeoutMilliseconds)
  }
  public func stopWaitingForOtherProcesses() throws(StoreError) { try inner.stopWaitingForOtherProcesses() }
}
