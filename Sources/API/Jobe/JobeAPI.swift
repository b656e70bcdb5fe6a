import Foundation
import HTTP
import Runners
import Wire

/// Where the Jobe REST API is served (`jobe` in the daemon's config) and how big its file cache is.
public struct JobeSettings: Sendable, Equatable {
  /// The path before `/languages`, `/runs`, `/files/{id}`; Jobe's own is the default, as CodeRunner
  /// builds its URLs from a host name alone.
  public var prefix = "/jobe/index.php/restapi"
  /// The most bytes of PUT files held at once (`JobeFileCache`).
  public var fileCacheBytes = 64 << 20

  public init(prefix: String = "/jobe/index.php/restapi", fileCacheBytes: Int = 64 << 20) {
    self.prefix = prefix
    self.fileCacheBytes = fileCacheBytes
  }
}

/// The Jobe REST API for Moodle CodeRunner (docs/compat.md, "Jobe"): `GET /languages`,
/// `POST /runs`, `PUT` and `HEAD /files/{id}`, through the same run service as /v1 (admission,
/// quota, slots). Answers and errors are Jobe's: bare JSON strings, outcome codes decided by stderr,
/// overload as outcome 21 with HTTP 200. Keys come as `X-API-KEY` and are our bearer tokens.
struct JobeAPI: FrontEnd {
  let service: RunService
  let configuration: APIConfiguration
  let settings: JobeSettings
  let files: JobeFileCache

  init(service: RunService, configuration: APIConfiguration, settings: JobeSettings) {
    self.service = service
    self.configuration = configuration
    self.settings = settings
    files = JobeFileCache(capacityBytes: settings.fileCacheBytes)
  }

  /// The route table, by the path after the prefix. Labels carry `jobe:` so they never read as
  /// another front end's routes in `/metrics` and the log.
  static let table: [String: Route] = [
    "/languages": Route("jobe:/languages", ["GET"], .read),
    "/runs": Route("jobe:/runs", ["POST"], .runsCode),
    // HEAD is the router's GET without a body; a GET itself is answered 404, as Jobe has no GET.
    "/files/{id}": Route("jobe:/files/{id}", ["GET", "PUT"], .runsCode),
  ]
  static let unknown = Route("jobe:/{unknown}", [], .read)

  func route(of path: String) -> Route? {
    guard path == settings.prefix || path.hasPrefix(settings.prefix + "/") else { return nil }
    var rest = String(path.dropFirst(settings.prefix.count))
    // Jobe takes a trailing slash (testsubmit.py posts to `/runs/`).
    if rest.count > 1 && rest.hasSuffix("/") { rest.removeLast() }
    if let route = Self.table[rest] { return route }
    if let id = Self.fileID(rest) { return id.isEmpty ? Self.unknown : Self.table["/files/{id}"] }
    return Self.unknown
  }

