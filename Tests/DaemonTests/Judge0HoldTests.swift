import Foundation
import Glibc
import Synchronization
import Testing

// A Judge0 poll of a submission that is not final is held (`judge0.poll_hold_ms`) until it becomes
// final or the hold runs out; real daemon, real HTTP (curl). No timed assertions: what is asserted
// is which status came back, and that a request came back at all.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct Judge0HoldTests {
  /// A Judge0 submission that prints `marker` after sleeping `seconds` (its marker names it in /proc).
  private func sleeping(_ seconds: Double, _ marker: String, wallLimit: Double = 20) -> [String: Any] {
    [
      "source_code": "import sys, time\ntime.sleep(\(seconds))\nprint('slept', sys.argv[1])\n", "language_id": 71,
      "command_line_arguments": marker, "wall_time_limit": wallLimit, "cpu_time_limit": 5,
    ]
  }

  private func statusID(_ answer: CurlResponse?) -> Int? {
    (answer?.json["status"] as? [String: Any])?["id"] as? Int
  }

  private func daemon(_ directory: String, slots: Int, _ config: [String: Any]) throws -> DaemonProcess {
    let path = try writeConfig(directory, config)
    return try DaemonProcess(arguments: ["--slots", "\(slots)", "--config", path], directory: directory)
  }

  @Test func aHeldPollAnswersTheResultOnceItIsRecorded() throws {
    let directory = try makeTemporaryDirectory()
    let daemon = try daemon(directory, slots: 2, ["drain_s": 1, "judge0": ["poll_hold_ms": 25_000]])
    defer { daemon.cleanUp() }
    let marker = uniqueMarker()
    let token = try #require(try post(daemon, "/submissions", sleeping(2, marker)).json["token"] as? String)
    // Asked while it is queued or running: the one answer is the finished submission.
    let answer = try curl(daemon.baseURL + "/submissions/\(token)?fields=status,stdout", timeout: 40)
    #expect(answer.status == 200 && statusID(answer) == 3, "\(answer.body)")
    #expect(answer.json["stdout"] as? String == "slept \(marker)\n", "\(answer.body)")

    // A batch GET is answered once the first of its tokens is final, the other shown as it stands.
    let slow = try #require(try post(daemon, "/submissions", sleeping(18, uniqueMarker())).json["token"] as? String)
    let quickMarker = uniqueMarker()
    let quick = try #require(try post(daemon, "/submissions", sleeping(1.5, quickMarker)).json["token"] as? String)
    let batch = try curl(
      daemon.baseURL + "/submissions/batch?tokens=\(slow),\(quick)&fields=status,stdout", timeout: 40)
    let shown = try #require(batch.json["submissions"] as? [[String: Any]], "\(batch.body)")
    #expect(shown.count == 2)
    #expect([1, 2].contains((shown.first?["status"] as? [String: Any])?["id"] as? Int ?? 0), "\(shown)")
    #expect((shown.last?["status"] as? [String: Any])?["id"] as? Int == 3, "\(shown)")
    #expect(shown.last?["stdout"] as? String == "slept \(quickMarker)\n", "\(shown)")
    #expect(try daemon.stop() == 0)
  }

  @Test func aCancelEndsAHeldPoll() throws {
    let directory = try makeTemporaryDirectory()
    let daemon = try daemon(directory, slots: 1, ["drain_s": 1, "judge0": ["poll_hold_ms": 25_000]])
    defer { daemon.cleanUp() }
    // 15 s of curl against a 25 s hold: only the cancel can end it in time.
    let poll = try pollQueuedBehindRunning(daemon, running: 18, curlTimeout: 15)
    let id = poll.token.replacingOccurrences(of: "-", with: "")
    #expect(try curl(daemon.baseURL + "/v1/submissions/\(id)", ["-X", "DELETE"]).status == 200)
    #expect(waitUntil(timeout: .seconds(20)) { poll.answer.withLock { $0 } != nil || !poll.thread.isExecuting })
    let got = poll.answer.withLock { $0 }
    #expect(got?.status == 200 && statusID(got) == 13, "\(got?.body ?? "no answer")")
    #expect(try daemon.stop() == 0)
  }

  @Test func aHeldPollOfAJobThatCannotFinishAnswersItsStatusWhenTheHoldRunsOut() throws {
    let directory = try makeTemporaryDirectory()
    let daemon = try daemon(directory, slots: 1, ["drain_s": 1, "judge0": ["poll_hold_ms": 1500]])
    defer { daemon.cleanUp() }
    let marker = uniqueMarker()
    let running = try #require(try post(daemon, "/submissions", sleeping(18, marker)).json["token"] as? String)
    #expect(waitUntil(timeout: .seconds(20)) { !processes(containing: marker).isEmpty })
    let queued = try #require(
      try post(daemon, "/submissions", ["source_code": "print(1)", "language_id": 71]).json["token"] as? String)
    let queuedAnswer = try curl(daemon.baseURL + "/submissions/\(queued)?fields=status,stdout", timeout: 20)
    #expect(queuedAnswer.status == 200 && [1, 2].contains(statusID(queuedAnswer)), "\(queuedAnswer.body)")
    let runningAnswer = try curl(daemon.baseURL + "/submissions/\(running)?fields=status", timeout: 20)
    #expect(runningAnswer.status == 200 && statusID(runningAnswer) == 2, "\(runningAnswer.body)")
    #expect(try daemon.stop() == 0)
  }

  @Test func holdZeroAnswersAtOnceWithTheCurrentStatus() throws {
    let directory = try makeTemporaryDirectory()
    let daemon = try daemon(directory, slots: 1, ["drain_s": 1, "judge0": ["poll_hold_ms": 0]])
    defer { daemon.cleanUp() }
    let marker = uniqueMarker()
    let token = try #require(try post(daemon, "/submissions", sleeping(1.5, marker)).json["token"] as? String)
    let answer = try curl(daemon.baseURL + "/submissions/\(token)?fields=status", timeout: 20)
    // Asked about at once: not final yet, as Judge0 would answer (the default hold, 2 s, would
    // have waited for its end).
    #expect(answer.status == 200 && [1, 2].contains(statusID(answer)), "\(answer.body)")
    #expect(try daemon.stop() == 0)
  }

  @Test func aTokenTheCallerMayNotSeeIsNeverHeld() throws {
    let directory = try makeTemporaryDirectory()
    let daemon = try daemon(
      directory, slots: 1,
      ["drain_s": 1, "bearer_tokens": ["first", "second"], "judge0": ["poll_hold_ms": 25_000]])
    defer { daemon.cleanUp() }
    let body = try JSONSerialization.data(withJSONObject: sleeping(18, uniqueMarker()))
    let submitted = try curl(
      daemon.baseURL + "/submissions",
      ["-X", "POST", "-H", "Authorization: Bearer first", "-H", "Content-Type: application/json"]
        + ["--data-binary", String(decoding: body, as: UTF8.self)])
    let token = try #require(submitted.json["token"] as? String, "\(submitted.body)")
    // Another token's poll: 404 (curl's 10 s would run out first if it were held for 25 s).
    let other = try curl(
      daemon.baseURL + "/submissions/\(token)", ["-H", "Authorization: Bearer second"], timeout: 10)
    #expect(other.status == 404, "\(other.body)")
    let batch = try curl(
      daemon.baseURL + "/submissions/batch?tokens=\(token)", ["-H", "Authorization: Bearer second"], timeout: 10)
    #expect(batch.status == 200 && batch.body.contains("[null]"), "\(batch.body)")
    #expect(try daemon.stop() == 0)
  }

  @Test func aFloodOfHeldPollsLeavesConnectionsForExecute() throws {
    let directory = try makeTemporaryDirectory()
    // 8 connections: at most 2 polls are held; the rest answer at once and their connections close.
    let daemon = try daemon(
      directory, slots: 2,
      [
        "drain_s": 1, "max_connections": 8, "judge0": ["poll_hold_ms": 50_000],
        "submissions": ["max_wait_s": 60], "limits": ["wall_ms": 50_000],
      ])
    defer { daemon.cleanUp() }
    let marker = uniqueMarker()
    let token = try #require(
      try post(daemon, "/submissions", sleeping(45, marker, wallLimit: 50)).json["token"] as? String)
    #expect(waitUntil(timeout: .seconds(20)) { !processes(containing: marker).isEmpty })
    let url = daemon.baseURL + "/submissions/\(token)?fields=status"
    let flood = 12
    let answers = concurrentGets(url, count: flood, timeout: 70)
    // Every poll but the two held ones comes back (answered at once, or 503 while the flood's own
    // connections were over the limit): long before the 50 s hold, and before the 45 s job ends
    // (which would end the holds too). The daemon answers them within milliseconds; a curl that
    // looked stuck in full suites was one whose exit socket a held curl had inherited
    // (`ProcessLaunch`).
    #expect(
      waitUntil(timeout: .seconds(35)) { answers.count >= flood - 2 },
      "answers:\n\(answers.description)\nthe daemon's log:\n\(daemon.log.suffix(6000))")
    // Not final: "Processing", or "In Queue" while the job's start waits to share a write (50 ms).
    #expect(
      answers.responses.allSatisfy { $0 == nil || $0?.status == 503 || [1, 2].contains(statusID($0)) })
    // The second slot and a connection are free: a sync run is answered while the holds go on.
    let run = try execute(daemon, ["language": "python", "source": "print('through')"], timeout: 20)
    #expect(
      run.status == 200 && (run.json["run"] as? [String: Any])?["stdout"] as? String == "through\n", "\(run.body)")
    #expect(try daemon.stop() == 0)
  }

  @Test func aDrainEndsHeldPollsOnceTheRunningJobsAreRecorded() throws {
    let directory = try makeTemporaryDirectory()
    // One worker and nothing claimed ahead: the second job stays queued through the drain.
    let daemon = try daemon(
      directory, slots: 1,
      [
        "drain_s": 20, "submissions": ["claim_ahead": 0, "workers": 1], "judge0": ["poll_hold_ms": 25_000],
      ])
    defer { daemon.cleanUp() }
    // Half a second for the poll to arrive and be held; one that came later would still be served, as
    // the drain lets requests in while the running job finishes.
    let poll = try pollQueuedBehindRunning(daemon, running: 3, curlTimeout: 40)
    // The drain waits for the running job, then the held poll answers the queued one as it stands,
    // well before its 25 s hold and the 20 s drain: curl gets an answer, not a closed connection.
    #expect(try daemon.stop(timeout: .seconds(40)) == 0)
    #expect(waitUntil(timeout: .seconds(5)) { poll.answer.withLock { $0 } != nil })
    let got = poll.answer.withLock { $0 }
    #expect(got?.status == 200 && statusID(got) == 1, "\(got?.body ?? "no answer")")
  }

  /// A poll of a queued job, on a thread of its own, made half a second ago: the daemon's one worker
  /// runs a job sleeping `running` seconds (seen started), and a second job waits behind it.
  private final class QueuedPoll: Sendable {
    let token: String
    let answer = Mutex<CurlResponse?>(nil)
    nonisolated(unsafe) var thread = Thread {}
    init(token: String) { self.token = token }
  }

  private func pollQueuedBehindRunning(_ daemon: DaemonProcess, running: Double, curlTimeout: Int) throws
    -> QueuedPoll
  {
    let marker = uniqueMarker()
    _ = try #require(try post(daemon, "/submissions", sleeping(running, marker)).json["token"] as? String)
    #expect(waitUntil(timeout: .seconds(20)) { !processes(containing: marker).isEmpty })
    let queued = try #require(
      try post(daemon, "/submissions", ["source_code": "print(1)", "language_id": 71]).json["token"] as? String)
    let poll = QueuedPoll(token: queued)
    let url = daemon.baseURL + "/submissions/\(queued)?fields=status"
    poll.thread = Thread { poll.answer.withLock { $0 = try? curl(url, timeout: curlTimeout) } }
    poll.thread.start()
    usleep(500_000)
    return poll
  }
}

