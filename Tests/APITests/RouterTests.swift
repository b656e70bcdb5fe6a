import Foundation
import HTTP
import Runners
import Sandbox
import SandboxTesting
import Testing

@testable import API

/// Routes, errors, the queue's refusals and metrics, over the fake environment (no root).
@Suite struct RouterTests {
  @Test func routingTable() {
    let router = makeFakeRouter()
    #expect(router.handle(request("GET", "/healthz")).status == .ok)
    #expect(router.handle(request("GET", "/healthz")).object["status"] as? String == "ok")
    #expect(router.handle(request("GET", "/healthz?probe=1")).status == .ok)
    #expect(router.handle(request("GET", "/metrics")).status == .ok)
    #expect(router.handle(request("GET", "/v1/runtimes")).status == .ok)
    for (path, method) in APIRouter.routes {
      let wrong = method == "GET" ? "POST" : "GET"
      let response = router.handle(request(wrong, path))
      #expect(response.status == .methodNotAllowed, "\(wrong) \(path)")
      #expect(response.headers["Allow"] == (method == "GET" ? "GET, HEAD" : method))
      #expect(response.error?.code == "method_not_allowed")
    }
    for path in ["/", "/v1", "/v1/execute/", "/v2/execute", "/HEALTHZ"] {
      let response = router.handle(request("GET", path))
      #expect(response.status == .notFound, "\(path)")
      #expect(response.error?.code == "not_found")
      #expect(response.headers["Content-Type"] == "application/json")
    }
    #expect(router.handle(request("HEAD", "/healthz")).status == .ok)
  }

