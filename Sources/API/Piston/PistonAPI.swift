import Foundation
import HTTP
import Runners
import Sandbox
import Wire

/// Piston v2 under /api/v2 (docs/compat.md, "Piston v2"): `GET /runtimes`, `POST /execute` and the
/// WebSocket `GET /connect`, through the same run service as /v1 (admission, quota, slots).
/// Answers and errors are Piston's shapes, not /v1's.
struct PistonAPI: FrontEnd {
  let service: RunService
  let configuration: APIConfiguration

  static let prefix = "/api/v2"
  /// The route table; a path under /api/v2 that is none of them is Piston's 404, under one label.
  static let table: [String: Route] = [
    "/api/v2/runtimes": Route("/api/v2/runtimes", ["GET"], .read),
    "/api/v2/execute": Route("/api/v2/execute", ["POST"], .runsCode),
    "/api/v2/connect": Route("/api/v2/connect", ["GET"], .liveSocket),
  ]
  static let unknown = Route("/api/v2/{unknown}", [], .read)

  func route(of path: String) -> Route? {
    if let route = Self.table[path] { return route }
    return path == Self.prefix || path.hasPrefix(Self.prefix + "/") ? Self.unknown : nil
  }

  func render(_ error: APIError) -> HTTPResponse {
    var response = Self.message(error.message, status: error.status)
    for (name, value) in error.headers where name != "Content-Type" { response.headers.add(name: name, value: value) }
    return response
  }

  /// Express answers an unrouted method as an unknown path.
  func methodNotAllowed(_ request: HTTPRequest, route: Route, path: String) -> APIError {
    APIError(code: "not_found", message: "Not Found", status: .notFound)
  }

  func answer(_ request: HTTPRequest, route: Route, scope: inout RequestScope) throws(APIError) -> HTTPResponse {
    switch route.label {
    case "/api/v2/runtimes": return Self.json(.array(PistonRuntime.list(service).map(\.listing)))
    case "/api/v2/connect":
      return LiveConnect.piston(request, service: service, scope: scope, configuration: configuration)
    default: return try execute(request, context: &scope.context)
    }
  }

  private func execute(_ request: HTTPRequest, context: inout RunContext) throws(APIError) -> HTTPResponse {
    guard request.body.count <= configuration.maximumBodyBytes else {
      throw APIError(
        code: "payload_too_large",
        message:
          "the body is \(request.body.count) bytes; at most \(configuration.maximumBodyBytes) are accepted",
        status: .contentTooLarge)
    }
    let fields: [String: JSONValue]
    switch Self.fields(request) {
    case .success(let read): fields = read
    case .failure(let error):
      let unsupported = error.message == "requests must be of type application/json"
      throw APIError(
        code: unsupported ? "unsupported_media_type" : "bad_request", message: error.message,
        status: unsupported ? .unsupportedMediaType : .badRequest)
    }
    let job: PistonJob
    do throws(PistonError) {
      job = try PistonJob.read(fields, runtimes: PistonRuntime.list(service), maxima: service.settings.maxima)
    } catch {
      throw .badRequest(error.message)
    }
    let executeRequest = try service.admit(job.runAsk(), context: &context)
    let runtime = job.runtime
    let (_, value) = try service.execute(executeRequest, context: &context) { result in
      PistonStage.result(result, runtime: runtime)
    }
    return Self.json(value)
  }

  /// The request's fields: JSON with `application/json` or with no Content-Type at all (pistonpy
  /// sends none), a form's with `application/x-www-form-urlencoded` (pistonapi). A browser page of
  /// another site cannot use the two that need no preflight: the router refuses its `Origin`.
  static func fields(_ request: HTTPRequest) -> Result<[String: JSONValue], PistonError> {
    let contentType = request.headers["Content-Type"]
    let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
    switch mediaType {
    case "application/x-www-form-urlencoded":
      return .success(PistonForm.fields(request.body))
    case nil, "application/json", "text/plain":
      if request.body.isEmpty { return .success([:]) }
      let reader = StrictReader(nulls: .absent)
      guard let value = reader.parse(request.body) else {
        return .failure(
          PistonError(
            "the body is not valid JSON: \(reader.problems.first.map(\.description) ?? "it could not be read")"))
      }
      guard case .object(let fields) = value else { return .success([:]) }
      return .success(fields)
    default:
      return .failure(PistonError("requests must be of type application/json"))
    }
  }

  static func json(_ value: JSONValue) -> HTTPResponse {
    HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: ResultEncoder.data(value))
  }

  /// Piston's error body: exactly `{"message"}`.
  static func message(_ message: String, status: HTTPStatus) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "application/json"],
      body: ResultEncoder.data(JSONValue.object(["message": .string(message)])))
  }
}
