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
    #expect(tests.count == 8 && tests.allSatisfy { $0["verdict"] as? String == "skipped" }, "\(tests)")
    #expect(graded.json["verdict"] as? String == "time_limit")
    let wall = try #require(graded.json["wall_ms"] as? Int)
    // Generous against 1.5 s; without the budget, 8 x 8 s.
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
    if let difference = reversed["first_difference"] as? [String: Any] {
      #expect(difference["expected"] is NSNull && difference["actual"] is NSNull)
    }
    // reversed.in is "6\n9 7 5 3 1 -1": not its numbers in any order or form.
    let hiddenParts = tests.filter { $0["hidden"] as? Bool == true }
    let text = String(decoding: try JSONSerialization.data(withJSONObject: hiddenParts), as: UTF8.self)
    for secret in ["9 7 5", "9,7,5", "-1", "2147483647", "INPUT"] { #expect(!text.contains(secret), "\(text)") }
    // A visible test still shows everything.
    let sample = try #require(tests.first { $0["name"] as? String == "sample" })
    #expect((sample["stderr"] as? String)?.hasPrefix("INPUT ") == true)
  }
}