  @Test func everyResponseCarriesARequestID() {
    let router = makeFakeRouter()
    #expect(
      router.handle(request("GET", "/healthz", headers: [("X-Request-Id", "abc-123")])).headers["X-Request-Id"]
        == "abc-123")
    // An id that would be unsafe to echo or log is replaced.
    let replaced = router.handle(request("GET", "/healthz", headers: [("X-Request-Id", "a b\"c")]))
    #expect(replaced.headers["X-Request-Id"] != "a b\"c")
    #expect(replaced.headers["X-Request-Id"]?.isEmpty == false)
    let first = router.handle(request("GET", "/nope")).headers["X-Request-Id"]
    let second = router.handle(request("GET", "/nope")).headers["X-Request-Id"]
    #expect(first != second)
  }

  @Test func contentTypeMustBeJSON() {
    let router = makeFakeRouter()
    let body = #"{"language": "python", "source": "print(1)"}"#
    let missing = router.handle(request("POST", "/v1/execute", body: body))
    #expect(missing.status == .unsupportedMediaType)
    #expect(missing.error?.code == "unsupported_media_type")
    let text = router.handle(request("POST", "/v1/execute", body: body, headers: [("Content-Type", "text/plain")]))
    #expect(text.status.code == 415)
    #expect(text.error?.message.contains("text/plain") == true)
  }

  @Test func bodiesOverTheLimitAre413() {
    let router = makeFakeRouter { $0.maximumBodyBytes = 64 }
    let response = router.handle(
      executeRequest(#"{"language": "python", "source": "\#(String(repeating: "x", count: 100))"}"#))
    #expect(response.status.code == 413)
    #expect(response.error?.code == "payload_too_large")
    #expect(response.error?.message.contains("the maximum is 64") == true)
  }

  @Test func badRequestsAndUnknownFields() {
    let router = makeFakeRouter()
    let malformed = router.handle(executeRequest("{nope"))
    #expect(malformed.status.code == 400)
    #expect(malformed.error?.code == "bad_request")
    let unknown = router.handle(executeRequest(#"{"language": "python", "source": "", "network": true}"#))
    #expect(unknown.status.code == 400)
    #expect(unknown.error?.code == "unknown_field")
    #expect(unknown.error?.message == "unknown field \"network\"")
    let tooMuch = router.handle(
      executeRequest(#"{"language": "python", "source": "", "limits": {"wall_ms": 999999}}"#))
    #expect(tooMuch.status.code == 400)
    #expect(tooMuch.error?.message == "limits.wall_ms is 999999; the maximum is 20000")
  }

  @Test func unknownLanguageListsTheKnownOnes() {
    let router = makeFakeRouter()
    let response = router.handle(executeRequest(#"{"language": "cobol", "source": "x"}"#))
    #expect(response.status.code == 400)
    #expect(response.error?.code == "unknown_language")
    #expect(response.error?.message == "unknown language \"cobol\"")
    #expect(response.error?.known == router.service.catalog.names)
    #expect(response.error?.known?.contains("python") == true)
    let version = router.handle(executeRequest(#"{"language": "python", "version": "1.0", "source": "x"}"#))
    #expect(version.status.code == 404)
    #expect(version.error?.code == "unknown_version")
    #expect(version.error?.known?.isEmpty == false)
  }

  @Test func fullQueueIs503WithRetryAfter() {
    let router = makeFakeRouter(slots: 1, maximumQueued: 0) { $0.retryAfterSeconds = 3 }
    #expect(router.service.queue.acquire(timeout: .zero) == .admitted)
    defer { router.service.queue.release() }
    let response = router.handle(executeRequest(#"{"language": "python", "source": "print(1)"}"#))
    #expect(response.status.code == 503)
    #expect(response.headers["Retry-After"] == "3")
    #expect(response.error?.code == "busy")
  }

  @Test func waitingPastTheDeadlineIs503() {
    let router = makeFakeRouter(slots: 1, maximumQueued: 1) { $0.queueTimeout = .milliseconds(50) }
    #expect(router.service.queue.acquire(timeout: .zero) == .admitted)
    defer { router.service.queue.release() }
    let response = router.handle(executeRequest(#"{"language": "python", "source": "print(1)"}"#))
    #expect(response.status.code == 503)
    #expect(response.headers["Retry-After"] == "1")
    #expect(response.error?.message.contains("no box slot became free") == true)
    #expect(router.service.queue.depth == 0)
  }

  @Test func sandboxFailuresAre500WithoutHostDetails() throws {
    let logs = LogCollector()
    var configuration = APIConfiguration(slots: 1)
    configuration.logSink = logs.sink
    let failing = FakeEnvironmentPool { _ throws(SandboxError) in
      throw SandboxError(step: "pivot_root", errorNumber: EPERM, hint: "see /etc/dsa-run/secret.json")
    }
    let router = APIRouter(executor: TestExecutors.fake(failing), configuration: configuration)
    let response = router.handle(executeRequest(#"{"language": "python", "source": "print(1)"}"#))
    #expect(response.status.code == 500)
    #expect(response.error?.code == "internal_error")
    // A generic sentence and the request id; which step failed is the operator's to read.
    let id = try #require(response.headers["X-Request-Id"])
    #expect(
      response.error?.message
        == "the server could not carry out this request; its operators can find why under request id \(id)")
    #expect(!response.text.contains("/etc") && !response.text.contains("pivot_root"))
    #expect(router.service.queue.inFlight == 0)
    // The operator's log keeps the whole error.
    #expect(logs.all.first?.detail?.contains("/etc/dsa-run/secret.json") == true)
    #expect(logs.all.first?.id == id)
    #expect(logs.all.first?.runStatus == "internal_error")
    #expect(
      router.metrics.render(queueDepth: 0, boxesInFlight: 0, cacheHits: 0, cacheMisses: 0)
        .contains("dsa_run_runs_total{language=\"python\",status=\"internal_error\"} 1"))
  }

  @Test func bearerTokens() {
    let router = makeFakeRouter { $0.bearerTokens = ["s3cret", "other"] }
    #expect(router.handle(request("GET", "/healthz")).status == .ok)
    let missing = router.handle(request("GET", "/v1/runtimes"))
    #expect(missing.status.code == 401)
    #expect(missing.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
    #expect(missing.error?.code == "unauthorized")
    let wrong = router.handle(request("GET", "/metrics", headers: [("Authorization", "Bearer s3cre")]))
    #expect(wrong.status.code == 401)
    let basic = router.handle(request("GET", "/metrics", headers: [("Authorization", "Basic s3cret")]))
    #expect(basic.status.code == 401)
    // Unknown routes do not reveal themselves to a caller without a token.
    #expect(router.handle(request("GET", "/nope")).status.code == 401)
    for token in ["s3cret", "other"] {
      let right = router.handle(request("GET", "/metrics", headers: [("Authorization", "bearer \(token)")]))
      #expect(right.status == .ok)
    }
    let execute = router.handle(
      executeRequest(#"{"language": "cobol", "source": ""}"#, headers: [("Authorization", "Bearer s3cret")]))
    #expect(execute.error?.code == "unknown_language")
  }

  @Test func metricsTextFormat() {
    let router = makeFakeRouter()
    _ = router.handle(request("GET", "/healthz"))
    _ = router.handle(request("GET", "/definitely/not/here"))
    let first = router.handle(request("GET", "/metrics"))
    #expect(first.headers["Content-Type"]?.hasPrefix("text/plain; version=0.0.4") == true)
    let text = first.text
    for (name, type) in [
      ("dsa_run_http_requests_total", "counter"), ("dsa_run_runs_total", "counter"),
      ("dsa_run_queue_depth", "gauge"), ("dsa_run_boxes_in_flight", "gauge"),
      ("dsa_run_run_duration_seconds", "histogram"), ("dsa_run_compile_cache_hits_total", "counter"),
      ("dsa_run_compile_cache_misses_total", "counter"),
    ] {
      #expect(text.contains("# TYPE \(name) \(type)\n"), "\(name)")
      #expect(text.contains("# HELP \(name) "), "\(name)")
    }
    #expect(text.contains("dsa_run_http_requests_total{route=\"/healthz\",code=\"200\"} 1\n"))
    // Unknown paths share one label value, so scanners cannot grow the series.
    #expect(text.contains("dsa_run_http_requests_total{route=\"other\",code=\"404\"} 1\n"))
    #expect(text.contains("dsa_run_run_duration_seconds_bucket{le=\"+Inf\"} 0\n"))
    #expect(text.contains("dsa_run_queue_depth 0\n"))
    // Every sample line is "name{labels} value" or "name value".
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      #expect(line.range(of: #"^[a-z_]+(\{[^}]*\})? [0-9.e+-]+$"#, options: .regularExpression) != nil, "\(line)")
    }
    _ = router.handle(request("GET", "/healthz"))
    let second = router.handle(request("GET", "/metrics")).text
    #expect(second.contains("dsa_run_http_requests_total{route=\"/healthz\",code=\"200\"} 2\n"))
    #expect(second.contains("dsa_run_http_requests_total{route=\"/metrics\",code=\"200\"} 1\n"))
  }

  @Test func histogramBucketsAreCumulative() {
    let metrics = APIMetrics()
    metrics.recordRun(language: "python", status: "ok", seconds: 0.02)
    metrics.recordRun(language: "python", status: "ok", seconds: 0.3)
    metrics.recordRun(language: "cpp", status: "compile_error", seconds: 100)
    let text = metrics.render(queueDepth: 2, boxesInFlight: 1, cacheHits: 5, cacheMisses: 6)
    #expect(text.contains("dsa_run_run_duration_seconds_bucket{le=\"0.01\"} 0\n"))
    #expect(text.contains("dsa_run_run_duration_seconds_bucket{le=\"0.025\"} 1\n"))
    #expect(text.contains("dsa_run_run_duration_seconds_bucket{le=\"0.5\"} 2\n"))
    #expect(text.contains("dsa_run_run_duration_seconds_bucket{le=\"60\"} 2\n"))
    #expect(text.contains("dsa_run_run_duration_seconds_bucket{le=\"+Inf\"} 3\n"))
    #expect(text.contains("dsa_run_run_duration_seconds_count 3\n"))
    #expect(text.contains("dsa_run_runs_total{language=\"python\",status=\"ok\"} 2\n"))
    #expect(text.contains("dsa_run_runs_total{language=\"cpp\",status=\"compile_error\"} 1\n"))
    #expect(text.contains("dsa_run_queue_depth 2\n"))
    #expect(text.contains("dsa_run_boxes_in_flight 1\n"))
    #expect(text.contains("dsa_run_compile_cache_hits_total 5\n"))
    #expect(text.contains("dsa_run_compile_cache_misses_total 6\n"))
  }

  @Test func runtimesList() throws {
    let router = makeFakeRouter()
    let runtimes = try #require(router.handle(request("GET", "/v1/runtimes")).object["runtimes"] as? [[String: Any]])
    // One entry per installed version; a language with none installed is listed with its reason.
    let catalog = router.service.catalog
    let expected = catalog.names.reduce(0) { total, name in
      let runners = catalog.languages[name] ?? []
      let installed = runners.filter { $0.missingRequirement == nil }.count
      return total + (installed == 0 ? runners.count : installed)
    }
    #expect(runtimes.count == expected)
    let languages = runtimes.compactMap { $0["language"] as? String }
    if isAvailable("dart") {
      // runners/dart.json also declares Dart 3, which is not installed here: not listed beside 2.16.
      #expect(languages.filter { $0 == "dart" }.count == 1)
    }
    for runtime in runtimes {
      #expect(Set(runtime.keys) == ["language", "name", "version", "aliases", "standards", "available", "reason"])
      let available = try #require(runtime["available"] as? Bool)
      #expect((runtime["reason"] is NSNull) == available)
    }
    let python = try #require(runtimes.first { $0["language"] as? String == "python" })
    #expect(python["available"] as? Bool == true)
    #expect((python["version"] as? String)?.hasPrefix("3.") == true)
    #expect(python["standards"] as? [String] == [])
    let cpp = try #require(runtimes.first { $0["language"] as? String == "cpp" })
    #expect((cpp["standards"] as? [String])?.prefix(2) == ["c++17", "c++20"])
  }

  @Test func requestLogLines() throws {
    let logs = LogCollector()
    let router = makeFakeRouter { $0.logSink = logs.sink }
    _ = router.handle(
      executeRequest(#"{"language": "cobol", "source": "DISPLAY 'TOP SECRET'", "stdin": "PRIVATE INPUT"}"#))
    _ = router.handle(request("GET", "/healthz", headers: [("X-Request-Id", "health-1")]))
    let entries = logs.all
    #expect(entries.count == 2)
    #expect(entries[0].route == "/v1/execute")
    #expect(entries[0].status == 400)
    #expect(entries[0].error == "unknown_language")
    #expect(entries[0].language == "cobol")
    #expect(entries[0].totalMilliseconds >= 0)
    #expect(!entries[0].line.contains("SECRET") && !entries[0].line.contains("PRIVATE"))
    #expect(entries[1].id == "health-1")
    #expect(entries[1].status == 200)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(entries[0].line.utf8)) as? [String: Any])
    #expect(object["id"] is String && object["total_ms"] is Double)
    let time = try #require(object["time"] as? String)
    #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
    #expect(!entries[0].line.contains("\n"))
  }

  @Test func headIsGetWithoutTheBodyAndOtherMethodsNameBoth() {
    let router = makeFakeRouter()
    let head = router.handle(request("HEAD", "/healthz"))
    #expect(head.status == .ok)
    #expect(head.body == router.handle(request("GET", "/healthz")).body)
    let post = router.handle(request("POST", "/healthz"))
    #expect(post.status.code == 405)
    #expect(post.headers["Allow"] == "GET, HEAD")
    #expect(router.handle(request("HEAD", "/v1/execute")).headers["Allow"] == "POST")
  }

  @Test func theServersOwnAnswersAreLoggedCountedAndCarryARequestID() throws {
    let logs = LogCollector()
    let router = makeFakeRouter { $0.logSink = logs.sink }
    let own = HTTPResponse(status: .contentTooLarge, body: Data("the body is over 1048576 bytes\n".utf8))
    let answered = router.ownAnswer(own)
    let id = try #require(answered.headers["X-Request-Id"])
    #expect(!id.isEmpty)
    #expect(answered.status == own.status && answered.body == own.body)
    let entry = try #require(logs.all.first)
    #expect(entry.id == id && entry.status == 413 && entry.route == "http" && entry.error == "body_too_large")
    #expect(entry.detail == "the body is over 1048576 bytes")
    _ = router.ownAnswer(HTTPResponse(status: .requestTimeout))
    let text = router.metrics.render(queueDepth: 0, boxesInFlight: 0, cacheHits: 0, cacheMisses: 0)
    #expect(text.contains("route=\"http\""))
    #expect(router.metrics.requestCount(route: "http", code: 413) == 1)
    #expect(router.metrics.requestCount(route: "http", code: 408) == 1)
    #expect(logs.all.last?.error == "request_timeout")
  }

  @Test func theServedOpenAPIDocumentNamesTheInstalledLanguagesAndTheMaxima() throws {
    let shipped = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/docs/openapi.json"))
    let router = makeFakeRouter {
      $0.openAPIDocument = shipped
      $0.maxima.memoryMegabytes = 512
    }
    let response = router.handle(request("GET", "/v1/openapi.json"))
    #expect(response.status == .ok)
    #expect(response.headers["Content-Type"] == "application/json")
    let document = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
    for name in ["ExecuteRequest", "GradeRequest"] {
      let properties = try #require((schemas[name] as? [String: Any])?["properties"] as? [String: Any])
      let languages = try #require((properties["language"] as? [String: Any])?["enum"] as? [String])
      #expect(languages.contains("python") && languages.contains("py"), "\(languages)")
      #expect(languages == languages.sorted())
      for language in languages {
        #expect(router.service.catalog.language(named: language)?.contains(where: \.isAvailable) == true)
      }
    }
    let limits = try #require((schemas["Limits"] as? [String: Any])?["properties"] as? [String: Any])
    #expect((limits["memory_mb"] as? [String: Any])?["maximum"] as? Int == 512)
    #expect((limits["cpu_ms"] as? [String: Any])?["maximum"] as? Int == 10_000)
    // Without the shipped document there is nothing to serve.
    #expect(makeFakeRouter().handle(request("GET", "/v1/openapi.json")).status == .notFound)
    #expect(OpenAPIDocument.specialized(Data("{}".utf8), languages: [], maxima: LimitMaxima()) == nil)
  }
}
