internal import CSQLite
import Foundation
import Glibc

/// The default store: one SQLite file (Debian libsqlite3-dev) in write-ahead-log mode, for one daemon.
///
/// WAL lets `GET`s read while a worker writes, and with `synchronous=NORMAL` a commit survives the
/// daemon being killed (the log is in the file system the moment `COMMIT` returns); only a power cut
/// may lose the last commits before a checkpoint. One connection behind a lock: every statement is
/// short, and SQLite serialises writers anyway.
///
/// Checkpoints (copying the log into the file, with an fsync of each) are not run by whichever
/// commit happens to fill the log, as SQLite does by default: that commit, often a submit, would
/// wait for two fsyncs, tens of milliseconds on a busy disk. `WALCheckpointer` runs them on its own
/// connection and thread instead (PASSIVE: never blocking a writer).
public final class SQLiteStore: SubmissionStore, @unchecked Sendable {
  public var kindName: String { "sqlite" }
  public var wakesAcrossProcesses: Bool { false }
  /// The database file.
  public let path: String
  public let maximumResultBytes: Int
  private let lock = NSLock()
  // Guarded by `lock`.
  private var database: OpaquePointer?
  private var statements: [String: OpaquePointer] = [:]
  private var checkpointer: WALCheckpointer?

  /// Schema migrations, in order; `PRAGMA user_version` counts those applied. Never edit one that
  /// shipped: add the next.
  static let migrations: [String] = [
    """
    CREATE TABLE submissions (
      id TEXT PRIMARY KEY NOT NULL,
      owner TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('execute', 'grade')),
      body BLOB NOT NULL,
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
    """,
    // A body is written once and read by claims: kept apart, the row that each claim, start and
    // result rewrites stays small (SQLite writes a whole row, overflow pages and all, on every
    // update: a 300 KB source was written to the log at every step of its job). Claims look among
    // the unfinished jobs, oldest first, whatever their state (a claimed job stays queued until it
    // starts; a running one is taken over when its lease lapses).
    """
    CREATE TABLE submission_bodies (id TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL) WITHOUT ROWID;
    INSERT INTO submission_bodies (id, body) SELECT id, body FROM submissions;
    ALTER TABLE submissions DROP COLUMN body;
    CREATE INDEX submissions_claimable ON submissions (created_ms) WHERE state IN ('queued', 'running');
    """,
    // Judge0 jobs get a kind of their own. SQLite cannot change a CHECK constraint, so the table is
    // made again (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema
    // Changes"): a new table, every row copied, the old one dropped, the new one renamed, its
    // indexes made again; in the migration's transaction, so a crash leaves the old table whole.
    // No foreign key, trigger or view names the table (`migrate` checks the keys all the same).
    // The copy rewrites every stored result once, at the first start of this version; the Judge0
    // jobs stored before, as `execute` jobs whose body began `{"execute":`, take their kind in it.
    """
    CREATE TABLE submissions_new (
      id TEXT PRIMARY KEY NOT NULL,
      owner TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('execute', 'grade', 'judge0')),
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
    INSERT INTO submissions_new (id, owner, kind, callback_url, state, created_ms, finished_ms, lease_owner,
      lease_until_ms, attempts, result, result_is_error, webhook_pending)
    SELECT s.id, s.owner,
      CASE WHEN s.kind = 'execute' AND CAST(substr(b.body, 1, 11) AS TEXT) = '{"execute":' THEN 'judge0' ELSE s.kind END,
      s.callback_url, s.state, s.created_ms, s.finished_ms, s.lease_owner, s.lease_until_ms, s.attempts, s.result,
      s.result_is_error, s.webhook_pending
    FROM submissions s LEFT JOIN submission_bodies b ON b.id = s.id;
    DROP TABLE submissions;
    ALTER TABLE submissions_new RENAME TO submissions;
    CREATE INDEX submissions_by_state ON submissions (state, created_ms);
    CREATE INDEX submissions_by_finish ON submissions (finished_ms) WHERE finished_ms IS NOT NULL;
    CREATE INDEX submissions_webhooks ON submissions (finished_ms) WHERE webhook_pending = 1;
    CREATE INDEX submissions_claimable ON submissions (created_ms) WHERE state IN ('queued', 'running');
    """,
  ]

