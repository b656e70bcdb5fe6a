import Foundation
import Glibc
import Synchronization
import Testing

// Stored submissions end to end: a real daemon, a real SQLite file in the test's directory, curl.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct SubmissionTests {
  @Test func waitsBeyondAQuarterOfTheConnectionsAreAnsweredAtOnce() throws {
    // 8 connections: at most 2 requests wait for a result; the others are answered as the
    // submission stands (200 "running", or 503 while the flood's own connections were over the
    // limit), and the connections left serve a sync run while the two waits go on.
    let directory = try makeTemporaryDirectory()
    let config = try writeConfig(
      directory,
      ["drain_s": 1, "max_connections": 8, "limits": ["wall_ms": 50_000], "submissions": ["max_wait_s": 50]])
    let daemon = try DaemonProcess(arguments: ["--slots", "2", "--config", config], directory: directory)
    defer { daemon.cleanUp() }
    let marker = uniqueMarker()
    let id = try #require(
      try post(daemon, "/v1/submissions", sleeper(seconds: 45, marker: marker, wallMilliseconds: 50_000)).json["id"]
        as? String)
    #expect(waitUntil(timeout: .seconds(20)) { !processes(containing: marker).isEmpty })
    let flood = 8
    let answers = concurrentGets(daemon.baseURL + "/v1/submissions/\(id)?wait=45", count: flood, timeout: 70)
    // Long before the 45 s wait and the 45 s job (each would end the two waits too).
    #expect(
      waitUntil(timeout: .seconds(35)) { answers.count >= flood - 2 },
      "answers:\n\(answers.description)\nthe daemon's log:\n\(daemon.log.suffix(6000))")
    #expect(
      answers.responses.allSatisfy { answer in
        answer == nil || answer?.status == 503
          || (answer?.status == 200 && ["queued", "running"].contains(answer?.json["status"] as? String ?? ""))
      })
    let run = try execute(daemon, ["language": "python", "source": "print('through')"], timeout: 20)
    #expect(
      run.status == 200 && (run.json["run"] as? [String: Any])?["stdout"] as? String == "through\n", "\(run.body)")
    #expect(try daemon.stop() == 0)
  }

  @Test func lifecycleBatchWaitCancelAndPurge() throws {
    let directory = try makeTemporaryDirectory()
    let config = try writeConfig(directory, ["submissions": ["retention_s": 2, "max_batch": 3, "max_wait_s": 30]])
    let daemon = try DaemonProcess(arguments: ["--slots", "1", "--config", config], directory: directory)
    defer { daemon.cleanUp() }

    // A submission answers at once and its result is what /v1/execute answers.
    let hello: [String: Any] = ["language": "python", "source": "print('hello stored')"]
    let accepted = try post(daemon, "/v1/submissions", hello)
    #expect(accepted.status == 202 && accepted.json["status"] as? String == "queued")
    let id = try #require(accepted.json["id"] as? String)
    let done = try curl(daemon.baseURL + "/v1/submissions/\(id)?wait=20")
    #expect(done.json["status"] as? String == "done" && done.json["kind"] as? String == "execute")
    let result = try #require(done.json["result"] as? [String: Any])
    let sync = try execute(daemon, hello)
    #expect(Set(result.keys) == Set(sync.json.keys))
    #expect((result["run"] as? [String: Any])?["stdout"] as? String == "hello stored\n")

    // A batch answers per item: bad items are refused, good ones stored.
    let batch = try post(
      daemon, "/v1/submissions/batch",
      ["submissions": [hello, ["language": "cobol", "source": "x"], ["language": "python", "source": "print(2)"]]])
    #expect(batch.status == 202)
    let answers = try #require(batch.json["submissions"] as? [[String: Any]])
    #expect(answers.count == 3)
    #expect(((answers[1]["error"] as? [String: Any])?["code"] as? String) == "unknown_language")
    let batchIDs = [answers[0], answers[2]].compactMap { $0["id"] as? String }
    #expect(batchIDs.count == 2)
    let tooMany = try post(daemon, "/v1/submissions/batch", ["submissions": Array(repeating: hello, count: 4)])
    #expect(tooMany.status == 400)

    // One slot: a long sleeper runs, the next waits queued; both can be cancelled.
    let marker = uniqueMarker()
    let sleeperID = try #require(
      try post(daemon, "/v1/submissions", sleeper(seconds: 30, marker: marker, wallMilliseconds: 20_000)).json["id"]
        as? String)
    let queuedID = try #require(try post(daemon, "/v1/submissions", hello).json["id"] as? String)
    #expect(waitUntil(timeout: .seconds(20)) { !processes(containing: marker).isEmpty })
    // Its start is written with the next result or once the start linger (50 ms) has passed.
    #expect(
      waitUntil(timeout: .seconds(5)) {
        (try? curl(daemon.baseURL + "/v1/submissions/\(sleeperID)"))?.json["status"] as? String == "running"
      })
    #expect(try curl(daemon.baseURL + "/v1/submissions/\(queuedID)").json["status"] as? String == "queued")
    let cancelledQueued = try curl(daemon.baseURL + "/v1/submissions/\(queuedID)", ["-X", "DELETE"])
    #expect(cancelledQueued.status == 200 && cancelledQueued.json["status"] as? String == "cancelled")
    let cancelledRunning = try curl(daemon.baseURL + "/v1/submissions/\(sleeperID)", ["-X", "DELETE"])
    #expect(cancelledRunning.status == 200 && cancelledRunning.json["status"] as? String == "cancelled")
    #expect(try curl(daemon.baseURL + "/v1/submissions/\(queuedID)", ["-X", "DELETE"]).status == 409)
    // A wait on a cancelled submission returns at once: it is final.
    #expect(
      try curl(daemon.baseURL + "/v1/submissions/\(queuedID)?wait=30", timeout: 10).json["status"] as? String
        == "cancelled")
    // The cancelled sleeper's box is killed at once, long before its 20 s wall limit: the program is
    // gone within seconds, and the one slot runs the next job.
    #expect(waitUntil(timeout: .seconds(4)) { processes(containing: marker).isEmpty })
    // What the killed run gave is not recorded, nor remembered as a result: it stays cancelled.
    #expect(try curl(daemon.baseURL + "/v1/submissions/\(sleeperID)").json["status"] as? String == "cancelled")
    let nextID = try #require(try post(daemon, "/v1/submissions", hello).json["id"] as? String)
    #expect(
      try curl(daemon.baseURL + "/v1/submissions/\(nextID)?wait=8", timeout: 15).json["status"] as? String == "done")

    // The list answers in the order asked, unknown ids included.
    let unknown = String(repeating: "a", count: 32)
    let list = try curl(daemon.baseURL + "/v1/submissions?ids=\(queuedID),\(unknown),\(id)")
    let items = try #require(list.json["submissions"] as? [[String: Any]])
    #expect(items.map { $0["id"] as? String } == [queuedID, unknown, id])
    #expect(((items[1]["error"] as? [String: Any])?["code"] as? String) == "unknown_submission")

    // After retention_s a finished submission is purged (404); the metrics show the store.
    #expect(
      waitUntil(timeout: .seconds(20)) {
        (try? curl(daemon.baseURL + "/v1/submissions/\(id)"))?.status == 404
      })
    let metrics = try curl(daemon.baseURL + "/metrics").body
    for name in [
      "dsa_run_submissions_queued ", "dsa_run_submission_oldest_queued_seconds ",
      "dsa_run_submission_store_seconds_count ",
      "dsa_run_webhook_failures_total ", "dsa_run_submission_store_up 1",
    ] {
      #expect(metrics.contains(name), "\(name)")
    }
    #expect(try daemon.stop() == 0)
  }

  @Test func malformedIDsBodiesAndWaitsAre4xx() throws {
    let daemon = try DaemonProcess(arguments: ["--slots", "1"])
    defer { daemon.cleanUp() }
    for path in [
      "/v1/submissions/nope", "/v1/submissions/" + String(repeating: "A", count: 32), "/v1/submissions?ids=abc",
    ] {
      let answer = try curl(daemon.baseURL + path)
      #expect(answer.status == 400 && errorCode(answer) == "bad_id", "\(path): \(answer.body)")
    }
    #expect(try curl(daemon.baseURL + "/v1/submissions").status == 400)
    let unknown = String(repeating: "0", count: 32)
    #expect(try curl(daemon.baseURL + "/v1/submissions/\(unknown)").status == 404)
    #expect(try curl(daemon.baseURL + "/v1/submissions/\(unknown)", ["-X", "DELETE"]).status == 404)
    #expect(try curl(daemon.baseURL + "/v1/submissions/\(unknown)?wait=abc").status == 400)
    #expect(try curl(daemon.baseURL + "/v1/submissions/\(unknown)?wait=99999").status == 400)
    #expect(try curl(daemon.baseURL + "/v1/submissions", ["-X", "DELETE"]).status == 405)
    for body in [
      "{", "[1]", "{\"language\": \"python\", \"source\": \"1\", \"source\": \"2\"}",
      "{\"language\": \"python\", \"source\": \"1\", \"limts\": {}}",
      "{\"language\": \"python\", \"source\": \"1\", \"callback_url\": \"http://example.com/\"}",
      "{\"submissions\": 1}",
    ] {
      for path in ["/v1/submissions", "/v1/submissions/batch"] {
        let answer = try curl(
          daemon.baseURL + path, ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body])
        #expect(answer.status == 400, "\(path) \(body): \(answer.status) \(answer.body)")
      }
    }
    // The body is read once, and its mistakes are named as the sync routes name them.
    func message(_ path: String, _ body: String) throws -> String? {
      let answer = try curl(
        daemon.baseURL + path, ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body])
      return (answer.json["error"] as? [String: Any])?["message"] as? String
    }
    let twice = "{\"language\": \"python\", \"source\": \"1\", \"source\": \"2\"}"
    #expect(try message("/v1/submissions", twice) == "\"source\" is given twice; give each field once")
    #expect(
      try message("/v1/submissions/batch", "{\"submissions\": [\(twice)]}")
        == "\"submissions[0].source\" is given twice; give each field once")
    for notAnObject in ["{", "[1]", "\"text\"", ""] {
      #expect(try message("/v1/submissions", notAnObject) == "the body must be one JSON object", "\(notAnObject)")
    }
    #expect(
      try message("/v1/submissions", "{\"language\": \"python\", \"source\": \"1\", \"callback_url\": null}")
        == "callback_url must be a string")
    let items = try curl(
      daemon.baseURL + "/v1/submissions/batch",
      ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "{\"submissions\": [1]}"])
    #expect(items.status == 202 && items.body.contains("an item must be a JSON object"), "\(items.body)")
    let plain = try curl(
      daemon.baseURL + "/v1/submissions", ["-X", "POST", "-H", "Content-Type: text/plain", "--data-binary", "{}"])
    #expect(plain.status == 415)
    // Nothing of that was stored.
    #expect(try curl(daemon.baseURL + "/metrics").body.contains("dsa_run_submissions_queued 0"))
    #expect(try daemon.stop() == 0)
  }

  @Test func aTokenSeesOnlyItsOwnSubmissions() throws {
    let directory = try makeTemporaryDirectory()
    let config = try writeConfig(directory, ["bearer_tokens": ["alice-token", "bob-token"]])
    let daemon = try DaemonProcess(arguments: ["--slots", "1", "--config", config], directory: directory)
    defer { daemon.cleanUp() }
    let body = "{\"language\": \"python\", \"source\": \"print(1)\"}"
    let accepted = try curl(
      daemon.baseURL + "/v1/submissions",
      [
        "-X", "POST", "-H", "Authorization: Bearer alice-token", "-H", "Content-Type: application/json",
        "--data-binary", body,
      ])
    let id = try #require(accepted.json["id"] as? String)
    let alice = try curl(daemon.baseURL + "/v1/submissions/\(id)?wait=20", ["-H", "Authorization: Bearer alice-token"])
    #expect(alice.status == 200 && alice.json["status"] as? String == "done")
    let bob = try curl(daemon.baseURL + "/v1/submissions/\(id)", ["-H", "Authorization: Bearer bob-token"])
    #expect(bob.status == 404)
    #expect(
      try curl(daemon.baseURL + "/v1/submissions/\(id)", ["-X", "DELETE", "-H", "Authorization: Bearer bob-token"])
        .status == 404)
    #expect(try curl(daemon.baseURL + "/v1/submissions/\(id)").status == 401)
    #expect(try daemon.stop() == 0)
  }

  @Test func aJobRunningWhenTheDaemonIsKilledFinishesAfterARestart() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let config = try writeConfig(directory, ["submissions": ["lease_s": 2]])
    let first = try DaemonProcess(arguments: ["--slots", "1", "--config", config], directory: directory)
    let marker = uniqueMarker()
    let runningID = try #require(
      try post(first, "/v1/submissions", sleeper(seconds: 2, marker: marker)).json["id"] as? String)
    let queuedID = try #require(
      try post(first, "/v1/submissions", ["language": "python", "source": "print('after')"]).json["id"] as? String)
    #expect(waitUntil(timeout: .seconds(20)) { !processes(containing: marker).isEmpty })
    // The queued one is claimed ahead (for the one slot, once free) when the daemon dies: its lease
    // lapses like the running one's.
    #expect(waitUntil(timeout: .seconds(10)) { claimedAhead(first) == 1 })
    #expect(try curl(first.baseURL + "/v1/submissions/\(queuedID)").json["status"] as? String == "queued")
    #expect(try first.stop(signal: SIGKILL) == SIGKILL || !first.process.isRunning)
    first.cleanUp(removeDirectory: false)
    #expect(waitUntil(timeout: .seconds(10)) { processes(containing: marker).isEmpty })

    let second = try DaemonProcess(arguments: ["--slots", "1", "--config", config], directory: directory)
    defer { second.cleanUp(removeDirectory: false) }
    let again = try curl(second.baseURL + "/v1/submissions/\(runningID)?wait=30", timeout: 40)
    #expect(again.json["status"] as? String == "done")
    let stdout = ((again.json["result"] as? [String: Any])?["run"] as? [String: Any])?["stdout"] as? String
    #expect(stdout == "slept \(marker)\n")
    let after = try curl(second.baseURL + "/v1/submissions/\(queuedID)?wait=30", timeout: 40)
    #expect(((after.json["result"] as? [String: Any])?["run"] as? [String: Any])?["stdout"] as? String == "after\n")
    #expect(try second.stop() == 0)
  }

  @Test func aResultShownFromMemoryIsTheStoredOne() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let config = try writeConfig(directory, ["submissions": [String: Any]()])
    let first = try DaemonProcess(arguments: ["--slots", "1", "--config", config], directory: directory)
    let bodies: [[String: Any]] = [
      ["language": "python", "source": "print('from memory')"],
      ["language": "python", "source": "import sys\nsys.exit(3)"],
    ]
    var ids: [String] = []
    for body in bodies { ids.append(try #require(try post(first, "/v1/submissions", body).json["id"] as? String)) }
    var shown: [String: String] = [:]
    for id in ids {
      let answer = try curl(first.baseURL + "/v1/submissions/\(id)?wait=20", timeout: 30)
      #expect(answer.json["status"] as? String == "done", "\(answer.body)")
      shown[id] = answer.body
    }
    // Each is remembered right after its write returns (a wait may have read the store just
    // before): from then on a list of both is answered from memory.
    var listed: CurlResponse?
    #expect(
      waitUntil(timeout: .seconds(5)) {
        let before = answeredFromMemory(first) ?? 0
        listed = try? curl(first.baseURL + "/v1/submissions?ids=\(ids.joined(separator: ","))")
        return (answeredFromMemory(first) ?? 0) - before == 2
      })
    #expect(try first.stop() == 0)
    first.cleanUp(removeDirectory: false)

    // A new daemon on the same file has nothing in memory: its answers are the store's, and the same bytes.
    let second = try DaemonProcess(arguments: ["--slots", "1", "--config", config], directory: directory)
    defer { second.cleanUp(removeDirectory: false) }
    for id in ids {
      #expect(try curl(second.baseURL + "/v1/submissions/\(id)").body == shown[id])
    }
    #expect(try curl(second.baseURL + "/v1/submissions?ids=\(ids.joined(separator: ","))").body == listed?.body)
    #expect(answeredFromMemory(second) == 0)
    #expect(try second.stop() == 0)
  }

  @Test func aBodyIsStoredAsSentAndOneWithACallbackWithout() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let config = try writeConfig(
      directory, ["submissions": ["webhooks": ["allow": ["127.0.0.1/32"]]]])
    let daemon = try DaemonProcess(arguments: ["--slots", "1", "--config", config], directory: directory)
    // Spacing, key order and UTF-8 as sent: the stored bytes are these, not a re-encoding.
    let sent = #"{ "source" : "print('é')",  "language":"python" }"#
    let plain = try curl(
      daemon.baseURL + "/v1/submissions?wait=20",
      ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", sent], timeout: 30)
    #expect(plain.json["status"] as? String == "done", "\(plain.body)")
    #expect(((plain.json["result"] as? [String: Any])?["run"] as? [String: Any])?["stdout"] as? String == "é\n")
    let plainID = try #require(plain.json["id"] as? String)
    // With a callback_url, that field is taken out: the rest is stored re-encoded.
    let hooked = try post(
      daemon, "/v1/submissions",
      ["language": "python", "source": "print(1)", "callback_url": "http://127.0.0.1:9/hook"])
    let hookedID = try #require(hooked.json["id"] as? String)
    #expect(try daemon.stop() == 0)
    daemon.cleanUp(removeDirectory: false)
    let read = try runProcess(
      "/usr/bin/python3",
      [
        "-c",
        "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); "
          + "[sys.stdout.write(bytes(db.execute('SELECT body FROM submission_bodies WHERE id = ?', (id,)).fetchone()[0])"
          + ".decode() + '\\n') for id in sys.argv[2:]]",
        directory + "/state/submissions.sqlite3", plainID, hookedID,
      ])
    let bodies = read.stdout.split(separator: "\n").map(String.init)
    #expect(bodies.first == sent, "\(read.stdout) \(read.stderr)")
    #expect(bodies.count == 2 && !bodies[1].contains("callback_url") && bodies[1].contains("print(1)"), "\(bodies)")
  }

  @Test func sigtermDrainsTheRunningJobAndLeavesTheQueuedOne() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // A lease far longer than the waits below: the queued job, claimed ahead when the daemon
    // stops, must be given back, not left to lapse.
    let config = try writeConfig(directory, ["submissions": ["lease_s": 120]])
    let first = try DaemonProcess(arguments: ["--slots", "1", "--config", config], directory: directory)
    let marker = uniqueMarker()
    let runningID = try #require(
      try post(first, "/v1/submissions", sleeper(seconds: 2, marker: marker)).json["id"] as? String)
    let queuedID = try #require(
      try post(first, "/v1/submissions", sleeper(seconds: 2, marker: uniqueMarker())).json["id"] as? String)
    #expect(waitUntil(timeout: .seconds(20)) { !processes(containing: marker).isEmpty })
    #expect(waitUntil(timeout: .seconds(10)) { claimedAhead(first) == 1 })
    #expect(try first.stop() == 0)
    let stoppedAt = Int64(Date().timeIntervalSince1970 * 1000)
    first.cleanUp(removeDirectory: false)

    let second = try DaemonProcess(arguments: ["--slots", "1", "--config", config], directory: directory)
    defer { second.cleanUp(removeDirectory: false) }
    let drained = try curl(second.baseURL + "/v1/submissions/\(runningID)")
    #expect(drained.json["status"] as? String == "done")
    #expect((drained.json["finished_ms"] as? Int).map { Int64($0) <= stoppedAt } == true)
    // The queued one was left for this daemon: it has not finished before its start.
    let left = try curl(second.baseURL + "/v1/submissions/\(queuedID)")
    #expect(["queued", "running"].contains(left.json["status"] as? String ?? ""))
    #expect(
      try curl(second.baseURL + "/v1/submissions/\(queuedID)?wait=30", timeout: 40).json["status"] as? String == "done")
    #expect(try second.stop() == 0)
  }
}

