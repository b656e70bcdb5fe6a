import Challenges
import Foundation
import Grading
import HTTP
import Runners
import Sandbox
import Submissions
import Synchronization
import Wire

/// The daemon's routes: `POST /v1/execute`, `GET /v1/runtimes`, `GET /healthz`, `GET /metrics`.
///
/// `handle` is pure request-in, response-out (the `HTTPServer` handler shape), so every route and
/// error is testable without a socket. It blocks while the execution runs: `HTTPServer` gives each
/// connection its own thread, and the `WorkQueue` bounds how many of those reach a box at once.
public final class APIRouter: Sendable {
  /// Runs executions; also the source of the runtimes list and the compile-cache counters.
  public let executor: Executor
  /// The knobs.
  public let configuration: APIConfiguration
  /// The box slots and their line.
  public let queue: WorkQueue
  /// The `/metrics` counters.
  public let metrics = APIMetrics()
  /// The challenges `POST /v1/grade` grades on by id and `GET /v1/challenges` lists.
  public let challenges: ChallengeCatalog
  private let grader: Grader
  /// `GET /v1/openapi.json`'s body, made once: the catalog and the maxima do not change while we run.
  private let servedOpenAPIDocument: Data?
  /// Stored submissions (`/v1/submissions`); nil when the configuration has no store.
  public let submissions: SubmissionService?
  /// Live runs at once (`/v1/connect`), apart from the box slots, and the idle rule over them.
  let liveSlots: LiveSlots
  let liveMonitor: LiveIdleMonitor
  /// The per-token run quotas; nil when the configuration sets none.
  let rateLimiter: RateLimiter?

  private let requestCounter = Atomic<UInt64>(0)
  // Generated ids start with a per-process prefix so ids from daemons behind one balancer differ.
  private let idPrefix = String(UInt32.random(in: 0...UInt32.max), radix: 16)

  /// Methods per route, for routing and for 405's `Allow`.
  public static let routes: [String: String] = [
    "/v1/execute": "POST", "/v1/grade": "POST", "/v1/runtimes": "GET", "/v1/challenges": "GET",
    challengeRoute: "GET", "/healthz": "GET", "/metrics": "GET", "/v1/openapi.json": "GET",
  ]
  /// WebSocket routes: served and counted like the others, but not HTTP operations, so the OpenAPI
  /// document (and `routeMethods`, checked against it) leaves them out; docs/api.md has them.
  public static let webSocketRoutes: [String: String] = ["/v1/connect": "GET"]
  /// `GET /v1/challenges/ID`: one route for every id (and one metrics label), named as OpenAPI does.
  public static let challengeRoute = "/v1/challenges/{id}"
  static let challengePrefix = "/v1/challenges/"

  /// A router that runs requests with `executor`; tests give it one over the fake environments
  /// (`SandboxTesting`), whose scripts play runs and sandbox failures.
  public init(
    executor: Executor, configuration: APIConfiguration, challenges: ChallengeCatalog = ChallengeCatalog()
  ) {
    self.executor = executor
    self.challenges = challenges
    grader = Grader(executor: executor)
    self.configuration = configuration
    servedOpenAPIDocument = configuration.openAPIDocument.flatMap { document in
      let installed = executor.catalog.names.flatMap { name in
        (executor.catalog.languages[name] ?? []).filter(\.isAvailable).flatMap { [$0.language] + $0.aliases }
      }
      return OpenAPIDocument.specialized(document, languages: Array(Set(installed)), maxima: configuration.maxima)
    }
    queue = WorkQueue(
      slots: configuration.slots, maximumWaiting: configuration.maximumQueued,
      waitBudget: configuration.queueWaitBudget)
    submissions = configuration.submissions.map(SubmissionService.init(settings:))
    liveSlots = LiveSlots(limit: configuration.liveSessions)
    liveMonitor = LiveIdleMonitor(idleTimeout: configuration.liveIdleTimeout)
    rateLimiter = configuration.rateLimit.map(RateLimiter.init(policy:))
  }

  /// What one request did, gathered for the log line.
  struct Trace {
    var id: String
    var language: String?
    var runStatus: String?
    var queueMilliseconds: Double?
    var runMilliseconds: Double?
    var detail: String?
    /// Whether the wait budget admits it: a stored job, which no client waits on, waits past it.
    var checksWaitBudget = true
    /// The boxes of a stored job die with it when it is cancelled.
    var boxCancellation: BoxCancellation?
    /// A stored job's last word, on the slot's thread, on whether it still runs (false: it was
    /// cancelled, or its daemon stops, while it waited; it is answered busy without running).
    var startsInSlot: (@Sendable () -> Bool)?
    /// The quota check this request was charged with, for the RateLimit fields.
    var rateLimit: RateLimiter.Decision?
    /// An execute's result object as answered, for a caller that would otherwise parse the answer
    /// again (a Judge0 job turns it into Judge0's attributes).
    var resultValue: JSONValue?
  }

