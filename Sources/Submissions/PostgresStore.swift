internal import CPostgres
import Foundation
import Glibc

/// The store for several daemons: one PostgreSQL database (libpq, Debian libpq-dev) that every
/// `dsa-rund` naming it shares, on one machine or many.
///
/// Workers claim jobs with `FOR UPDATE SKIP LOCKED`, so two daemons never take the same job and never
/// wait on each other's claims; an insert sends `NOTIFY dsa_run_submissions`, which the listener
/// connection of every daemon with room for more jobs hears, so idle workers start at once instead
/// of at their next poll.
/// A lost connection is re-established on the next call; the call that saw it fails (503 for a
/// submit, a retry for a worker).
public final class PostgresStore: SubmissionStore, @unchecked Sendable {
  public var kindName: String { "postgresql" }
  public var wakesAcrossProcesses: Bool { true }

  static let channel = "dsa_run_submissions"

  /// Schema migrations, in order; `dsa_run_schema.version` counts those applied.
  static let migrations: [String] = [
    """
    CREATE TABLE submissions (
      id text PRIMARY KEY,
      owner text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('execute', 'grade')),
      body text NOT NULL,
      callback_url text,
      state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'cancelled')),
      created_ms bigint NOT NULL,
      finished_ms bigint,
      lease_owner text,
      lease_until_ms bigint,
      attempts integer NOT NULL DEFAULT 0,
      result text,
      result_is_error boolean NOT NULL DEFAULT false,
      webhook_pending smallint NOT NULL DEFAULT 0
    );
    CREATE INDEX submissions_by_state ON submissions (state, created_ms);
    CREATE INDEX submissions_by_finish ON submissions (finished_ms) WHERE finished_ms IS NOT NULL;
    CREATE INDEX submissions_webhooks ON submissions (finished_ms) WHERE webhook_pending = 1;
    """,
    // Claims look among the unfinished jobs, oldest first, whatever their state (a claimed job stays
    // queued until it starts; a running one is taken over when its lease lapses).
    """
    CREATE INDEX submissions_claimable ON submissions (created_ms) WHERE state IN ('queued', 'running');
    """,
    // HOT updates: an update that changes no indexed column (nor one an index's predicate names)
    // and finds room on its row's page writes no index entry. Of a job's three updates, the claim
    // and the start change only `state` and the lease: `submissions_by_state` (which no statement
    // used) went, and claims find the unfinished jobs by `finished_ms IS NULL` (set exactly when a
    // job becomes done or cancelled) instead of by state. Pages are filled to 70% so that a row's
    // new versions fit beside it. Only the result's update writes the indexes now.
    // Kinds and states are enum types instead of text under CHECK constraints, which hold them to
    // the same values: a CHECK's expression is prepared again in every statement that writes the
    // table, once for each of its updates (6% of the server's CPU in the async lane).
    """
    DROP INDEX submissions_by_state;
    DROP INDEX submissions_claimable;
    ALTER TABLE submissions SET (fillfactor = 70);
    ALTER TABLE submissions DROP CONSTRAINT submissions_kind_check, DROP CONSTRAINT submissions_state_check;
    CREATE TYPE submission_kind AS ENUM ('execute', 'grade');
    CREATE TYPE submission_state AS ENUM ('queued', 'running', 'done', 'cancelled');
    ALTER TABLE submissions ALTER COLUMN kind TYPE submission_kind USING kind::submission_kind,
      ALTER COLUMN state TYPE submission_state USING state::submission_state;
    CREATE INDEX submissions_unfinished ON submissions (created_ms) WHERE finished_ms IS NULL;
    """,
    // Judge0 jobs get a kind of their own. A value added inside a transaction cannot be used until
    // it commits (PostgreSQL 12 and later; 11 refused the statement in a transaction at all), and
    // nothing in the migrations uses it: the first use is after `migrate` commits. Daemons that
    // start together take turns at the advisory lock, and the next finds the version recorded; IF
    // NOT EXISTS covers a value added by hand before.
    """
    ALTER TYPE submission_kind ADD VALUE IF NOT EXISTS 'judge0';
    """,
  ]

  /// The advisory lock key migrations hold (tests hold it to make daemons wait for it).
  static let migrationLock: Int64 = 726_172_012

