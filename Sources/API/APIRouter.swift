import Challenges
import Foundation
import HTTP
import Runners
import Submissions
import Synchronization
import SystemCore

/// The daemon's HTTP handler: it finds each request's route in the front ends' tables (/v1,
/// Judge0 CE, Piston v2), makes the checks every doorway shares (method, origin, token), hands the
/// request to its front end, and counts and logs the answer under the route's own label.
///
/// `handle` is request-in, response-out (the `HTTPServer` handler shape), so every route and error
/// is testable without a socket. It blocks while a run runs: `HTTPServer` gives each connection its
/// own thread, and the run service's slots bound how many of those reach a box at once.
public final class APIRouter: Sendable {
  /// The only way to run: admission, quota, slots, metrics, redaction.
  public let service: RunService
  /// The knobs.
  public let configuration: APIConfiguration
  /// Stored submissions; nil when the configuration has no store.
  public let submissions: SubmissionService?
  /// The `/metrics` counters.
  public var metrics: APIMetrics { service.metrics }
  /// The front ends, in the order their tables are asked.
  let frontEnds: [any FrontEnd]

  private let requestCounter = Atomic<UInt64>(0)
  // Generated ids start with a per-process prefix so ids from daemons behind one balancer differ.
  private let idPrefix = String(UInt32.random(in: 0...UInt32.max), radix: 16)

  /// The router's own routes, open or read-only, in no front end's wire.
  static let ownRoutes: [String: Route] = [
    "/healthz": Route("/healthz", ["GET"], .open), "/metrics": Route("/metrics", ["GET"], .read),
  ]
  /// The route label of answers the HTTP server sent before any route was known.
  public static let serverRoute = "http"
  /// The label of the page's files, and of paths no table has.
  static let pageRoute = PageSite.route
  static let unknownRoute = "other"

  /// A router that runs requests with `executor`; tests give it one over the fake environments
  /// (`SandboxTesting`), whose scripts play runs and sandbox failures.
  public init(
    executor: Executor, configuration: APIConfiguration, challenges: ChallengeCatalog = ChallengeCatalog()
  ) {
    let service = RunService(executor: executor, configuration: configuration, challenges: challenges)
    self.service = service
    self.configuration = configuration
    let submissions = configuration.submissions.map(SubmissionService.init(settings:))
    self.submissions = submissions
    var frontEnds: [any FrontEnd] = [V1API(service: service, configuration: configuration, submissions: submissions)]
    if let settings = configuration.judge0 {
      frontEnds.append(
        Judge0API(service: service, configuration: configuration, settings: settings, submissions: submissions))
    }
    if configuration.pistonEnabled { frontEnds.append(PistonAPI(service: service, configuration: configuration)) }
    if let settings = configuration.jobe {
      frontEnds.append(JobeAPI(service: service, configuration: configuration, settings: settings))
    }
    self.frontEnds = frontEnds
  }