  /// Answers one request.
  public func handle(_ request: HTTPRequest) -> HTTPResponse {
    let start = ContinuousClock.now
    let path = String(request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
    let route = Self.route(of: path) ?? (configuration.page?.claims(path) == true ? PageSite.route : "other")
    var trace = Trace(id: requestID(request))
    var errorCode: String?
    var response: HTTPResponse
    do throws(APIError) {
      response = try answer(request, path: path, trace: &trace)
      // A streamed answer is counted and logged when it is over, with the status it ended up with.
      if response.stream != nil { return response }
    } catch {
      errorCode = error.code
      response = error.response
      if error.status == .internalServerError {
        // Whatever failed may name host paths (cgroups, work roots, config files): they go to the
        // operator's log; the caller gets the request id to quote.
        trace.detail = trace.detail ?? error.message
        response =
          APIError.internalError(
            "the server could not carry out this request; its operators can find why under request id \(trace.id)"
          ).response
      }
    }
    response.headers.add(name: "X-Request-Id", value: trace.id)
    configuration.crossOrigin?.decorate(&response, for: request)
    for (name, value) in rateLimitHeaders(trace) { response.headers.add(name: name, value: value) }
    metrics.recordRequest(route: route, code: response.status.code)
    if let sink = configuration.logSink {
      sink(
        RequestLogEntry(
          id: trace.id, time: LogTime.now(), method: request.method, route: route,
          status: response.status.code, error: errorCode, language: trace.language, runStatus: trace.runStatus,
          queueMilliseconds: trace.queueMilliseconds, runMilliseconds: trace.runMilliseconds,
          totalMilliseconds: Self.milliseconds(ContinuousClock.now - start), detail: trace.detail))
    }
    return response
  }

  private func answer(_ request: HTTPRequest, path: String, trace: inout Trace) throws(APIError) -> HTTPResponse {
    // The page must load before it can ask for a token; a preflight carries none (the Fetch standard).
    if let page = configuration.page,
      let answer = page.answer(method: request.method, path: path, headers: request.headers)
    {
      return answer
    }
    if let preflight = configuration.crossOrigin?.preflight(request) { return preflight }
    // Health checks come from load balancers and systemd that hold no token; a live session may
    // bring its token in its first message, since browsers cannot set the header.
    if path != "/healthz" && path != "/v1/connect" { try authorize(request) }
    if let answer = try submissionAnswer(request, path: path, trace: &trace) { return answer }
    if let answer = try judge0Answer(request, path: path, trace: &trace) { return answer }
    if let answer = pistonAnswer(request, path: path, trace: &trace) { return answer }
    guard let route = Self.route(of: path), let method = Self.routes[route] ?? Self.webSocketRoutes[route] else {
      throw .notFound(path)
    }
    // HEAD is GET without the body (the server leaves it out), as RFC 9110 §9.3.2 asks of GET routes.
    let asked = request.method == "HEAD" && method == "GET" ? "GET" : request.method
    guard asked == method else {
      throw .methodNotAllowed(request.method, path: path, allowed: method == "GET" ? ["GET", "HEAD"] : [method])
    }
    switch route {
    case "/v1/execute":
      try chargeRuns(1, request, trace: &trace)
      if Self.wantsEventStream(request) { return try executeStreamed(request, trace: &trace) }
      return try execute(request, trace: &trace)
    case "/v1/grade":
      try chargeRuns(1, request, trace: &trace)
      if Self.wantsEventStream(request) { return try gradeStreamed(request, trace: &trace) }
      return try grade(request, trace: &trace)
    case "/v1/connect":
      try chargeRuns(1, request, trace: &trace)
      return connect(request, trace: trace)
    case "/v1/challenges":
      return Self.json([
        "challenges": challenges.ids.compactMap { challenges.challenges[$0] }.map(GradeEncoder.summaryObject)
      ])
    case Self.challengeRoute:
      let id = String(path.dropFirst(Self.challengePrefix.count))
      guard let challenge = challenges.challenges[id] else {
        throw APIError(
          code: "unknown_challenge", message: "no challenge \"\(id)\"", status: .notFound, known: challenges.ids)
      }
      return Self.json(GradeEncoder.challengeObject(challenge))
    case "/v1/runtimes": return Self.json(runtimesObject())
    case "/v1/openapi.json":
      guard let document = servedOpenAPIDocument else { throw .notFound(path) }
      return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: document)
    case "/metrics":
      let text =
        metrics.render(
          queueDepth: queue.depth, boxesInFlight: queue.inFlight, cacheHits: executor.cache?.hits ?? 0,
          cacheMisses: executor.cache?.misses ?? 0,
          boxDiscards: Dictionary(
            uniqueKeysWithValues: executor.environments.discardCounts.map { ($0.key.rawValue, $0.value) }))
        + admissionMetricsText() + submissionMetricsText() + liveMetricsText()
      return HTTPResponse(
        status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"], body: Data(text.utf8))
    default: return healthResponse()
    }
  }

  /// What the HTTP server answered on its own (a parse error, 408, the 503 over its connection cap),
  /// logged and counted like a routed answer and given a request id: `HTTPServer`'s
  /// `ownAnswerObserver`.
  public func ownAnswer(_ response: HTTPResponse) -> HTTPResponse {
    var response = response
    let id = "\(idPrefix)-\(requestCounter.add(1, ordering: .relaxed).newValue)"
    response.headers.add(name: "X-Request-Id", value: id)
    metrics.recordRequest(route: Self.serverRoute, code: response.status.code)
    if let sink = configuration.logSink {
      sink(
        RequestLogEntry(
          id: id, time: LogTime.now(), method: "-", route: Self.serverRoute, status: response.status.code,
          error: Self.ownAnswerCode(response.status), language: nil, runStatus: nil, queueMilliseconds: nil,
          runMilliseconds: nil, totalMilliseconds: 0,
          detail: String(decoding: response.body.prefix(200), as: UTF8.self).trimmingCharacters(in: .newlines)))
    }
    return response
  }

  /// The route label of answers the HTTP server sent before any route was known.
  public static let serverRoute = "http"

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

  /// The route a path belongs to: itself, or the challenge route for `/v1/challenges/ID`.
  static func route(of path: String) -> String? {
    if routes[path] != nil || webSocketRoutes[path] != nil { return path }
    if let submissionRoute = submissionRouteName(of: path) { return submissionRoute }
    if pistonRoutes[path] != nil { return path }
    if path.hasPrefix(challengePrefix), ChallengeLoader.isValidID(String(path.dropFirst(challengePrefix.count))) {
      return challengeRoute
    }
    return nil
  }

  func authorize(_ request: HTTPRequest) throws(APIError) {
    guard !configuration.bearerTokens.isEmpty else { return }
    guard let field = request.headers["Authorization"] else {
      throw .unauthorized("this server needs a bearer token (Authorization: Bearer TOKEN)")
    }
    let parts = field.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer",
      configuration.bearerTokens.contains(where: { Self.constantTimeEquals($0, String(parts[1])) })
    else { throw .unauthorized("the bearer token is not valid") }
  }

  func execute(_ request: HTTPRequest, trace: inout Trace) throws(APIError) -> HTTPResponse {
    try execute(try jsonBody(of: request, ExecuteBody.decode), trace: &trace)
  }

  /// `execute` of a body already read (a stored Judge0 job's, read with the rest of its record).
  func execute(_ body: ExecuteBody, trace: inout Trace) throws(APIError) -> HTTPResponse {
    let runner = try resolveRunner(language: body.language, version: body.version, trace: &trace)
    let executeRequest = try body.executeRequest(
      maxima: configuration.maxima, runnerLimits: runner.runLimits())
    let executor = self.executor
    let exposeCompileCache = configuration.exposeCompileCache
    // The result is encoded (its step lines parsed) on the slot's thread, inside the run's share of
    // the daemon, not on the connection's after the slot is free.
    let (outcome, elapsed) = try inSlot(trace: &trace) { () throws(ExecuteError) in
      let result = try executor.execute(executeRequest)
      return (result, ResultEncoder.executeValue(result, exposeCompileCache: exposeCompileCache))
    }
    switch outcome {
    case .success(let (result, value)):
      let status = Self.statusWord(result)
      trace.runStatus = status
      metrics.recordRun(language: runner.language, status: status, seconds: Self.seconds(elapsed))
      trace.resultValue = value
      return Self.json(value)
    case .failure(let error):
      if case .sandbox = error {
        metrics.recordRun(
          language: runner.language, status: Status.internalError.rawValue, seconds: Self.seconds(elapsed))
      }
      throw .from(error)
    }
  }

  /// `POST /v1/grade`: the whole grade holds one box slot, its tests run one after another in it, so
  /// a grade takes no more than an execute's share of a busy daemon (the CLI grades in parallel).
  func grade(_ request: HTTPRequest, trace: inout Trace) throws(APIError) -> HTTPResponse {
    let body = try jsonBody(of: request, GradeBody.decode)
    let runner = try resolveRunner(language: body.language, version: body.version, trace: &trace)
    let files = try body.sourceFiles()
    var resolved = try body.resolveChallenge(in: challenges)
    var inline = false
    if case .object = body.challenge { inline = true }
    resolved.limits = try configuration.maxima.challengeLimits(
      resolved.limits, runnerLimits: runner.runLimits(), inline: inline)
    let challenge = resolved
    let options = GradeOptions(
      version: body.version, parallelism: 1, stopAtFirstFailure: body.stopAtFirstFailure ?? false,
      timeBoundMilliseconds: configuration.resolvedGradeWallMilliseconds, runner: runner)
    let grader = self.grader
    let (outcome, elapsed) = try inSlot(trace: &trace) { () throws(ExecuteError) in
      try grader.grade(challenge, language: body.language, files: files, options: options)
    }
    switch outcome {
    case .success(let result):
      trace.runStatus = result.verdict.rawValue
      let details = result.tests.filter { !$0.operatorDetail.isEmpty }.map { "test \($0.name): \($0.operatorDetail)" }
      if !details.isEmpty { trace.detail = details.joined(separator: "; ") }
      metrics.recordGrade(
        language: trace.language ?? body.language, verdict: result.verdict.rawValue,
        testVerdicts: result.tests.map(\.verdict.rawValue), seconds: Self.seconds(elapsed))
      return Self.json(GradeEncoder.gradeObject(result, exposeCompileCache: configuration.exposeCompileCache))
    case .failure(let error):
      if case .sandbox = error {
        metrics.recordGrade(
          language: trace.language ?? body.language, verdict: Status.internalError.rawValue, testVerdicts: [],
          seconds: Self.seconds(elapsed))
      }
      throw .from(error)
    }
  }

  /// A JSON request body within the size bound, sent as JSON, decoded strictly by `decode`.
  func jsonBody<Body>(of request: HTTPRequest, _ decode: (Data) throws(APIError) -> Body) throws(APIError)
    -> Body
  {
    guard request.body.count <= configuration.maximumBodyBytes else {
      throw .payloadTooLarge(size: request.body.count, maximum: configuration.maximumBodyBytes)
    }
    let contentType = request.headers["Content-Type"]
    guard Self.isJSONMediaType(contentType) else { throw .unsupportedMediaType(contentType) }
    return try decode(request.body)
  }

  /// Whether a Content-Type names `application/json` (any case, parameters such as `charset`
  /// allowed, spaces and tabs around it). Compared as bytes: Foundation's trimming and lowercasing
  /// cost a stored job 2% of the daemon's CPU, as its body is read at submit and again at run.
  static func isJSONMediaType(_ field: String?) -> Bool {
    guard var bytes = field?.utf8[...] else { return false }
    if let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) { bytes = bytes[..<semicolon] }
    let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
    while let last = bytes.last, isSpace(last) { bytes = bytes.dropLast() }
    let wanted = "application/json".utf8
    // ASCII letters lowercased by setting bit 5; the wanted text's other bytes are unaffected by it.
    return bytes.count == wanted.count
      && zip(bytes, wanted).allSatisfy { given, expected in
        given == expected
          || (expected >= UInt8(ascii: "a") && expected <= UInt8(ascii: "z") && given | 0x20 == expected)
      }
  }

