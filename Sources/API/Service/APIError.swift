import Foundation
import HTTP
import Runners
import Sandbox

/// An error answered as JSON (DESIGN §5): `{"error": {"code", "message", "known"?}}` with its HTTP
/// status and any header the status calls for (Allow, Retry-After, WWW-Authenticate).
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The machine-readable code, e.g. `unknown_language`.
  public var code: String
  /// A sentence for the caller.
  public var message: String
  /// The accepted values, when the caller named one we do not know (languages, versions).
  public var known: [String]?
  /// The HTTP status the error is sent with.
  public var status: HTTPStatus
  /// Extra header fields, e.g. `Retry-After`.
  public var headers: HTTPHeaders

  /// An error from its parts.
  public init(
    code: String, message: String, status: HTTPStatus, known: [String]? = nil, headers: HTTPHeaders = HTTPHeaders()
  ) {
    self.code = code
    self.message = message
    self.status = status
    self.known = known
    self.headers = headers
  }

  /// The 401 of a request that presents no token where the server needs one.
  public static let missingTokenMessage = "this server needs a bearer token (Authorization: Bearer TOKEN)"

  /// "unknown_field: ...".
  public var description: String { "\(code): \(message)" }

  /// 400 `bad_request`: the body is not a valid request.
  public static func badRequest(_ message: String) -> APIError {
    APIError(code: "bad_request", message: message, status: .badRequest)
  }

  /// 400 `unknown_field`: strict decoding met a key the contract does not have.
  public static func unknownField(_ path: String) -> APIError {
    APIError(code: "unknown_field", message: "unknown field \"\(path)\"", status: .badRequest)
  }

  /// 400 `unknown_language`, with the languages this server knows.
  public static func unknownLanguage(_ name: String, known: [String]) -> APIError {
    APIError(
      code: "unknown_language", message: "unknown language \"\(name)\"", status: .badRequest, known: known)
  }

  /// 404 `not_found`.
  public static func notFound(_ path: String) -> APIError {
    APIError(code: "not_found", message: "no route for \(path)", status: .notFound)
  }

  /// 405 `method_not_allowed`, with the `Allow` field RFC 9110 §15.5.6 requires.
  public static func methodNotAllowed(_ method: String, path: String, allowed: [String]) -> APIError {
    APIError(
      code: "method_not_allowed",
      message: "\(path) does not take \(method); it takes \(allowed.joined(separator: ", "))",
      status: .methodNotAllowed, headers: HTTPHeaders([(name: "Allow", value: allowed.joined(separator: ", "))]))
  }

  /// 415 `unsupported_media_type`.
  public static func unsupportedMediaType(_ given: String?) -> APIError {
    APIError(
      code: "unsupported_media_type",
      message: "the body must be sent with Content-Type: application/json"
        + (given.map { " (it was \($0))" } ?? " (there was none)"),
      status: .unsupportedMediaType)
  }

  /// 413 `payload_too_large`.
  public static func payloadTooLarge(size: Int, maximum: Int) -> APIError {
    APIError(
      code: "payload_too_large", message: "the body has \(size) bytes; the maximum is \(maximum)",
      status: .contentTooLarge)
  }

  /// 503 `busy` with `Retry-After` in whole seconds.
  public static func busy(_ message: String, retryAfterSeconds: Int) -> APIError {
    APIError(
      code: "busy", message: message, status: .serviceUnavailable,
      headers: HTTPHeaders([(name: "Retry-After", value: String(max(1, retryAfterSeconds)))]))
  }

  /// 401 `unauthorized` with the `WWW-Authenticate` challenge RFC 9110 §11.6.1 requires.
  public static func unauthorized(_ message: String) -> APIError {
    APIError(
      code: "unauthorized", message: message, status: .unauthorized,
      headers: HTTPHeaders([(name: "WWW-Authenticate", value: "Bearer realm=\"dsa-run\"")]))
  }

  /// 500 `internal_error`.
  public static func internalError(_ message: String) -> APIError {
    APIError(code: "internal_error", message: message, status: .internalServerError)
  }

  /// The error as its JSON object.
  public var jsonObject: [String: Any] {
    var inner: [String: Any] = ["code": code, "message": message]
    if let known { inner["known"] = known }
    return ["error": inner]
  }

  /// The error as a response.
  public var response: HTTPResponse {
    var fields = headers
    fields.add(name: "Content-Type", value: "application/json")
    return HTTPResponse(status: status, headers: fields, body: ResultEncoder.data(jsonObject))
  }

  /// Maps why a request could not start. A sandbox failure says only the failing step and its errno:
  /// the hint and anything else may name host files and configuration, which belong in the operator's
  /// log, not in an answer to whoever sent the code.
  public static func from(_ error: ExecuteError) -> APIError {
    switch error {
    case .unknownLanguage(let name, let known):
      return .unknownLanguage(name, known: known)
    case .unknownVersion(let language, let version, let known):
      // 404 like an unknown challenge id: which versions a language has cannot be put in the OpenAPI
      // 3.0 schema beside the language's name, so a version is a name to look up, not a field to check.
      return APIError(
        code: "unknown_version", message: "\(language) has no version \"\(version)\"", status: .notFound,
        known: known)
    case .toolchainMissing(let language, let version, _, _):
      // The operator's problem, and retrying will not help until they install it.
      return APIError(
        code: "runtime_unavailable", message: "\(language) \(version) is not installed on this server",
        status: .serviceUnavailable)
    case .badFiles(let problem):
      return .badRequest(problem)
    case .unknownPolicy:
      return .internalError("the server's runner configuration is broken")
    case .sandbox(let failure):
      return .internalError("the sandbox failed at \(publicStep(failure))")
    case .notStarted(let why):
      return .busy(why, retryAfterSeconds: 1)
    }
  }

  /// The failing step and errno name without the hint, e.g. "pivot_root: EPERM".
  static func publicStep(_ failure: SandboxError) -> String {
    let withoutHint = SandboxError(step: failure.step, errorNumber: failure.errorNumber).description
    // The errno's strerror text in parentheses adds nothing a learner's client can use.
    if let open = withoutHint.range(of: " (") { return String(withoutHint[..<open.lowerBound]) }
    return withoutHint
  }
}
