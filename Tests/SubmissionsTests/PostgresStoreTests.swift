import Foundation
import Glibc
import Synchronization
import Testing

@testable import Submissions

/// The PostgreSQL store on a throwaway cluster of its own per test: the judge0 kind through every
/// statement, schema 4's migration from a database at schema 3, and daemons migrating at once.
@Suite(
  .serialized, .timeLimit(.minutes(5)),
  .enabled(if: ThrowawayPostgres.binaries != nil, "Debian postgresql is not installed"))
struct PostgresStoreTests {
  private func job(_ kind: SubmissionKind, owner: String = "alice", callback: String? = nil) throws -> NewSubmission {
    let body =
      kind == .judge0
      ? #"{"execute":{"language":"python","source":"print(1)"},"judge0":{"language_id":71}}"#
      : #"{"language":"python","source":"print(1)"}"#
    return NewSubmission(
      id: try SubmissionID.make(), owner: owner, kind: kind, body: Data(body.utf8), callbackURL: callback)
  }

  /// The labels of `submission_kind`, in their order.
  private func kindLabels(_ store: PostgresStore) throws -> [String?] {
    try store.queryForTests(
      "SELECT string_agg(enumlabel, ',' ORDER BY enumsortorder) FROM pg_enum "
        + "WHERE enumtypid = 'submission_kind'::regtype", []
    ).map { $0[0] }
  }

  /// The versions `dsa_run_schema` records.
  private let versions = "SELECT version FROM dsa_run_schema ORDER BY version"

  /// Every column of every row, as text.
  private func everyRow(_ store: PostgresStore) throws -> [[String?]] {
    try store.queryForTests(
      "SELECT id, owner, kind::text, body, callback_url, state::text, created_ms, finished_ms, lease_owner, "
        + "lease_until_ms, attempts, result, result_is_error, webhook_pending FROM submissions ORDER BY id", [])
  }

  @Test func aJudge0JobKeepsItsKindThroughEveryStatement() throws {
    let cluster = try ThrowawayPostgres()
    defer { cluster.remove() }
    // A new database migrates 0 to 4 in one transaction, the value added last: its first use is
    // the insert below, after that transaction committed.
    let store = try PostgresStore(connectionString: cluster.connectionString())
    #expect(store.schemaVersion == 4 && store.schemaVersion == PostgresStore.migrations.count)
    #expect(try kindLabels(store) == ["execute,grade,judge0"])

    let hooked = try job(.judge0, callback: "http://127.0.0.1:9/hook")
    let (second, third, fourth) = (try job(.judge0), try job(.judge0), try job(.judge0))
    // The one-statement insert, then the batch's transaction.
    try store.insert([hooked], now: 10)
    try store.insert([second, third, fourth], now: 11)
    let claimed = try #require(try store.claim(worker: "w", now: 12, leaseUntil: 100_000))
    #expect(claimed.id == hooked.id && claimed.kind == .judge0 && claimed.body == hooked.body)
    #expect(claimed.callbackURL == hooked.callbackURL && claimed.owner == "alice" && claimed.attempt == 1)
    // Starts, a result and a claim in one statement (its rows read back through `kind::text`).
    let result = Data(#"{"status":{"id":3},"stdout":"1\n"}"#.utf8)
    let outcome = try store.record(
      started: [], finished: [FinishedRun(id: hooked.id, result: result, isError: false)], worker: "w", now: 13,
      claim: ClaimRequest(leaseUntil: 100_000, limit: 2))
    #expect(outcome.recorded == [hooked.id])
    #expect(outcome.claimed.count == 2 && outcome.claimed.allSatisfy { $0.kind == .judge0 && $0.body == second.body })
    // Starts alone, then results alone.
    let held = outcome.claimed.map(\.id)
    _ = try store.record(started: held, finished: [], worker: "w", now: 14, claim: nil)
    #expect(try store.fetch(ids: held, owner: "alice").allSatisfy { $0.state == .running && $0.kind == .judge0 })
    let finished = held.map { FinishedRun(id: $0, result: Data("{}".utf8), isError: true) }
    #expect(try store.record(started: [], finished: finished, worker: "w", now: 15) == Set(held))

    let records = try store.fetch(ids: [hooked.id, second.id, third.id, fourth.id], owner: "alice")
    #expect(records.count == 4 && records.allSatisfy { $0.kind == .judge0 })
    #expect(records.first { $0.id == hooked.id }?.result == result)
    let webhook = try #require(try store.pendingWebhooks(limit: 5).first)
    #expect(webhook.id == hooked.id && webhook.kind == .judge0 && webhook.result == result)
    // Stored done at once (`wait=true`).
    let waited = try job(.judge0)
    try store.insertDone(waited, result: result, isError: false, now: 16)
    #expect(try store.fetch(ids: [waited.id], owner: "alice").first?.kind == .judge0)
    // The other kinds are as they were, and one nobody knows is still refused.
    let grade = try job(.grade)
    try store.insert([grade], now: 17)
    #expect(try store.claim(worker: "w", now: 18, leaseUntil: 100_000, limit: 5).map(\.kind) == [.judge0, .grade])
    #expect(throws: StoreError.self) {
      try store.queryForTests("UPDATE submissions SET kind = $1 WHERE id = $2", ["compile", grade.id])
    }
  }