  /// The runner a request names, before it waits for a slot (a caller's mistake is never queued).
  func resolveRunner(language: String, version: String?, trace: inout Trace) throws(APIError) -> Runner {
    trace.language = language
    let runner: Runner
    do throws(ExecuteError) {
      runner = try executor.runner(language: language, version: version)
    } catch {
      throw .from(error)
    }
    // The catalog's name, not the caller's spelling, so metric labels stay a closed set.
    trace.language = runner.language
    return runner
  }

  /// Runs `work` on a box slot's thread, recording the wait and the run in `trace`; 503 with
  /// Retry-After when no slot can be had. Returns what the work gave and how long it ran.
  func inSlot<Value: Sendable>(
    trace: inout Trace, _ work: @escaping @Sendable () throws(ExecuteError) -> Value
  ) throws(APIError) -> (Result<Value, ExecuteError>, Duration) {
    let waitStart = ContinuousClock.now
    let boxes = trace.boxCancellation
    let startsInSlot = trace.startsInSlot
    let (admission, ran) = queue.withSlot(timeout: configuration.queueTimeout, checksBudget: trace.checksWaitBudget) {
      () -> (ContinuousClock.Instant, ContinuousClock.Instant, Result<Value, ExecuteError>)? in
      if let startsInSlot, !startsInSlot() { return nil }
      let started = ContinuousClock.now
      do throws(ExecuteError) {
        let value: Value
        if let boxes {
          value = try boxes.within { () throws(ExecuteError) in try work() }
        } else {
          value = try work()
        }
        return (started, ContinuousClock.now, .success(value))
      } catch {
        return (started, ContinuousClock.now, .failure(error))
      }
    }
    switch admission {
    case .admitted: break
    case .full:
      trace.queueMilliseconds = Self.milliseconds(ContinuousClock.now - waitStart)
      throw .busy(
        "all \(queue.slots) box slots are busy and \(queue.maximumWaiting) requests are waiting; try again shortly",
        retryAfterSeconds: configuration.retryAfterSeconds)
    case .overBudget(let estimate):
      trace.queueMilliseconds = Self.milliseconds(ContinuousClock.now - waitStart)
      let budget = configuration.queueWaitBudget ?? .zero
      // Come back when the line ahead should have drained to within the budget.
      let excess = Int((Self.seconds(estimate - budget)).rounded(.up))
      throw .busy(
        "the estimated wait for a box slot is \(Self.format(seconds: estimate)), over this server's budget of "
          + "\(Self.format(seconds: budget)); try again shortly",
        retryAfterSeconds: max(configuration.retryAfterSeconds, excess))
    case .timedOut:
      trace.queueMilliseconds = Self.milliseconds(ContinuousClock.now - waitStart)
      throw .busy(
        "no box slot became free within \(configuration.queueTimeout); try again shortly",
        retryAfterSeconds: configuration.retryAfterSeconds)
    }
    guard let ran else { throw .internalError("the work queue lost a run") }
    guard let (runStart, runEnd, outcome) = ran else {
      throw .busy("the stored job is not to start after all", retryAfterSeconds: configuration.retryAfterSeconds)
    }
    trace.queueMilliseconds = Self.milliseconds(runStart - waitStart)
    trace.runMilliseconds = Self.milliseconds(runEnd - runStart)
    if case .failure(.sandbox(let failure)) = outcome {
      trace.runStatus = Status.internalError.rawValue
      trace.detail = failure.description
    }
    return (outcome, runEnd - runStart)
  }

