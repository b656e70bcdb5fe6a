import Challenges
import Foundation
import HTTP
import Runners
import Sandbox
import Submissions
import Synchronization
import Wire

/// The /v1 front end (docs/api.md): execute, grade, the catalog, live runs and stored submissions,
/// its wire converted at the edge (`V1Wire.swift`) and its answers written from the run service's
/// results by `ResultEncoder` and `GradeEncoder` (the same bytes as the CLI's `--json`).
struct V1API: FrontEnd, StoredJobRunner {
  let service: RunService
  let configuration: APIConfiguration
  let submissions: SubmissionService?
  /// `GET /v1/openapi.json`'s body for the maxima it was made with: made again only after a reload
  /// changed them (the catalog does not change while we run).
  let openAPIDocument: MadeDocument

  /// `GET /v1/challenges/ID`: one route for every id (and one metrics label), named as OpenAPI does.
  static let challengeRoute = "/v1/challenges/{id}"
  static let challengePrefix = "/v1/challenges/"
  /// `GET` or `DELETE /v1/submissions/ID`, named as OpenAPI does.
  static let submissionRoute = "/v1/submissions/{id}"
  static let submissionPrefix = "/v1/submissions/"

  /// The route table. Every route is its own label in `/metrics` and the request log.
  static let table: [String: Route] = [
    "/v1/execute": Route("/v1/execute", ["POST"], .runsCode),
    "/v1/grade": Route("/v1/grade", ["POST"], .runsCode),
    "/v1/runtimes": Route("/v1/runtimes", ["GET"], .read),
    "/v1/challenges": Route("/v1/challenges", ["GET"], .read),
    challengeRoute: Route(challengeRoute, ["GET"], .read),
    "/v1/openapi.json": Route("/v1/openapi.json", ["GET"], .read),
    "/v1/connect": Route("/v1/connect", ["GET"], .liveSocket),
    "/v1/submissions": Route("/v1/submissions", ["GET", "POST"], .runsCode),
    "/v1/submissions/batch": Route("/v1/submissions/batch", ["POST"], .runsCode),
    submissionRoute: Route(submissionRoute, ["DELETE", "GET"], .read),
  ]

  init(service: RunService, configuration: APIConfiguration, submissions: SubmissionService?) {
    self.service = service
    self.configuration = configuration
    self.submissions = submissions
    let maxima = service.settings.maxima
    openAPIDocument = MadeDocument((maxima, Self.openAPIDocument(configuration, service: service, maxima: maxima)))
  }

  private static func openAPIDocument(_ configuration: APIConfiguration, service: RunService, maxima: LimitMaxima)
    -> Data?
  {
    configuration.openAPIDocument.flatMap { document in
      let installed = service.catalog.names.flatMap { name in
        (service.catalog.languages[name] ?? []).filter(\.isAvailable).flatMap { [$0.language] + $0.aliases }
      }
      return OpenAPIDocument.specialized(document, languages: Array(Set(installed)), maxima: maxima)
    }
  }

  /// The OpenAPI document with the maxima in effect.
  private func currentOpenAPIDocument() -> Data? {
    let maxima = service.settings.maxima
    return openAPIDocument.made.withLock { made in
      if made.maxima != maxima {
        made = (maxima, Self.openAPIDocument(configuration, service: service, maxima: maxima))
      }
      return made.document
    }
  }

  func route(of path: String) -> Route? {
    if let route = Self.table[path] { return route }
    if path.hasPrefix(Self.challengePrefix),
      ChallengeLoader.isValidID(String(path.dropFirst(Self.challengePrefix.count)))
    {
      return Self.table[Self.challengeRoute]
    }
    let rest = path.dropFirst(Self.submissionPrefix.count)
    if path.hasPrefix(Self.submissionPrefix), !rest.isEmpty, !rest.utf8.contains(UInt8(ascii: "/")) {
      return Self.table[Self.submissionRoute]
    }
    return nil
  }

