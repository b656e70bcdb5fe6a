import Foundation
import Glibc
import Synchronization
import Testing

@testable import Submissions

/// A real SQLite store that notes every write of starts and results the workers make.
final class RecordingStore: SubmissionStore, Sendable {
  struct Write: Equatable {
    var started: [String]
    var finished: [String]
  }

  let inner: SQLiteStore
  let directory: String
  private let log = Mutex<[Write]>([])

  init() throws {
    var template = Array((NSTemporaryDirectory() + "dsa-run-workers.XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw StoreError("mkdtemp", "failed")
    }
    directory = String(cString: made)
    inner = try SQLiteStore(path: directory + "/submissions.sqlite3")
  }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }

  /// The writes of starts and results so far, in order.
  var writes: [Write] { log.withLock { $0 } }

  var kindName: String { "recording" }
  var wakesAcrossProcesses: Bool { false }

  func insert(_ submissions: [NewSubmission], now: Int64) throws(StoreError) {
    try inner.insert(submissions, now: now)
  }
  func fetch(ids: [String], owner: String) throws(StoreError) -> [SubmissionRecord] {
    try inner.fetch(ids: ids, owner: owner)
  }
  func cancel(id: String, owner: String, now: Int64) throws(StoreError) -> CancelOutcome {
    try inner.cancel(id: id, owner: owner, now: now)
  }
  func insertDone(_ submission: NewSubmission, result: Data, isError: Bool, now: Int64) throws(StoreError) {
    try inner.insertDone(submission, result: result, isError: isError, now: now)
  }
  func claim(worker: String, now: Int64, leaseUntil: Int64, limit: Int) throws(StoreError) -> [ClaimedSubmission] {
    try inner.claim(worker: worker, now: now, leaseUntil: leaseUntil, limit: limit)
  }
  func renew(ids: [String], worker: String, leaseUntil: Int64) throws(StoreError) -> Set<String> {
    try inner.renew(ids: ids, worker: worker, leaseUntil: leaseUntil)
  }
  func record(started: [String], finished: [FinishedRun], worker: String, now: Int64, claim: ClaimRequest?)
    throws(StoreError) -> RecordOutcome
  {
    if !started.isEmpty || !finished.isEmpty {
      log.withLock { $0.append(Write(started: started, finished: finished.map(\.id))) }
    }
    return try inner.record(started: started, finished: finished, worker: worker, now: now, claim: claim)
  }
  func release(ids: [String], worker: String) throws(StoreError) { try inner.release(ids: ids, worker: worker) }
  func pendingWebhooks(limit: Int, after: WebhookPosition) throws(StoreError) -> [PendingWebhook] {
    try inner.pendingWebhooks(limit: limit, after: after)
  }
  func finishWebhook(id: String, delivered: Bool) throws(StoreError) {
    try inner.finishWebhook(id: id, delivered: delivered)
  }
  func purge(finishedBefore: Int64) throws(StoreError) -> Int { try inner.purge(finishedBefore: finishedBefore) }
  func statistics(now: Int64) throws(StoreError) -> SubmissionStatistics { try inner.statistics(now: now) }
  func waitForOtherProcesses(timeoutMilliseconds: Int) throws(StoreError) {
    usleep(UInt32(timeoutMilliseconds) * 1000)
  }
  func stopWaitingForOtherProcesses() {}
}

/// The workers over a real store, with runs that take a set time instead of boxes.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SubmissionWorkersTests {
  /// Runs one job per entry of `runMilliseconds` (each that long after its start), each on a worker of
  /// its own, with `configure`'s settings, and returns their ids and the writes they cost.
  private func writes(
    runMilliseconds: [UInt32], _ configure: (inout SubmissionWorkers.Settings) -> Void
  ) throws -> ([String], [RecordingStore.Write]) {
    let store = try RecordingStore()
    defer { store.remove() }
    var jobs: [NewSubmission] = []
    for _ in runMilliseconds {
      jobs.append(
        NewSubmission(
          id: try SubmissionID.make(), owner: "", kind: .execute, body: Data(#"{"language":"python"}"#.utf8)))
    }
    try store.insert(jobs, now: wallClockMilliseconds())
    let lengths = Dictionary(uniqueKeysWithValues: zip(jobs.map(\.id), runMilliseconds))
    var settings = SubmissionWorkers.Settings(workers: jobs.count, claimAhead: 0)
    configure(&settings)
    let workers = SubmissionWorkers(store: store, settings: settings) { job, _, start in
      guard start() else { return .retryLater }
      usleep((lengths[job.id] ?? 0) * 1000)
      return .finished(Data("{}".utf8), isError: false)
    }
    workers.start()
    workers.wake()
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline,
      try store.fetch(ids: jobs.map(\.id), owner: "").contains(where: { $0.state != .done })
    {
      usleep(10_000)
    }
    #expect(workers.stop(drainingFor: .seconds(5)))
    return (jobs.map(\.id), store.writes)
  }

  @Test func aStartWaitsForAResultThatComesWithinTheLinger() throws {
    // The run ends well within the linger: its start is never written on its own, and the write
    // of its result shows it ended (a start and an end in one write are written as ended only).
    let (ids, writes) = try writes(runMilliseconds: [100]) { $0.startLingerMilliseconds = 5_000 }
    #expect(writes == [RecordingStore.Write(started: [], finished: ids)])
  }

  @Test func aStartWithNoResultWithinTheLingerIsWrittenAlone() throws {
    let (ids, writes) = try writes(runMilliseconds: [1_000]) { $0.startLingerMilliseconds = 50 }
    #expect(
      writes == [RecordingStore.Write(started: ids, finished: []), RecordingStore.Write(started: [], finished: ids)])
  }

  @Test func aResultWaitsForAnotherRunningJobsToShareItsWrite() throws {
    let (ids, together) = try writes(runMilliseconds: [100, 400]) { $0.resultLingerMilliseconds = 5_000 }
    #expect(together.filter { !$0.finished.isEmpty }.map { Set($0.finished) } == [Set(ids)])
    // Without a linger (SQLite's default) each result has a write of its own.
    let (_, apart) = try writes(runMilliseconds: [100, 400]) { _ in }
    #expect(apart.filter { !$0.finished.isEmpty }.count == 2)
  }

  @Test func aResultWithNoOtherJobRunningIsWrittenAtOnce() throws {
    // A linger longer than the test waits: the result is written only if it did not wait.
    let (ids, writes) = try writes(runMilliseconds: [10]) { $0.resultLingerMilliseconds = 60_000 }
    #expect(writes == [RecordingStore.Write(started: [], finished: ids)])
  }
}