// The hold is bounded by the longest wait any request may ask for.
@Suite struct Judge0HoldConfigurationTests {
  private func check(_ config: String) throws -> Finished {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/dsa-rund.json"
    try config.write(toFile: path, atomically: true, encoding: .utf8)
    return try runProcess(
      daemonBinary, ["--check-config", "--config", path], environment: ["DSA_RUN_DATA": repositoryRoot])
  }

  @Test(arguments: [#"{"judge0": {"poll_hold_ms": -1}}"#, #"{"judge0": {"poll_hold_ms": 30001}}"#])
  func aHoldOutsideTheLongestWaitIsRefused(_ config: String) throws {
    let finished = try check(config)
    #expect(finished.status == 1 && finished.stderr.contains("judge0.poll_hold_ms must be from 0 to 30000"))
  }

  @Test(arguments: [
    #"{"judge0": {"poll_hold_ms": 0}}"#, #"{"judge0": {"poll_hold_ms": 30000}}"#,
    #"{"judge0": {"poll_hold_ms": 45000}, "submissions": {"max_wait_s": 45}}"#,
  ])
  func aHoldWithinTheLongestWaitIsTaken(_ config: String) throws {
    let finished = try check(config)
    #expect(finished.status == 0, "\(finished.stderr)")
  }
}
