import Foundation
import HTTP
import Runners
import Sandbox
import Wire

// Piston v2 under /api/v2 (docs/compat.md, "Piston v2"): `GET /runtimes`, `POST /execute` and the
// WebSocket `GET /connect` (PistonConnect.swift), served from the same executor, box slots and
// limits as /v1. Answers and errors are Piston's shapes, not /v1's.

extension APIRouter {
  static let pistonPrefix = "/api/v2/"
  static let pistonRoutes: [String: String] = [
    "/api/v2/runtimes": "GET", "/api/v2/execute": "POST", "/api/v2/connect": "GET",
  ]

  /// Piston's answer for a path under /api/v2/ when Piston is enabled; nil for any other path.
  func pistonAnswer(_ request: HTTPRequest, path: String, trace: inout Trace) -> HTTPResponse? {
    guard configuration.pistonEnabled, path.hasPrefix(Self.pistonPrefix) || path == "/api/v2" else { return nil }
    let method = request.method == "HEAD" ? "GET" : request.method
    // Express answers an unrouted method as an unknown path.
    guard let routed = Self.pistonRoutes[path], routed == method else {
      return Self.pistonMessage("Not Found", status: .notFound)
    }
    switch path {
    case "/api/v2/runtimes":
      return Self.pistonJSON(.array(PistonRuntime.list(executor).map(\.listing)))
    case "/api/v2/connect":
      return pistonConnect(request, trace: trace)
    default:
      return pistonExecute(request, trace: &trace)
    }
  }

  /// The request's fields: JSON with `application/json` or with no Content-Type at all (pistonpy
  /// sends none), a form's with `application/x-www-form-urlencoded` (pistonapi).
  static func pistonFields(_ request: HTTPRequest) -> Result<[String: JSONValue], PistonError> {
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

  private func pistonExecute(_ request: HTTPRequest, trace: inout Trace) -> HTTPResponse {
    guard request.body.count <= configuration.maximumBodyBytes else {
      return Self.pistonMessage(
        "the body is \(request.body.count) bytes; at most \(configuration.maximumBodyBytes) are accepted",
        status: .contentTooLarge)
    }
    let job: PistonJob
    do throws(PistonError) {
      let fields: [String: JSONValue]
      switch Self.pistonFields(request) {
      case .success(let read): fields = read
      case .failure(let error):
        let unsupported = error.message == "requests must be of type application/json"
        return Self.pistonMessage(error.message, status: unsupported ? .unsupportedMediaType : .badRequest)
      }
      job = try PistonJob.read(fields, runtimes: PistonRuntime.list(executor), maxima: configuration.maxima)
    } catch {
      return Self.pistonMessage(error.message, status: .badRequest)
    }
    trace.language = job.runtime.runner.language
    let executeRequest = job.executeRequest()
    if let problem = Executor.argumentsProblem(executeRequest.arguments) {
      return Self.pistonMessage(problem, status: .badRequest)
    }
    let executor = self.executor
    let runtime = job.runtime
    let ran: (Result<ExecuteResult, ExecuteError>, Duration)
    do throws(APIError) {
      ran = try inSlot(trace: &trace) { () throws(ExecuteError) in try executor.execute(executeRequest) }
    } catch {
      var response = Self.pistonMessage(error.message, status: error.status)
      for field in error.headers { response.headers.add(name: field.name, value: field.value) }
      return response
    }
    switch ran.0 {
    case .success(let result):
      let status = Self.statusWord(result)
      trace.runStatus = status
      metrics.recordRun(language: runtime.runner.language, status: status, seconds: Self.seconds(ran.1))
      return Self.pistonJSON(PistonStage.result(result, runtime: runtime))
    case .failure(let error):
      if case .badFiles(let problem) = error { return Self.pistonMessage(problem, status: .badRequest) }
      metrics.recordRun(
        language: runtime.runner.language, status: Status.internalError.rawValue, seconds: Self.seconds(ran.1))
      trace.detail = trace.detail ?? error.description
      return Self.pistonMessage(
        "the server could not carry out this job; its operators can find why under request id \(trace.id)",
        status: .internalServerError)
    }
  }

  static func pistonJSON(_ value: JSONValue) -> HTTPResponse {
    HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: ResultEncoder.data(value))
  }

  /// Piston's error body: exactly `{"message"}`.
  static func pistonMessage(_ message: String, status: HTTPStatus) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "application/json"],
      body: ResultEncoder.data(JSONValue.object(["message": .string(message)])))
  }
}

extension PistonJob {
  /// The executor's request: the runner resolved, the run limits laid over the runner's.
  func executeRequest() -> ExecuteRequest {
    var request = ExecuteRequest(language: runtime.runner.language, version: runtime.runner.version, files: files)
    request.runner = runtime.runner
    request.stdin = Data(stdin.utf8)
    request.arguments = args
    request.runLimits = runLimits
    return request
  }
}