  private func runtimesObject() -> [String: Any] {
    var runtimes: [[String: Any]] = []
    for name in executor.catalog.names {
      let runners = executor.catalog.languages[name] ?? []
      let installed = runners.filter { $0.missingRequirement == nil }
      // A picker fed by this list shows what can run; a version that is not installed is listed only
      // when no version of its language is, so the operator still learns what to install.
      for runner in installed.isEmpty ? runners : installed {
        let missing = runner.missingRequirement
        runtimes.append([
          "language": runner.language,
          "name": runner.displayName,
          "version": missing == nil && executor.probesVersions ? executor.probedVersion(of: runner) : runner.version,
          "aliases": runner.aliases,
          "available": missing == nil,
          "reason": missing.map { "\($0) is missing; install with: \(runner.installHint)" as Any } ?? NSNull(),
        ])
      }
    }
    return ["runtimes": runtimes]
  }

  /// The status word a run ends with: the compile's when it stopped there.
  static func statusWord(_ result: ExecuteResult) -> String {
    if let run = result.run { return run.status.rawValue }
    return result.compile?.status.rawValue ?? Status.internalError.rawValue
  }

  /// The client's `X-Request-Id` when it is short and plain (it is echoed and logged), else a new one.
  private func requestID(_ request: HTTPRequest) -> String {
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

  private static func json(_ value: JSONValue) -> HTTPResponse {
    HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: ResultEncoder.data(value))
  }

  private static func json(_ object: Any) -> HTTPResponse {
    HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: ResultEncoder.data(object))
  }

  static func milliseconds(_ duration: Duration) -> Double {
    (seconds(duration) * 1_000_000).rounded() / 1000
  }

  private static func format(seconds duration: Duration) -> String {
    String(format: "%.1f s", seconds(duration))
  }

  static func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) + Double(fraction) / 1e18
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
}
