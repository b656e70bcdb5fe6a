import Foundation
import Glibc
import Testing

@testable import Submissions

/// A throwaway PostgreSQL cluster (Debian `postgresql`): initdb and pg_ctl run as nobody in a
/// temporary directory, listening only on a Unix socket there; `remove()` stops it and deletes it.
final class PostgresCluster {
  static let binaries: String? = {
    let root = "/usr/lib/postgresql"
    let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted { $0 > $1 }
    return versions.map { "\(root)/\($0)/bin" }.first {
      FileManager.default.isExecutableFile(atPath: $0 + "/initdb")
    }
  }()

  let directory: String
  private var server: Child?
  var dataDirectory: String { directory + "/data" }
  /// libpq's URL for the socket in `directory`.
  var connectionString: String { "postgresql://postgres@/postgres?host=\(directory)" }

  init() throws {
    guard let binaries = Self.binaries else { throw TestFailure("no /usr/lib/postgresql/*/bin/initdb") }
    directory = try makeTemporaryDirectory()
    // The server runs as nobody and writes its socket and data here.
    guard chown(directory, 65534, 65534) == 0, chmod(directory, 0o755) == 0 else {
      throw TestFailure("chown \(directory): errno \(errno)")
    }
    let initdb = try asNobody(
      binaries + "/initdb", ["-D", dataDirectory, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
    guard initdb.status == 0 else { throw TestFailure("initdb: \(initdb.stdout) \(initdb.stderr)") }
    // The server itself as a child (no pg_ctl daemonizing), so it is stopped and reaped by pid.
    server = try startProcess(
      "/usr/bin/setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", "--", binaries + "/postgres", "-D", dataDirectory]
        + ["-k", directory, "-c", "listen_addresses=", "-c", "fsync=off"],
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    let ready = waitUntil(timeout: .seconds(30)) {
      (try? runProcess(binaries + "/pg_isready", ["-q", "-h", directory, "-U", "postgres"]))?.status == 0
    }
    guard ready else {
      remove()
      throw TestFailure("postgres did not become ready within 30 s")
    }
  }

  /// One value from `sql`, by psql.
  func scalar(_ sql: String) throws -> String {
    guard let binaries = Self.binaries else { throw TestFailure("no psql") }
    let finished = try runProcess(binaries + "/psql", ["-XAtq", "-h", directory, "-U", "postgres", "-c", sql])
    guard finished.status == 0 else { throw TestFailure("psql \(sql): \(finished.stderr)") }
    return finished.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func remove() {
    if let server {
      // SIGINT is PostgreSQL's fast shutdown: it ends every session and exits.
      kill(server.process.processIdentifier, SIGINT)
      _ = try? server.finish(timeout: .seconds(30))
    }
    server = nil
    try? FileManager.default.removeItem(atPath: directory)
  }

  private func asNobody(_ executable: String, _ arguments: [String]) throws -> Finished {
    try runProcess(
      "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--", executable] + arguments,
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
  }
}

// Two daemons sharing one PostgreSQL store: either answers for any id, and a job whose daemon is
// killed mid-run is finished by the other once the lease lapses, with one recorded result.
@Suite(
  .serialized, .timeLimit(.minutes(5)),
  .enabled(if: PostgresCluster.binaries != nil, "Debian postgresql is not installed"))
struct PostgresSubmissionTests {
  /// A daemon with one slot on `cluster`'s store and `submissions`' other settings, in a directory of
  /// its own that `cleanUp()` removes.
  private func daemon(
    on cluster: PostgresCluster, _ submissions: [String: Any] = [:], judge0: [String: Any]? = nil
  ) throws -> DaemonProcess {
    let directory = try makeTemporaryDirectory()
    var settings = submissions
    settings["store"] = cluster.connectionString
    var config: [String: Any] = ["submissions": settings]
    if let judge0 { config["judge0"] = judge0 }
    do {
      return try DaemonProcess(
        arguments: ["--slots", "1", "--config", try writeConfig(directory, config)], directory: directory)
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    }
  }

  /// The last command of each daemon's listener connection (LISTEN or UNLISTEN), as the server shows it.
  private func listenerCommands(_ cluster: PostgresCluster) throws -> String {
    try cluster.scalar(
      "SELECT coalesce(string_agg(split_part(query, ' ', 1), ',' ORDER BY pid), '') FROM pg_stat_activity "
        + "WHERE query LIKE '%LISTEN \(PostgresStore.channel)'")
  }

  @Test func theDaemonsLogStaysJSONLinesWhenPostgreSQLSpeaks() throws {
    let cluster = try PostgresCluster()
    defer { cluster.remove() }
    // A second start migrates nothing, and PostgreSQL answers its CREATE ... IF NOT EXISTS with a
    // NOTICE, which libpq would print as plain text.
    try daemon(on: cluster, [:]).cleanUp()
    let second = try daemon(on: cluster, [:])
    defer { second.cleanUp() }
    #expect(try second.stop() == 0)
    let lines = second.log.split(separator: "\n").map(String.init)
    for line in lines {
      #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not JSON: \(line)")
    }
    #expect(lines.contains { $0.contains("postgres_notice") && $0.contains("already exists") }, "\(lines)")
  }

  @Test func twoDaemonsShareOneQueueAndSurviveAKill() throws {
    let cluster = try PostgresCluster()
    defer { cluster.remove() }
    let first = try daemon(on: cluster, ["lease_s": 2])
    defer { first.cleanUp() }
    let marker = uniqueMarker()
    let sleeperID = try #require(
      // Long enough to be running still when the first daemon is killed, on a loaded machine too.
      try post(first, "/v1/submissions", sleeper(seconds: 8, marker: marker)).json["id"] as? String)
    #expect(waitUntil(timeout: .seconds(20)) { !processes(containing: marker).isEmpty })

    // The second daemon starts on the migrated schema and sees the first one's running job.
    let second = try daemon(on: cluster, ["lease_s": 2])
    defer { second.cleanUp() }
    #expect(try curl(second.baseURL + "/v1/submissions/\(sleeperID)").json["status"] as? String == "running")
    let hello: [String: Any] = ["language": "python", "source": "import os\nprint('pid', os.getpid())"]
    let batch = try post(first, "/v1/submissions/batch", ["submissions": Array(repeating: hello, count: 4)])
    var ids = ((batch.json["submissions"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
    for _ in 0..<2 { ids += [try post(second, "/v1/submissions", hello).json["id"] as? String].compactMap { $0 } }
    #expect(ids.count == 6)
    // The first daemon holds one of them claimed ahead for its busy slot (queued to clients, leased
    // to it): killed, it loses it too, and the second daemon runs it once the lease lapses.
    #expect(waitUntil(timeout: .seconds(10)) { claimedAhead(first) == 1 })
    #expect(
      try cluster.scalar("SELECT count(*) FROM submissions WHERE state = 'queued' AND lease_owner IS NOT NULL") != "0")

    #expect(try first.stop(signal: SIGKILL) != 0)
    for id in ids + [sleeperID] {
      let answer = try curl(second.baseURL + "/v1/submissions/\(id)?wait=30", timeout: 40)
      #expect(answer.json["status"] as? String == "done", "\(id): \(answer.body)")
    }
    let slept = try curl(second.baseURL + "/v1/submissions/\(sleeperID)")
    #expect(
      ((slept.json["result"] as? [String: Any])?["run"] as? [String: Any])?["stdout"] as? String == "slept \(marker)\n")
    // It ran twice (the killed daemon's run never recorded), and has one result.
    #expect(try cluster.scalar("SELECT attempts FROM submissions WHERE id = '\(sleeperID)'") == "2")
    #expect(try cluster.scalar("SELECT count(*) FROM submissions WHERE state = 'done' AND result IS NOT NULL") == "7")
    #expect(try cluster.scalar("SELECT max(version) FROM dsa_run_schema") == String(PostgresStore.migrations.count))
    let metrics = try curl(second.baseURL + "/metrics").body
    #expect(metrics.contains("dsa_run_submissions_queued 0"))
    #expect(try second.stop() == 0)
  }

  @Test func aSchemaThreeDatabaseGivesItsJudge0JobsTheirKind() throws {
    let cluster = try PostgresCluster()
    defer { cluster.remove() }
    let old = try PostgresStore(connectionString: cluster.connectionString, schemaVersion: 3)
    func job(_ kind: SubmissionKind, _ body: String) throws -> NewSubmission {
      NewSubmission(id: try SubmissionID.make(), owner: "alice", kind: kind, body: Data(body.utf8))
    }
    let legacy = try job(.execute, #"{"execute":{"language":"python","source":"1"},"judge0":{}}"#)
    let execute = try job(.execute, #"{"language":"python","source":"1"}"#)
    let finished = try job(.execute, #"{"execute":{"language":"python","source":"2"},"judge0":{}}"#)
    try old.insert([legacy, execute], now: 10)
    try old.insertDone(finished, result: Data(#"{"judge0":{"status_id":3}}"#.utf8), isError: false, now: 11)
    let migrated = try PostgresStore(connectionString: cluster.connectionString)
    #expect(migrated.schemaVersion == PostgresStore.migrations.count)
    let kinds = Dictionary(
      uniqueKeysWithValues: try migrated.fetch(ids: [legacy.id, execute.id, finished.id], owner: "alice").map {
        ($0.id, $0.kind)
      })
    #expect(kinds == [legacy.id: .judge0, execute.id: .execute, finished.id: .judge0])
    let fresh = try job(.judge0, #"{"source_code":"print(1)","language_id":71}"#)
    try migrated.insert([fresh], now: 12)
    let claimed = try migrated.claim(worker: "w", now: 13, leaseUntil: 1000, limit: 10)
    #expect(
      Dictionary(uniqueKeysWithValues: claimed.map { ($0.id, $0.kind) })
        == [legacy.id: .judge0, execute.id: .execute, fresh.id: .judge0], "\(claimed)")
    #expect(try migrated.complete(id: fresh.id, result: Data("{}".utf8), isError: false, now: 14))
    #expect(try migrated.fetch(ids: [fresh.id], owner: "alice").first?.kind == .judge0)
    // A kind outside the type is still refused.
    #expect(throws: StoreError.self) {
      try migrated.queryForTests("UPDATE submissions SET kind = $1 WHERE id = $2", ["compile", execute.id])
    }
  }

  @Test func aSchemaTwoDatabaseKeepsItsJobsThroughMigrationThree() throws {
    let cluster = try PostgresCluster()
    defer { cluster.remove() }
    let old = try PostgresStore(connectionString: cluster.connectionString, schemaVersion: 2)
    #expect(old.schemaVersion == 2)
    func job() throws -> NewSubmission {
      NewSubmission(
        id: try SubmissionID.make(), owner: "alice", kind: .execute, body: Data(#"{"language":"python"}"#.utf8))
    }
    // One job in each state a schema-2 database can hold.
    let (queued, running, done, cancelled) = (try job(), try job(), try job(), try job())
    try old.insert([running], now: 1000)
    try old.insert([queued, cancelled], now: 1001)
    #expect(try old.claim(worker: "old", now: 1002, leaseUntil: 1_000_000, limit: 1).map(\.id) == [running.id])
    _ = try old.record(started: [running.id], finished: [], worker: "old", now: 1003, claim: nil)
    try old.insertDone(done, result: Data(#"{"status":"ok"}"#.utf8), isError: false, now: 1004)
    #expect(try old.cancel(id: cancelled.id, owner: "alice", now: 1005) == .cancelled)

    let migrated = try PostgresStore(connectionString: cluster.connectionString, schemaVersion: 3)
    #expect(migrated.schemaVersion == 3)
    #expect(
      try cluster.scalar(
        "SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes WHERE tablename = 'submissions'")
        == "submissions_by_finish,submissions_pkey,submissions_unfinished,submissions_webhooks")
    #expect(
      try cluster.scalar("SELECT reloptions::text FROM pg_class WHERE relname = 'submissions'") == "{fillfactor=70}")
    // A kind or state outside the enum types is refused, as the CHECK constraints refused it.
    #expect(throws: StoreError.self) {
      try migrated.queryForTests("UPDATE submissions SET state = $1 WHERE id = $2", ["lost", queued.id])
    }
    #expect(throws: StoreError.self) {
      try migrated.queryForTests("UPDATE submissions SET kind = $1 WHERE id = $2", ["compile", queued.id])
    }
    let states = Dictionary(
      uniqueKeysWithValues: try migrated.fetch(ids: [queued.id, running.id, done.id, cancelled.id], owner: "alice").map
      {
        ($0.id, $0.state)
      })
    #expect(states == [queued.id: .queued, running.id: .running, done.id: .done, cancelled.id: .cancelled])
    #expect(try migrated.fetch(ids: [done.id], owner: "alice").first?.result == Data(#"{"status":"ok"}"#.utf8))
    // Claims find unfinished jobs by the new index: the queued one now, the running one once its
    // lease has lapsed, the finished ones never.
    #expect(try migrated.claim(worker: "new", now: 2000, leaseUntil: 2_000_000, limit: 5).map(\.id) == [queued.id])
    #expect(
      try migrated.claim(worker: "new", now: 1_000_001, leaseUntil: 2_000_000, limit: 5).map(\.id) == [running.id])
    let recorded = try migrated.record(
      started: [], finished: [FinishedRun(id: running.id, result: Data("{}".utf8), isError: false)], worker: "new",
      now: 1_000_002, claim: nil)
    #expect(recorded.recorded == [running.id])
    let statistics = try migrated.statistics(now: 1_000_003)
    #expect(statistics.queued == 1 && statistics.running == 0)
    #expect(try migrated.purge(finishedBefore: 1_000_003) == 3)
    // Its connections plan as `sessionSettings` says, whatever the server's defaults.
    #expect(try migrated.queryForTests("SELECT current_setting('enable_seqscan')", []).first?.first == "off")
    #expect(try migrated.queryForTests("SELECT current_setting('enable_bitmapscan')", []).first?.first == "off")
    #expect(
      try migrated.queryForTests("SELECT current_setting('plan_cache_mode')", []).first?.first == "force_generic_plan")
  }

  @Test func aHeldJudge0PollOnAnotherDaemonAnswersOnceTheResultIsRecorded() throws {
    // The daemon asked does not run the job, so no result of its own wakes the held poll: it reads
    // the store again (every 0.2 s) until the other daemon has recorded the job. Without that, the
    // poll would end with the 25 s hold, answering "Processing".
    let cluster = try PostgresCluster()
    defer { cluster.remove() }
    let runner = try daemon(on: cluster, judge0: ["poll_hold_ms": 25_000])
    defer { runner.cleanUp() }
    let marker = uniqueMarker()
    let sleeper: [String: Any] = [
      "source_code": "import sys, time\ntime.sleep(3)\nprint('slept', sys.argv[1])\n", "language_id": 71,
      "command_line_arguments": marker,
    ]
    let token = try #require(try post(runner, "/submissions", sleeper).json["token"] as? String)
    // Running on the first daemon before the second is up: the second never claims it.
    #expect(waitUntil(timeout: .seconds(20)) { !processes(containing: marker).isEmpty })
    let asked = try daemon(on: cluster, judge0: ["poll_hold_ms": 25_000])
    defer { asked.cleanUp() }
    let started = Date()
    let answer = try curl(asked.baseURL + "/submissions/\(token)?fields=status,stdout", timeout: 40)
    #expect(answer.status == 200, "\(answer.body)")
    #expect((answer.json["status"] as? [String: Any])?["id"] as? Int == 3, "\(answer.body)")
    #expect(answer.json["stdout"] as? String == "slept \(marker)\n", "\(answer.body)")
    #expect(Date().timeIntervalSince(started) < 20, "answered by the hold's end, not the result")
    #expect(try runner.stop() == 0)
    #expect(try asked.stop() == 0)
  }

  @Test func anotherDaemonShowsTheResultsThisOneRecorded() throws {
    let cluster = try PostgresCluster()
    defer { cluster.remove() }
    let first = try daemon(on: cluster)
    defer { first.cleanUp() }
    // Run and recorded by the first daemon alone (the second is not up yet), each shown from its memory.
    let hello: [String: Any] = ["language": "python", "source": "print('recorded by the first')"]
    let batch = try post(first, "/v1/submissions/batch", ["submissions": Array(repeating: hello, count: 3)])
    let ids = ((batch.json["submissions"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
    #expect(ids.count == 3)
    var shown: [String: String] = [:]
    for id in ids {
      let answer = try curl(first.baseURL + "/v1/submissions/\(id)?wait=30", timeout: 40)
      #expect(answer.json["status"] as? String == "done", "\(answer.body)")
      shown[id] = answer.body
    }
    // Remembered right after each write returns (a wait may have read the store just before).
    #expect(
      waitUntil(timeout: .seconds(5)) {
        let before = answeredFromMemory(first) ?? 0
        _ = try? curl(first.baseURL + "/v1/submissions?ids=\(ids.joined(separator: ","))")
        return (answeredFromMemory(first) ?? 0) - before == 3
      })

    // The second daemon never held them: it reads the store, and shows the very same answers.
    let second = try daemon(on: cluster)
    defer { second.cleanUp() }
    for id in ids {
      #expect(try curl(second.baseURL + "/v1/submissions/\(id)").body == shown[id])
    }
    #expect(answeredFromMemory(second) == 0)
    #expect(try first.stop() == 0)
    #expect(try second.stop() == 0)
  }

  /// Pending webhooks page in (finish time, id) order past a position, ties included, on both
  /// stores: what the webhook sender pages with to find the webhooks behind those it holds.
  @Test func pendingWebhooksPageInFinishOrderOnBothStores() throws {
    let cluster = try PostgresCluster()
    defer { cluster.remove() }
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let stores: [any SubmissionStore] = [
      try PostgresStore(connectionString: cluster.connectionString),
      try SQLiteStore(path: directory + "/submissions.sqlite3"),
    ]
    for store in stores {
      var expected: [(Int64, String)] = []
      for finished: Int64 in [5, 3, 3, 9, 3, 7, 5] {
        let submission = NewSubmission(
          id: try SubmissionID.make(), owner: "", kind: .execute, body: Data("{}".utf8),
          callbackURL: "http://hooks.example/\(finished)")
        try store.insertDone(submission, result: Data("{}".utf8), isError: false, now: finished)
        expected.append((finished, submission.id))
      }
      try store.insertDone(
        NewSubmission(id: try SubmissionID.make(), owner: "", kind: .execute, body: Data("{}".utf8)),
        result: Data("{}".utf8), isError: false, now: 4)
      expected.sort { $0 < $1 }
      var seen: [PendingWebhook] = []
      var position = WebhookPosition.start
      while true {
        let page = try store.pendingWebhooks(limit: 2, after: position)
        seen += page
        guard let last = page.last else { break }
        position = last.position
      }
      #expect(seen.map(\.id) == expected.map(\.1), "\(store.kindName)")
      #expect(seen.map(\.finishedMilliseconds) == expected.map(\.0), "\(store.kindName)")
      try store.finishWebhook(id: expected[2].1, delivered: false)
      #expect(
        try store.pendingWebhooks(limit: 10, after: WebhookPosition(finishedMilliseconds: 3, id: expected[0].1))
          .map(\.id) == [expected[1].1] + expected[3...].map(\.1), "\(store.kindName)")
    }
  }

  @Test func aDaemonWithNoRoomStopsListeningAndAnotherTakesTheWorkItQueues() throws {
    let cluster = try PostgresCluster()
    defer { cluster.remove() }
    let first = try daemon(on: cluster)
    defer { first.cleanUp() }
    // Idle, it listens for work queued by other daemons.
    #expect(waitUntil(timeout: .seconds(10)) { (try? listenerCommands(cluster)) == "LISTEN" })
    // One slot and one job claimed ahead: no room for more. Its next job comes with a write of its
    // own, so the server need not signal it for every insert.
    let marker = uniqueMarker()
    let sleeperID = try #require(
      // Long enough to outlast the checks below on a loaded machine; it is ended once they are done.
      try post(first, "/v1/submissions", sleeper(seconds: 18, marker: marker, wallMilliseconds: 20_000)).json["id"]
        as? String)
    let hello: [String: Any] = ["language": "python", "source": "print('hello')"]
    let aheadID = try #require(try post(first, "/v1/submissions", hello).json["id"] as? String)
    #expect(waitUntil(timeout: .seconds(20)) { !processes(containing: marker).isEmpty && claimedAhead(first) == 1 })
    #expect(waitUntil(timeout: .seconds(5)) { (try? listenerCommands(cluster)) == "UNLISTEN" })

    // A second daemon, idle, listens; a job queued through the busy first one runs there meanwhile.
    let second = try daemon(on: cluster)
    defer { second.cleanUp() }
    #expect(waitUntil(timeout: .seconds(10)) { (try? listenerCommands(cluster)) == "UNLISTEN,LISTEN" })
    let queuedID = try #require(try post(first, "/v1/submissions", hello).json["id"] as? String)
    let done = try curl(second.baseURL + "/v1/submissions/\(queuedID)?wait=30", timeout: 40)
    #expect(done.json["status"] as? String == "done", "\(done.body)")
    #expect(try curl(first.baseURL + "/v1/submissions/\(sleeperID)").json["status"] as? String == "running")

    // With its jobs done the first has room again, and listens.
    for pid in processes(containing: marker) { kill(pid, SIGKILL) }
    for id in [sleeperID, aheadID] {
      #expect(
        try curl(first.baseURL + "/v1/submissions/\(id)?wait=30", timeout: 40).json["status"] as? String == "done")
    }
    #expect(waitUntil(timeout: .seconds(10)) { (try? listenerCommands(cluster)) == "LISTEN,LISTEN" })
    #expect(try first.stop() == 0)
    #expect(try second.stop() == 0)
  }
}
