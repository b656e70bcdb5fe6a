import Foundation
import Glibc
import HTTP
import Runners
import Sandbox
import SandboxTesting
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
      configure(&configuration)
    }
  }

  @Test func aForeignPageRunsNoCodeThroughAnyDoorway() {
    let pool = FakeEnvironmentPool()
    let router = judge0Router(pool)
    let foreign = ("Origin", "http://evil.example")
    // "Simple" requests a page may send anywhere without asking: text/plain, forms, no type.
    let attempts: [(String, HTTPRequest)] = [
      (
        "/v1/execute",
        request("POST", "/v1/execute", body: Self.pythonHello, headers: [("Content-Type", "text/plain"), foreign])
      ),
      ("/v1/grade", request("POST", "/v1/grade", body: "{}", headers: [("Content-Type", "text/plain"), foreign])),
      ("/v1/submissions", request("POST", "/v1/submissions", body: Self.pythonHello, headers: [foreign])),
      (
        "/api/v2/execute",
        request(
          "POST", "/api/v2/execute", body: "language=python&version=*&files[0][content]=print(1)",
          headers: [("Content-Type", "application/x-www-form-urlencoded"), foreign])
      ),
      ("/api/v2/execute no type", request("POST", "/api/v2/execute", body: "{}", headers: [foreign])),
      (
        "judge0 /submissions",
        request(
          "POST", "/judge0/submissions", body: #"{"source_code":"x","language_id":71}"#,
          headers: [("Content-Type", "text/plain"), foreign])
      ),
      (
        "/v1/connect",
        request("GET", "/v1/connect", headers: [("Upgrade", "websocket"), ("Connection", "Upgrade"), foreign])
      ),
      (
        "/api/v2/connect",
        request("GET", "/api/v2/connect", headers: [("Upgrade", "websocket"), ("Connection", "Upgrade"), foreign])
      ),
    ]
    for (name, attempt) in attempts {
      let response = router.handle(attempt)
      #expect(response.status.code == 403, "\(name): \(response.status.code) \(response.text)")
      #expect(response.text.contains("evil.example"), "\(name): \(response.text)")
    }
    #expect(pool.records.isEmpty, "a refused request ran \(pool.records.count) boxes")
    // Piston's and Judge0's refusals keep their own shapes.
    let piston = router.handle(attempts[3].1)
    #expect(piston.object.keys.sorted() == ["message"])
    let judge0 = router.handle(attempts[5].1)
    #expect(judge0.object.keys.sorted() == ["error"])
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
    ]
    for (name, make) in doorways {
      // Each doorway on a fresh quota of one run: the first goes, the second is refused.
      let fresh = judge0Router { configuration in
        configuration.bearerTokens = ["alpha"]
        configuration.rateLimit = RateLimiter.Policy(quota: 1, windowSeconds: 60)
      }
      let first = fresh.handle(make())
      #expect(first.status == .ok, "\(name): \(first.text)")
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
    let routes = log.all.map(\.route)
    #expect(
      routes == [
        "judge0:/languages", "judge0:/statuses", "judge0:/submissions/{token}", "/api/v2/runtimes",
        "/api/v2/{unknown}", "/v1/runtimes",
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
    ] {
      let response = router.handle(attempt)
      #expect(response.status.code == 500, "\(response.text)")
      #expect(!response.text.contains("/secret"), "\(response.text)")
      #expect(response.text.contains("request id"), "\(response.text)")
    }
    #expect(log.all.filter { $0.detail?.contains("/secret/host/path") == true }.count == 2, "\(log.all)")
  }
}
