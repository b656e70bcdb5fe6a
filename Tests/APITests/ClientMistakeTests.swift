import Foundation
import HTTP
import Runners
import Sandbox
import SandboxTesting
import Testing

@testable import API

/// A caller's mistake is a 400 naming the field, never a 500 from deep in the sandbox; an
/// internal_error never shows a host path.
@Suite struct ClientMistakeTests {
  private func body(_ object: [String: Any]) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
  }

  private func execute(_ router: APIRouter, _ object: [String: Any]) throws -> HTTPResponse {
    router.handle(executeRequest(try body(object)))
  }

  private func expectRefused(
    _ response: HTTPResponse, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(response.status.code == 400, "\(response.text)", sourceLocation: sourceLocation)
    #expect(response.error?.code == "bad_request", sourceLocation: sourceLocation)
    #expect(response.error?.message == message, "\(response.text)", sourceLocation: sourceLocation)
  }

  /// (Every language has a driver now; FunctionChallengeTests refuses one without by name.)
  @Test func aFunctionChallengeWithTwoFilesIsRefusedBeforeItRuns() throws {
    let router = makeFakeRouter()
    let challenge: [String: Any] = [
      "title": "t", "statement": "s",
      "function": ["name": "solve", "params": [["name": "n", "type": "int"]], "returns": "int"],
      "tests": [["args": ["n": 1], "expected": 2]],
    ]
    let twoFiles = router.handle(
      request(
        "POST", "/v1/grade",
        body: try body([
          "language": "python", "challenge": challenge,
          "files": [["name": "a.py", "content": "x = 1"], ["name": "b.py", "content": "y = 2"]],
        ]), headers: [("Content-Type", "application/json")]))
    expectRefused(twoFiles, "a function challenge takes one file, the one holding solve; got 2")
    #expect(router.service.queue.inFlight == 0 && router.service.queue.depth == 0)
  }

  @Test func anArgumentWithNULNamesItsIndex() throws {
    let router = makeRouter()
    let response = try execute(router, ["language": "python", "source": "print(1)", "args": ["a", "b", "c\u{0}d"]])
    expectRefused(response, "args[2]: contains a NUL byte")
    // Refused before a slot was taken.
    #expect(router.service.queue.inFlight == 0 && router.service.queue.depth == 0)
  }

  @Test func tooManyOrTooLargeArguments() throws {
    let router = makeRouter()
    let many = try execute(
      router, ["language": "python", "source": "print(1)", "args": Array(repeating: "x", count: 4097)])
    expectRefused(many, "args: 4097 arguments; at most 1024 are accepted")
    let large = try execute(
      router,
      [
        "language": "python", "source": "print(1)",
        "args": Array(repeating: String(repeating: "y", count: 1023), count: 257),
      ])
    expectRefused(large, "args: the arguments total 263168 bytes; at most 131072 are accepted")
    // At the bounds exactly, the program runs and sees them all.
    let atBound = try execute(
      router,
      [
        "language": "python", "source": "import sys\nprint(len(sys.argv) - 1, sum(map(len, sys.argv[1:])))",
        "args": Array(repeating: String(repeating: "z", count: 127), count: 1024),
      ])
    #expect(atBound.status == .ok, "\(atBound.text)")
    let run = try #require(atBound.object["run"] as? [String: Any])
    #expect(run["stdout"] as? String == "1024 130048\n", "\(run)")
  }

  @Test func aFileAndADirectoryOfTheSameName() throws {
    let router = makeRouter()
    let response = try execute(
      router,
      [
        "language": "python",
        "files": [
          ["name": "main.py", "content": "print(1)"], ["name": "a", "content": ""], ["name": "a/b", "content": ""],
        ],
      ])
    expectRefused(response, "files[2].name: \"a/b\" needs a directory \"a\", but files[1] is a file of that name")
    // The main file keeps its runner's name (main.py), so main.py/x clashes with it.
    let underMain = try execute(
      router,
      [
        "language": "python",
        "files": [["name": "prog", "content": "print(1)"], ["name": "main.py/x", "content": ""]],
      ])
    expectRefused(
      underMain, "files[1].name: \"main.py/x\" needs a directory \"main.py\", but files[0] is a file of that name")
    let badName = try execute(
      router,
      [
        "language": "python",
        "files": [["name": "main.py", "content": "print(1)"], ["name": "a\u{0}b", "content": ""]],
      ])
    expectRefused(badName, "files[1].name: a file name contains a NUL byte")
  }

  @Test func nulInStdinAndSourceReachesTheProgram() throws {
    let router = makeRouter()
    let stdin = try execute(
      router,
      ["language": "python", "source": "import sys\nprint(sys.stdin.buffer.read().count(0))", "stdin": "a\u{0}b\u{0}"])
    #expect(stdin.status == .ok, "\(stdin.text)")
    #expect((stdin.object["run"] as? [String: Any])?["stdout"] as? String == "2\n")
    // A source with NUL is written as it is: what the toolchain makes of it is the program's result.
    let source = try execute(router, ["language": "python", "source": "print(1)\n\u{0}"])
    #expect(source.status == .ok, "\(source.text)")
    #expect((source.object["run"] as? [String: Any])?["status"] as? String != "internal_error")
  }

  /// 900 KiB of stdin to a program that never reads it: the pipe closes under the writer, which
  /// must see EPIPE, not die of SIGPIPE (this test process did, and so did the CLI with exit 141).
  @Test func aProgramThatIgnoresItsStdinEndsNormally() throws {
    let response = try execute(
      makeRouter(), ["language": "python", "source": "print(1)", "stdin": String(repeating: "x", count: 900 << 10)])
    #expect(response.status == .ok, "\(response.text)")
    #expect((response.object["run"] as? [String: Any])?["stdout"] as? String == "1\n")
  }

  @Test func internalErrorsNeverShowAHostPath() throws {
    let logs = LogCollector()
    var configuration = APIConfiguration(slots: 1)
    configuration.logSink = logs.sink
    let failing = FakeEnvironmentPool { _ throws(SandboxError) in
      throw SandboxError(
        step: "write /sys/fs/cgroup/system.slice/dsa-rund.service/box-7/memory.max", errorNumber: EBUSY)
    }
    let router = APIRouter(executor: TestExecutors.fake(failing), configuration: configuration)
    let response = try execute(router, ["language": "python", "source": "print(1)"])
    #expect(response.status.code == 500)
    #expect(response.error?.code == "internal_error")
    #expect(!response.text.contains("/"), "\(response.text)")
    #expect(response.error?.message.contains(response.headers["X-Request-Id"] ?? "?") == true)
    #expect(logs.all.first?.detail?.contains("/sys/fs/cgroup/system.slice") == true)
  }
}
