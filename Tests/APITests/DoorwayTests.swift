import Foundation
import Glibc
import HTTP
import Runners
import Sandbox
import SandboxTesting
import Submissions
import Synchronization
import Testing

@testable import API

/// Every doorway keeps every guarantee (docs/security.md, "Doorways"): pages of other sites run no
/// code, every route charges the quota, a grade's runs are charged and bounded like executes, and
/// every route is counted and logged under its own label. Fake boxes: no root.
@Suite struct DoorwayTests {
  static let pythonHello = #"{"language": "python", "source": "print(1)\n"}"#

  func judge0Router(
    _ pool: FakeEnvironmentPool = FakeEnvironmentPool(), configure: (inout APIConfiguration) -> Void = { _ in }
  )
    -> APIRouter
  {
    makeFakeRouter(pool) { configuration in
      configuration.judge0 = Judge0Settings(prefix: "/judge0")
      configuration.jobe = JobeSettings()
      configure(&configuration)
    }
  }

  @Test func aForeignPageRunsNoCodeThroughAnyDoorway() throws {
    let pool = FakeEnvironmentPool()
    let store = try SQLiteStore(path: try makeScratchDirectory() + "/store.db")
    let router = judge0Router(pool) {
      $0.submissions = SubmissionSettings(store: store, workers: SubmissionWorkers.Settings(workers: 1))
    }
    let foreign = ("Origin", "http://evil.example")
    let piston = #"{"language": "python", "version": "*", "files": [{"content": "print(1)"}]}"#
    let upgrade = [
      ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
      ("Sec-WebSocket-Version", "13"), foreign,
    ]
    // "Simple" requests a page may send anywhere without asking: text/plain, forms, no type; and
    // WebSocket handshakes, which no browser preflights. Each would run code if it got through.
    let attempts: [(String, HTTPRequest)] = [
      (
        "/v1/execute",
        request("POST", "/v1/execute", body: Self.pythonHello, headers: [("Content-Type", "text/plain"), foreign])
      ),
      ("/v1/submissions", request("POST", "/v1/submissions", body: Self.pythonHello, headers: [foreign])),
      (
        "/api/v2/execute text/plain",
        request("POST", "/api/v2/execute", body: piston, headers: [("Content-Type", "text/plain"), foreign])
      ),
      ("/api/v2/execute untyped", request("POST", "/api/v2/execute", body: piston, headers: [foreign])),
      (
        "judge0 /submissions",
        request(
          "POST", "/judge0/submissions", body: #"{"source_code": "print(1)", "language_id": 71}"#,
          headers: [("Content-Type", "text/plain"), foreign])
      ),
      ("/v1/connect", request("GET", "/v1/connect", headers: upgrade)),
      ("/api/v2/connect", request("GET", "/api/v2/connect", headers: upgrade)),
      (
        "jobe /runs",
        request(
          "POST", "/jobe/index.php/restapi/runs", body: #"{"run_spec": {"language_id": "python3", "sourcecode": "1"}}"#,
          headers: [("Content-Type", "text/plain"), foreign])
      ),
      (
        "jobe /files/{id}",
        request(
          "PUT", "/jobe/index.php/restapi/files/abcdefgh", body: #"{"file_contents": "MQ=="}"#,
          headers: [("Content-Type", "text/plain"), foreign])
      ),
    ]
    for (name, attempt) in attempts {
      let response = router.handle(attempt)
      #expect(response.status.code == 403, "\(name): \(response.status.code) \(response.text)")
      #expect(response.text.contains("evil.example"), "\(name): \(response.text)")
    }
    #expect(pool.records.isEmpty, "a refused request ran \(pool.records.count) boxes")
    #expect(try store.statistics(now: 0).queued == 0)
    // Piston's and Judge0's refusals keep their own shapes.
    #expect(router.handle(attempts[2].1).object.keys.sorted() == ["message"])
    #expect(router.handle(attempts[4].1).object.keys.sorted() == ["error"])
    #expect(router.handle(attempts[7].1).text.hasPrefix("\""))
    // The same Piston request from no page at all (its clients send no Origin) runs.
    let client = router.handle(
      request("POST", "/api/v2/execute", body: piston, headers: [("Content-Type", "text/plain")]))
    #expect(client.status == .ok, "\(client.text)")
  }