// Judge0's wait=true runs in its own request like /v1/execute and is stored done; only when the
// sync lane refuses it (over the wait budget) is it queued as a stored job, and still answered.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct Judge0WaitTests {
  @Test func aPollShowsWhatTheStoreHolds() throws {
    let directory = try makeTemporaryDirectory()
    let daemon = try DaemonProcess(arguments: ["--slots", "1"], directory: directory)
    defer { daemon.cleanUp() }
    // A wrong answer, stderr and an exit code: many attributes, each shown as the store holds it.
    let job: [String: Any] = [
      "source_code": "import sys\nprint('out')\nprint('err', file=sys.stderr)\nsys.exit(4)", "language_id": 71,
      "expected_output": "other", "stdin": "in",
    ]
    let token = try #require(try post(daemon, "/submissions", job).json["token"] as? String)
    var first: CurlResponse?
    // The poll that finds it done uses the attributes its run encoded; every later one decodes the
    // stored bytes: the same answer.
    #expect(
      waitUntil(timeout: .seconds(20)) {
        first = try? curl(daemon.baseURL + "/submissions/\(token)?fields=*")
        return (first?.json["status"] as? [String: Any])?["id"] as? Int ?? 1 > 2
      })
    let later = try curl(daemon.baseURL + "/submissions/\(token)?fields=*")
    #expect(later.body == first?.body)
    #expect(later.json["stdout"] as? String == "out\n" && later.json["exit_code"] as? Int == 4, "\(later.body)")
    let batch = try curl(daemon.baseURL + "/submissions/batch?tokens=\(token)&fields=*")
    #expect((batch.json["submissions"] as? [[String: Any]])?.count == 1)
    #expect(try daemon.stop() == 0)
  }

  @Test func waitTrueRunsInItsRequestAndIsQueuedOnlyPastTheBudget() throws {
    let directory = try makeTemporaryDirectory()
    let config = try writeConfig(directory, ["queue_wait_budget_s": 0])
    let daemon = try DaemonProcess(arguments: ["--slots", "1", "--config", config], directory: directory)
    defer { daemon.cleanUp() }
    let hello: [String: Any] = ["source_code": "print('judged')", "language_id": 71]
    let direct = try post(daemon, "/submissions?wait=true", hello)
    #expect(direct.status == 201 && direct.json["stdout"] as? String == "judged\n", "\(direct.body)")
    let token = try #require(direct.json["token"] as? String)
    // Stored done: any later GET of the token answers it.
    let again = try curl(daemon.baseURL + "/submissions/\(token)?fields=stdout,status_id")
    #expect(again.json["stdout"] as? String == "judged\n" && again.json["status_id"] as? Int == 3, "\(again.body)")

    // The one slot busy and no wait budget: a sync request is refused, a wait=true is queued.
    let marker = uniqueMarker()
    let sleeperStatus = Mutex<Int?>(nil)
    // The body goes by file: in curl's arguments, its marker would be found in curl's own command
    // line before the sleeper ran, and the request meant to be refused could take the slot first.
    let sleeperBodyPath = directory + "/sleeper.json"
    try JSONSerialization.data(withJSONObject: sleeper(seconds: 2, marker: marker))
      .write(to: URL(fileURLWithPath: sleeperBodyPath))
    let executeURL = daemon.baseURL + "/v1/execute"
    let sleeperThread = Thread {
      let answer = try? curl(
        executeURL, ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@" + sleeperBodyPath])
      sleeperStatus.withLock { $0 = answer?.status }
    }
    sleeperThread.start()
    #expect(waitUntil(timeout: .seconds(20)) { !processes(containing: marker).isEmpty })
    let refused = try execute(daemon, ["language": "python", "source": "print(1)"])
    #expect(refused.status == 503, "\(refused.body)")
    let queued = try post(daemon, "/submissions?wait=true", hello)
    #expect(queued.status == 201 && queued.json["stdout"] as? String == "judged\n", "\(queued.body)")
    #expect(waitUntil(timeout: .seconds(20)) { sleeperStatus.withLock { $0 } != nil })
    #expect(sleeperStatus.withLock { $0 } == 200)
    #expect(try daemon.stop() == 0)
  }
}

