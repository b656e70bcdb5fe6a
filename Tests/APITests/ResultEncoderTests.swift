import Foundation
import Grading
import Testing
import Wire

@testable import API
@testable import Runners
@testable import Sandbox

@Suite struct ResultEncoderTests {
  private func outcome(_ status: Status, stdout: String = "") -> Outcome {
    Outcome(
      status: status, message: "", exitCode: 0, signal: nil, stdout: Data(stdout.utf8), stderr: Data(),
      stdoutTruncated: false, stderrTruncated: false, cpuMilliseconds: 12, wallMicroseconds: 20_400,
      memoryKilobytes: 9120, timeLimitKind: nil, accounting: "cgroup-v2")
  }

  /// The keys DESIGN §5 shows; ours may add (the CLI adds `compile_cache`, `steps_message` and
  /// `accounting`) but never drop or rename one.
  @Test func keysMatchTheContract() throws {
    let designResult: Set<String> = ["language", "version", "compile", "run", "steps"]
    let designOutcome: Set<String> = [
      "status", "message", "exit_code", "signal", "stdout", "stderr", "stdout_truncated", "stderr_truncated",
      "cpu_ms", "wall_ms", "memory_kb",
    ]
    let result = ExecuteResult(
      language: "python", version: "3.11.2", compile: nil, run: outcome(.ok, stdout: "@step {\"mid\": 3}\nx\n"),
      compileCacheHit: false, fileNames: ["main.py"])
    let bytes = ResultEncoder.data(ResultEncoder.executeValue(result))
    let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
    #expect(designResult.isSubset(of: Set(object.keys)))
    #expect(Set(object.keys) == ResultEncoder.executeKeys)
    // The CLI prints this same object (it uses ResultEncoder too).
    #expect(ResultEncoder.executeKeys == designResult.union(["compile_cache", "steps_message"]))
    #expect(ResultEncoder.outcomeKeys == designOutcome.union(["accounting"]))
    let run = try #require(object["run"] as? [String: Any])
    #expect(Set(run.keys) == ResultEncoder.outcomeKeys)
    #expect(run["wall_ms"] as? Int == 20)
    #expect(object["compile"] is NSNull)
    #expect(object["compile_cache"] as? String == "none")
    #expect((object["steps"] as? [[String: Any]])?.first?["mid"] as? Int == 3)
  }

  /// Malformed step lines are left out of an execute result (grading judges them, replay skips them),
  /// and a printed caption comes back as a field.
  @Test func onlyWellFormedStepsAreReplayed() throws {
    let stdout = "@step {\"i\": 1}\n@step nonsense\n@step [1]\n@step {\"i\": 2, \"caption\": \"two\"}\n"
    let result = ExecuteResult(
      language: "python", version: "3", compile: nil, run: outcome(.ok, stdout: stdout), compileCacheHit: false,
      fileNames: ["main.py"])
    let text = String(decoding: ResultEncoder.data(ResultEncoder.executeValue(result)), as: UTF8.self)
    #expect(text.contains(#""steps":[{"i":1},{"caption":"two","i":2}],"#))
  }

  /// What Foundation's parser reads comes back as the same JSON: 1 stays a number, true a boolean.
  @Test func foundationTreesConvertFaithfully() throws {
    let text = #"{"a":[1,true,0,false,2.5,-3],"b":null,"c":"x"}"#
    let tree = try JSONSerialization.jsonObject(with: Data(text.utf8))
    #expect(String(decoding: ResultEncoder.data(tree), as: UTF8.self) == text)
    let native: [String: Any] = ["a": [1, true, 0, false, 2.5, -3] as [Any], "b": NSNull(), "c": "x"]
    #expect(String(decoding: ResultEncoder.data(native), as: UTF8.self) == text)
  }