  private let connectionString: String
  public let maximumResultBytes: Int
  /// The largest `maximumResultBytes`: a PostgreSQL value is at most 1 GB, and the text[] literal
  /// that carries results doubles their quotes and backslashes (`SubmissionWorkers` writes at most
  /// `maximumResultBytes` of results at once).
  public static let largestMaximumResultBytes = 256 << 20
  /// Connections at most: a submit then never waits behind the workers' claims and completes, nor
  /// behind a `GET`, as it did on one shared connection (each commit waits for the server's fsync).
  static let poolSize = 4
  private let pool = NSCondition()
  // Guarded by `pool`.
  private var idle: [Session] = []
  private var opened = 0
  private let listenLock = NSLock()
  // Guarded by `listenLock`.
  private var listener: OpaquePointer?
  /// Whether `listener` has `LISTEN` in force (guarded by `listenLock`).
  private var listening = false

  /// Connects to `connectionString` ("postgresql://user@host/db?...") and migrates the schema.
  /// `maximumResultBytes`: the largest result stored, at most `largestMaximumResultBytes`.
  public convenience init(
    connectionString: String, maximumResultBytes: Int = defaultMaximumResultBytes
  ) throws(StoreError) {
    try self.init(
      connectionString: connectionString, schemaVersion: Self.migrations.count, maximumResultBytes: maximumResultBytes)
  }

  /// Migrates only up to `schemaVersion` (tests make databases of older versions).
  init(
    connectionString: String, schemaVersion: Int, maximumResultBytes: Int = defaultMaximumResultBytes
  ) throws(StoreError) {
    guard maximumResultBytes > 0, maximumResultBytes <= Self.largestMaximumResultBytes else {
      throw StoreError(
        "connect to PostgreSQL",
        "maximumResultBytes \(maximumResultBytes) is not between 1 and \(Self.largestMaximumResultBytes)")
    }
    self.connectionString = connectionString
    self.maximumResultBytes = maximumResultBytes
    try locked { (session) throws(StoreError) in try migrate(session, upTo: schemaVersion) }
  }

  deinit {
    for session in idle { PQfinish(session.connection) }
    PQfinish(listener)
  }

  /// The schema version of the database now.
  public var schemaVersion: Int {
    (try? locked { (session) throws(StoreError) in
      Int((try session.query("SELECT max(version) FROM dsa_run_schema", []).first?[0]) ?? nil ?? "") ?? -1
    }) ?? -1
  }

  /// The rows of `sql` run on one of the store's own connections (tests: what its sessions see).
  func queryForTests(_ sql: String, _ parameters: [String?]) throws(StoreError) -> [[String?]] {
    try locked { (session) throws(StoreError) in try session.query(sql, parameters) }
  }