  /// Opens (creating when missing) the database at `path` and brings its schema up to date.
  /// `maximumResultBytes`: the largest result stored, at most SQLite's length limit (1,000,000,000
  /// unless SQLite was built otherwise).
  public convenience init(path: String, maximumResultBytes: Int = defaultMaximumResultBytes) throws(StoreError) {
    try self.init(path: path, schemaVersion: Self.migrations.count, maximumResultBytes: maximumResultBytes)
  }

  /// Opens the file migrated only up to `schemaVersion` (tests make files of older versions).
  init(path: String, schemaVersion: Int, maximumResultBytes: Int = defaultMaximumResultBytes) throws(StoreError) {
    self.path = path
    self.maximumResultBytes = maximumResultBytes
    try Self.checkFiles(path)
    let created = PrivateFiles.createIfMissing(path)
    if created != 0 { throw StoreError("create \(path)", String(cString: strerror(created))) }
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let status = sqlite3_open_v2(path, &handle, flags, nil)
    guard status == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_close(handle)
      throw StoreError("open \(path)", message)
    }
    // A larger value is refused by SQLite (or, past 2 GiB, could not even be bound): said at the
    // start, not at the first large result.
    let lengthLimit = Int(sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, -1))
    guard maximumResultBytes > 0, maximumResultBytes <= lengthLimit else {
      sqlite3_close(handle)
      throw StoreError(
        "open \(path)",
        "maximumResultBytes \(maximumResultBytes) is not between 1 and SQLite's length limit, \(lengthLimit)")
    }
    database = handle
    // Another process on the same file (a daemon restarting while the old one finishes) waits for
    // the lock rather than failing at once.
    sqlite3_busy_timeout(handle, 5000)
    do {
      try execute("PRAGMA journal_mode=WAL", operation: "enable WAL")
      try execute("PRAGMA synchronous=NORMAL", operation: "set synchronous")
      try execute("PRAGMA wal_autocheckpoint=0", operation: "leave checkpoints to the checkpointer")
      try migrate(upTo: schemaVersion)
      // SQLite made the log and shared-memory files now, with the database file's mode.
      try Self.checkFiles(path)
    } catch {
      sqlite3_close(handle)
      database = nil
      throw error
    }
    checkpointer = try WALCheckpointer(path: path)
  }

  /// The database file and the companions SQLite keeps beside it (the write-ahead log, its
  /// shared-memory index, and a rollback journal while the mode is switched to WAL).
  public static func files(of path: String) -> [String] {
    [path, path + "-wal", path + "-shm", path + "-journal"]
  }

  /// Refuses the store when any of its files exists and someone else could read or write it. SQLite
  /// gives a new log, index or journal the database file's mode (its `robust_open` sets it on the
  /// descriptor, whatever the umask), so a database made 0600 here keeps all of them 0600.
  static func checkFiles(_ path: String) throws(StoreError) {
    let problems = files(of: path).compactMap { PrivateFiles.problem(at: $0) }
    if !problems.isEmpty { throw StoreError("check \(path)", problems.joined(separator: "; ")) }
  }

  deinit {
    checkpointer?.stop()
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close(database)
  }

  /// The schema version the file is at now.
  public var schemaVersion: Int {
    lock.withLock { (try? scalarInteger("PRAGMA user_version")).map(Int.init) ?? -1 }
  }

  /// Runs `sql` as is (tests set up states no daemon would make).
  func executeForTests(_ sql: String) throws(StoreError) {
    try locked { () throws(StoreError) in try execute(sql, operation: "test") }
  }

  /// The rows of `sql` as SQL literals (tests compare a file before and after a migration).
  func rowsForTests(_ sql: String) throws(StoreError) -> [[String]] {
    try locked { () throws(StoreError) in
      try query(sql, [], operation: "test").map { row in
        row.map { value in
          switch value {
          case .null: "NULL"
          case .integer(let number): String(number)
          case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
          case .blob(let bytes): "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
          }
        }
      }
    }
  }

  private func migrate(upTo target: Int) throws(StoreError) {
    let current = Int(try scalarInteger("PRAGMA user_version"))
    guard current <= Self.migrations.count else {
      throw StoreError(
        "migrate \(path)", "the file is at schema version \(current); this dsa-rund knows \(Self.migrations.count)")
    }
    guard current < target else { return }
    // A table made again must not set off foreign key actions when the old one is dropped, and the
    // pragma does nothing inside a transaction: so off around them, as the rebuild procedure says.
    let foreignKeys = try scalarInteger("PRAGMA foreign_keys") != 0
    if foreignKeys { try execute("PRAGMA foreign_keys = OFF", operation: "migrate") }
    defer { if foreignKeys { try? execute("PRAGMA foreign_keys = ON", operation: "migrate") } }
    for version in current..<target {
      try inTransaction("migrate") { () throws(StoreError) in
        try execute(Self.migrations[version], operation: "migrate to version \(version + 1)")
        if try !query("PRAGMA foreign_key_check", [], operation: "migrate").isEmpty {
          throw StoreError("migrate to version \(version + 1)", "foreign keys broken by the migration (\(path))")
        }
        try execute("PRAGMA user_version = \(version + 1)", operation: "migrate")
      }
    }
  }

  // MARK: SubmissionStore

  public func insert(_ submissions: [NewSubmission], now: Int64) throws(StoreError) {
    try locked { () throws(StoreError) in
      try inTransaction("insert") { () throws(StoreError) in
        for submission in submissions {
          try run(
            "INSERT INTO submissions (id, owner, kind, callback_url, state, created_ms, webhook_pending) "
              + "VALUES (?, ?, ?, ?, 'queued', ?, 0)",
            [
              .text(submission.id), .text(submission.owner), .text(submission.kind.rawValue),
              submission.callbackURL.map { .text($0) } ?? .null, .integer(now),
            ], operation: "insert")
          try insertBody(of: submission)
        }
      }
    }
  }

  public func fetch(ids: [String], owner: String) throws(StoreError) -> [SubmissionRecord] {
    guard !ids.isEmpty else { return [] }
    // One statement for the lot, the ids bound as one JSON array.
    let list = Self.jsonArray(ids)
    return try locked { () throws(StoreError) in
      try query(
        "SELECT id, kind, state, created_ms, finished_ms, result, result_is_error FROM submissions "
          + "WHERE id IN (SELECT value FROM json_each(?)) AND owner = ?", [.text(list), .text(owner)],
        operation: "fetch"
      ).map { (row) throws(StoreError) in
        guard let kind = SubmissionKind(rawValue: row[1].text ?? ""),
          let state = SubmissionState(rawValue: row[2].text ?? "")
        else { throw StoreError("fetch", "row \(row[0].text ?? "?") has an unknown kind or state") }
        return SubmissionRecord(
          id: row[0].text ?? "", kind: kind, state: state, createdMilliseconds: row[3].integer ?? 0,
          finishedMilliseconds: row[4].integer, result: row[5].blob, resultIsError: row[6].integer == 1)
      }
    }
  }

  public func cancel(id: String, owner: String, now: Int64) throws(StoreError) -> CancelOutcome {
    try locked { () throws(StoreError) in
      try run(
        "UPDATE submissions SET state = 'cancelled', finished_ms = ?, lease_owner = NULL, webhook_pending = 0 "
          + "WHERE id = ? AND owner = ? AND state IN ('queued', 'running')",
        [.integer(now), .text(id), .text(owner)], operation: "cancel")
      if sqlite3_changes(database) == 1 { return .cancelled }
      let rows = try query(
        "SELECT state FROM submissions WHERE id = ? AND owner = ?", [.text(id), .text(owner)], operation: "cancel")
      guard let text = rows.first?[0].text, let state = SubmissionState(rawValue: text) else { return .notFound }
      return .alreadyFinished(state)
    }
  }

  public func insertDone(_ submission: NewSubmission, result: Data, isError: Bool, now: Int64) throws(StoreError) {
    guard result.count <= maximumResultBytes else {
      throw .resultTooLarge("insert done", id: submission.id, bytes: result.count, maximum: maximumResultBytes)
    }
    try locked { () throws(StoreError) in
      try inTransaction("insert done") { () throws(StoreError) in
        try run(
          "INSERT INTO submissions (id, owner, kind, callback_url, state, created_ms, finished_ms, attempts, "
            + "result, result_is_error, webhook_pending) VALUES (?, ?, ?, ?, 'done', ?, ?, 1, ?, ?, ?)",
          [
            .text(submission.id), .text(submission.owner), .text(submission.kind.rawValue),
            submission.callbackURL.map { .text($0) } ?? .null, .integer(now), .integer(now), .blob(result),
            .integer(isError ? 1 : 0), .integer(submission.callbackURL == nil ? 0 : 1),
          ], operation: "insert done")
        try insertBody(of: submission)
      }
    }
  }

  private func insertBody(of submission: NewSubmission) throws(StoreError) {
    try run(
      "INSERT INTO submission_bodies (id, body) VALUES (?, ?)", [.text(submission.id), .blob(submission.body)],
      operation: "insert")
  }

  public func claim(worker: String, now: Int64, leaseUntil: Int64, limit: Int) throws(StoreError)
    -> [ClaimedSubmission]
  {
    guard limit > 0 else { return [] }
    return try locked { () throws(StoreError) in
      try claimRows(worker: worker, now: now, leaseUntil: leaseUntil, limit: limit)
    }
  }

  /// `claim`, for a caller holding `lock`.
  private func claimRows(worker: String, now: Int64, leaseUntil: Int64, limit: Int) throws(StoreError)
    -> [ClaimedSubmission]
  {
    // One statement, so two workers never take the same job; an expired lease is a dead daemon's,
    // and its job waits again (queued) until it starts here.
    let rows = try query(
      """
      UPDATE submissions SET state = 'queued', lease_owner = ?, lease_until_ms = ?, attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM submissions
        WHERE state IN ('queued', 'running') AND coalesce(lease_until_ms, 0) < ?
        ORDER BY created_ms LIMIT ?)
      RETURNING id, kind, callback_url, attempts, created_ms, owner
      """, [.text(worker), .integer(leaseUntil), .integer(now), .integer(Int64(limit))], operation: "claim")
    guard !rows.isEmpty else { return [] }
    var bodies: [String: Data] = [:]
    for row in try query(
      "SELECT id, body FROM submission_bodies WHERE id IN (SELECT value FROM json_each(?))",
      [.text(Self.jsonArray(rows.map { $0[0].text ?? "" }))], operation: "claim")
    {
      bodies[row[0].text ?? ""] = row[1].blob
    }
    return try rows.map { (row) throws(StoreError) in
      let id = row[0].text ?? ""
      guard let kind = SubmissionKind(rawValue: row[1].text ?? ""), let body = bodies[id] else {
        throw StoreError("claim", "row \(id) has an unknown kind or no body")
      }
      return ClaimedSubmission(
        id: id, owner: row[5].text ?? "", kind: kind, body: body, callbackURL: row[2].text,
        attempt: Int(row[3].integer ?? 1), createdMilliseconds: row[4].integer ?? 0)
    }.sorted { ($0.createdMilliseconds, $0.id) < ($1.createdMilliseconds, $1.id) }
  }

  @discardableResult
  public func renew(ids: [String], worker: String, leaseUntil: Int64) throws(StoreError) -> Set<String> {
    try locked { () throws(StoreError) in
      var held = Set<String>()
      for id in ids {
        try run(
          "UPDATE submissions SET lease_until_ms = ? WHERE id = ? AND lease_owner = ? "
            + "AND state IN ('queued', 'running')",
          [.integer(leaseUntil), .text(id), .text(worker)], operation: "renew")
        if sqlite3_changes(database) == 1 { held.insert(id) }
      }
      return held
    }
  }

  public func record(
    started: [String], finished: [FinishedRun], worker: String, now: Int64, claim: ClaimRequest?
  ) throws(StoreError) -> RecordOutcome {
    if let large = finished.first(where: { $0.result.count > maximumResultBytes }) {
      throw .resultTooLarge("record", id: large.id, bytes: large.result.count, maximum: maximumResultBytes)
    }
    let claimLimit = claim?.limit ?? 0
    guard !started.isEmpty || !finished.isEmpty || claimLimit > 0 else {
      return RecordOutcome(recorded: [], claimed: [])
    }
    return try locked { () throws(StoreError) in
      return try inTransaction("record") { () throws(StoreError) in
        for id in started {
          try run(
            "UPDATE submissions SET state = 'running' WHERE id = ? AND lease_owner = ? AND state = 'queued'",
            [.text(id), .text(worker)], operation: "record start")
        }
        var recorded = Set<String>()
        for outcome in finished {
          try run(
            "UPDATE submissions SET state = 'done', result = ?, result_is_error = ?, finished_ms = ?, "
              + "lease_owner = NULL, webhook_pending = (callback_url IS NOT NULL) "
              + "WHERE id = ? AND state IN ('queued', 'running')",
            [.blob(outcome.result), .integer(outcome.isError ? 1 : 0), .integer(now), .text(outcome.id)],
            operation: "complete")
          if sqlite3_changes(database) == 1 { recorded.insert(outcome.id) }
        }
        // After the results: a job just finished is no longer claimable, one just started is leased.
        let claimed =
          if let claim, claimLimit > 0 {
            try claimRows(worker: worker, now: now, leaseUntil: claim.leaseUntil, limit: claimLimit)
          } else { [ClaimedSubmission]() }
        return RecordOutcome(recorded: recorded, claimed: claimed)
      }
    }
  }

  public func release(ids: [String], worker: String) throws(StoreError) {
    guard !ids.isEmpty else { return }
    try locked { () throws(StoreError) in
      try inTransaction("release") { () throws(StoreError) in
        for id in ids {
          // The claim never ran: it does not count as an attempt.
          try run(
            "UPDATE submissions SET state = 'queued', lease_owner = NULL, lease_until_ms = NULL, "
              + "attempts = max(0, attempts - 1) WHERE id = ? AND lease_owner = ? AND state IN ('queued', 'running')",
            [.text(id), .text(worker)], operation: "release")
        }
      }
    }
  }

  public func pendingWebhooks(limit: Int, after: WebhookPosition) throws(StoreError) -> [PendingWebhook] {
    try locked { () throws(StoreError) in
      try query(
        "SELECT id, callback_url, result, result_is_error, kind, finished_ms FROM submissions "
          + "WHERE webhook_pending = 1 AND (finished_ms > ? OR (finished_ms = ? AND id > ?)) "
          + "ORDER BY finished_ms, id LIMIT ?",
        [
          .integer(after.finishedMilliseconds), .integer(after.finishedMilliseconds), .text(after.id),
          .integer(Int64(limit)),
        ], operation: "pending webhooks"
      ).compactMap { row in
        guard let id = row[0].text, let url = row[1].text, let kind = SubmissionKind(rawValue: row[4].text ?? ""),
          let finished = row[5].integer
        else { return nil }
        return PendingWebhook(
          id: id, callbackURL: url, result: row[2].blob ?? Data(), resultIsError: row[3].integer == 1, kind: kind,
          finishedMilliseconds: finished)
      }
    }
  }

  public func finishWebhook(id: String, delivered: Bool) throws(StoreError) {
    try locked { () throws(StoreError) in
      try run(
        "UPDATE submissions SET webhook_pending = ? WHERE id = ?", [.integer(delivered ? 2 : 3), .text(id)],
        operation: "finish webhook")
    }
  }

  public func purge(finishedBefore: Int64) throws(StoreError) -> Int {
    try locked { () throws(StoreError) in
      // A webhook still being sent keeps its row until it is delivered or given up on.
      let purgeable = "state IN ('done', 'cancelled') AND finished_ms < ? AND webhook_pending <> 1"
      return try inTransaction("purge") { () throws(StoreError) in
        try run(
          "DELETE FROM submission_bodies WHERE id IN (SELECT id FROM submissions WHERE \(purgeable))",
          [.integer(finishedBefore)], operation: "purge")
        try run("DELETE FROM submissions WHERE \(purgeable)", [.integer(finishedBefore)], operation: "purge")
        let count = Int(sqlite3_changes(database))
        return count
      }
    }
  }

  public func statistics(now: Int64) throws(StoreError) -> SubmissionStatistics {
    try locked { () throws(StoreError) in
      let rows = try query(
        "SELECT (SELECT count(*) FROM submissions WHERE state = 'queued'), "
          + "(SELECT count(*) FROM submissions WHERE state = 'running'), "
          + "(SELECT min(created_ms) FROM submissions WHERE state = 'queued')", [], operation: "statistics")
      let row = rows.first ?? []
      let oldest = row.count > 2 ? row[2].integer : nil
      return SubmissionStatistics(
        queued: Int(row.first?.integer ?? 0), running: Int(row.count > 1 ? row[1].integer ?? 0 : 0),
        oldestQueuedSeconds: oldest.map { max(0, Double(now - $0) / 1000) } ?? 0)
    }
  }

  public func waitForOtherProcesses(timeoutMilliseconds: Int) throws(StoreError) {
    // One daemon per file: nobody else queues work here, so there is nothing to hear.
    usleep(UInt32(max(0, min(timeoutMilliseconds, 60_000))) * 1000)
  }

  public func stopWaitingForOtherProcesses() {}

  /// `items` as a JSON array of strings, for `json_each` (written here: it runs at every poll).
  static func jsonArray(_ items: [String]) -> String {
    var text = "["
    for (index, item) in items.enumerated() {
      if index > 0 { text += "," }
      text += "\""
      for scalar in item.unicodeScalars {
        switch scalar {
        case "\"": text += "\\\""
        case "\\": text += "\\\\"
        case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
        default: text.unicodeScalars.append(scalar)
        }
      }
      text += "\""
    }
    return text + "]"
  }

  // MARK: SQLite plumbing (callers hold `lock`)

  enum Value {
    case null
    case integer(Int64)
    case text(String)
    case blob(Data)

    var text: String? {
      if case .text(let value) = self { return value }
      return nil
    }
    var integer: Int64? {
      if case .integer(let value) = self { return value }
      return nil
    }
    var blob: Data? {
      switch self {
      case .blob(let value): return value
      case .text(let value): return Data(value.utf8)
      default: return nil
      }
    }
  }

  /// `body` between BEGIN IMMEDIATE and COMMIT, rolled back when it throws: each write of the store is
  /// one transaction, whole or not at all.
  private func inTransaction<T>(_ operation: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    try execute("BEGIN IMMEDIATE", operation: operation)
    do throws(StoreError) {
      let value = try body()
      try execute("COMMIT", operation: operation)
      return value
    } catch {
      try? execute("ROLLBACK", operation: operation)
      throw error
    }
  }

  private func locked<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    lock.lock()
    defer { lock.unlock() }
    guard database != nil else { throw StoreError("use \(path)", "the database is closed") }
    return try body()
  }

  private func failure(_ operation: String) -> StoreError {
    StoreError(operation, "\(String(cString: sqlite3_errmsg(database))) (\(path))")
  }

  private func execute(_ sql: String, operation: String) throws(StoreError) {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(database, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(database))
      sqlite3_free(message)
      throw StoreError(operation, "\(text) (\(path))")
    }
  }

  private func scalarInteger(_ sql: String) throws(StoreError) -> Int64 {
    try query(sql, [], operation: sql).first?.first?.integer ?? 0
  }

  private func run(_ sql: String, _ parameters: [Value], operation: String) throws(StoreError) {
    _ = try query(sql, parameters, operation: operation)
  }

  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  private func query(_ sql: String, _ parameters: [Value], operation: String) throws(StoreError) -> [[Value]] {
    let statement: OpaquePointer
    if let cached = statements[sql] {
      statement = cached
    } else {
      var prepared: OpaquePointer?
      guard sqlite3_prepare_v2(database, sql, -1, &prepared, nil) == SQLITE_OK, let prepared else {
        throw failure(operation)
      }
      statements[sql] = prepared
      statement = prepared
    }
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    for (offset, parameter) in parameters.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch parameter {
      case .null: status = sqlite3_bind_null(statement, index)
      case .integer(let value): status = sqlite3_bind_int64(statement, index, value)
      case .text(let value): status = sqlite3_bind_text(statement, index, value, -1, Self.transient)
      case .blob(let value):
        status = value.withUnsafeBytes { bytes in
          // A zero-length blob with a null pointer would bind NULL, which the NOT NULL body refuses.
          sqlite3_bind_blob(
            statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(value.count),
            Self.transient)
        }
      }
      guard status == SQLITE_OK else { throw failure(operation) }
    }
    var rows: [[Value]] = []
    while true {
      let step = sqlite3_step(statement)
      if step == SQLITE_DONE { break }
      guard step == SQLITE_ROW else { throw failure(operation) }
      var row: [Value] = []
      for column in 0..<sqlite3_column_count(statement) {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
        case SQLITE_TEXT: row.append(.text(String(cString: sqlite3_column_text(statement, column))))
        case SQLITE_BLOB:
          let count = Int(sqlite3_column_bytes(statement, column))
          if count == 0 {
            row.append(.blob(Data()))
          } else {
            row.append(.blob(Data(bytes: sqlite3_column_blob(statement, column), count: count)))
          }
        default: row.append(.null)
        }
      }
      rows.append(row)
    }
    return rows
  }
}

