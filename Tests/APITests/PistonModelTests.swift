import Foundation
import HTTP
import SandboxTesting
import Testing
import Wire

@testable import API
@testable import Runners
@testable import Sandbox

/// Piston v2's pure parts: versions and node-semver ranges, encodings, forms, the 400 words in
/// v2.js's order, the result's stages, and the arrival order behind `output`. Fake boxes only.
@Suite struct PistonModelTests {
  @Test func toolchainVersionsBecomePlainVersions() {
    #expect(PistonVersion(toolchain: "2.3.10-RC-release-444")?.description == "2.3.10")
    #expect(PistonVersion(toolchain: "1.27")?.description == "1.27.0")
    #expect(PistonVersion(toolchain: "17")?.description == "17.0.0")
    #expect(PistonVersion(toolchain: "12.2.0")?.description == "12.2.0")
    #expect(PistonVersion(toolchain: "RC1") == nil)
  }

  @Test(arguments: [
    ("*", "2.3.10", true), ("", "1.0.0", true), ("x", "0.1.0", true),
    ("3", "3.11.2", true), ("3", "4.0.0", false), ("3.x", "3.11.2", true), ("3.x", "2.7.18", false),
    ("3.11", "3.11.2", true), ("3.10", "3.11.2", false), ("3.11.2", "3.11.2", true), ("3.11.2", "3.11.3", false),
    ("^3.10", "3.11.2", true), ("^3.10", "4.0.0", false), ("^0.2.3", "0.2.9", true), ("^0.2.3", "0.3.0", false),
    ("~3.11", "3.11.9", true), ("~3.11", "3.12.0", false), (">=1.2 <2", "1.9.9", true), (">=1.2 <2", "2.0.0", false),
    ("> 1.2", "1.3.0", true), ("> 1.2", "1.2.9", false), ("1 - 2", "2.9.0", true), ("1 - 2", "3.0.0", false),
    ("1.x || >=3", "3.1.0", true), ("1.x || >=3", "2.1.0", false), ("abc", "1.0.0", false), ("1.2.3.4", "1.2.3", false),
  ])
  func rangesMatchAsNodeSemverDoes(range: String, version: String, admitted: Bool) throws {
    let candidate = try #require(PistonVersion(toolchain: version))
    #expect(PistonRange(range).admits(candidate) == admitted)
  }

  @Test func hexIsPairsOfDigits() {
    #expect(PistonJob.hexBytes("6f6B") == Data("ok".utf8))
    #expect(PistonJob.hexBytes("6") == nil)
    #expect(PistonJob.hexBytes("zz") == nil)
  }

  @Test func aFormIsReadAsPistonapiSendsIt() {
    let fields = PistonForm.fields(
      Data("language=py&version=*&files=print%28%27a+b%27%29&args=a&args=b+c&run_timeout=500&timeout=10000".utf8))
    #expect(fields["files"] == .array([.object(["content": "print('a b')"])]))
    #expect(fields["args"] == .array(["a", "b c"]))
    #expect(fields["run_timeout"] == .number(500))
    #expect(fields["version"] == .string("*"))
  }

  private func answer(_ router: APIRouter, _ body: String, headers: [(String, String)] = []) -> (Int, String) {
    let response = router.handle(request("POST", "/api/v2/execute", body: body, headers: headers))
    return (response.status.code, String(decoding: response.body, as: UTF8.self))
  }

  @Test func limitChecksComeInPistonsOrderWithItsWords() {
    let router = makeFakeRouter()
    let base = #""language": "python", "version": "*", "files": [{"content": "print(1)"}]"#
    let json = [("Content-Type", "application/json")]
    #expect(
      answer(router, "{\(base), \"run_timeout\": \"x\", \"compile_memory_limit\": \"y\"}", headers: json)
        == (400, #"{"message":"If specified, compile_memory_limit must be a number"}"#))
    #expect(
      answer(router, "{\(base), \"run_cpu_time\": 10001}", headers: json)
        == (400, #"{"message":"run_cpu_time cannot exceed the configured limit of 10000"}"#))
    #expect(
      answer(router, "{\(base), \"run_timeout\": -2}", headers: json)
        == (400, #"{"message":"run_timeout must be non-negative"}"#))
    #expect(
      answer(router, #"{"language": "python", "version": "2.x", "files": []}"#, headers: json)
        == (400, #"{"message":"python-2.x runtime is unknown"}"#))
    #expect(
      answer(router, #"{"language": "python", "version": "*", "files": [{"content": "x"}, 3]}"#, headers: json)
        == (400, #"{"message":"files[1].content is required as a string"}"#))
  }

  @Test func limitsReachTheBoxInItsUnits() throws {
    let pool = FakeEnvironmentPool { _ in FakeRun(stdout: "out") }
    let router = makeFakeRouter(pool)
    let (status, body) = answer(
      router,
      #"{"language": "py3", "version": "3", "files": [{"content": "x"}], "run_timeout": 1500, "run_cpu_time": 700, "run_memory_limit": 100000000, "compile_timeout": -1}"#
    )
    #expect(status == 200, "\(body)")
    let limits = try #require(pool.records.first).limits
    #expect(limits.wallTimeMilliseconds == 1500)
    #expect(limits.cpuTimeMilliseconds == 700)
    // 100 000 000 bytes is 95.4 MiB: rounded up to 96.
    #expect(limits.memoryBytes == 96 << 20)
  }

  @Test func theResultHasPistonsStageShape() throws {
    let pool = FakeEnvironmentPool { _ in FakeRun(exitCode: 2, stdout: "o", stderr: "e") }
    let router = makeFakeRouter(pool)
    let (status, body) = answer(router, #"{"language": "python", "version": "*", "files": [{"content": "x"}]}"#)
    #expect(status == 200)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    #expect(object["language"] as? String == "python")
    #expect(object["compile"] == nil)
    let run = try #require(object["run"] as? [String: Any])
    #expect(run["stdout"] as? String == "o")
    #expect(run["output"] as? String == "oe")
    #expect(run["code"] as? Int == 2)
    #expect(run["status"] as? String == "RE")
    #expect(run["message"] as? String == "Exited with error status 2")
    #expect(
      Set(run.keys) == [
        "stdout", "stderr", "output", "code", "signal", "message", "status", "memory", "cpu_time", "wall_time",
      ])
  }

  @Test func pistonCanBeTurnedOff() {
    let router = makeFakeRouter { $0.pistonEnabled = false }
    let response = router.handle(request("GET", "/api/v2/runtimes"))
    #expect(response.status == .notFound)
    #expect(response.object["error"] != nil)
  }

  @Test func arrivalOrderIsKeptAndRenamedChunkByChunk() {
    var output = CapturedOutput()
    for (stream, text) in [(BoxStream.stdout, "a"), (.stdout, "b"), (.stderr, "/box/main.py:1"), (.stdout, "c")] {
      Data(text.utf8).withUnsafeBytes { output.append($0, from: stream) }
    }
    #expect(output.arrival.map(\.stream) == [.stdout, .stderr, .stdout])
    var outcome = Outcome(BoxEnding(limits: BoxLimits()), output: output, accounting: "fake")
    #expect(outcome.interleavedOutput == Data("ab/box/main.py:1c".utf8))
    outcome.rewriteText(stdout: false) {
      LearnerNames.rewrite($0, names: [LearnerName(box: "main.py", learner: "sum.py")])
    }
    #expect(outcome.interleavedOutput == Data("absum.py:1c".utf8))
    #expect(outcome.stderr == Data("sum.py:1".utf8))
    #expect(outcome.stdout == Data("abc".utf8))
  }
}