  func answer(_ request: HTTPRequest, route: Route, scope: inout RequestScope) throws(APIError) -> HTTPResponse {
    switch route.label {
    case "/v1/execute":
      let body = try jsonBody(of: request, ExecuteBody.decode)
      if Self.wantsEventStream(request) {
        return try LiveConnect.eventStream(body, service: service, scope: &scope)
      }
      return try execute(body, context: &scope.context)
    case "/v1/grade":
      let body = try jsonBody(of: request, GradeBody.decode)
      let gradeRequest = try service.admit(try body.gradeAsk(in: service.challenges), context: &scope.context)
      if Self.wantsEventStream(request) { return gradeStreamed(gradeRequest, scope: scope) }
      let result = try service.grade(gradeRequest, context: &scope.context)
      return Self.json(GradeEncoder.gradeObject(result, exposeCompileCache: configuration.exposeCompileCache))
    case "/v1/connect":
      return LiveConnect.v1(request, service: service, router: scope, configuration: configuration)
    case "/v1/challenges":
      let challenges = service.challenges
      // The topics come along so a client groups the list in their order without a copy of them.
      return Self.json([
        "challenges": challenges.ids.compactMap { challenges.challenges[$0] }.map(GradeEncoder.summaryObject),
        "topics": ChallengeTopics.all,
      ])
    case Self.challengeRoute:
      let id = String(scope.path.dropFirst(Self.challengePrefix.count))
      guard let challenge = service.challenges.challenges[id] else {
        throw APIError(
          code: "unknown_challenge", message: "no challenge \"\(id)\"", status: .notFound,
          known: service.challenges.ids)
      }
      return Self.json(GradeEncoder.challengeObject(challenge))
    case "/v1/runtimes": return Self.json(runtimesObject())
    case "/v1/openapi.json":
      guard let document = currentOpenAPIDocument() else { throw .notFound(scope.path) }
      return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: document)
    default:
      guard let submissions else {
        throw APIError(code: "not_found", message: "this server keeps no submissions", status: .notFound)
      }
      return try SubmissionRoutes(api: self, submissions: submissions).answer(request, route: route, scope: &scope)
    }
  }

  /// `POST /v1/execute` of a body read already: admitted, run, the result encoded on the slot's
  /// thread; a stored job's result within `StoredResultBound`.
  func execute(_ body: ExecuteBody, context: inout RunContext, stored: Bool = false) throws(APIError)
    -> HTTPResponse
  {
    let request = try service.admit(try body.runAsk(), context: &context)
    let exposeCompileCache = configuration.exposeCompileCache
    let bound = stored ? StoredResultBound.bytes(service.settings.maxima) : nil
    let (_, bytes) = try service.execute(request, context: &context) { result in
      let encode = { (result: ExecuteResult) in
        ResultEncoder.data(ResultEncoder.executeValue(result, exposeCompileCache: exposeCompileCache))
      }
      guard let bound else { return encode(result) }
      return encode(StoredResultBound.fit(result, within: bound) { encode($0).count })
    }
    return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: bytes)
  }

  /// A JSON request body within the size bound, sent as JSON, decoded strictly by `decode`.
  func jsonBody<Body>(of request: HTTPRequest, _ decode: (Data) throws(APIError) -> Body) throws(APIError) -> Body {
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

  /// Whether the client asked for Server-Sent Events.
  static func wantsEventStream(_ request: HTTPRequest) -> Bool {
    request.headers.values(for: "Accept").contains { field in
      field.split(separator: ",").contains {
        $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
      }
    }
  }

  private func runtimesObject() -> [String: Any] {
    var runtimes: [[String: Any]] = []
    for name in service.catalog.names {
      let runners = service.catalog.languages[name] ?? []
      let installed = runners.filter { $0.missingRequirement == nil }
      // A picker fed by this list shows what can run; a version that is not installed is listed only
      // when no version of its language is, so the operator still learns what to install.
      for runner in installed.isEmpty ? runners : installed {
        let missing = runner.missingRequirement
        runtimes.append([
          "language": runner.language,
          "name": runner.displayName,
          "version": missing == nil && service.probesVersions ? service.probedVersion(of: runner) : runner.version,
          "aliases": runner.aliases,
          "standards": runner.standards,
          "available": missing == nil,
          "reason": missing.map { "\($0) is missing; install with: \(runner.installHint)" as Any } ?? NSNull(),
        ])
      }
    }
    return ["runtimes": runtimes]
  }

  static func json(_ value: JSONValue) -> HTTPResponse {
    HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: ResultEncoder.data(value))
  }

  static func json(_ object: Any) -> HTTPResponse {
    HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: ResultEncoder.data(object))
  }

  // MARK: Stored jobs

  func handles(_ job: ClaimedSubmission) -> Bool { job.kind == .execute || job.kind == .grade }

  /// A stored /v1 body run as its sync route runs it: admitted again (the server's maxima may have
  /// changed since it was stored), run, its answer's bytes stored.
  func runStored(_ job: ClaimedSubmission, context: inout RunContext) -> SubmissionWorkers.RunOutcome {
    do throws(APIError) {
      switch job.kind {
      case .grade:
        let body = try GradeBody.decode(job.body)
        let request = try service.admit(try body.gradeAsk(in: service.challenges), context: &context)
        let result = try service.grade(request, context: &context)
        return .finished(
          ResultEncoder.data(GradeEncoder.gradeObject(result, exposeCompileCache: configuration.exposeCompileCache)),
          isError: false)
      default:
        return .finished(
          try execute(try ExecuteBody.decode(job.body), context: &context, stored: true).body, isError: false)
      }
    } catch {
      return Self.storedFailure(error, context: &context, service: service)
    }
  }

  /// What a stored job that could not run records: `.retryLater` when no slot was free; else the
  /// error object, an internal error's text kept for the operator's log.
  static func storedFailure(_ error: APIError, context: inout RunContext, service: RunService)
    -> SubmissionWorkers.RunOutcome
  {
    if error.code == "busy" { return .retryLater }
    // A cancelled job's killed box is no failure of the server's.
    if error.status == .internalServerError, context.boxCancellation?.isCancelled == true {
      return .finished(
        ResultEncoder.data(APIError.internalError("the submission was cancelled").jsonObject), isError: true)
    }
    let shown = service.redacted(error, context: &context)
    return .finished(ResultEncoder.data(shown.jsonObject), isError: true)
  }

  func callback(_ webhook: PendingWebhook) -> (method: String, body: Data)? { nil }
}

extension APIRouter {
  /// Every single-method HTTP route of /v1 and the router's own, by method (tests walk it).
  public static var routes: [String: String] {
    var routes: [String: String] = [:]
    for (path, route) in V1API.table where route.methods.count == 1 && route.kind != .liveSocket {
      routes[path] = route.methods[0]
    }
    for (path, route) in ownRoutes { routes[path] = route.methods[0] }
    return routes
  }

  /// Every HTTP route of /v1 and the router's own with its methods, for the OpenAPI check; the
  /// WebSocket route is not an HTTP operation (docs/api.md has it).
  public static var routeMethods: [String: [String]] {
    var routes: [String: [String]] = [:]
    for (path, route) in V1API.table where route.kind != .liveSocket { routes[path] = route.methods }
    for (path, route) in ownRoutes { routes[path] = route.methods }
    return routes
  }
}

/// A document and the maxima it was made with, shared by the copies of a front end.
final class MadeDocument: Sendable {
  let made: Mutex<(maxima: LimitMaxima, document: Data?)>
  init(_ made: (maxima: LimitMaxima, document: Data?)) { self.made = Mutex(made) }
}
