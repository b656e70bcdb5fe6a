import Foundation

/// A response and its serialization to HTTP/1.1 bytes; pure, so the server only writes what it returns.
///
/// The serializer owns the framing fields: any `Content-Length`, `Transfer-Encoding` or `Connection`
/// in `headers` is dropped and replaced by what the body and `closeConnection` call for, so a
/// route can never send a length that disagrees with its body. It adds no `Date`: the server,
/// which has a clock, puts one in `headers`. A HEAD request gets the head only (`bodyOmitted`), with
/// the `Content-Length` its GET would have.
public struct HTTPResponse: Sendable, Equatable {
  /// The status line's code and phrase.
  public var status: HTTPStatus
  /// Fields to send, in order; framing fields are the serializer's (see the type's summary).
  public var headers: HTTPHeaders
  /// The body; ignored for 1xx, 204 and 304, which must not have one.
  public var body: Data
  /// The session that takes the connection over after this 101; set by `webSocket(for:session:)`.
  public internal(set) var webSocketSession: WebSocketSession?
  /// The producer of a response made while it is sent; set by `streamed(_:)`.
  public internal(set) var stream: HTTPResponseStream?

  /// A response from its parts.
  public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The interim response that tells a client waiting on `Expect: 100-continue` to send its body.
  public static let continueHead: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

  /// The status line and header section, through the empty line; write the body after it.
  ///
  /// - Parameters:
  ///   - closeConnection: the server closes after this response, so it says `Connection: close`
  ///     (RFC 9112 §9.6); always true after a parse error.
  ///   - requestVersion: an HTTP/1.0 client that asked to keep the connection alive must be told
  ///     `Connection: keep-alive`, or it assumes the server closes.
  public func head(closeConnection: Bool, requestVersion: HTTPVersion = .http11) -> [UInt8] {
    var text = "HTTP/1.1 \(status.code) \(Self.sanitized(status.reasonPhrase))\r\n"
    for (name, value) in headers where Self.isSendable(name) {
      text += "\(name): \(Self.sanitized(value))\r\n"
    }
    if stream != nil {
      // A streamed body's length is not known: chunks, or the close on a closing connection.
      if !closeConnection { text += "Transfer-Encoding: chunked\r\n" }
    } else if !status.forbidsBody {
      text += "Content-Length: \(body.count)\r\n"
    }
    if webSocketSession != nil {
      text += "Connection: Upgrade\r\n"
    } else if closeConnection {
      text += "Connection: close\r\n"
    } else if requestVersion == .http10 {
      text += "Connection: keep-alive\r\n"
    }
    text += "\r\n"
    return Array(text.utf8)
  }

  /// The whole response: `head` followed by the body.
  public func serialized(
    closeConnection: Bool, requestVersion: HTTPVersion = .http11, bodyOmitted: Bool = false
  ) -> [UInt8] {
    var bytes = head(closeConnection: closeConnection, requestVersion: requestVersion)
    if !status.forbidsBody && !bodyOmitted { bytes.append(contentsOf: body) }
    return bytes
  }

  /// A plain-text error response for a parse error; the server sends it and closes.
  public static func error(_ error: HTTPParseError) -> HTTPResponse {
    HTTPResponse(
      status: error.status, headers: ["Content-Type": "text/plain; charset=utf-8"],
      body: Data((error.message + "\n").utf8))
  }

  private static let framingFields = ["Content-Length", "Transfer-Encoding", "Connection"]

  // A field whose name is not a token would corrupt the header section; the serializer owns framing.
  private static func isSendable(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.allSatisfy(ASCII.isTokenByte)
      && !framingFields.contains { ASCII.equalsIgnoringCase($0, name) }
  }

  // A CR or LF in a value (say, an echoed request id) would let its author add fields or a second
  // response; control bytes become spaces so the response stays one well-formed message.
  private static func sanitized(_ value: String) -> String {
    guard !value.utf8.allSatisfy(ASCII.isFieldValueByte) else { return value }
    return String(decoding: value.utf8.map { ASCII.isFieldValueByte($0) ? $0 : ASCII.space }, as: UTF8.self)
  }
}
