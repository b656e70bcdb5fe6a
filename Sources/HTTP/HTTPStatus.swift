/// An HTTP status code with the reason phrase sent in the status line.
public struct HTTPStatus: Sendable, Hashable, CustomStringConvertible {
  /// The three-digit code.
  public let code: Int
  /// The phrase after the code; clients ignore it, people read it.
  public let reasonPhrase: String

  /// A status with the RFC 9110 phrase for `code` unless one is given; unknown codes get an empty phrase,
  /// which the status-line grammar allows.
  public init(code: Int, reasonPhrase: String? = nil) {
    self.code = code
    self.reasonPhrase = reasonPhrase ?? Self.standardPhrases[code] ?? ""
  }

  /// "413 Content Too Large".
  public var description: String { reasonPhrase.isEmpty ? "\(code)" : "\(code) \(reasonPhrase)" }

  /// Whether the response must not carry a body or Content-Length (1xx, 204, 304; RFC 9112 §6.3).
  public var forbidsBody: Bool { (100..<200).contains(code) || code == 204 || code == 304 }

  /// 100: the client may send the body it is holding back.
  public static let `continue` = HTTPStatus(code: 100)
  /// 200.
  public static let ok = HTTPStatus(code: 200)
  /// 204.
  public static let noContent = HTTPStatus(code: 204)
  /// 400: the request cannot be parsed or framed.
  public static let badRequest = HTTPStatus(code: 400)
  /// 401.
  public static let unauthorized = HTTPStatus(code: 401)
  /// 404.
  public static let notFound = HTTPStatus(code: 404)
  /// 405: the route exists but not for this method (the router's call, not the parser's).
  public static let methodNotAllowed = HTTPStatus(code: 405)
  /// 408: the client was too slow (the server's timeouts, not the parser).
  public static let requestTimeout = HTTPStatus(code: 408)
  /// 411: POST or PUT without Content-Length or chunked framing.
  public static let lengthRequired = HTTPStatus(code: 411)
  /// 413: the body is over the configured limit.
  public static let contentTooLarge = HTTPStatus(code: 413)
  /// 414: the request target is over the configured limit.
  public static let uriTooLong = HTTPStatus(code: 414)
  /// 415: the route does not take this Content-Type (the router's call).
  public static let unsupportedMediaType = HTTPStatus(code: 415)
  /// 429.
  public static let tooManyRequests = HTTPStatus(code: 429)
  /// 431: too many header fields or too many header bytes.
  public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
  /// 500.
  public static let internalServerError = HTTPStatus(code: 500)
  /// 503: full; sent with Retry-After.
  public static let serviceUnavailable = HTTPStatus(code: 503)
  /// 505: a version other than HTTP/1.0 or HTTP/1.1.
  public static let httpVersionNotSupported = HTTPStatus(code: 505)

  // RFC 9110 §15 phrases (413 and 422 use the 2022 names).
  private static let standardPhrases: [Int: String] = [
    100: "Continue", 101: "Switching Protocols",
    200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
    301: "Moved Permanently", 302: "Found", 304: "Not Modified", 307: "Temporary Redirect",
    308: "Permanent Redirect",
    400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
    406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required",
    412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
    417: "Expectation Failed", 422: "Unprocessable Content", 426: "Upgrade Required", 429: "Too Many Requests",
    431: "Request Header Fields Too Large",
    500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
    504: "Gateway Timeout", 505: "HTTP Version Not Supported",
  ]
}