  /// The id of a `/files/{id}` path: "" when it is not one Jobe routes (`[A-Za-z0-9]+`).
  static func fileID(_ rest: String) -> String? {
    guard rest.hasPrefix("/files/") else { return nil }
    let id = rest.dropFirst("/files/".count)
    return !id.isEmpty && id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) ? String(id) : ""
  }

  /// The key a client presents: Jobe's `X-API-KEY`, or a bearer token.
  func presentedToken(_ request: HTTPRequest) -> String? {
    request.headers["X-API-KEY"] ?? APIRouter.bearerToken(request)
  }

  /// Every error in Jobe's words and statuses: its key checks (403, 429) in plain text, the rest a
  /// JSON string; a wrong method or path is its framework's 404 with `""`.
  func render(_ error: APIError) -> HTTPResponse {
    var response: HTTPResponse
    switch error.status.code {
    case 401:
      let missing = error.message == APIError.missingTokenMessage
      response = Self.refusal(JobeRefusal(403, missing ? "Missing API key" : "Unknown API key", plainText: true))
    case 429:
      response = Self.refusal(JobeRefusal(429, "Max RUN rate for this server exceeded", plainText: true))
    case 404, 405:
      response = Self.refusal(JobeRefusal(404, ""))
    case 500:
      response = Self.refusal(.serverException(error.message))
    default:
      response = Self.refusal(JobeRefusal(error.status.code, error.message))
    }
    for (name, value) in error.headers where name == "Retry-After" { response.headers.add(name: name, value: value) }
    return response
  }

  func methodNotAllowed(_ request: HTTPRequest, route: Route, path: String) -> APIError { .notFound(path) }

  func answer(_ request: HTTPRequest, route: Route, scope: inout RequestScope) throws(APIError) -> HTTPResponse {
    switch route.label {
    case "jobe:/languages": return Self.json(.ok, Self.languagesList(service))
    case "jobe:/runs": return try run(request, scope: &scope)
    case "jobe:/files/{id}":
      do throws(JobeRefusal) {
        return try file(request, scope: scope)
      } catch {
        return Self.refusal(error)
      }
    default: throw .notFound(scope.path)
    }
  }

  /// `[[id, version], ...]` of the languages we run, alphabetical as Jobe lists them.
  static func languagesList(_ service: RunService) -> Data {
    let pairs = available(service).map { language, runner -> JSONValue in
      let version = service.probesVersions ? service.probedVersion(of: runner) : runner.version
      return .array([.string(language.id), .string(version)])
    }
    return ResultEncoder.data(.array(pairs))
  }

  /// The Jobe languages whose runner is installed, sorted by id.
  static func available(_ service: RunService) -> [(JobeLanguage, Runner)] {
    JobeLanguage.all.sorted { $0.id < $1.id }.compactMap { language in
      guard let runner = service.catalog.language(named: language.language)?.first(where: \.isAvailable) else {
        return nil
      }
      return (language, runner)
    }
  }

  private func run(_ request: HTTPRequest, scope: inout RequestScope) throws(APIError) -> HTTPResponse {
    let ask: RunAsk
    let jobeLanguage: String
    do throws(JobeRefusal) {
      guard request.body.count <= configuration.maximumBodyBytes else {
        throw JobeRefusal(
          413, "the body is \(request.body.count) bytes; at most \(configuration.maximumBodyBytes) are accepted")
      }
      let languages = Self.available(service)
      let spec = try JobeRunSpec.read(request.body, known: languages.map(\.0))
      if spec.sourceCode == JobeRunSpec.overloadProbe { return Self.json(.ok, JobeResult.overload.json) }
      // An option gcc would have refused or taken as a file name (Jobe passes them all) is a
      // compile error here too, in our words, when it is not one we let through.
      if spec.language.takesCompilerOptions, let options = spec.parameters.compileArguments,
        let runner = languages.first(where: { $0.0 == spec.language })?.1,
        let problem = CompilerOptions.problem(options, runner: runner)
      {
        return Self.json(.ok, JobeResult(outcome: .compilationError, cmpinfo: problem + "\n").json)
      }
      let owner = scope.owner
      ask = try spec.runAsk(maxima: service.settings.maxima) { files.get($0, owner: owner) }
      jobeLanguage = spec.language.id
    } catch {
      return Self.refusal(error)
    }
    do throws(APIError) {
      let admitted = try service.admit(ask, context: &scope.context)
      let (_, answer) = try service.execute(admitted, context: &scope.context) { result in
        JobeResult.from(result, jobeLanguage: jobeLanguage).json
      }
      return Self.json(.ok, answer)
    } catch {
      // Jobe's overload answer: no worker free in time is outcome 21 with HTTP 200.
      if error.status.code == 503 { return Self.json(.ok, JobeResult.overload.json) }
      throw error
    }
  }

  private func file(_ request: HTTPRequest, scope: RequestScope) throws(JobeRefusal) -> HTTPResponse {
    let rest = String(scope.path.dropFirst(settings.prefix.count))
    guard let id = Self.fileID(rest.hasSuffix("/") ? String(rest.dropLast()) : rest), !id.isEmpty else {
      throw JobeRefusal(404, "")
    }
    switch request.method {
    case "HEAD":
      return HTTPResponse(status: files.contains(id, owner: scope.owner) ? .noContent : .notFound)
    case "PUT":
      guard request.body.count <= configuration.maximumBodyBytes else {
        throw JobeRefusal(
          413, "the body is \(request.body.count) bytes; at most \(configuration.maximumBodyBytes) are accepted")
      }
      guard let value = StrictReader(nulls: .absent).parse(request.body) else { throw JobeRefusal(500, "") }
      guard case .object(let fields) = value, case .string(let encoded)? = fields["file_contents"] else {
        throw JobeRefusal(400, "put: missing file_contents parameter")
      }
      // PHP's strict base64_decode skips blanks and refuses any other stray character.
      let compact = encoded.filter { !$0.isWhitespace }
      guard let contents = Data(base64Encoded: compact) else {
        throw JobeRefusal(400, "put: contents of file \(id) are not valid base-64")
      }
      guard files.put(id, owner: scope.owner, contents: contents) else {
        throw JobeRefusal(500, "put: failed to write file \(id) to cache")
      }
      return HTTPResponse(status: .noContent)
    default:
      throw JobeRefusal(404, "")
    }
  }

  /// Jobe's JSON answers carry these, errors included.
  static func json(_ status: HTTPStatus, _ body: Data) -> HTTPResponse {
    HTTPResponse(
      status: status,
      headers: ["Content-Type": "application/json; charset=UTF-8", "Cache-Control": "no-store, max-age=0, no-cache"],
      body: body)
  }

  static func refusal(_ refusal: JobeRefusal) -> HTTPResponse {
    if refusal.plainText {
      return HTTPResponse(
        status: refusal.status, headers: ["Content-Type": "text/plain; charset=UTF-8"],
        body: Data(refusal.message.utf8))
    }
    return json(refusal.status, ResultEncoder.data(.string(refusal.message)))
  }
}