/// The daemon's `dsa_run_submissions_claimed_ahead` gauge; nil when it shows none.
func claimedAhead(_ daemon: DaemonProcess) -> Int? {
  guard let metrics = try? curl(daemon.baseURL + "/metrics").body else { return nil }
  let line = metrics.split(separator: "\n").first { $0.hasPrefix("dsa_run_submissions_claimed_ahead ") }
  return line.flatMap { Int($0.split(separator: " ").last ?? "") }
}

/// The daemon's `dsa_run_submissions_answered_from_memory_total`; nil when it shows none.
func answeredFromMemory(_ daemon: DaemonProcess) -> Int? {
  guard let metrics = try? curl(daemon.baseURL + "/metrics").body else { return nil }
  let line = metrics.split(separator: "\n").first { $0.hasPrefix("dsa_run_submissions_answered_from_memory_total ") }
  return line.flatMap { Int($0.split(separator: " ").last ?? "") }
}

/// `POST path` with a JSON body too large for a command line, through a file.
func postFile(_ daemon: DaemonProcess, _ path: String, _ body: [String: Any]) throws -> CurlResponse {
  let file = daemon.directory + "/body-\(UUID().uuidString).json"
  try JSONSerialization.data(withJSONObject: body).write(to: URL(fileURLWithPath: file))
  defer { try? FileManager.default.removeItem(atPath: file) }
  return try curl(
    daemon.baseURL + path, ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@" + file],
    timeout: 60)
}