  @Test func theServersOwnPageAndAllowedOriginsAndNonBrowsersAreServed() {
    let router = makeFakeRouter { $0.crossOrigin = CrossOriginPolicy(allowedOrigins: ["https://app.example"]) }
    let json = ("Content-Type", "application/json")
    for headers in [
      [json], [json, ("Origin", "http://127.0.0.1:8080"), ("Host", "127.0.0.1:8080")],
      [json, ("Origin", "https://app.example")],
    ] {
      let response = router.handle(request("POST", "/v1/execute", body: Self.pythonHello, headers: headers))
      #expect(response.status == .ok, "\(headers): \(response.text)")
    }
    // The same host on another port is another origin.
    let otherPort = router.handle(
      request(
        "POST", "/v1/execute", body: Self.pythonHello,
        headers: [json, ("Origin", "http://127.0.0.1:9999"), ("Host", "127.0.0.1:8080")]))
    #expect(otherPort.status.code == 403)
  }

  @Test func everyDoorwayChargesTheQuota() throws {
    let auth = ("Authorization", "Bearer alpha")
    let json = ("Content-Type", "application/json")
    let doorways: [(String, () -> HTTPRequest)] = [
      ("/v1/execute", { request("POST", "/v1/execute", body: Self.pythonHello, headers: [json, auth]) }),
      (
        "/api/v2/execute",
        {
          request(
            "POST", "/api/v2/execute",
            body: #"{"language": "python", "version": "*", "files": [{"content": "print(1)"}]}"#, headers: [json, auth])
        }
      ),
      (
        "/v1/grade",
        {
          request(
            "POST", "/v1/grade",
            body: #"{"language": "python", "source": "print(1)\n", "challenge": {"title": "T", "statement": "S", "#
              + #""checker": {"name": "tokens"}, "tests": [{"stdin": "", "expected_stdout": "1\n"}]}}"#,
            headers: [json, auth])
        }
      ),
      ("/v1/submissions", { request("POST", "/v1/submissions", body: Self.pythonHello, headers: [json, auth]) }),
      (
        "/v1/submissions/batch",
        {
          request(
            "POST", "/v1/submissions/batch", body: #"{"submissions": [\#(Self.pythonHello)]}"#, headers: [json, auth])
        }
      ),
      (
        "judge0 /submissions",
        {
          request(
            "POST", "/judge0/submissions", body: #"{"source_code": "print(1)", "language_id": 71}"#,
            headers: [json, auth])
        }
      ),
      (
        "jobe /runs",
        {
          request(
            "POST", "/jobe/index.php/restapi/runs",
            body: #"{"run_spec": {"language_id": "python3", "sourcecode": "print(1)"}}"#,
            headers: [json, ("X-API-KEY", "alpha")])
        }
      ),
    ]
    for (name, make) in doorways {
      // Each doorway on a fresh quota of one run: the first goes, the second is refused.
      let store = try SQLiteStore(path: try makeScratchDirectory() + "/store.db")
      let fresh = judge0Router { configuration in
        configuration.bearerTokens = ["alpha"]
        configuration.rateLimit = RateLimiter.Policy(quota: 1, windowSeconds: 60)
        configuration.submissions = SubmissionSettings(store: store, workers: SubmissionWorkers.Settings(workers: 1))
      }
      let first = fresh.handle(make())
      #expect((200...202).contains(first.status.code), "\(name): \(first.text)")
      let second = fresh.handle(make())
      #expect(second.status.code == 429, "\(name): \(second.status.code) \(second.text)")
      #expect(second.headers["Retry-After"] != nil, "\(name)")
    }
  }

  @Test func aGradeIsChargedByItsRunsAndGivesBackWhatItDidNotRun() throws {
    let router = makeFakeRouter { configuration in
      configuration.bearerTokens = ["alpha"]
      configuration.rateLimit = RateLimiter.Policy(quota: 5, windowSeconds: 60)
    }
    func grade(tests: Int, stop: Bool) -> HTTPResponse {
      let list = (0..<tests).map { _ in #"{"stdin": "", "expected_stdout": "2\n"}"# }.joined(separator: ",")
      return router.handle(
        request(
          "POST", "/v1/grade",
          body: #"{"language": "python", "source": "print(1)\n", "stop_at_first_failure": \#(stop), "challenge": "#
            + #"{"title": "T", "statement": "S", "checker": {"name": "tokens"}, "tests": [\#(list)]}}"#,
          headers: [("Content-Type", "application/json"), ("Authorization", "Bearer alpha")]))
    }
    // Six runs do not fit in five: refused whole, nothing run.
    let tooMany = grade(tests: 6, stop: false)
    #expect(tooMany.status.code == 429, "\(tooMany.text)")
    // Three tests, stopped at the first (wrong) answer: one run made, one charged.
    let stopped = grade(tests: 3, stop: true)
    #expect(stopped.status == .ok, "\(stopped.text)")
    #expect(stopped.headers["RateLimit"]?.hasPrefix(#""runs";r=4;"#) == true, "\(stopped.headers)")
    let whole = grade(tests: 4, stop: false)
    #expect(whole.headers["RateLimit"]?.hasPrefix(#""runs";r=0;"#) == true, "\(whole.headers)")
  }

  @Test func everyRouteIsCountedAndLoggedUnderItsOwnLabel() {
    let log = LogCollector()
    let router = judge0Router { $0.logSink = log.sink }
    _ = router.handle(request("GET", "/judge0/languages"))
    _ = router.handle(request("GET", "/judge0/statuses"))
    _ = router.handle(request("GET", "/judge0/submissions/0123?fields=*"))
    _ = router.handle(request("GET", "/api/v2/runtimes"))
    _ = router.handle(request("GET", "/api/v2/nowhere"))
    _ = router.handle(request("GET", "/v1/runtimes"))
    _ = router.handle(request("GET", "/jobe/index.php/restapi/languages"))
    _ = router.handle(request("HEAD", "/jobe/index.php/restapi/files/abcdefgh"))
    _ = router.handle(request("GET", "/jobe/index.php/restapi/nowhere"))
    let routes = log.all.map(\.route)
    #expect(
      routes == [
        "judge0:/languages", "judge0:/statuses", "judge0:/submissions/{token}", "/api/v2/runtimes",
        "/api/v2/{unknown}", "/v1/runtimes", "jobe:/languages", "jobe:/files/{id}", "jobe:/{unknown}",
      ], "\(routes)")
    let metrics = router.handle(request("GET", "/metrics")).text
    #expect(metrics.contains(#"dsa_run_http_requests_total{route="judge0:/languages",code="200"} 1"#), "\(metrics)")
    #expect(metrics.contains(#"dsa_run_http_requests_total{route="/api/v2/{unknown}",code="404"} 1"#))
    #expect(!metrics.contains(#"route="other""#))
  }

  @Test func anInternalErrorIsRedactedOnEveryDoorway() {
    let log = LogCollector()
    let pool = FakeEnvironmentPool { _ throws(SandboxError) in
      throw SandboxError(step: "mount /secret/host/path", errorNumber: EPERM)
    }
    let router = judge0Router(pool) { $0.logSink = log.sink }
    let json = ("Content-Type", "application/json")
    for attempt in [
      request("POST", "/v1/execute", body: Self.pythonHello, headers: [json]),
      request(
        "POST", "/api/v2/execute", body: #"{"language": "python", "version": "*", "files": [{"content": "1"}]}"#,
        headers: [json]),
      request(
        "POST", "/jobe/index.php/restapi/runs", body: #"{"run_spec": {"language_id": "python3", "sourcecode": "1"}}"#,
        headers: [json]),
    ] {
      let response = router.handle(attempt)
      #expect(response.status.code == 500, "\(response.text)")
      #expect(!response.text.contains("/secret"), "\(response.text)")
      #expect(response.text.contains("request id"), "\(response.text)")
    }
    #expect(log.all.filter { $0.detail?.contains("/secret/host/path") == true }.count == 3, "\(log.all)")
  }

  @Test func aGradeYieldsTheOnlySlotBetweenItsRuns() throws {
    // Each of the grade's tests takes 300 ms of the only slot; an execute sent while the grade runs
    // waits for one test, not for the grade.
    let pool = FakeEnvironmentPool(parallelism: 1) { command in
      if command.stdin == Data("slow\n".utf8) { Thread.sleep(forTimeInterval: 0.3) }
      return FakeRun(stdout: "1\n")
    }
    let router = makeFakeRouter(pool, slots: 1)
    let tests = (0..<5).map { _ in #"{"stdin": "slow\n", "expected_stdout": "1\n"}"# }.joined(separator: ",")
    let gradeBody =
      #"{"language": "python", "source": "print(1)\n", "challenge": {"title": "T", "statement": "S", "#
      + #""checker": {"name": "tokens"}, "tests": [\#(tests)]}}"#
    let gradeEnded = Mutex<ContinuousClock.Instant?>(nil)
    let graded = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let response = router.handle(
        request("POST", "/v1/grade", body: gradeBody, headers: [("Content-Type", "application/json")]))
      #expect(response.object["verdict"] as? String == "accepted", "\(response.text)")
      gradeEnded.withLock { $0 = .now }
      graded.signal()
    }
    Thread.sleep(forTimeInterval: 0.4)
    let sent = ContinuousClock.now
    let execute = router.handle(
      executeRequest(#"{"language": "python", "source": "print(1)\n", "stdin": "fast\n"}"#))
    let executed = ContinuousClock.now
    graded.wait()
    #expect(execute.status == .ok, "\(execute.text)")
    // The execute ran before the grade's last tests, and waited about one test's run.
    let order = pool.records.map { String(decoding: $0.stdin, as: UTF8.self) }
    let executeIndex = try #require(order.firstIndex(of: "fast\n"))
    #expect(executeIndex < order.count - 2, "\(order)")
    #expect(executed - sent < .milliseconds(900), "the execute waited \(executed - sent)")
    #expect(try #require(gradeEnded.withLock { $0 }) > executed)
  }

  @Test func anInlineGrowthSectionOverTheMaximaIsRefused() {
    let router = makeFakeRouter { $0.maxima.cpuMilliseconds = 3000 }
    let body =
      #"{"language": "python", "source": "print(1)\n", "challenge": {"title": "T", "statement": "S", "#
      + #""checker": {"name": "tokens"}, "tests": [{"stdin": "", "expected_stdout": "1\n"}], "#
      + #""growth": {"sizes": [16, 32, 64], "count": {"actions": ["compare"]}, "budget_ms": 20000, "#
      + #""limits": {"cpu_ms": 14000}, "cases": [{"name": "r", "input": {"shape": "random"}, "expect": ["n"]}]}}}"#
    let response = router.handle(
      request("POST", "/v1/grade", body: body, headers: [("Content-Type", "application/json")]))
    #expect(response.status.code == 400, "\(response.text)")
    #expect(
      response.error?.message == "challenge.growth.limits.cpu_ms is 14000; the maximum is 3000", "\(response.text)")
  }

  @Test func aFileNameThatClashesOnceNamedIsRefusedOnEverySubmitRoute() throws {
    let directory = try makeScratchDirectory()
    let store = try SQLiteStore(path: directory + "/store.db")
    let router = makeFakeRouter { configuration in
      configuration.submissions = SubmissionSettings(store: store, workers: SubmissionWorkers.Settings(workers: 1))
      configuration.judge0 = Judge0Settings(prefix: "/judge0")
    }
    let json = ("Content-Type", "application/json")
    // javac wants a public class in a file of its name: the first file becomes Main.java, which the
    // second is named already.
    let files =
      #"[{"name": "A.java", "content": "public class Main { public static void main(String[] a) {} }"}, "#
      + #"{"name": "Main.java", "content": "class Other {}"}]"#
    let body = #"{"language": "java", "files": \#(files)}"#
    let execute = router.handle(request("POST", "/v1/execute", body: body, headers: [json]))
    #expect(execute.status.code == 400, "\(execute.text)")
    #expect(execute.error?.message.contains("two files are named \"Main.java\"") == true, "\(execute.text)")
    let submit = router.handle(request("POST", "/v1/submissions", body: body, headers: [json]))
    #expect(submit.status.code == 400, "\(submit.text)")
    #expect(submit.error?.message == execute.error?.message)
    let batch = router.handle(
      request("POST", "/v1/submissions/batch", body: #"{"submissions": [\#(body)]}"#, headers: [json]))
    let items = batch.object["submissions"] as? [[String: Any]] ?? []
    #expect((items.first?["error"] as? [String: Any])?["code"] as? String == "bad_request", "\(batch.text)")
    // Judge0 names the source Main.java and javac renames it after its class: a zip entry of that
    // name clashes only once the source is named, and is refused at submit, in Judge0's shape.
    let zip = try zipArchive(["Foo.java": "class Helper {}"]).base64EncodedString()
    let judge0 = router.handle(
      request(
        "POST", "/judge0/submissions",
        body: #"{"source_code": "public class Foo { public static void main(String[] a) {} }", "#
          + #""language_id": 62, "additional_files": "\#(zip)"}"#, headers: [json]))
    #expect(judge0.status.code == 422, "\(judge0.text)")
    let refusal = judge0.object["additional_files"] as? [String]
    #expect(refusal?.first?.contains("Foo.java") == true, "\(judge0.text)")
    #expect(try store.statistics(now: 0).queued == 0)
  }
}

/// A fresh folder under the test run's temporary directory.
func makeScratchDirectory() throws -> String {
  let path = NSTemporaryDirectory() + "/doorway-" + UUID().uuidString
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// A zip archive of stored (uncompressed) entries, as Judge0 clients send `additional_files`.
func zipArchive(_ entries: [String: String]) throws -> Data {
  var local = Data()
  var central = Data()
  func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8 & 0xff)] }
  func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * UInt32($0)) & 0xff) } }
  for (name, text) in entries.sorted(by: { $0.key < $1.key }) {
    let content = Data(text.utf8)
    let crc = content.withUnsafeBytes { crc32Of($0) }
    let offset = local.count
    local += le32(0x0403_4b50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc)
    local += le32(UInt32(content.count)) + le32(UInt32(content.count)) + le16(name.utf8.count) + le16(0)
    local += Data(name.utf8) + content
    central += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc)
    central += le32(UInt32(content.count)) + le32(UInt32(content.count)) + le16(name.utf8.count) + le16(0) + le16(0)
    central += le16(0) + le16(0) + le32(0) + le32(UInt32(offset)) + Data(name.utf8)
  }
  var archive = local + central
  archive += le32(0x0605_4b50) + le16(0) + le16(0) + le16(entries.count) + le16(entries.count)
  archive += le32(UInt32(central.count)) + le32(UInt32(local.count)) + le16(0)
  return archive
}

/// The zip CRC-32 (IEEE 802.3) of some bytes.
func crc32Of(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
  var crc: UInt32 = 0xffff_ffff
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
  }
  return ~crc
}
