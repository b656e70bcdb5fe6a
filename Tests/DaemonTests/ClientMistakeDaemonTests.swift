import Foundation
import Glibc
import Testing

/// Client mistakes, grade limits and hidden tests on a live daemon, by curl.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ClientMistakeDaemonTests {
  private func error(_ response: CurlResponse) -> (code: String?, message: String?) {
    let inner = response.json["error"] as? [String: Any]
    return (inner?["code"] as? String, inner?["message"] as? String)
  }

  @Test func mistakesAre400sNamingTheFieldAndGradesStayWithinTheMaxima() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let nul = try post(daemon, "/v1/execute", ["language": "python", "source": "print(1)", "args": ["ok", "a\u{0}b"]])
    #expect(nul.status == 400, "\(nul.body)")
    #expect(error(nul).message == "args[1]: contains a NUL byte")
    let many = try post(
      daemon, "/v1/execute", ["language": "python", "source": "print(1)", "args": Array(repeating: "x", count: 5000)])
    #expect(many.status == 400)
    #expect(error(many).message == "args: 5000 arguments; at most 1024 are accepted")
    let clash = try post(
      daemon, "/v1/execute",
      [
        "language": "python",
        "files": [["name": "prog", "content": "print(1)"], ["name": "main.py/x", "content": ""]],
      ])
    #expect(clash.status == 400, "\(clash.body)")
    #expect(error(clash).message?.hasPrefix("files[1].name: ") == true)
    #expect(!clash.body.contains("/run/") && !clash.body.contains("cgroup"))

    let inline: [String: Any] = [
      "title": "Sum", "statement": "Add.", "checker": ["name": "tokens"], "limits": ["memory_mb": 2048],
      "tests": [["stdin": "1 2\n", "expected_stdout": "3\n"]],
    ]
    let greedy = try post(
      daemon, "/v1/grade", ["language": "python", "source": "print(3)", "challenge": inline])
    #expect(greedy.status == 400, "\(greedy.body)")
    #expect(error(greedy).message == "challenge.limits.memory_mb is 2048; the maximum is 1024")
    #expect(try curl(daemon.baseURL + "/healthz").status == 200)
  }

  /// The config's grade_wall_ms reaches the grades: a sample challenge's grade of a sleeping program
  /// (8 tests of 8 s wall each) ends within it, every test skipped.
  /// 513 open brackets made Foundation's decoder trap and killed the daemon (found by fuzzing): on
  /// every doorway that reads JSON such a body is now a refusal, and the daemon stays up.
  @Test func aBodyNestedTooDeeplyIsRefusedOnEveryDoorway() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let body = String(repeating: "[", count: 513)
    for path in ["/v1/execute", "/v1/grade", "/v1/submissions", "/submissions", "/api/v2/execute"] {
      let answer = try curl(
        daemon.baseURL + path, ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body])
      #expect((400..<500).contains(answer.status), "\(path): \(answer.status) \(answer.body)")
    }
    // Jobe answers any JSON it cannot parse with its own 500.
    let jobe = try curl(
      daemon.baseURL + "/jobe/index.php/restapi/runs",
      ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body])
    #expect(jobe.status == 500 && jobe.body.contains("Failed to parse JSON string"), "\(jobe.body)")
    #expect(try curl(daemon.baseURL + "/healthz").status == 200)
    #expect(try daemon.stop() == 0)
  }

  @Test func theConfiguredGradeBudgetBoundsACatalogGrade() throws {
    let directory = try makeTemporaryDirectory()
    let config = directory + "/budget.json"
    try Data(#"{"grade_wall_ms": 1500}"#.utf8).write(to: URL(fileURLWithPath: config))
    let daemon = try DaemonProcess(arguments: ["--config", config], directory: directory)
    defer { daemon.cleanUp() }
    let graded = try post(
      daemon, "/v1/grade",
      ["language": "python", "source": "import time\ntime.sleep(60)\n", "challenge": "two-sum-indices"])
    #expect(graded.status == 200, "\(graded.body)")
    let tests = try #require(graded.json["tests"] as? [[String: Any]])
    // The file sleeps as it loads: the grade's bound, not any test's limit, ends it, so every test is
    // skipped (whether its process was cut or never started) and the grade is time_limit.
    #expect(tests.count == 8 && tests.allSatisfy { $0["verdict"] as? String == "skipped" }, "\(tests)")
    #expect(graded.json["verdict"] as? String == "time_limit")
    let wall = try #require(graded.json["wall_ms"] as? Int)
    // Generous against 1.5 s; the program sleeps 60 s.
    #expect(wall < 6000, "\(wall) ms")
  }

  @Test func aSampleChallengesHiddenTestsShowNoData() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let wrong = try String(
      contentsOfFile: repositoryRoot + "/challenges/insertion-sort/solutions/wrong/main.py", encoding: .utf8)
    // The wrong solution also echoes its input on stderr, as a harvester would.
    let harvester =
      "import sys\n_data = sys.stdin.read()\nsys.stderr.write('INPUT ' + _data)\n"
      + "sys.stdin = __import__('io').StringIO(_data)\n" + wrong
    let graded = try post(
      daemon, "/v1/grade", ["language": "python", "source": harvester, "challenge": "insertion-sort"])
    #expect(graded.status == 200, "\(graded.body)")
    let tests = try #require(graded.json["tests"] as? [[String: Any]])
    let reversed = try #require(tests.first { $0["name"] as? String == "reversed" })
    #expect(reversed["hidden"] as? Bool == true)
    #expect(reversed["stderr"] as? String == "")
    #expect(reversed["time"] is String && reversed["memory"] is String && reversed["cpu_ms"] == nil)
    if let difference = reversed["first_difference"] as? [String: Any] {
      #expect(Set(difference.keys) == ["kind", "caption"], "\(difference)")
    }
    // reversed.in is "6\n9 7 5 3 1 -1": not its numbers in any order or form.
    let hiddenParts = tests.filter { $0["hidden"] as? Bool == true }
    let text = String(decoding: try JSONSerialization.data(withJSONObject: hiddenParts), as: UTF8.self)
    for secret in ["9 7 5", "9,7,5", "-1", "2147483647", "INPUT"] { #expect(!text.contains(secret), "\(text)") }
    // A visible test still shows everything.
    let sample = try #require(tests.first { $0["name"] as? String == "sample" })
    #expect((sample["stderr"] as? String)?.hasPrefix("INPUT ") == true)
  }

  /// A hidden test whose author's caption names its input ("compare 7319041 with 6024173") shows
  /// none of it on any route: /v1/grade, its SSE events, a stored grade. Its time and memory are
  /// buckets and its step has no number; the visible test beside it shows everything.
  @Test func aHiddenTestShowsTheSameLittleOnEveryRoute() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    func steps(_ first: Int, _ second: Int) -> String {
      [
        #"@step {"action": "compare", "pair": [\#(first), \#(second)], "caption": "compare \#(first) with \#(second)"}"#,
        #"@step {"action": "swap", "pair": [\#(second), \#(first)], "caption": "swap \#(first) and \#(second)"}"#,
        #"@step {"action": "done", "pair": [\#(second), \#(first)], "caption": "done: \#(second) \#(first)"}"#,
      ].joined(separator: "\n") + "\n"
    }
    let challenge: [String: Any] = [
      "id": "pairs", "title": "Order a pair", "statement": "Compare, then swap.",
      "checker": ["name": "steps", "options": ["fields": ["action", "pair"]]],
      "tests": [
        ["name": "sample", "stdin": "5 3\n", "expected_steps": steps(5, 3)],
        [
          "name": "secret", "stdin": "7319041 6024173\n", "expected_steps": steps(7_319_041, 6_024_173), "hidden": true,
        ],
      ],
    ]
    // Compares twice instead of swapping; echoes its input on stderr and stdout.
    let program = """
      import sys
      a, b = map(int, sys.stdin.read().split())
      sys.stderr.write(f"input {a} {b}\\n")
      print('@step {"action": "compare", "pair": [%d, %d]}' % (a, b))
      print('@step {"action": "compare", "pair": [%d, %d]}' % (b, a))
      print('@step {"action": "done", "pair": [%d, %d]}' % (b, a))
      print("read", a, b)

      """
    let body: [String: Any] = ["language": "python", "source": program, "challenge": challenge]
    let secrets = ["7319041", "6024173"]

    func checkTests(_ tests: [[String: Any]], route: String) {
      #expect(tests.count == 2, "\(route)")
      guard tests.count == 2 else { return }
      let (sample, secret) = (tests[0], tests[1])
      #expect(secret["hidden"] as? Bool == true && secret["verdict"] as? String == "wrong_answer", "\(route)")
      #expect(secret["time"] is String && secret["memory"] is String, "\(route)")
      #expect(secret["cpu_ms"] == nil && secret["wall_ms"] == nil && secret["memory_kb"] == nil, "\(route)")
      #expect(
        secret["first_difference"] as? [String: String] == ["kind": "a swap", "caption": "Swap two items."],
        "\(route)")
      #expect(secret["score"] as? Double == 0.25, "\(route)")
      // The visible test keeps everything.
      let shown = sample["first_difference"] as? [String: Any]
      #expect(shown?["step"] as? Int == 2 && shown?["caption"] as? String == "swap 5 and 3", "\(route)")
      #expect(sample["cpu_ms"] is Int && sample["stderr"] as? String == "input 5 3\n", "\(route)")
      // What the CLI shows of the first failing visible test, and nothing of the hidden one.
      let details = sample["details"] as? [String: Any]
      #expect(details?["input"] as? String == "5 3\n", "\(route)")
      #expect(details?["output"] as? String == "read 5 3\n", "\(route)")
      #expect(details?["expected_output"] is NSNull, "steps only: no one right output, \(route)")
      let lastMatching = details?["last_matching_step"] as? [String: Any]
      #expect(lastMatching?["action"] as? String == "compare" && lastMatching?["pair"] as? [Int] == [5, 3], "\(route)")
      #expect(secret["details"] == nil, "\(route)")
    }

    let graded = try post(daemon, "/v1/grade", body)
    #expect(graded.status == 200, "\(graded.body)")
    for secret in secrets { #expect(!graded.body.contains(secret), "\(graded.body)") }
    checkTests(try #require(graded.json["tests"] as? [[String: Any]]), route: "/v1/grade")

    let data = try JSONSerialization.data(withJSONObject: body)
    let streamed = try curl(
      daemon.baseURL + "/v1/grade",
      [
        "-X", "POST", "-H", "Content-Type: application/json", "-H", "Accept: text/event-stream",
        "--data-binary", String(decoding: data, as: UTF8.self),
      ], timeout: 120)
    #expect(streamed.status == 200 && streamed.headers["content-type"] == "text/event-stream", "\(streamed.body)")
    for secret in secrets { #expect(!streamed.body.contains(secret), "\(streamed.body)") }
    var events: [(name: String, data: [String: Any])] = []
    var name = ""
    for line in streamed.body.split(separator: "\n") {
      if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
      if line.hasPrefix("data: "),
        let object = try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any]
      {
        events.append((name, object))
      }
    }
    checkTests(events.filter { $0.name == "test" }.map { $0.data.filter { $0.key != "index" } }, route: "SSE test")
    let result = try #require(events.first { $0.name == "result" }?.data)
    checkTests(try #require(result["tests"] as? [[String: Any]]), route: "SSE result")

    let stored = try post(daemon, "/v1/submissions?wait=30", body, timeout: 60)
    #expect(stored.status == 200, "\(stored.body)")
    for secret in secrets { #expect(!stored.body.contains(secret), "\(stored.body)") }
    let storedResult = try #require(stored.json["result"] as? [String: Any])
    checkTests(try #require(storedResult["tests"] as? [[String: Any]]), route: "stored")
    #expect(try daemon.stop() == 0)
  }
}