/// Writes `object` as the daemon's config file in `directory`; returns its path.
func writeConfig(_ directory: String, _ object: [String: Any]) throws -> String {
  let path = directory + "/config.json"
  try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
  return path
}

private func errorCode(_ answer: CurlResponse) -> String? {
  (answer.json["error"] as? [String: Any])?["code"] as? String
}

// The store's disk fills up: new submissions get 503 with Retry-After and health says which part
// failed, what was accepted before stays readable, and once space is back submissions are taken again.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct SubmissionStoreFailureTests {
  @Test func aFullDiskRefusesNewSubmissionsAndLosesNothing() throws {
    let directory = try makeTemporaryDirectory()
    let state = directory + "/state"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    // A small file system of the test's own for the state directory, removed at the end.
    let mount = try runProcess("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", state])
    try #require(mount.status == 0, "mount: \(mount.stderr)")
    defer {
      _ = try? runProcess("/usr/bin/umount", [state])
      try? FileManager.default.removeItem(atPath: directory)
    }
    let daemon = try DaemonProcess(arguments: ["--slots", "1"], directory: directory)
    defer { daemon.cleanUp(removeDirectory: false) }
    let hello: [String: Any] = ["language": "python", "source": "print('kept')"]
    let keptID = try #require(try post(daemon, "/v1/submissions", hello).json["id"] as? String)
    #expect(try curl(daemon.baseURL + "/v1/submissions/\(keptID)?wait=20").json["status"] as? String == "done")

    // Fill what is left.
    _ = try runProcess("/usr/bin/dd", ["if=/dev/zero", "of=\(state)/filler", "bs=4k"])
    let big: [String: Any] = ["language": "python", "source": "print(1)\n#" + String(repeating: "x", count: 300_000)]
    let refused = try postFile(daemon, "/v1/submissions", big)
    #expect(refused.status == 503 && refused.headers["retry-after"] != nil, "\(refused.status) \(refused.body)")
    #expect(refused.body.contains("store_unavailable"))
    let health = try curl(daemon.baseURL + "/healthz")
    #expect(health.status == 503 && health.body.contains("submission_store"), "\(health.body)")
    #expect(try curl(daemon.baseURL + "/metrics").body.contains("dsa_run_submission_store_up 0"))
    // The sync lane does not need the store.
    #expect(try execute(daemon, hello).status == 200)

    try FileManager.default.removeItem(atPath: state + "/filler")
    let kept = try curl(daemon.baseURL + "/v1/submissions/\(keptID)")
    #expect(kept.status == 200 && kept.body.contains("kept\\n"))
    let again = try postFile(daemon, "/v1/submissions?wait=20", big)
    #expect(
      again.status == 200 && again.json["status"] as? String == "done", "\(again.status) \(again.body.prefix(300))")
    #expect(try curl(daemon.baseURL + "/healthz").status == 200)
    #expect(try daemon.stop() == 0)
  }
}

