import Foundation
import HTTP
import Runners
import Sandbox
import SandboxTesting
import Testing

@testable import API

/// The Jobe REST API through the router and the run service over the fake environment
/// (docs/compat.md, "Jobe"): outcomes as Jobe decides them from what a run printed, files, keys,
/// the overload answer and Jobe's error answers. No kernel, no root.
@Suite struct JobeRouterTests {
  static let base = "/jobe/index.php/restapi"

  static func router(
    _ pool: FakeEnvironmentPool = FakeEnvironmentPool(), slots: Int = 2, maximumQueued: Int? = nil,
    configure: (inout APIConfiguration) -> Void = { _ in }
  ) -> APIRouter {
    makeFakeRouter(pool, slots: slots, maximumQueued: maximumQueued) {
      $0.jobe = JobeSettings()
      configure(&$0)
    }
  }

  static func run(_ spec: String, headers: [(String, String)] = []) -> HTTPRequest {
    request(
      "POST", base + "/runs", body: #"{"run_spec": \#(spec)}"#,
      headers: [("Content-Type", "application/json; charset=utf-8")] + headers)
  }

  static func python(_ extra: String = "") -> String {
    #"{"language_id": "python3", "sourcecode": "print(1)"\#(extra)}"#
  }

  /// The outcome, stdout, stderr and cmpinfo of a python3 run the fake answers with `fake`.
  static func outcome(_ fake: FakeRun, language: String = "python3") -> [String: Any] {
    let pool = FakeEnvironmentPool { _ in fake }
    let response = router(pool).handle(run(#"{"language_id": "\#(language)", "sourcecode": "x"}"#))
    return response.object
  }

  @Test func languagesAreIdVersionPairsInJobesOrderWithOursUnderTheirNames() throws {
    let response = Self.router().handle(request("GET", Self.base + "/languages"))
    #expect(response.status == .ok)
    #expect(response.headers["Content-Type"] == "application/json; charset=UTF-8")
    let pairs = try #require(try JSONSerialization.jsonObject(with: response.body) as? [[String]])
    #expect(pairs.allSatisfy { $0.count == 2 && !$0[1].isEmpty })
    let ids = pairs.map { $0[0] }
    #expect(ids == ids.sorted())
    #expect(ids.contains("python3"))
    #expect(!ids.contains("python") && !ids.contains("pascal") && !ids.contains("php"))
    if isAvailable("javascript") { #expect(ids.contains("nodejs") && ids.contains("javascript")) }
    // A trailing slash is Jobe's too.
    #expect(Self.router().handle(request("GET", Self.base + "/languages/")).status == .ok)
  }

  @Test func aRunGoesThroughTheRunServiceWithJobesStdinArgumentsAndLimits() throws {
    let pool = FakeEnvironmentPool { command in
      FakeRun(stdout: "read " + String(decoding: command.stdin, as: UTF8.self))
    }
    let response = Self.router(pool).handle(
      Self.run(Self.python(#", "input": "1 2\n", "parameters": {"runargs": ["a b", "\"q u\""], "cputime": 3}"#)))
    #expect(response.status == .ok, "\(response.text)")
    #expect(response.text == #"{"run_id":null,"outcome":15,"cmpinfo":"","stdout":"read 1 2\n","stderr":""}"#)
    let record = try #require(pool.records.first)
    #expect(Array(record.argv.suffix(3)) == ["a", "b", "q u"])
    #expect(record.stdin == Data("1 2\n".utf8))
    #expect(record.limits.cpuTimeMilliseconds == 3000)
    #expect(record.limits.wallTimeMilliseconds == 6000)
    #expect(record.limits.outputBytesPerStream == 2000 << 10)
    #expect(record.files.values.contains(Data("print(1)".utf8)))
  }

  @Test func theOutcomeIsDecidedByStderrNotTheExitStatus() {
    // Any stderr is a runtime error, even with exit 0.
    let warned = Self.outcome(FakeRun(stdout: "out", stderr: "warning\n"))
    #expect(warned["outcome"] as? Int == 12)
    #expect(warned["stderr"] as? String == "warning\n")
    #expect(warned["stdout"] as? String == "out")
    // A failing exit status with nothing on stderr is a success.
    let exited = Self.outcome(FakeRun(exitCode: 3, stdout: "partial"))
    #expect(exited["outcome"] as? Int == 15)
    #expect(exited["stdout"] as? String == "partial")
    // A death by signal is reported on stderr, as Jobe's sh wrapper does.
    let crashed = Self.outcome(FakeRun(signal: 11))
    #expect(crashed["outcome"] as? Int == 12)
    #expect(crashed["stderr"] as? String == "Segmentation fault\n")
    // A program that says "time limit exceeded" on stderr itself is a time limit, its stderr
    // cleared; Jobe's pattern is case-sensitive.
    let said = Self.outcome(FakeRun(stdout: "x", stderr: "oops: timelimit exceeded\n"))
    #expect(said["outcome"] as? Int == 13)
    #expect(said["stderr"] as? String == "")
    #expect(Self.outcome(FakeRun(stderr: "Time limit exceeded\n"))["outcome"] as? Int == 12)
  }

  @Test func aTimeLimitIsThirteenWithStdoutKeptAndStderrCleared() {
    var fake = FakeRun(signal: 9, stdout: "start\n", stderr: "noise\n")
    fake.killedForCPUTime = true
    let timed = Self.outcome(fake)
    #expect(timed["outcome"] as? Int == 13)
    #expect(timed["stdout"] as? String == "start\n")
    #expect(timed["stderr"] as? String == "")
    var wall = FakeRun(signal: 9)
    wall.killedForWallTime = true
    #expect(Self.outcome(wall)["outcome"] as? Int == 13)
  }

  @Test func runningOutOfMemoryIsARuntimeErrorAsJobeNeverAnswersSeventeen() {
    var fake = FakeRun(signal: 9)
    fake.memoryLimitHit = true
    let result = Self.outcome(fake)
    #expect(result["outcome"] as? Int == 12)
    #expect((result["stderr"] as? String)?.isEmpty == false)
  }

  @Test func aPythonSyntaxErrorInTheProgramIsACompilationError() {
    let stderr = "  File \"prog.py\", line 1\n    print(\n         ^\nSyntaxError: '(' was never closed\n"
    let result = Self.outcome(FakeRun(exitCode: 1, stderr: stderr))
    #expect(result["outcome"] as? Int == 11)
    #expect(result["cmpinfo"] as? String == stderr)
    #expect(result["stderr"] as? String == "")
    // One raised while running (an import, exec) comes with a traceback: a runtime error.
    let raised = Self.outcome(FakeRun(exitCode: 1, stderr: "Traceback (most recent call last):\n" + stderr))
    #expect(raised["outcome"] as? Int == 12)
  }

  @Test(.enabled(if: isAvailable("cpp")))
  func aFailedCompileIsElevenWithTheCompilersWords() {
    let pool = FakeEnvironmentPool { command in
      command.spec.command.contains { $0.hasSuffix("g++") || $0.contains("g++-") }
        ? FakeRun(exitCode: 1, stderr: "prog.cpp:1:1: error: expected ';'\n") : FakeRun(stdout: "ran")
    }
    let response = Self.router(pool).handle(Self.run(#"{"language_id": "cpp", "sourcecode": "int main() {}"}"#))
    #expect(response.object["outcome"] as? Int == 11, "\(response.text)")
    #expect(response.object["cmpinfo"] as? String == "prog.cpp:1:1: error: expected ';'\n")
    #expect(response.object["stdout"] as? String == "")
    #expect(pool.records.count == 1)
  }

  @Test(.enabled(if: isAvailable("c")))
  func compileargsReachTheCompilerThroughTheAllowList() throws {
    let pool = FakeEnvironmentPool { command in
      command.spec.command.contains { $0.contains("gcc") } ? FakeRun(leaves: ["main": Data("exe".utf8)]) : FakeRun()
    }
    let router = Self.router(pool)
    let allowed = router.handle(
      Self.run(
        #"{"language_id": "c", "sourcecode": "int main(void) {}", "parameters": {"compileargs": ["-std=c89 -Wall"]}}"#))
    #expect(allowed.object["outcome"] as? Int == 15, "\(allowed.text)")
    let compile = try #require(pool.records.first?.argv)
    #expect(compile.contains("-std=c89") && compile.contains("-Wall"), "\(compile)")
    // A word gcc would take as a file name (testsubmit.py's "std=c89"), or an option we do not let
    // through: a compile error naming it, and nothing runs.
    let before = pool.records.count
    let refused = router.handle(
      Self.run(#"{"language_id": "c", "sourcecode": "int main(void) {}", "parameters": {"compileargs": ["std=c89"]}}"#))
    #expect(refused.status == .ok)
    #expect(refused.object["outcome"] as? Int == 11)
    #expect((refused.object["cmpinfo"] as? String)?.contains("\"std=c89\"") == true, "\(refused.text)")
    #expect(pool.records.count == before)
    // Other languages' compileargs are ignored.
    let python = router.handle(Self.run(Self.python(#", "parameters": {"compileargs": ["-x"]}"#)))
    #expect(python.object["outcome"] as? Int == 15)
  }

  @Test func inputZeroGivesTheProgramNoStdin() throws {
    let pool = FakeEnvironmentPool()
    _ = Self.router(pool).handle(Self.run(Self.python(#", "input": "0""#)))
    #expect(try #require(pool.records.first).stdin.isEmpty)
  }

  @Test func theOverloadProbeAndABusyServerAreOutcome21WithHTTP200() {
    let router = Self.router(slots: 1, maximumQueued: 0)
    let probe = router.handle(
      Self.run(#"{"language_id": "python3", "sourcecode": "!** TESTING OVERLOAD EXCEPTION **!"}"#))
    #expect(probe.status == .ok)
    #expect(probe.text == #"{"run_id":"0","outcome":21,"cmpinfo":"","stdout":"","stderr":""}"#)
    #expect(router.service.queue.acquire(timeout: .seconds(5)) == .admitted)
    defer { router.service.queue.release() }
    let busy = router.handle(Self.run(Self.python()))
    #expect(busy.status == .ok)
    #expect(busy.object["outcome"] as? Int == 21)
    #expect(busy.object["run_id"] as? String == "0")
  }

  @Test func filesArePutHeadedAndCopiedIntoTheRunUnderTheirNames() throws {
    let pool = FakeEnvironmentPool()
    let router = Self.router(pool)
    let put = router.handle(
      request("PUT", Self.base + "/files/abcdef0123", body: #"{"file_contents": "aGVsbG8="}"#))
    #expect(put.status == .noContent)
    #expect(put.body.isEmpty)
    #expect(router.handle(request("HEAD", Self.base + "/files/abcdef0123")).status == .noContent)
    #expect(router.handle(request("HEAD", Self.base + "/files/nosuchfile")).status == .notFound)
    let ran = router.handle(Self.run(Self.python(#", "file_list": [["abcdef0123", "data.txt"]]"#)))
    #expect(ran.object["outcome"] as? Int == 15, "\(ran.text)")
    #expect(try #require(pool.records.first).files["data.txt"] == Data("hello".utf8))
    // A file of the source's name replaces the source, as Jobe writes files after it.
    _ = router.handle(
      Self.run(Self.python(#", "sourcefilename": "data.txt", "file_list": [["abcdef0123", "data.txt"]]"#)))
    #expect(pool.records.last?.files.values.contains(Data("print(1)".utf8)) == false)
    // A file the cache does not hold: 404, so CodeRunner PUTs its files again.
    let missing = router.handle(Self.run(Self.python(#", "file_list": [["0123456789", "x.txt"]]"#)))
    #expect(missing.status == .notFound)
    #expect(missing.text == #""One or more of the specified files is missing/unavailable""#)
  }

  @Test func filePutErrorsAreJobes() {
    let router = Self.router()
    func put(_ id: String, _ body: String) -> HTTPResponse {
      router.handle(request("PUT", Self.base + "/files/" + id, body: body))
    }
    #expect(put("abc", #"{"other": 1}"#).text == #""put: missing file_contents parameter""#)
    #expect(put("abc", #"{"other": 1}"#).status == .badRequest)
    #expect(put("abc", #"{"file_contents": "!!"}"#).text == #""put: contents of file abc are not valid base-64""#)
    let notJSON = put("abc", "file_contents=x")
    #expect(notJSON.status == .internalServerError)
    #expect(notJSON.text == #""""#)
    // No GET of a file, and an id Jobe's route refuses: its framework's 404.
    #expect(router.handle(request("GET", Self.base + "/files/abc")).status == .notFound)
    #expect(put("a-b", #"{"file_contents": ""}"#).status == .notFound)
  }

  @Test func unknownPathsAndMethodsAreTheFrameworks404() {
    let router = Self.router()
    for (method, path) in [
      ("GET", "/runs"), ("GET", "/runs/1"), ("POST", "/files"), ("DELETE", "/files/abc"), ("GET", "/nope"),
    ] {
      let response = router.handle(request(method, Self.base + path))
      #expect(response.status == .notFound, "\(method) \(path)")
      #expect(response.text == #""""#, "\(method) \(path)")
    }
  }

  @Test func errorsAreBareJSONStrings() {
    let router = Self.router()
    let unknown = router.handle(Self.run(#"{"language_id": "pascal", "sourcecode": "x"}"#))
    #expect(unknown.status == .badRequest)
    #expect(unknown.text == #""Language 'pascal' is not known""#)
    #expect(unknown.headers["Content-Type"] == "application/json; charset=UTF-8")
    let broken = router.handle(request("POST", Self.base + "/runs/", body: "{"))
    #expect(broken.status == .internalServerError)
    #expect(broken.text == #""Server exception (Failed to parse JSON string. Error: Syntax error)""#)
  }

  @Test func keysAreBearerTokensSentAsXAPIKEY() {
    let router = Self.router { $0.bearerTokens = ["key-one", "key-two"] }
    let missing = router.handle(Self.run(Self.python()))
    #expect(missing.status.code == 403)
    #expect(missing.text == "Missing API key")
    let wrong = router.handle(Self.run(Self.python(), headers: [("X-API-KEY", "guess")]))
    #expect(wrong.status.code == 403)
    #expect(wrong.text == "Unknown API key")
    #expect(router.handle(Self.run(Self.python(), headers: [("X-API-KEY", "key-one")])).status == .ok)
    #expect(router.handle(Self.run(Self.python(), headers: [("Authorization", "Bearer key-two")])).status == .ok)
    #expect(router.handle(request("GET", Self.base + "/languages", headers: [("X-API-KEY", "key-one")])).status == .ok)
    // Each key has its own files: one tenant cannot replace the file another's runs read.
    let body = #"{"file_contents": "aGVsbG8="}"#
    let put = router.handle(
      request("PUT", Self.base + "/files/abcdef0123", body: body, headers: [("X-API-KEY", "key-one")]))
    #expect(put.status == .noContent)
    #expect(
      router.handle(request("HEAD", Self.base + "/files/abcdef0123", headers: [("X-API-KEY", "key-one")])).status
        == .noContent)
    #expect(
      router.handle(request("HEAD", Self.base + "/files/abcdef0123", headers: [("X-API-KEY", "key-two")])).status
        == .notFound)
  }

  @Test func aKeysQuotaIsJobes429() {
    let router = Self.router {
      $0.bearerTokens = ["key-one"]
      $0.rateLimit = RateLimiter.Policy(quota: 1, windowSeconds: 3600)
    }
    let key = [("X-API-KEY", "key-one")]
    #expect(router.handle(Self.run(Self.python(), headers: key)).status == .ok)
    let refused = router.handle(Self.run(Self.python(), headers: key))
    #expect(refused.status.code == 429)
    #expect(refused.text == "Max RUN rate for this server exceeded")
    #expect(refused.headers["Retry-After"] != nil)
  }

  @Test func runsAreCountedUnderJobesOwnLabels() {
    let log = LogCollector()
    let router = Self.router { $0.logSink = log.sink }
    _ = router.handle(Self.run(Self.python()))
    #expect(log.all.last?.route == "jobe:/runs")
    #expect(log.all.last?.language == "python")
  }

  @Test func offByConfigurationTheJobePathsAreNotServed() {
    let router = makeFakeRouter()
    let response = router.handle(Self.run(Self.python()))
    #expect(response.status == .notFound)
    #expect(response.error?.code == "not_found")
  }
}
