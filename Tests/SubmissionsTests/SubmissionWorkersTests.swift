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
  func pendingWebhooks(limit: Int) throws(StoreError) -> [PendingWebhook] { try inner.pendingWebhooks(limit: limit) }
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
  /// Runs one job that takes `runMilliseconds` after its start, with starts lingering
  /// `lingerMilliseconds`, and returns the writes it cost.
  private func writes(runMilliseconds: UInt32, lingerMilliseconds: Int) throws -> (String, [RecordingStore.Write]) {
    let store = try RecordingStore()
    defer { store.remove() }
    let job = NewSubmission(
      id: try SubmissionID.make(), owner: "", kind: .execute, body: Data(#"{"language":"python"}"#.utf8))
    try store.insert([job], now: wallClockMilliseconds())
    var settings = SubmissionWorkers.Settings(workers: 1, claimAhead: 0)
    settings.startLingerMilliseconds = lingerMilliseconds
    let workers = SubmissionWorkers(store: store, settings: settings) { _, _, start in
      guard start() else { return .retryLater }
      usleep(runMilliseconds * 1000)
      return .finished(Data("{}".utf8), isError: false)
    }
    workers.start()
    workers.wake()
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline, try store.fetch(ids: [job.id], owner: "").first?.state != .done {
      usleep(10_000)
    }
    #expect(workers.stop(drainingFor: .seconds(5)))
    return (job.id, store.writes)
  }

  @Test func aStartWaitsForAResultThatComesWithinTheLinger() throws {
    // The run ends well within the linger: its start is never written on its own, and the write
    // of its result shows it ended (a start and an end in one write are written as ended only).
    let (id, writes) = try writes(runMilliseconds: 100, lingerMilliseconds: 5_000)
    #expect(writes == [RecordingStore.Write(started: [], finished: [id])])
  }

  @Test func aStartWithNoResultWithinTheLingerIsWrittenAlone() throws {
    let (id, writes) = try writes(runMilliseconds: 1_000, lingerMilliseconds: 50)
    #expect(
      writes == [RecordingStore.Write(started: [id], finished: []), RecordingStore.Write(started: [], finished: [id])])
  }
}