// The submission knobs out of range are refused by name, by --check-config and at start, and the
// bounds themselves are taken.
@Suite struct SubmissionConfigurationTests {
  func check(_ submissions: String, in directory: String) throws -> Finished {
    let path = directory + "/dsa-rund.json"
    try Data(#"{"submissions": \#(submissions)}"#.utf8).write(to: URL(fileURLWithPath: path))
    return try runProcess(
      daemonBinary, ["--check-config", "--config", path], environment: ["DSA_RUN_DATA": repositoryRoot])
  }

  @Test(arguments: [
    (#"{"claim_ahead": -1}"#, "submissions.claim_ahead must be from 0 to 256"),
    (#"{"claim_ahead": 257}"#, "submissions.claim_ahead must be from 0 to 256"),
    (#"{"claim_ahead": 1.5}"#, "claim_ahead"),
    (#"{"claim_ahead": "2"}"#, "claim_ahead"),
    (#"{"workers": 0}"#, "submissions.workers must be from 1 to 256"),
  ])
  func claimAheadAndWorkersOutOfRangeAreRefused(_ submissions: String, _ message: String) throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let finished = try check(submissions, in: directory)
    #expect(finished.status == 1)
    let lines = finished.stderr.split(separator: "\n")
    #expect(lines.count == 1 && lines[0].contains(message), "\(finished.stderr)")
    let start = try runProcess(
      daemonBinary, ["--config", directory + "/dsa-rund.json"], environment: ["DSA_RUN_DATA": repositoryRoot])
    #expect(start.status == 1 && start.stderr.contains(message), "\(start.stderr)")
  }

  @Test(arguments: [#"{"claim_ahead": 0}"#, #"{"claim_ahead": 256, "workers": 256}"#])
  func theBoundsAreTaken(_ submissions: String) throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let finished = try check(submissions, in: directory)
    #expect(finished.status == 0, "\(finished.stderr)")
  }
}