  private func connect() throws(StoreError) -> OpaquePointer {
    var why = [CChar](repeating: 0, count: 256)
    guard dsa_libpq_load(&why, why.count) == 0 else {
      throw StoreError(
        "load libpq", String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    guard let made = PQconnectdb(connectionString) else { throw StoreError("connect to PostgreSQL", "out of memory") }
    guard PQstatus(made) == CONNECTION_OK else {
      let message = String(cString: PQerrorMessage(made)).trimmingCharacters(in: .whitespacesAndNewlines)
      PQfinish(made)
      throw StoreError("connect to PostgreSQL", message)
    }
    // The daemon's stderr is its JSON-lines log.
    dsa_libpq_log_notices_as_json(made)
    let result = PQexec(made, Self.sessionSettings)
    defer { PQclear(result) }
    guard PQresultStatus(result) == PGRES_COMMAND_OK else {
      let message = String(cString: PQerrorMessage(made)).trimmingCharacters(in: .whitespacesAndNewlines)
      PQfinish(made)
      throw StoreError("connect to PostgreSQL", message)
    }
    return made
  }

  /// How this store's connections plan. Each statement is prepared once per connection and its
  /// plan kept for the connection's life, so the plan must not depend on the table's size when it
  /// was made: planned on a new, near-empty table, every lookup by id was a sequential scan, kept
  /// as the table grew (at 600 rows two scans of 43 pages per result written, half the write's
  /// time), until an autovacuum happened to invalidate it. Every statement here has an index made
  /// for it, so sequential scans are off (the planner still takes one where there is no index).
  /// So are bitmap scans: planned for a few rows, a claim read every entry of the unfinished index
  /// (every queued job, and the dead entries of finished ones, which only a plain index scan marks
  /// dead) and sorted them, where walking the index in order stops at the first jobs it can take.
  /// Plans are generic: with custom plans the write of results was planned again at every call
  /// (0.65 ms, more than it took to run), as each looked cheaper than the generic one.
  static let sessionSettings =
    "SET plan_cache_mode = force_generic_plan; SET enable_seqscan = off; SET enable_bitmapscan = off"

  private func migrate(_ session: Session, upTo target: Int) throws(StoreError) {
    // Read committed whatever the server's default: each statement sees what committed before it
    // began, so the version read after waiting for the lock is the one the daemon ahead committed.
    // (Under repeatable read the snapshot would be the lock's statement's, taken before the wait.)
    _ = try session.query("BEGIN ISOLATION LEVEL READ COMMITTED", [])
    do throws(StoreError) {
      // Daemons starting together take turns: the first migrates, the others find it done.
      _ = try session.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", [])
      _ = try session.query("CREATE TABLE IF NOT EXISTS dsa_run_schema (version integer NOT NULL)", [])
      let current =
        Int(try session.query("SELECT coalesce(max(version), 0) FROM dsa_run_schema", []).first?[0] ?? "0") ?? 0
      guard current <= Self.migrations.count else {
        throw StoreError(
          "migrate", "the database is at schema version \(current); this dsa-rund knows \(Self.migrations.count)")
      }
      let reached = max(current, min(target, Self.migrations.count))
      for version in current..<reached {
        _ = try session.query(Self.migrations[version], [])
        _ = try session.query("INSERT INTO dsa_run_schema (version) VALUES ($1)", [String(version + 1)])
      }
      _ = try session.query("COMMIT", [])
      if current < Self.judge0KindVersion && reached >= Self.judge0KindVersion {
        // The Judge0 jobs stored before, as `execute` jobs whose body began `{"execute":`, take
        // their kind once it committed (a value added to a type is usable only then); a daemon
        // that does it again changes nothing.
        _ = try session.query(
          "UPDATE submissions SET kind = 'judge0' WHERE kind = 'execute' AND left(body, 11) = '{\"execute\":'", [])
      }
    } catch {
      _ = try? session.query("ROLLBACK", [])
      throw error
    }
  }

  /// The schema version that brought the `judge0` kind.
  static let judge0KindVersion = 4

  // MARK: SubmissionStore

  public func insert(_ submissions: [NewSubmission], now: Int64) throws(StoreError) {
    if submissions.count == 1, let submission = submissions.first {
      // One statement, one round trip and one commit (and so one fsync on the server); the
      // notification is delivered at that commit.
      try locked { (session) throws(StoreError) in
        _ = try session.query(
          "WITH stored AS (INSERT INTO submissions (id, owner, kind, body, callback_url, state, created_ms) "
            + "VALUES ($1, $2, $3, $4, $5, 'queued', $6) RETURNING id) "
            + "SELECT pg_notify('\(Self.channel)', '') FROM stored",
          [
            submission.id, submission.owner, submission.kind.rawValue, String(decoding: submission.body, as: UTF8.self),
            submission.callbackURL, String(now),
          ])
      }
      return
    }
    try locked { (session) throws(StoreError) in
      _ = try session.query("BEGIN", [])
      do throws(StoreError) {
        for submission in submissions {
          _ = try session.query(
            "INSERT INTO submissions (id, owner, kind, body, callback_url, state, created_ms) "
              + "VALUES ($1, $2, $3, $4, $5, 'queued', $6)",
            [
              submission.id, submission.owner, submission.kind.rawValue,
              String(decoding: submission.body, as: UTF8.self),
              submission.callbackURL, String(now),
            ])
        }
        // Delivered at commit, to every daemon's listener.
        _ = try session.query("NOTIFY \(Self.channel)", [])
        _ = try session.query("COMMIT", [])
      } catch {
        _ = try? session.query("ROLLBACK", [])
        throw error
      }
    }
  }

  public func fetch(ids: [String], owner: String) throws(StoreError) -> [SubmissionRecord] {
    guard !ids.isEmpty else { return [] }
    return try locked { (session) throws(StoreError) in
      try session.query(
        "SELECT id, kind, state, created_ms, finished_ms, result, result_is_error FROM submissions "
          + "WHERE id = ANY($1::text[]) AND owner = $2", [Self.textArray(ids), owner]
      ).map { (row) throws(StoreError) in
        guard let kind = SubmissionKind(rawValue: row[1] ?? ""), let state = SubmissionState(rawValue: row[2] ?? "")
        else { throw StoreError("fetch", "a row has an unknown kind or state") }
        return SubmissionRecord(
          id: row[0] ?? "", kind: kind, state: state, createdMilliseconds: Int64(row[3] ?? "") ?? 0,
          finishedMilliseconds: row[4].flatMap { Int64($0) }, result: row[5].map { Data($0.utf8) },
          resultIsError: row[6] == "t")
      }
    }
  }

  public func cancel(id: String, owner: String, now: Int64) throws(StoreError) -> CancelOutcome {
    try locked { (session) throws(StoreError) in
      let changed = try session.query(
        "UPDATE submissions SET state = 'cancelled', finished_ms = $1, lease_owner = NULL, webhook_pending = 0 "
          + "WHERE id = $2 AND owner = $3 AND state IN ('queued', 'running') RETURNING id", [String(now), id, owner])
      if !changed.isEmpty { return .cancelled }
      let rows = try session.query("SELECT state FROM submissions WHERE id = $1 AND owner = $2", [id, owner])
      guard let text = rows.first?[0], let state = SubmissionState(rawValue: text) else { return .notFound }
      return .alreadyFinished(state)
    }
  }

  public func insertDone(_ submission: NewSubmission, result: Data, isError: Bool, now: Int64) throws(StoreError) {
    guard result.count <= maximumResultBytes else {
      throw .resultTooLarge("insert done", id: submission.id, bytes: result.count, maximum: maximumResultBytes)
    }
    try locked { (session) throws(StoreError) in
      _ = try session.query(
        "INSERT INTO submissions (id, owner, kind, body, callback_url, state, created_ms, finished_ms, attempts, "
          + "result, result_is_error, webhook_pending) VALUES ($1, $2, $3, $4, $5, 'done', $6, $6, 1, $7, $8, $9)",
        [
          submission.id, submission.owner, submission.kind.rawValue, String(decoding: submission.body, as: UTF8.self),
          submission.callbackURL, String(now), String(decoding: result, as: UTF8.self), isError ? "true" : "false",
          submission.callbackURL == nil ? "0" : "1",
        ])
    }
  }

  public func claim(worker: String, now: Int64, leaseUntil: Int64, limit: Int) throws(StoreError)
    -> [ClaimedSubmission]
  {
    guard limit > 0 else { return [] }
    return try locked { (session) throws(StoreError) in
      // The CTE is run once, its rows locked (and others' locked rows skipped) before the update.
      let rows = try session.query(
        """
        WITH \(Self.unsynced), picked AS (
          SELECT id FROM submissions
          WHERE finished_ms IS NULL AND coalesce(lease_until_ms, 0) < $3
          ORDER BY created_ms LIMIT $4
          FOR UPDATE SKIP LOCKED)
        UPDATE submissions AS s
        SET state = 'queued', lease_owner = $1, lease_until_ms = $2, attempts = s.attempts + 1
        FROM picked, unsynced WHERE s.id = picked.id
        RETURNING s.id, s.kind, s.body, s.callback_url, s.attempts, s.created_ms, s.owner
        """, [worker, String(leaseUntil), String(now), String(limit)])
      return try rows.map { (row) throws(StoreError) in
        guard let kind = SubmissionKind(rawValue: row[1] ?? "") else { throw StoreError("claim", "unknown kind") }
        return ClaimedSubmission(
          id: row[0] ?? "", owner: row[6] ?? "", kind: kind, body: Data((row[2] ?? "").utf8), callbackURL: row[3],
          attempt: Int(row[4] ?? "1") ?? 1, createdMilliseconds: Int64(row[5] ?? "") ?? 0)
      }.sorted { ($0.createdMilliseconds, $0.id) < ($1.createdMilliseconds, $1.id) }
    }
  }

  @discardableResult
  public func renew(ids: [String], worker: String, leaseUntil: Int64) throws(StoreError) -> Set<String> {
    guard !ids.isEmpty else { return [] }
    return try locked { (session) throws(StoreError) in
      Set(
        try session.query(
          "UPDATE submissions SET lease_until_ms = $1 WHERE id = ANY($2::text[]) AND lease_owner = $3 "
            + "AND \(Self.unfinished) RETURNING id",
          [String(leaseUntil), Self.textArray(ids), worker]
        ).compactMap { $0[0] })
    }
  }

  public func record(
    started: [String], finished: [FinishedRun], worker: String, now: Int64, claim: ClaimRequest?
  ) throws(StoreError) -> RecordOutcome {
    if let large = finished.first(where: { $0.result.count > maximumResultBytes }) {
      throw .resultTooLarge("record", id: large.id, bytes: large.result.count, maximum: maximumResultBytes)
    }
    if let claim, claim.limit > 0 {
      guard !started.isEmpty || !finished.isEmpty else {
        return RecordOutcome(
          recorded: [],
          claimed: try self.claim(worker: worker, now: now, leaseUntil: claim.leaseUntil, limit: claim.limit))
      }
      return try recordAndClaim(started: started, finished: finished, worker: worker, now: now, claim: claim)
    }
    if finished.isEmpty {
      guard !started.isEmpty else { return RecordOutcome(recorded: [], claimed: []) }
      // Only the starts: a start lost in a database crash shows the job queued a little longer.
      try locked { (session) throws(StoreError) in
        _ = try session.query(
          "WITH \(Self.unsynced) UPDATE submissions SET state = 'running' FROM unsynced "
            + "WHERE id = ANY($1::text[]) AND lease_owner = $2 AND \(Self.queuedOnly)",
          [Self.textArray(started), worker])
      }
      return RecordOutcome(recorded: [], claimed: [])
    }
    // One statement, one round trip, one commit waiting for the disk, for every result gathered
    // while the last commit waited (the ids of the two updates are disjoint, as they must be).
    let recorded = try locked { (session) throws(StoreError) in
      Set(
        try session.query(
          "WITH started AS (" + Self.startStatement + " RETURNING id) "
            + "UPDATE submissions AS s SET state = 'done', result = v.result, result_is_error = v.is_error, "
            + "finished_ms = $3, lease_owner = NULL, "
            + "webhook_pending = CASE WHEN s.callback_url IS NULL THEN 0 ELSE 1 END "
            + "FROM unnest($4::text[], $5::text[], $6::boolean[]) AS v(id, result, is_error) "
            + "WHERE s.id = v.id AND s.\(Self.unfinished) RETURNING s.id",
          [
            Self.textArray(started), worker, String(now), Self.textArray(finished.map(\.id)),
            Self.textArray(finished.map { String(decoding: $0.result, as: UTF8.self) }),
            "{" + finished.map { $0.isError ? "t" : "f" }.joined(separator: ",") + "}",
          ]
        ).compactMap { $0[0] })
    }
    return RecordOutcome(recorded: recorded, claimed: [])
  }

  /// Starts, results and a claim in one statement (one round trip, one commit): the slots the
  /// results leave are filled in the same write. The claim skips the ids being started or finished
  /// (a row may change once per statement). With no result, the commit does not wait for the disk,
  /// as a claim's alone does not.
  private func recordAndClaim(
    started: [String], finished: [FinishedRun], worker: String, now: Int64, claim: ClaimRequest
  ) throws(StoreError) -> RecordOutcome {
    let sql =
      "WITH " + (finished.isEmpty ? Self.unsynced + ", " : "")
      + "started AS (" + Self.startStatement + " RETURNING id), "
      + "finished AS (UPDATE submissions AS s SET state = 'done', result = v.result, result_is_error = v.is_error, "
      + "finished_ms = $3, lease_owner = NULL, "
      + "webhook_pending = CASE WHEN s.callback_url IS NULL THEN 0 ELSE 1 END "
      + "FROM unnest($4::text[], $5::text[], $6::boolean[]) AS v(id, result, is_error) "
      + "WHERE s.id = v.id AND s.\(Self.unfinished) RETURNING s.id), "
      + "picked AS (SELECT id FROM submissions WHERE finished_ms IS NULL "
      + "AND coalesce(lease_until_ms, 0) < $3 AND id <> ALL($1::text[]) AND id <> ALL($4::text[]) "
      + "ORDER BY created_ms LIMIT $8 FOR UPDATE SKIP LOCKED), "
      + "claimed AS (UPDATE submissions AS c SET state = 'queued', lease_owner = $2, lease_until_ms = $7, "
      + "attempts = c.attempts + 1 FROM picked" + (finished.isEmpty ? ", unsynced" : "") + " WHERE c.id = picked.id "
      + "RETURNING c.id, c.kind, c.body, c.callback_url, c.attempts, c.created_ms, c.owner) "
      + "SELECT 'recorded', id, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text FROM finished "
      + "UNION ALL SELECT 'claimed', id, kind::text, body, callback_url, attempts::text, created_ms::text, owner "
      + "FROM claimed"
    let rows = try locked { (session) throws(StoreError) in
      try session.query(
        sql,
        [
          Self.textArray(started), worker, String(now), Self.textArray(finished.map(\.id)),
          Self.textArray(finished.map { String(decoding: $0.result, as: UTF8.self) }),
          "{" + finished.map { $0.isError ? "t" : "f" }.joined(separator: ",") + "}", String(claim.leaseUntil),
          String(claim.limit),
        ])
    }
    var recorded = Set<String>()
    var claimed: [ClaimedSubmission] = []
    for row in rows {
      guard let id = row[1] else { continue }
      if row[0] == "recorded" {
        recorded.insert(id)
        continue
      }
      guard let kind = SubmissionKind(rawValue: row[2] ?? "") else { throw StoreError("claim", "unknown kind") }
      claimed.append(
        ClaimedSubmission(
          id: id, owner: row[7] ?? "", kind: kind, body: Data((row[3] ?? "").utf8), callbackURL: row[4],
          attempt: Int(row[5] ?? "1") ?? 1, createdMilliseconds: Int64(row[6] ?? "") ?? 0))
    }
    return RecordOutcome(
      recorded: recorded,
      claimed: claimed.sorted { ($0.createdMilliseconds, $0.id) < ($1.createdMilliseconds, $1.id) })
  }

  /// A CTE that makes its statement's commit not wait for the server's fsync (`synchronous_commit`
  /// off for that one transaction), in the statement itself: one round trip, not four (BEGIN, SET
  /// LOCAL, the statement, COMMIT). Only for claims and starts: a claim lost in a database crash
  /// leaves the job queued (or its lease lapsed), and it is claimed and run again, as the lease
  /// design allows anyway; a start lost shows the job queued a little longer. Submits and results
  /// keep waiting for the disk. Join `unsynced` in the statement's FROM so the CTE is evaluated.
  static let unsynced = "unsynced AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true))"

  /// Unfinished (queued or running), for statements that name their rows by id: said by state, not
  /// as the unfinished index's `finished_ms IS NULL`, so that the planner cannot use that index for
  /// them. With the predicate of that index (schema 2 had `state IN ('queued', 'running')`) a
  /// generic plan walked it, every queued job, at each write (0.9 ms per record with 200 queued,
  /// growing with the queue) instead of looking the ids up by primary key.
  static let unfinished = "state NOT IN ('done', 'cancelled')"
  /// Queued, for the same statements, for the same reason.
  static let queuedOnly = "state NOT IN ('running', 'done', 'cancelled')"

  /// The jobs of $1 that $2 holds become running.
  private static let startStatement =
    "UPDATE submissions SET state = 'running' WHERE id = ANY($1::text[]) AND lease_owner = $2 AND \(PostgresStore.queuedOnly)"

  public func release(ids: [String], worker: String) throws(StoreError) {
    guard !ids.isEmpty else { return }
    try locked { (session) throws(StoreError) in
      // The claims never ran: they do not count as attempts. Other daemons hear of the jobs at once.
      _ = try session.query(
        "WITH released AS (UPDATE submissions SET state = 'queued', lease_owner = NULL, lease_until_ms = NULL, "
          + "attempts = greatest(0, attempts - 1) WHERE id = ANY($1::text[]) AND lease_owner = $2 "
          + "AND \(Self.unfinished) RETURNING id) "
          + "SELECT pg_notify('\(Self.channel)', '') WHERE EXISTS (SELECT 1 FROM released)",
        [Self.textArray(ids), worker])
    }
  }

  /// A text[] literal of `items`: each quoted, its backslashes and quotes escaped.
  static func textArray(_ items: [String]) -> String {
    // Byte by byte: results go through here whole (JSON, full of quotes), and Foundation's
    // replacingOccurrences cost more than the rest of a record.
    var bytes: [UInt8] = [UInt8(ascii: "{")]
    bytes.reserveCapacity(items.reduce(2) { $0 + $1.utf8.count + 3 })
    for (index, item) in items.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(UInt8(ascii: "\""))
      for byte in item.utf8 {
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
        bytes.append(byte)
      }
      bytes.append(UInt8(ascii: "\""))
    }
    bytes.append(UInt8(ascii: "}"))
    return String(decoding: bytes, as: UTF8.self)
  }

  public func pendingWebhooks(limit: Int, after: WebhookPosition) throws(StoreError) -> [PendingWebhook] {
    try locked { (session) throws(StoreError) in
      try session.query(
        "SELECT id, callback_url, result, result_is_error, kind, finished_ms FROM submissions "
          + "WHERE webhook_pending = 1 AND (finished_ms > $1 OR (finished_ms = $1 AND id > $2)) "
          + "ORDER BY finished_ms, id LIMIT $3", [String(after.finishedMilliseconds), after.id, String(limit)]
      ).compactMap { row in
        guard let id = row[0], let url = row[1], let kind = SubmissionKind(rawValue: row[4] ?? ""),
          let finished = row[5].flatMap({ Int64($0) })
        else { return nil }
        return PendingWebhook(
          id: id, callbackURL: url, result: Data((row[2] ?? "").utf8), resultIsError: row[3] == "t", kind: kind,
          finishedMilliseconds: finished)
      }
    }
  }

  public func finishWebhook(id: String, delivered: Bool) throws(StoreError) {
    try locked { (session) throws(StoreError) in
      _ = try session.query("UPDATE submissions SET webhook_pending = $1 WHERE id = $2", [delivered ? "2" : "3", id])
    }
  }

  public func purge(finishedBefore: Int64) throws(StoreError) -> Int {
    try locked { (session) throws(StoreError) in
      try session.query(
        "DELETE FROM submissions WHERE state IN ('done', 'cancelled') AND finished_ms < $1 AND webhook_pending <> 1 "
          + "RETURNING id", [String(finishedBefore)]
      ).count
    }
  }

  public func statistics(now: Int64) throws(StoreError) -> SubmissionStatistics {
    try locked { (session) throws(StoreError) in
      let row =
        try session.query(
          "SELECT count(*) FILTER (WHERE state = 'queued'), count(*) FILTER (WHERE state = 'running'), "
            + "min(created_ms) FILTER (WHERE state = 'queued') FROM submissions WHERE finished_ms IS NULL",
          []
        ).first ?? []
      let oldest = row.count > 2 ? row[2].flatMap { Int64($0) } : nil
      return SubmissionStatistics(
        queued: Int(row.first.flatMap { $0 } ?? "0") ?? 0, running: Int(row.count > 1 ? row[1] ?? "0" : "0") ?? 0,
        oldestQueuedSeconds: oldest.map { max(0, Double(now - $0) / 1000) } ?? 0)
    }
  }

  public func waitForOtherProcesses(timeoutMilliseconds: Int) throws(StoreError) {
    listenLock.lock()
    defer { listenLock.unlock() }
    if listener == nil || PQstatus(listener) != CONNECTION_OK {
      PQfinish(listener)
      listener = nil
      listening = false
      listener = try connect()
    }
    if !listening {
      try listenerCommand("LISTEN \(Self.channel)", "listen")
      listening = true
      return
    }
    var poller = pollfd(fd: PQsocket(listener), events: Int16(POLLIN), revents: 0)
    _ = poll(&poller, 1, Int32(timeoutMilliseconds))
    guard PQconsumeInput(listener) == 1 else {
      let message = String(cString: PQerrorMessage(listener))
      PQfinish(listener)
      listener = nil
      listening = false
      throw StoreError("listen", message)
    }
    while let notification = PQnotifies(listener) { PQfreemem(notification) }
  }

  public func stopWaitingForOtherProcesses() throws(StoreError) {
    listenLock.lock()
    defer { listenLock.unlock() }
    guard listening, listener != nil, PQstatus(listener) == CONNECTION_OK else { return }
    try listenerCommand("UNLISTEN \(Self.channel)", "unlisten")
    listening = false
    // What was announced before it took effect is of no use now.
    _ = PQconsumeInput(listener)
    while let notification = PQnotifies(listener) { PQfreemem(notification) }
  }

  /// Runs `command` on the listener connection (inside `listenLock`); a failure drops the connection,
  /// and the next wait makes a new one.
  private func listenerCommand(_ command: String, _ operation: String) throws(StoreError) {
    let result = PQexec(listener, command)
    defer { PQclear(result) }
    guard PQresultStatus(result) == PGRES_COMMAND_OK else {
      let message = String(cString: PQerrorMessage(listener)).trimmingCharacters(in: .whitespacesAndNewlines)
      PQfinish(listener)
      listener = nil
      listening = false
      throw StoreError(operation, message)
    }
  }

  // MARK: libpq plumbing

  /// Runs `body` on a connection of the pool that no other call uses meanwhile.
  private func locked<T>(_ body: (Session) throws(StoreError) -> T) throws(StoreError) -> T {
    let session = take()
    defer { giveBack(session) }
    if session.connection == nil || PQstatus(session.connection) != CONNECTION_OK {
      // The server restarted or the network dropped: a fresh connection per call until it is back.
      PQfinish(session.connection)
      session.connection = nil
      session.prepared = [:]
      session.connection = try connect()
    }
    return try body(session)
  }

  private func take() -> Session {
    pool.lock()
    defer { pool.unlock() }
    while idle.isEmpty && opened >= Self.poolSize { pool.wait() }
    if let session = idle.popLast() { return session }
    opened += 1
    return Session()
  }

  private func giveBack(_ session: Session) {
    pool.lock()
    idle.append(session)
    pool.signal()
    pool.unlock()
  }
}

/// One connection of the pool; used by one call at a time.
private final class Session {
  var connection: OpaquePointer?
  /// The statements prepared on this connection, by their text: each is parsed and planned once per
  /// connection instead of at every call (the claim, with its CTEs, cost more to plan than to run).
  var prepared: [String: String] = [:]