/// Copies the write-ahead log into the database file every half second, on a connection and a
/// thread of its own, so no commit pays for a checkpoint's fsyncs (see `SQLiteStore`).
final class WALCheckpointer: @unchecked Sendable {
  private let database: OpaquePointer
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var stopped = false
  private var running = true

  init(path: String) throws(StoreError) {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle
    else {
      sqlite3_close(handle)
      throw StoreError("open \(path) for checkpoints", "cannot open")
    }
    sqlite3_busy_timeout(handle, 1000)
    database = handle
    let thread = Thread { [self] in loop() }
    thread.name = "dsa-run-sqlite-checkpointer"
    thread.start()
  }

  private func loop() {
    condition.lock()
    while !stopped {
      _ = condition.wait(until: Date(timeIntervalSinceNow: 0.5))
      if stopped { break }
      condition.unlock()
      // PASSIVE copies what no reader still needs and never waits for a writer; a failure (the
      // disk is full) leaves the log to grow, and the next round tries again.
      _ = sqlite3_wal_checkpoint_v2(database, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
      condition.lock()
    }
    running = false
    condition.broadcast()
    condition.unlock()
  }

  /// Ends the thread (after one last checkpoint is done, if one runs) and closes the connection.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    while running { condition.wait() }
    condition.unlock()
    sqlite3_close(database)
  }
}