  @Test func aSchemaThreeDatabaseKeepsItsJobsThroughMigrationFour() throws {
    let cluster = try ThrowawayPostgres()
    defer { cluster.remove() }
    let old = try PostgresStore(connectionString: cluster.connectionString(), schemaVersion: 3)
    #expect(old.schemaVersion == 3)
    #expect(try kindLabels(old) == ["execute,grade"])
    // One job in each state a schema-3 database holds, of both kinds.
    let queued = try job(.execute)
    let ahead = try job(.grade, owner: "bob")
    let running = try job(.execute, callback: "http://127.0.0.1:9/r")
    let done = try job(.execute, callback: "http://127.0.0.1:9/d")
    let failed = try job(.grade)
    let cancelled = try job(.execute)
    try old.insert([running], now: 1000)
    try old.insert([ahead], now: 1001)
    try old.insert([queued, cancelled], now: 1002)
    #expect(try old.claim(worker: "old", now: 1003, leaseUntil: 50_000, limit: 2).map(\.id) == [running.id, ahead.id])
    _ = try old.record(started: [running.id], finished: [], worker: "old", now: 1004, claim: nil)
    try old.insertDone(done, result: Data(#"{"run":{"stdout":"\u0001"}}"#.utf8), isError: false, now: 1005)
    try old.insertDone(failed, result: Data(#"{"error":{"code":"x"}}"#.utf8), isError: true, now: 1006)
    #expect(try old.cancel(id: cancelled.id, owner: "alice", now: 1007) == .cancelled)
    // Not yet a kind there: the prepared insert refuses it.
    let early = try job(.judge0)
    #expect(throws: StoreError.self) { try old.insert([early], now: 1008) }
    let rowsBefore = try everyRow(old)
    #expect(rowsBefore.count == 6)
    let indexes = "SELECT string_agg(indexdef, ';' ORDER BY indexname) FROM pg_indexes WHERE tablename = 'submissions'"
    let indexesBefore = try old.queryForTests(indexes, [])

    let migrated = try PostgresStore(connectionString: cluster.connectionString())
    #expect(migrated.schemaVersion == 4)
    #expect(try migrated.queryForTests(versions, []) == [["1"], ["2"], ["3"], ["4"]])
    #expect(try kindLabels(migrated) == ["execute,grade,judge0"])
    #expect(try everyRow(migrated) == rowsBefore)
    #expect(try migrated.queryForTests(indexes, []) == indexesBefore)
    #expect(
      try migrated.queryForTests("SELECT reloptions::text FROM pg_class WHERE relname = 'submissions'", [])
        == [["{fillfactor=70}"]])

    // The statement the old store prepared before the migration, its kind parameter typed as
    // `submission_kind`, takes the new value now that it is committed.
    try old.insert([early], now: 1009)
    #expect(try migrated.fetch(ids: [early.id], owner: "alice").first?.kind == .judge0)
    // And the jobs carry on: queued ones claimed oldest first, held ones once their leases lapse,
    // finished ones never; results and webhooks as before.
    #expect(
      try migrated.claim(worker: "new", now: 2000, leaseUntil: 100_000, limit: 5).map(\.id) == [queued.id, early.id])
    let lapsed = try migrated.claim(worker: "new", now: 60_000, leaseUntil: 100_000, limit: 5)
    #expect(lapsed.map(\.id) == [running.id, ahead.id] && lapsed.map(\.attempt) == [2, 2])
    #expect(lapsed.map(\.kind) == [.execute, .grade] && lapsed.last?.owner == "bob")
    let recorded = try migrated.record(
      started: [], finished: [FinishedRun(id: running.id, result: Data("{}".utf8), isError: false)], worker: "new",
      now: 60_001, claim: nil)
    #expect(recorded.recorded == [running.id])
    #expect(try migrated.pendingWebhooks(limit: 5).map(\.id) == [done.id, running.id])
    #expect(try migrated.cancel(id: done.id, owner: "alice", now: 60_002) == .alreadyFinished(.done))
    let failedRecord = try #require(try migrated.fetch(ids: [failed.id], owner: "alice").first)
    #expect(failedRecord.resultIsError && failedRecord.kind == .grade && failedRecord.state == .done)
    #expect(try migrated.purge(finishedBefore: 70_000) == 2)
  }

  @Test func daemonsMigratingAtOnceTakeTurnsAtTheLock() throws {
    let cluster = try ThrowawayPostgres()
    defer { cluster.remove() }
    let connection = cluster.connectionString()
    // The lock is held here, so both stores below reach it and wait: then neither has migrated yet.
    let holder = try PostgresStore(connectionString: connection, schemaVersion: 3)
    let queued = try job(.execute)
    try holder.insert([queued], now: 1)
    _ = try holder.queryForTests("SELECT pg_advisory_lock(\(PostgresStore.migrationLock))", [])
    let outcomes = Mutex<[String]>([])
    for _ in 0..<2 {
      Thread {
        let outcome: String
        do throws(StoreError) {
          outcome = "version \(try PostgresStore(connectionString: connection).schemaVersion)"
        } catch {
          outcome = error.description
        }
        outcomes.withLock { $0.append(outcome) }
      }.start()
    }
    let waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
    var both = false
    for _ in 0..<300 where !both {
      both = try holder.queryForTests(waiting, []) == [["2"]]
      if !both { usleep(50_000) }
    }
    #expect(both, "both stores wait for the migration lock")
    // The same connection of `holder` (its only one) releases the lock.
    #expect(try holder.queryForTests("SELECT pg_advisory_unlock(\(PostgresStore.migrationLock))", []) == [["t"]])
    var ended: [String] = []
    for _ in 0..<600 where ended.count < 2 {
      ended = outcomes.withLock { $0 }
      if ended.count < 2 { usleep(50_000) }
    }
    #expect(ended == ["version 4", "version 4"])
    // One of them migrated, the other found it done: each version once, the value added once.
    #expect(try holder.queryForTests(versions, []) == [["1"], ["2"], ["3"], ["4"]])
    #expect(try kindLabels(holder) == ["execute,grade,judge0"])
    #expect(try holder.fetch(ids: [queued.id], owner: "alice").first?.state == .queued)
  }

  @Test func aResultOverTheMaximumIsRefusedWithNothingWritten() throws {
    // Refused before connecting: a value PostgreSQL could not carry.
    for refused in [0, PostgresStore.largestMaximumResultBytes + 1] {
      #expect(throws: StoreError.self) {
        try PostgresStore(connectionString: "postgresql://nobody@/none?host=/nonexistent", maximumResultBytes: refused)
      }
    }
    let cluster = try ThrowawayPostgres()
    defer { cluster.remove() }
    #expect(try PostgresStore(connectionString: cluster.connectionString()).maximumResultBytes == 64 << 20)
    let store = try PostgresStore(connectionString: cluster.connectionString(), maximumResultBytes: 100)
    let (small, large, next) = (try job(.execute), try job(.judge0), try job(.grade))
    try store.insert([small, large, next], now: 1)
    #expect(try store.claim(worker: "w", now: 2, leaseUntil: 100_000, limit: 2).count == 2)
    let fits = FinishedRun(id: small.id, result: Data(repeating: 0x20, count: 100), isError: false)
    let over = FinishedRun(id: large.id, result: Data(repeating: 0x20, count: 101), isError: false)
    // Refused whole by each form of the write: with a claim, and without.
    for claim in [ClaimRequest(leaseUntil: 100_000, limit: 1), nil] {
      let refusal = #expect(throws: StoreError.self) {
        try store.record(started: [small.id], finished: [fits, over], worker: "w", now: 3, claim: claim)
      }
      #expect(refusal?.isRefusal == true && refusal?.message.contains(large.id) == true)
    }
    let states = try store.fetch(ids: [small.id, large.id, next.id], owner: "alice").map(\.state)
    #expect(states == [.queued, .queued, .queued])
    #expect(try store.claim(worker: "x", now: 4, leaseUntil: 100_000, limit: 5).map(\.id) == [next.id])
    #expect(try store.record(started: [], finished: [fits], worker: "w", now: 5) == [small.id])
    let done = try job(.judge0)
    #expect(throws: StoreError.self) {
      try store.insertDone(done, result: Data(repeating: 0x20, count: 101), isError: false, now: 6)
    }
    #expect(try store.fetch(ids: [done.id], owner: "alice").isEmpty)
    try store.insertDone(done, result: Data(repeating: 0x20, count: 100), isError: false, now: 7)
    #expect(try store.fetch(ids: [done.id], owner: "alice").first?.result?.count == 100)
  }
}