  /// The name of `sql` prepared on this connection, preparing it the first time.
  private func statement(_ sql: String, parameterCount: Int) throws(StoreError) -> String {
    if let name = prepared[sql] { return name }
    let name = "dsa_run_\(prepared.count)"
    let result = PQprepare(connection, name, sql, Int32(parameterCount), nil)
    defer { PQclear(result) }
    guard PQresultStatus(result) == PGRES_COMMAND_OK else {
      throw failure(sql, result)
    }
    prepared[sql] = name
    return name
  }

  private func failure(_ sql: String, _ result: OpaquePointer?) -> StoreError {
    let message =
      result.map { String(cString: PQresultErrorMessage($0)) } ?? String(cString: PQerrorMessage(connection))
    return StoreError(
      sql.split(separator: " ").first.map(String.init)?.lowercased() ?? "query",
      message.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Runs `sql` with text parameters; rows of text values (nil for NULL).
  func query(_ sql: String, _ parameters: [String?]) throws(StoreError) -> [[String?]] {
    let copies = parameters.map { $0.map { strdup($0) } ?? nil }
    defer { for copy in copies { free(copy) } }
    let values = copies.map { UnsafePointer<CChar>($0) }
    // Without parameters, the simple protocol: a migration is several statements in one text.
    let result: OpaquePointer?
    if parameters.isEmpty {
      result = PQexec(connection, sql)
    } else {
      let name = try statement(sql, parameterCount: parameters.count)
      result = values.withUnsafeBufferPointer { buffer in
        PQexecPrepared(connection, name, Int32(parameters.count), buffer.baseAddress, nil, nil, 0)
      }
    }
    defer { PQclear(result) }
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(sql, result) }
    var rows: [[String?]] = []
    for row in 0..<PQntuples(result) {
      rows.append(
        (0..<PQnfields(result)).map { column in
          PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
        })
    }
    return rows
  }
}
