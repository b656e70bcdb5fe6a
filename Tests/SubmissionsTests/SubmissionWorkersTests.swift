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

  init(maximumResultBytes: Int = defaultMaximumResultBytes) throws {
    var template = Array((NSTemporaryDirectory() + "dsa-run-workers.XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw StoreError("mkdtemp", "failed")
    }
    directory = String(cString: made)
    inner = try SQLiteStore(path: directory + "/submissions.sqlite3", maximumResultBytes: maximumResultBytes)
  }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }

  /// The writes of starts and results so far, in order.
  var writes: [Write] { log.withLock { $0 } }

  var kindName: String { "recording" }
  var wakesAcrossProcesses: Bool { false }
  var maximumResultBytes: Int { inner.maximumResultBytes }

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
  /// Runs one job per entry of `runMilliseconds` (each that long after its start, its result
  /// `resultBytes` long), each on a worker of its own, with `configure`'s settings, and returns their
  /// ids and the writes they cost.
  private func writes(
    runMilliseconds: [UInt32], resultBytes: Int = 2, maximumResultBytes: Int = defaultMaximumResultBytes,
    _ configure: (inout SubmissionWorkers.Settings) -> Void
  ) throws -> ([String], [RecordingStore.Write]) {
    let (ids, writes, _) = try run(
      runMilliseconds: runMilliseconds, resultBytes: resultBytes, maximumResultBytes: maximumResultBytes, configure)
    return (ids, writes)
  }

  /// `writes`, and the records the store holds at the end and those the workers said they recorded.
  private func run(
    runMilliseconds: [UInt32], resultBytes: Int, maximumResultBytes: Int,
    _ configure: (inout SubmissionWorkers.Settings) -> Void
  ) throws -> ([String], [RecordingStore.Write], (stored: [SubmissionRecord], told: [SubmissionRecord])) {
    let store = try RecordingStore(maximumResultBytes: maximumResultBytes)
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
    let told = Mutex<[SubmissionRecord]>([])
    let result = Data(("{" + String(repeating: " ", count: max(0, resultBytes - 2)) + "}").utf8)
    let workers = SubmissionWorkers(
      store: store, settings: settings, onRecorded: { record, _ in told.withLock { $0.append(record) } },
      run: { job, _, start in
        guard start() else { return .retryLater }
        usleep((lengths[job.id] ?? 0) * 1000)
        return .finished(result, isError: false)
      })
    workers.start()
    workers.wake()
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline,
      try store.fetch(ids: jobs.map(\.id), owner: "").contains(where: { $0.state != .done })
    {
      usleep(10_000)
    }
    #expect(workers.stop(drainingFor: .seconds(5)))
    let stored = try store.fetch(ids: jobs.map(\.id), owner: "")
    return (jobs.map(\.id), store.writes, (stored, told.withLock { $0 }))
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

  @Test func resultsPastTheStoresMaximumTogetherAreWrittenInTurn() throws {
    // Two results waiting together: one write while they fit the store's maximum, one each when
    // together they do not (each fits alone).
    let linger: (inout SubmissionWorkers.Settings) -> Void = { $0.resultLingerMilliseconds = 5_000 }
    let (ids, apart) = try writes(runMilliseconds: [100, 400], resultBytes: 600, maximumResultBytes: 1000, linger)
    #expect(apart.filter { !$0.finished.isEmpty }.map(\.finished.count) == [1, 1])
    #expect(Set(apart.flatMap(\.finished)) == Set(ids))
    let (both, together) = try writes(runMilliseconds: [100, 400], resultBytes: 500, maximumResultBytes: 1000, linger)
    #expect(together.filter { !$0.finished.isEmpty }.map { Set($0.finished) } == [Set(both)])
  }

  @Test func aResultOverTheStoresMaximumIsRecordedAsAnErrorInItsPlace() throws {
    // The store would refuse it, and the recorder offer it again at every write: it is recorded as
    // an error, and the jobs after it go on.
    let (ids, writes, records) = try run(
      runMilliseconds: [10, 200], resultBytes: 2000, maximumResultBytes: 1000, { _ in })
    #expect(writes.flatMap(\.finished).sorted() == ids.sorted())
    #expect(records.stored.count == 2 && records.stored.allSatisfy { $0.state == .done && $0.resultIsError })
    let error = try #require(records.stored.first?.result)
    let object = try #require(try JSONSerialization.jsonObject(with: error) as? [String: [String: String]])
    #expect(object["error"]?["code"] == "result_too_large")
    #expect(object["error"]?["message"] == "the result was 2000 bytes, over the 1000 bytes this server stores")
    #expect(records.told.map(\.result).allSatisfy { $0 == error })
  }
}