  /// The hand-written writer escapes what JSON requires and round-trips through Foundation's parser.
  @Test func writerEscapesAndRoundTrips() throws {
    let awkward = "quote \" backslash \\ newline \n tab \t bell \u{07} nul \u{00} slash / é 🦀"
    let bytes = ResultEncoder.data(
      ["text": .string(awkward), "n": 1.5, "big": 1e300, "list": [true, nil]] as JSONValue)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains(#"\u0007"#) && text.contains(#"\u0000"#) && text.contains("/ é 🦀"))
    let decoded = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
    #expect(decoded["text"] as? String == awkward)
    #expect(decoded["n"] as? Double == 1.5)
    #expect(text.hasPrefix(#"{"big":1e+300,"list":[true,null],"n":1.5,"#))
  }

  @Test func compileOnlyResult() throws {
    var failed = outcome(.compileError)
    failed.exitCode = 1
    failed.signal = SIGSEGV
    failed.timeLimitKind = .wall
    let result = ExecuteResult(
      language: "cpp", version: "12", compile: failed, run: nil, compileCacheHit: false, fileNames: ["main.cpp"])
    let text = String(decoding: ResultEncoder.data(ResultEncoder.executeValue(result)), as: UTF8.self)
    #expect(text.contains(#""run":null"#))
    #expect(text.contains(#""steps":[]"#))
    #expect(text.contains(#""compile_cache":"miss""#))
    #expect(text.contains(#""signal":"SIGSEGV""#))
    #expect(text.contains(#""time_limit_kind":"wall""#))
    // Sorted keys, as the CLI prints them.
    #expect(text.hasPrefix(#"{"compile":{"accounting":"cgroup-v2","cpu_ms":12"#))
  }

  @Test func errorJSONShape() throws {
    let error = APIError.unknownLanguage("cobol", known: ["cpp", "python"])
    let response = error.response
    #expect(response.status.code == 400)
    #expect(response.headers["Content-Type"] == "application/json")
    #expect(
      String(decoding: response.body, as: UTF8.self)
        == #"{"error":{"code":"unknown_language","known":["cpp","python"],"message":"unknown language \"cobol\""}}"#)
    let plain = APIError.notFound("/x").response
    #expect(
      String(decoding: plain.body, as: UTF8.self) == #"{"error":{"code":"not_found","message":"no route for /x"}}"#)
  }

  @Test(arguments: [
    (APIError.badRequest("x"), 400, "bad_request"),
    (APIError.unknownField("x"), 400, "unknown_field"),
    (APIError.unknownLanguage("x", known: []), 400, "unknown_language"),
    (APIError.notFound("/x"), 404, "not_found"),
    (APIError.methodNotAllowed("GET", path: "/x", allowed: ["POST"]), 405, "method_not_allowed"),
    (APIError.unsupportedMediaType(nil), 415, "unsupported_media_type"),
    (APIError.payloadTooLarge(size: 2, maximum: 1), 413, "payload_too_large"),
    (APIError.busy("x", retryAfterSeconds: 0), 503, "busy"),
    (APIError.unauthorized("x"), 401, "unauthorized"),
    (APIError.internalError("x"), 500, "internal_error"),
  ])
  func errorStatuses(error: APIError, code: Int, name: String) {
    #expect(error.status.code == code)
    #expect(error.code == name)
    let headers = error.response.headers
    switch code {
    case 405: #expect(headers["Allow"] == "POST")
    case 503: #expect(headers["Retry-After"] == "1")
    case 401: #expect(headers["WWW-Authenticate"] == "Bearer realm=\"dsa-run\"")
    default: break
    }
  }

  @Test func executeErrorsMapToTheirCodes() {
    #expect(APIError.from(.badFiles("two files")).code == "bad_request")
    #expect(APIError.from(.unknownPolicy("x")).status.code == 500)
    let missing = APIError.from(
      .toolchainMissing(language: "go", version: "1.19", path: "/usr/lib/go/bin/go", install: "apt-get install golang"))
    #expect(missing.code == "runtime_unavailable")
    #expect(!missing.message.contains("/usr"))
    let sandbox = APIError.from(.sandbox(SandboxError(step: "write uid_map", errorNumber: EACCES, hint: "/proc/x")))
    #expect(sandbox.message == "the sandbox failed at write uid_map: EACCES")
  }
}
