import Foundation
import Glibc
import Testing

@testable import Submissions

/// The SQLite store on a real file in a temporary directory; times are passed in, so leases and
/// retention are tested without sleeping.
@Suite struct SQLiteStoreTests {
  let directory: String
  var path: String { directory + "/submissions.sqlite3" }

  init() throws {
    var template = Array((NSTemporaryDirectory() + "dsa-run-store.XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw StoreError("mkdtemp", "failed")
    }
    directory = String(cString: made)
  }

  private func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }

  private func submission(_ owner: String = "", body: String = "{\"language\":\"python\"}") throws -> NewSubmission {
    NewSubmission(id: try SubmissionID.make(), owner: owner, kind: .execute, body: Data(body.utf8))
  }

  @Test func opensInWALModeAtTheLatestSchemaAndReopens() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    #expect(store.schemaVersion == SQLiteStore.migrations.count)
    #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    let job = try submission()
    try store.insert([job], now: 1000)
    // A second open (a restart) migrates nothing and sees what the first stored.
    let reopened = try SQLiteStore(path: path)
    #expect(reopened.schemaVersion == SQLiteStore.migrations.count)
    #expect(try reopened.fetch(ids: [job.id], owner: "").first?.state == .queued)
  }

  @Test func aFileOfVersionOneKeepsItsJobsThroughTheMigration() throws {
    defer { cleanUp() }
    let old = try SQLiteStore(path: path, schemaVersion: 1)
    #expect(old.schemaVersion == 1)
    let id = try SubmissionID.make()
    try old.executeForTests(
      "INSERT INTO submissions (id, owner, kind, body, state, created_ms) "
        + "VALUES ('\(id)', '', 'execute', CAST('{\"language\":\"python\"}' AS BLOB), 'queued', 5)")
    let migrated = try SQLiteStore(path: path)
    #expect(migrated.schemaVersion == SQLiteStore.migrations.count)
    let claimed = try #require(try migrated.claim(worker: "w", now: 6, leaseUntil: 100))
    #expect(claimed.id == id && claimed.body == Data("{\"language\":\"python\"}".utf8))
    #expect(try migrated.complete(id: id, result: Data("{}".utf8), isError: false, now: 7))
    #expect(try migrated.purge(finishedBefore: 8) == 1)
    #expect(try migrated.fetch(ids: [id], owner: "").isEmpty)
  }

  /// A file as the previous version (schema 2) left it, written here by hand rather than by this
  /// version's migrations, so the test still starts from the shipped shape if those change.
  static let versionTwoSchema = """
    CREATE TABLE submissions (
      id TEXT PRIMARY KEY NOT NULL,
      owner TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('execute', 'grade')),
      callback_url TEXT,
      state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'cancelled')),
      created_ms INTEGER NOT NULL,
      finished_ms INTEGER,
      lease_owner TEXT,
      lease_until_ms INTEGER,
      attempts INTEGER NOT NULL DEFAULT 0,
      result BLOB,
      result_is_error INTEGER NOT NULL DEFAULT 0,
      webhook_pending INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE INDEX submissions_by_state ON submissions (state, created_ms);
    CREATE INDEX submissions_by_finish ON submissions (finished_ms) WHERE finished_ms IS NOT NULL;
    CREATE INDEX submissions_webhooks ON submissions (finished_ms) WHERE webhook_pending = 1;
    CREATE TABLE submission_bodies (id TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL) WITHOUT ROWID;
    CREATE INDEX submissions_claimable ON submissions (created_ms) WHERE state IN ('queued', 'running');
    PRAGMA user_version = 2;
    """

  /// What a file's schema is, whitespace aside: the table, its columns, indexes and the version.
  private static func schema(of store: SQLiteStore) throws -> [String] {
    let objects = try store.rowsForTests("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name")
    let columns = try store.rowsForTests("SELECT * FROM pragma_table_xinfo('submissions')")
    return (objects + columns).map {
      $0.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    } + ["user_version \(store.schemaVersion)"]
  }

  /// The CHECK constraint on `kind`, as the table's SQL says it.
  private static func kindCheck(of store: SQLiteStore) throws -> String? {
    let rows = try store.rowsForTests(
      "SELECT substr(sql, instr(sql, 'CHECK (kind'), instr(substr(sql, instr(sql, 'CHECK (kind')), '))') + 1) "
        + "FROM sqlite_schema WHERE name = 'submissions'")
    return rows.first?.first.map { String($0.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'") }
  }

  @Test func theVersionTwoFixtureIsWhatTheShippedMigrationsMake() throws {
    defer { cleanUp() }
    let fixture = try SQLiteStore(path: path, schemaVersion: 0)
    try fixture.executeForTests(Self.versionTwoSchema)
    let shipped = try SQLiteStore(path: directory + "/shipped.sqlite3", schemaVersion: 2)
    #expect(try Self.schema(of: fixture) == Self.schema(of: shipped))
    #expect(try Self.kindCheck(of: shipped) == "CHECK (kind IN ('execute', 'grade'))")
  }

  @Test func aVersionTwoFileKeepsEveryRowThroughTheRebuildForJudge0() throws {
    defer { cleanUp() }
    let old = try SQLiteStore(path: path, schemaVersion: 0)
    try old.executeForTests(Self.versionTwoSchema)
    // One row of each kind of life an older daemon leaves behind, as it wrote them.
    let ids = try (0..<7).map { _ in try SubmissionID.make() }
    let (queued, ahead, running, hooked, delivered, failed, cancelled) =
      (ids[0], ids[1], ids[2], ids[3], ids[4], ids[5], ids[6])
    let columns =
      "(id, owner, kind, callback_url, state, created_ms, finished_ms, lease_owner, lease_until_ms, attempts, "
      + "result, result_is_error, webhook_pending)"
    let rows = [
      "('\(queued)', 'alice', 'execute', NULL, 'queued', 10, NULL, NULL, NULL, 0, NULL, 0, 0)",
      "('\(ahead)', 'alice', 'grade', NULL, 'queued', 11, NULL, 'old', 5000, 1, NULL, 0, 0)",
      "('\(running)', 'bob', 'execute', 'http://127.0.0.1:9/r', 'running', 12, NULL, 'old', 5000, 2, NULL, 0, 0)",
      "('\(hooked)', 'alice', 'execute', 'http://127.0.0.1:9/h', 'done', 13, 20, NULL, 5000, 1, "
        + "CAST('{\"run\":{\"stdout\":\"a\\u0000b\"}}' AS BLOB), 0, 1)",
      "('\(delivered)', 'alice', 'grade', 'http://127.0.0.1:9/d', 'done', 14, 21, NULL, 5000, 1, "
        + "CAST('{\"verdict\":\"accepted\"}' AS BLOB), 0, 2)",
      "('\(failed)', '', 'execute', NULL, 'done', 15, 22, NULL, NULL, 1, "
        + "CAST('{\"error\":{\"code\":\"runtime_unavailable\"}}' AS BLOB), 1, 0)",
      "('\(cancelled)', 'bob', 'execute', NULL, 'cancelled', 16, 23, NULL, 5000, 1, NULL, 0, 0)",
    ]
    try old.executeForTests("INSERT INTO submissions \(columns) VALUES " + rows.joined(separator: ", "))
    try old.executeForTests(
      "INSERT INTO submission_bodies (id, body) VALUES "
        + ids.map { "('\($0)', CAST('{\"of\":\"\($0)\"}' AS BLOB))" }.joined(separator: ", "))
    let claimPlan =
      "EXPLAIN QUERY PLAN SELECT id FROM submissions WHERE state IN ('queued', 'running') "
      + "AND coalesce(lease_until_ms, 0) < 0 ORDER BY created_ms LIMIT 1"
    let planBefore = try old.rowsForTests(claimPlan)
    let everything = "SELECT * FROM submissions ORDER BY id"
    let bodies = "SELECT * FROM submission_bodies ORDER BY id"
    let (rowsBefore, bodiesBefore) = (try old.rowsForTests(everything), try old.rowsForTests(bodies))
    #expect(rowsBefore.count == 7 && bodiesBefore.count == 7)

    let store = try SQLiteStore(path: path)
    #expect(store.schemaVersion == 3 && store.schemaVersion == SQLiteStore.migrations.count)
    #expect(try store.rowsForTests(everything) == rowsBefore)
    #expect(try store.rowsForTests(bodies) == bodiesBefore)
    #expect(try store.rowsForTests("PRAGMA journal_mode") == [["'wal'"]])
    #expect(try store.rowsForTests("PRAGMA integrity_check") == [["'ok'"]])
    #expect(try Self.kindCheck(of: store) == "CHECK (kind IN ('execute', 'grade', 'judge0'))")
    let withoutRowID = "SELECT sql LIKE '%) WITHOUT ROWID' FROM sqlite_schema WHERE name = 'submissions'"
    #expect(try store.rowsForTests(withoutRowID) == [["1"]])
    let indexes = "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
    let indexNames = ["submissions_by_finish", "submissions_by_state", "submissions_claimable", "submissions_webhooks"]
    #expect(try store.rowsForTests(indexes) == indexNames.map { ["'\($0)'"] })
    #expect(try store.rowsForTests("SELECT name FROM sqlite_schema WHERE name LIKE '%new%'").isEmpty)
    // The indexes made again are the ones the planner chose before.
    #expect(try store.rowsForTests(claimPlan) == planBefore)

    // And it behaves as before: the queued job is claimed first, the held ones once their leases
    // lapse; finished ones never.
    #expect(try store.claim(worker: "new", now: 100, leaseUntil: 9000, limit: 5).map(\.id) == [queued])
    let lapsed = try store.claim(worker: "new", now: 6000, leaseUntil: 9000, limit: 5)
    #expect(lapsed.map(\.id) == [ahead, running] && lapsed.map(\.attempt) == [2, 3])
    #expect(
      lapsed.map(\.kind) == [.grade, .execute]
        && lapsed.map(\.body) == [ahead, running].map { Data("{\"of\":\"\($0)\"}".utf8) })
    #expect(try store.complete(id: running, result: Data("{}".utf8), isError: false, now: 6001))
    #expect(try store.cancel(id: delivered, owner: "alice", now: 6002) == .alreadyFinished(.done))
    #expect(try store.cancel(id: queued, owner: "alice", now: 6003) == .cancelled)
    let pending = try store.pendingWebhooks(limit: 10)
    #expect(pending.map(\.id) == [hooked, running])
    #expect(pending.first?.result == Data("{\"run\":{\"stdout\":\"a\\u0000b\"}}".utf8))
    let failedRecord = try #require(try store.fetch(ids: [failed], owner: "").first)
    #expect(failedRecord.resultIsError && failedRecord.kind == .execute && failedRecord.finishedMilliseconds == 22)
    // The new kind is stored now, and a kind nobody knows is still refused.
    let judge0 = NewSubmission(id: try SubmissionID.make(), owner: "alice", kind: .judge0, body: Data("{}".utf8))
    try store.insert([judge0], now: 6004)
    #expect(try store.fetch(ids: [judge0.id], owner: "alice").first?.kind == .judge0)
    #expect(throws: StoreError.self) {
      try store.executeForTests("UPDATE submissions SET kind = 'compile' WHERE id = '\(judge0.id)'")
    }
    #expect(try store.purge(finishedBefore: 7000) == 4)
  }

  @Test func aJudge0JobKeepsItsKindThroughEveryStep() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    let body = Data(#"{"execute":{"language":"python","source":"print(1)"},"judge0":{"language_id":71}}"#.utf8)
    func job(_ callback: String? = nil) throws -> NewSubmission {
      NewSubmission(id: try SubmissionID.make(), owner: "alice", kind: .judge0, body: body, callbackURL: callback)
    }
    let (first, second, third) = (try job("http://127.0.0.1:9/hook"), try job(), try job())
    try store.insert([first], now: 10)
    try store.insert([second, third], now: 11)
    let claimed = try #require(try store.claim(worker: "w", now: 12, leaseUntil: 1000))
    #expect(claimed.id == first.id && claimed.kind == .judge0 && claimed.body == body)
    #expect(claimed.callbackURL == first.callbackURL && claimed.owner == "alice")
    // A record that claims the next ones in its write reads their kind there too.
    let outcome = try store.record(
      started: [], finished: [FinishedRun(id: first.id, result: Data(#"{"status":{"id":3}}"#.utf8), isError: false)],
      worker: "w", now: 13, claim: ClaimRequest(leaseUntil: 1000, limit: 5))
    #expect(outcome.recorded == [first.id])
    #expect(
      Set(outcome.claimed.map(\.id)) == [second.id, third.id] && outcome.claimed.allSatisfy { $0.kind == .judge0 })
    let record = try #require(try store.fetch(ids: [first.id], owner: "alice").first)
    #expect(record.kind == .judge0 && record.state == .done && record.result == Data(#"{"status":{"id":3}}"#.utf8))
    let webhook = try #require(try store.pendingWebhooks(limit: 5).first)
    #expect(webhook.id == first.id && webhook.kind == .judge0 && webhook.callbackURL == first.callbackURL)
    // Stored done at once (`wait=true`): one write, with its kind.
    let waited = try job()
    try store.insertDone(waited, result: Data("{}".utf8), isError: false, now: 14)
    #expect(try store.fetch(ids: [waited.id], owner: "alice").first?.kind == .judge0)
    #expect(SubmissionKind.judge0.runsAsExecute && SubmissionKind.execute.runsAsExecute)
    #expect(!SubmissionKind.grade.runsAsExecute)
  }

  @Test func aFileOfVersionTwoGivesItsJudge0JobsTheirKind() throws {
    defer { cleanUp() }
    let old = try SQLiteStore(path: path, schemaVersion: 2)
    func job(_ kind: SubmissionKind, _ body: String) throws -> NewSubmission {
      NewSubmission(id: try SubmissionID.make(), owner: "alice", kind: kind, body: Data(body.utf8))
    }
    // Before the judge0 kind, a Judge0 job was an execute job whose body began {"execute":.
    let legacy = try job(.execute, #"{"execute":{"language":"python","source":"1"},"judge0":{}}"#)
    let execute = try job(.execute, #"{"language":"python","source":"1"}"#)
    let grade = try job(.grade, #"{"language":"python","source":"1","challenge":"x"}"#)
    let finished = try job(.execute, #"{"execute":{"language":"python","source":"2"},"judge0":{}}"#)
    try old.insert([legacy, execute, grade], now: 10)
    try old.insertDone(finished, result: Data(#"{"judge0":{"status_id":3}}"#.utf8), isError: false, now: 11)
    let migrated = try SQLiteStore(path: path)
    #expect(migrated.schemaVersion == SQLiteStore.migrations.count)
    let kinds = Dictionary(
      uniqueKeysWithValues: try migrated.fetch(ids: [legacy.id, execute.id, grade.id, finished.id], owner: "alice")
        .map { ($0.id, $0.kind) })
    #expect(kinds == [legacy.id: .judge0, execute.id: .execute, grade.id: .grade, finished.id: .judge0])
    #expect(
      try migrated.fetch(ids: [finished.id], owner: "alice").first?.result == Data(#"{"judge0":{"status_id":3}}"#.utf8))
    // Claims keep their order and bodies; a new Judge0 job is stored and claimed as itself.
    let fresh = try job(.judge0, #"{"source_code":"print(1)","language_id":71}"#)
    try migrated.insert([fresh], now: 12)
    let claimed = try migrated.claim(worker: "w", now: 13, leaseUntil: 1000, limit: 10)
    #expect(claimed.last?.id == fresh.id)
    #expect(
      Dictionary(uniqueKeysWithValues: claimed.map { ($0.id, $0.kind) })
        == [legacy.id: .judge0, execute.id: .execute, grade.id: .grade, fresh.id: .judge0])
    #expect(claimed.first { $0.id == legacy.id }?.body == legacy.body)
  }

  @Test func refusesAFileFromANewerVersion() throws {
    defer { cleanUp() }
    _ = try SQLiteStore(path: path)
    // Pretend a newer dsa-rund migrated the file further.
    try SQLiteStore(path: path).executeForTests("PRAGMA user_version = 99")
    #expect(throws: StoreError.self) { try SQLiteStore(path: path) }
  }

  @Test func anOwnerSeesOnlyItsOwnSubmissions() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    let mine = try submission("alice")
    let theirs = try submission("bob")
    try store.insert([mine, theirs], now: 1)
    #expect(try store.fetch(ids: [mine.id, theirs.id], owner: "alice").map(\.id) == [mine.id])
    #expect(try store.cancel(id: theirs.id, owner: "alice", now: 2) == .notFound)
    #expect(try store.fetch(ids: [theirs.id], owner: "bob").first?.state == .queued)
  }

  @Test func idsOfAnyShapeAreLookedUpSafely() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    let job = try submission()
    try store.insert([job], now: 1)
    #expect(SQLiteStore.jsonArray(["a\"b", "c\\d", "\u{1}"]) == #"["a\"b","c\\d","\u0001"]"#)
    #expect(try store.fetch(ids: ["x\"]", "\\", "\u{0}", job.id], owner: "").map(\.id) == [job.id])
  }

  @Test func aBatchWithADuplicateIdStoresNothing() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    let first = try submission()
    #expect(throws: StoreError.self) { try store.insert([first, first], now: 1) }
    #expect(try store.fetch(ids: [first.id], owner: "").isEmpty)
  }

  @Test func claimsOldestFirstAndNeverTwice() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    let older = try submission()
    let newer = try submission()
    try store.insert([older], now: 10)
    try store.insert([newer], now: 20)
    #expect(try store.claim(worker: "a", now: 30, leaseUntil: 1030)?.id == older.id)
    #expect(try store.claim(worker: "b", now: 30, leaseUntil: 1030)?.id == newer.id)
    #expect(try store.claim(worker: "c", now: 30, leaseUntil: 1030) == nil)
    // Claimed, they wait for a slot: queued to clients until the holder says they started.
    let claimed = try store.statistics(now: 40)
    #expect(claimed.queued == 2 && claimed.running == 0)
    // Only a's own job starts when a says so.
    _ = try store.record(started: [older.id, newer.id], finished: [], worker: "a", now: 41)
    #expect(try store.fetch(ids: [older.id], owner: "").first?.state == .running)
    #expect(try store.fetch(ids: [newer.id], owner: "").first?.state == .queued)
  }

  @Test func claimsSeveralAtOnceOldestFirstAndReleasesThemUncounted() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    let jobs = try (0..<5).map { _ in try submission() }
    for (index, job) in jobs.enumerated() { try store.insert([job], now: Int64(10 + index)) }
    let first = try store.claim(worker: "a", now: 100, leaseUntil: 1100, limit: 3)
    #expect(first.map(\.id) == jobs[0..<3].map(\.id) && first.allSatisfy { $0.attempt == 1 })
    let rest = try store.claim(worker: "b", now: 100, leaseUntil: 1100, limit: 10)
    #expect(rest.map(\.id) == jobs[3...].map(\.id))
    #expect(try store.claim(worker: "c", now: 100, leaseUntil: 1100, limit: 10).isEmpty)
    // Given back (the daemon stops before running them), they are claimed again at once, and the
    // claim that never ran does not count as an attempt; another holder's claim is left alone.
    try store.release(ids: [first[1].id, first[2].id, rest[0].id], worker: "a")
    let again = try store.claim(worker: "c", now: 101, leaseUntil: 1101, limit: 10)
    #expect(again.map(\.id) == [first[1].id, first[2].id] && again.allSatisfy { $0.attempt == 1 })
  }

  @Test func aRecordClaimsTheNextJobsInTheSameWrite() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    let jobs = try (0..<5).map { _ in try submission() }
    for (index, job) in jobs.enumerated() { try store.insert([job], now: Int64(10 + index)) }
    let first = try store.claim(worker: "w", now: 100, leaseUntil: 1100, limit: 2)
    // One ends, the other starts, and two more are leased to w, oldest first: none of those in the
    // lists, so each job is held once.
    let outcome = try store.record(
      started: [first[1].id], finished: [FinishedRun(id: first[0].id, result: Data("{}".utf8), isError: false)],
      worker: "w", now: 101, claim: ClaimRequest(leaseUntil: 1101, limit: 2))
    #expect(outcome.recorded == [first[0].id])
    #expect(outcome.claimed.map(\.id) == [jobs[2].id, jobs[3].id] && outcome.claimed.allSatisfy { $0.attempt == 1 })
    #expect(outcome.claimed.allSatisfy { $0.owner == jobs[0].owner && $0.kind == .execute })
    #expect(outcome.claimed.map(\.body) == [jobs[2].body, jobs[3].body])
    let states = Dictionary(
      uniqueKeysWithValues: try store.fetch(ids: jobs.map(\.id), owner: "").map { ($0.id, $0.state) })
    #expect(states[jobs[0].id] == .done && states[jobs[1].id] == .running && states[jobs[4].id] == .queued)
    // Leased to w: another worker finds only the last one; and a record asking more than is left
    // claims what there is.
    #expect(try store.claim(worker: "x", now: 102, leaseUntil: 1102, limit: 5).map(\.id) == [jobs[4].id])
    let dry = try store.record(
      started: [], finished: [], worker: "w", now: 103, claim: ClaimRequest(leaseUntil: 1103, limit: 3))
    #expect(dry == RecordOutcome(recorded: [], claimed: []))
  }

  @Test func recordWritesStartsAndResultsTogetherAndOnlyTheFirstResult() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    let (ahead, running, cancelled) = (try submission(), try submission(), try submission())
    try store.insert([ahead, running, cancelled], now: 0)
    #expect(try store.claim(worker: "w", now: 1, leaseUntil: 1000, limit: 3).count == 3)
    _ = try store.record(started: [running.id, cancelled.id], finished: [], worker: "w", now: 2)
    // A start by a worker that does not hold the job changes nothing.
    _ = try store.record(started: [ahead.id], finished: [], worker: "intruder", now: 2)
    #expect(try store.fetch(ids: [ahead.id], owner: "").first?.state == .queued)
    #expect(try store.cancel(id: cancelled.id, owner: "", now: 3) == .cancelled)
    // The claimed-ahead job starts while the others end; results of a claimed job are taken
    // whether or not its start was written, and a cancelled job's result is dropped.
    let finished = [running, ahead, cancelled].map {
      FinishedRun(id: $0.id, result: Data("{\"of\":\"\($0.id)\"}".utf8), isError: $0.id == ahead.id)
    }
    let recorded = try store.record(started: [], finished: finished, worker: "w", now: 4)
    #expect(recorded == [running.id, ahead.id])
    #expect(try store.record(started: [], finished: finished, worker: "w", now: 5).isEmpty)
    let records = try store.fetch(ids: [ahead.id, running.id, cancelled.id], owner: "")
    #expect(records.count == 3)
    for record in records {
      let expected: SubmissionState = record.id == cancelled.id ? .cancelled : .done
      #expect(record.state == expected, "\(record.id)")
      if expected == .done {
        #expect(record.result == Data("{\"of\":\"\(record.id)\"}".utf8) && record.finishedMilliseconds == 4)
        #expect(record.resultIsError == (record.id == ahead.id))
      }
    }
  }

  @Test func aSubmissionDoneAtOnceIsStoredInOneWrite() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    var hooked = try submission()
    hooked.callbackURL = "http://127.0.0.1:9/hook"
    try store.insertDone(hooked, result: Data("{\"ok\":1}".utf8), isError: false, now: 7)
    let record = try #require(try store.fetch(ids: [hooked.id], owner: "").first)
    #expect(record.state == .done && record.result == Data("{\"ok\":1}".utf8) && record.createdMilliseconds == 7)
    #expect(record.finishedMilliseconds == 7)
    #expect(try store.claim(worker: "w", now: 8, leaseUntil: 100) == nil)
    #expect(try store.pendingWebhooks(limit: 5).map(\.id) == [hooked.id])
    #expect(try store.cancel(id: hooked.id, owner: "", now: 9) == .alreadyFinished(.done))
    #expect(throws: StoreError.self) { try store.insertDone(hooked, result: Data("{}".utf8), isError: false, now: 9) }
  }

  @Test func anExpiredLeaseIsClaimedAgainAndTheResultIsRecordedOnce() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    let job = try submission()
    try store.insert([job], now: 0)
    #expect(try store.claim(worker: "dead", now: 1, leaseUntil: 100)?.attempt == 1)
    // Renewed, the lease holds past its first end.
    try store.renew(ids: [job.id], worker: "dead", leaseUntil: 200)
    #expect(try store.claim(worker: "alive", now: 150, leaseUntil: 1150) == nil)
    // Not renewed, it runs out and another worker takes the job.
    let again = try #require(try store.claim(worker: "alive", now: 201, leaseUntil: 1201))
    #expect(again.id == job.id && again.attempt == 2)
    #expect(try store.complete(id: job.id, result: Data("{\"n\":2}".utf8), isError: false, now: 300))
    // The first run finishing late records nothing.
    #expect(try !store.complete(id: job.id, result: Data("{\"n\":1}".utf8), isError: false, now: 301))
    let record = try #require(try store.fetch(ids: [job.id], owner: "").first)
    #expect(record.state == .done && record.result == Data("{\"n\":2}".utf8) && record.finishedMilliseconds == 300)
  }

  @Test func cancelStopsAQueuedOrRunningJobAndItsLateResult() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    let queued = try submission()
    let running = try submission()
    try store.insert([queued], now: 0)
    try store.insert([running], now: 1)
    #expect(try store.claim(worker: "w", now: 1, leaseUntil: 1000)?.id == queued.id)
    #expect(try store.cancel(id: queued.id, owner: "", now: 2) == .cancelled)
    #expect(try !store.complete(id: queued.id, result: Data("{}".utf8), isError: false, now: 3))
    #expect(try store.cancel(id: running.id, owner: "", now: 4) == .cancelled)
    #expect(try store.claim(worker: "w", now: 5, leaseUntil: 1000) == nil)
    #expect(try store.cancel(id: running.id, owner: "", now: 6) == .alreadyFinished(.cancelled))
    #expect(try store.fetch(ids: [queued.id], owner: "").first?.state == .cancelled)
  }

  @Test func releasePutsAJobBackInLine() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    let job = try submission()
    try store.insert([job], now: 0)
    _ = try store.claim(worker: "w", now: 1, leaseUntil: 1000)
    try store.release(id: job.id, worker: "someone else")
    #expect(try store.claim(worker: "x", now: 2, leaseUntil: 1000) == nil)
    try store.release(id: job.id, worker: "w")
    #expect(try store.claim(worker: "x", now: 3, leaseUntil: 1000)?.id == job.id)
  }

  @Test func purgeDeletesOnlyFinishedSubmissionsPastRetentionWithTheirWebhooksDone() throws {
    defer { cleanUp() }
    let store = try SQLiteStore(path: path)
    let old = try submission()
    var hooked = try submission()
    hooked.callbackURL = "http://127.0.0.1:9/hook"
    let waiting = try submission()
    try store.insert([old, hooked], now: 0)
    for _ in 0..<2 { _ = try store.claim(worker: "w", now: 1, leaseUntil: 1000) }
    #expect(try store.complete(id: old.id, result: Data("{}".utf8), isError: false, now: 10))
    #expect(try store.complete(id: hooked.id, result: Data("{}".utf8), isError: true, now: 10))
    try store.insert([waiting], now: 5)
    #expect(try store.pendingWebhooks(limit: 10).map(\.id) == [hooked.id])
    #expect(try store.purge(finishedBefore: 10) == 0)
    #expect(try store.purge(finishedBefore: 11) == 1)
    try store.finishWebhook(id: hooked.id, delivered: true)
    #expect(try store.pendingWebhooks(limit: 10).isEmpty)
    #expect(try store.purge(finishedBefore: 11) == 1)
    // A queued job is never purged, however old.
    #expect(try store.purge(finishedBefore: Int64.max) == 0)
    #expect(try store.fetch(ids: [old.id, hooked.id, waiting.id], owner: "").map(\.id) == [waiting.id])
    #expect(try store.statistics(now: 2005).oldestQueuedSeconds == 2)
  }

  @Test func aResultOverTheMaximumIsRefusedWithNothingWritten() throws {
    defer { cleanUp() }
    #expect(try SQLiteStore(path: directory + "/default.sqlite3").maximumResultBytes == 64 << 20)
    // A maximum SQLite could not keep is refused at the start, not at the first large result.
    for refused in [0, 2_000_000_000, Int(Int32.max) + 1] {
      #expect(throws: StoreError.self) { try SQLiteStore(path: path, maximumResultBytes: refused) }
    }
    let store = MonitoredStore(try SQLiteStore(path: path, maximumResultBytes: 100))
    #expect(store.maximumResultBytes == 100)
    let (small, large) = (try submission(), try submission())
    try store.insert([small, large], now: 1)
    #expect(try store.claim(worker: "w", now: 2, leaseUntil: 1000, limit: 2).count == 2)
    let fits = FinishedRun(id: small.id, result: Data(repeating: 0x20, count: 100), isError: false)
    let over = FinishedRun(id: large.id, result: Data(repeating: 0x20, count: 101), isError: false)
    let refusal = #expect(throws: StoreError.self) {
      try store.record(started: [small.id], finished: [fits, over], worker: "w", now: 3, claim: nil)
    }
    #expect(refusal?.isRefusal == true && refusal?.operation == "record")
    #expect(refusal?.message.hasPrefix("the result of \(large.id) is 101 bytes, over the 100") == true)
    // The whole call: no start, no result written.
    #expect(try store.fetch(ids: [small.id, large.id], owner: "").allSatisfy { $0.state == .queued })
    #expect(try store.record(started: [], finished: [fits], worker: "w", now: 4) == [small.id])
    let done = try submission()
    #expect(throws: StoreError.self) {
      try store.insertDone(done, result: Data(repeating: 0x20, count: 101), isError: false, now: 5)
    }
    #expect(try store.fetch(ids: [done.id], owner: "").isEmpty)
    try store.insertDone(done, result: Data(repeating: 0x20, count: 100), isError: false, now: 6)
    #expect(try store.fetch(ids: [done.id], owner: "").first?.result?.count == 100)
    // A refusal is the caller's matter: health does not show it as the store's failure.
    #expect(store.snapshot.lastFailure == nil && store.snapshot.failures == 0)
  }

  @Test func idsAreRandomAndCheckedForShape() throws {
    let ids = try (0..<1000).map { _ in try SubmissionID.make() }
    #expect(Set(ids).count == ids.count)
    #expect(ids.allSatisfy(SubmissionID.isWellFormed))
    for bad in ["", "abc", String(repeating: "A", count: 32), String(repeating: "g", count: 32), ids[0] + "0"] {
      #expect(!SubmissionID.isWellFormed(bad), "\(bad)")
    }
  }
}