  /// Answers one request.
  public func handle(_ request: HTTPRequest) -> HTTPResponse {
    let start = ContinuousClock.now
    let path = String(request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
    let matched = match(path)
    let presented = matched?.frontEnd?.presentedToken(request) ?? Self.bearerToken(request)
    var scope = RequestScope(
      context: RunContext(requestID: requestID(request), route: Self.unknownRoute), path: path,
      query: Self.queryItems(request.target), owner: ownerDigest(presented))
    scope.context.client = request.client
    scope.context.tokenDigest = presented.map(RequestLogEntry.tokenDigest)
    var frontEnd: (any FrontEnd)? = matched?.frontEnd
    if let route = matched?.route {
      scope.context.route = route.label
    } else if configuration.page?.claims(path) == true {
      scope.context.route = Self.pageRoute
    }
    var errorCode: String?
    var response: HTTPResponse
    do throws(APIError) {
      response = try answer(request, matched: matched, scope: &scope)
      // A streamed answer is counted and logged when it is over, with the status it ended up with.
      if response.stream != nil { return response }
    } catch {
      errorCode = error.code
      let shown = service.redacted(error, context: &scope.context)
      frontEnd = frontEnd ?? frontEnds.first
      response = frontEnd?.render(shown) ?? shown.response
    }
    response.headers.add(name: "X-Request-Id", value: scope.context.requestID)
    service.settings.crossOrigin?.decorate(&response, for: request)
    for (name, value) in service.rateLimitHeaders(scope.context) { response.headers.add(name: name, value: value) }
    metrics.recordRequest(route: scope.context.route, code: response.status.code)
    service.log(
      scope.context, method: request.method, status: response.status.code, error: errorCode,
      totalMilliseconds: RunService.milliseconds(ContinuousClock.now - start))
    return response
  }

  /// Puts `settings` in effect for every request from now on (a config reload): tokens, quotas,
  /// maxima, origins, challenges, and how webhooks are sent when this server sends them.
  public func replaceSettings(_ settings: ReloadableSettings) {
    service.replaceSettings(settings)
    if let webhooks = settings.webhooks { submissions?.sender?.replaceSettings(webhooks) }
  }

  /// The front end and route of `path`, or the router's own.
  private func match(_ path: String) -> (frontEnd: (any FrontEnd)?, route: Route)? {
    if let own = Self.ownRoutes[path] { return (nil, own) }
    for frontEnd in frontEnds {
      if let route = frontEnd.route(of: path) { return (frontEnd, route) }
    }
    return nil
  }

  private func answer(
    _ request: HTTPRequest, matched: (frontEnd: (any FrontEnd)?, route: Route)?, scope: inout RequestScope
  ) throws(APIError) -> HTTPResponse {
    // The page must load before it can ask for a token; a preflight carries none (the Fetch standard).
    if let page = configuration.page,
      let answer = page.answer(method: request.method, path: scope.path, headers: request.headers)
    {
      return answer
    }
    if let preflight = service.settings.crossOrigin?.preflight(request) { return preflight }
    guard let (frontEnd, route) = matched else {
      // Unknown paths do not reveal themselves to a caller without a token.
      try authorize(request, context: &scope.context)
      throw .notFound(scope.path)
    }
    let method = request.method == "HEAD" ? "GET" : request.method
    guard route.methods.contains(method) else {
      throw frontEnd?.methodNotAllowed(request, route: route, path: scope.path)
        ?? .methodNotAllowed(request.method, path: scope.path, allowed: route.allowed)
    }
    switch route.kind {
    case .open: break
    case .read: try authorize(request, context: &scope.context, frontEnd: frontEnd)
    case .runsCode:
      try refuseForeignPage(request, route: route)
      try authorize(request, context: &scope.context, frontEnd: frontEnd)
    case .liveSocket:
      try refuseForeignPage(request, route: route)
      // Settled by the session: at open from a header, else by its start message.
      if request.headers["Authorization"] != nil {
        do throws(APIError) {
          try authorize(request, context: &scope.context)
        } catch {
          scope.refusal = error
        }
      }
    }
    guard let frontEnd else { return try ownAnswer(route) }
    return try frontEnd.answer(request, route: route, scope: &scope)
  }

  private func ownAnswer(_ route: Route) throws(APIError) -> HTTPResponse {
    if route.label == "/metrics" {
      var writer = PrometheusText()
      // The info-metric idiom: the labels are the information, the value is always 1.
      writer.gauges(
        "dsa_run_build_info", help: "The running dsa-rund's version and build (its executable's GNU build ID).",
        labels: ["version", "build"], [([BuildIdentity.version, BuildIdentity.build], 1)])
      service.metricsText(&writer)
      submissions?.metricsText(&writer)
      return HTTPResponse(
        status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
        body: Data(writer.text.utf8))
    }
    return submissions?.healthResponse()
      ?? HTTPResponse(
        status: .ok, headers: ["Content-Type": "application/json"], body: Data(#"{"status":"ok"}"#.utf8))
  }

  // MARK: Checks every doorway shares

  /// Checks the bearer token, and notes the accepted one in `context` (it is charged to it).
  func authorize(
    _ request: HTTPRequest, context: inout RunContext, frontEnd: (any FrontEnd)? = nil
  ) throws(APIError) {
    guard !service.settings.bearerTokens.isEmpty else { return }
    guard let token = frontEnd?.presentedToken(request) ?? Self.bearerToken(request) else {
      throw .unauthorized(APIError.missingTokenMessage)
    }
    guard acceptsToken(token) else { throw .unauthorized("the bearer token is not valid") }
    context.token = token
  }

  /// Whether `token` is one of the configured bearer tokens, compared in constant time.
  func acceptsToken(_ token: String) -> Bool {
    service.settings.bearerTokens.contains { Self.constantTimeEquals($0, token) }
  }

  /// Refuses a request that starts runs from another site's page (docs/security.md, "Cross-site
  /// requests"): a browser sends `Origin` on every POST and WebSocket handshake, and a page may
  /// send a "simple" POST (text/plain, a form) or open a WebSocket to any server without asking
  /// first. Only this server's own page and the configured `cors_origins` may; clients that are no
  /// browser send no `Origin` and are not affected.
  private func refuseForeignPage(_ request: HTTPRequest, route: Route) throws(APIError) {
    guard let origin = request.headers["Origin"], !Self.isOwnOrigin(origin, host: request.headers["Host"]),
      service.settings.crossOrigin?.allowedOrigins.contains(origin) != true
    else { return }
    throw APIError(
      code: "foreign_origin",
      message:
        "\(route.label) does not take requests from pages of \(origin.prefix(100)); its operator can allow the "
        + "origin with cors_origins",
      status: HTTPStatus(code: 403))
  }

  /// Whether `origin` (scheme://host[:port]) names the host the request was sent to.
  static func isOwnOrigin(_ origin: String, host: String?) -> Bool {
    guard let host, !host.isEmpty else { return false }
    for scheme in ["http://", "https://"] where origin.hasPrefix(scheme) {
      return origin.dropFirst(scheme.count).lowercased() == host.lowercased()
    }
    return false
  }

  /// The token of an `Authorization: Bearer TOKEN` field.
  static func bearerToken(_ request: HTTPRequest) -> String? {
    guard let field = request.headers["Authorization"] else { return nil }
    let parts = field.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return String(parts[1])
  }

  /// Whose submissions a request sees: the SHA-256 of its bearer token ("" on a server without tokens).
  func ownerDigest(_ token: String?) -> String {
    guard !service.settings.bearerTokens.isEmpty, let token else { return "" }
    return hexadecimal(Digest.sha256(Array(token.utf8)))
  }

  // Token comparison that does not stop at the first differing byte, so response timing does not
  // reveal how much of a guess was right.
  static func constantTimeEquals(_ left: String, _ right: String) -> Bool {
    let a = Array(left.utf8)
    let b = Array(right.utf8)
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for index in 0..<max(a.count, b.count) {
      difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
    }
    return difference == 0
  }

  // MARK: The HTTP server's own answers

  /// What the HTTP server answered on its own (a parse error, 408, the 503 over its connection cap),
  /// logged and counted like a routed answer and given a request id: `HTTPServer`'s
  /// `ownAnswerObserver`.
  public func ownAnswer(_ response: HTTPResponse) -> HTTPResponse {
    var response = response
    let id = "\(idPrefix)-\(requestCounter.add(1, ordering: .relaxed).newValue)"
    response.headers.add(name: "X-Request-Id", value: id)
    metrics.recordRequest(route: Self.serverRoute, code: response.status.code)
    var context = RunContext(requestID: id, route: Self.serverRoute)
    context.detail = String(decoding: response.body.prefix(200), as: UTF8.self).trimmingCharacters(in: .newlines)
    service.log(
      context, method: "-", status: response.status.code, error: Self.ownAnswerCode(response.status),
      totalMilliseconds: 0)
    return response
  }

  static func ownAnswerCode(_ status: HTTPStatus) -> String {
    switch status.code {
    case 408: return "request_timeout"
    case 411: return "length_required"
    case 413: return "body_too_large"
    case 414: return "target_too_long"
    case 431: return "header_too_large"
    case 503: return "too_many_connections"
    case 505: return "http_version_not_supported"
    default: return "bad_request"
    }
  }

  /// The client's `X-Request-Id` when it is short and plain (it is echoed and logged), else a new one.
  func requestID(_ request: HTTPRequest) -> String {
    if let given = request.headers["X-Request-Id"], (1...64).contains(given.utf8.count),
      given.utf8.allSatisfy({
        $0 == 0x2D || $0 == 0x2E || $0 == 0x5F || (0x30...0x39).contains($0)
          || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
      })
    {
      return given
    }
    let number = requestCounter.add(1, ordering: .relaxed).newValue
    return "\(idPrefix)-\(number)"
  }

  /// The query of a target as name-value pairs (the first of each name); values percent-decoded.
  static func queryItems(_ target: String) -> [String: String] {
    guard let mark = target.firstIndex(of: "?") else { return [:] }
    var items: [String: String] = [:]
    // Most queries (`ids=`, `fields=`, `wait=`) have nothing to decode: Foundation's decoding is
    // skipped for them, as it costs more than the rest of a poll's parsing. Bytes, not Characters:
    // `Substring.contains("%")` went through Foundation's string search, and splitting by
    // Character walked grapheme breaks, together 2% of the daemon's CPU in a polled lane.
    func decoded(_ part: Substring.UTF8View) -> String {
      let text = String(Substring(part))
      return part.contains(UInt8(ascii: "%")) ? (text.removingPercentEncoding ?? text) : text
    }
    let query = target.utf8[target.utf8.index(after: mark)...]
    for pair in query.split(separator: UInt8(ascii: "&")) {
      let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
      let name = decoded(parts[0])
      let value = parts.count > 1 ? decoded(parts[1]) : ""
      if items[name] == nil { items[name] = value }
    }
    return items
  }

  // MARK: Stored jobs

  /// Starts the workers that run stored jobs through the run service; the daemon calls it once it
  /// serves. Does nothing without a store.
  public func startSubmissionWorkers() {
    guard let submissions else { return }
    // Judge0's before /v1's: a Judge0 job stored before jobs had their own kind is an `execute` job.
    let runners = frontEnds.compactMap { $0 as? any StoredJobRunner }.sorted { first, _ in first is Judge0API }
    submissions.start(service: service, callbacks: runners) { job, context in
      for runner in runners where runner.handles(job) { return runner.runStored(job, context: &context) }
      return .finished(
        ResultEncoder.data(
          APIError.internalError("this server has no front end for \(job.kind.rawValue) jobs").jsonObject),
        isError: true)
    }
  }

  /// Stops claiming stored jobs and waits up to `timeout` for the running ones; queued jobs stay.
  public func stopSubmissionWorkers(drainingFor timeout: Duration) -> Bool {
    submissions?.stop(drainingFor: timeout) ?? true
  }
}
