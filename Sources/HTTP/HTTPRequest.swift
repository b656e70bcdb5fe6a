import Foundation

/// The HTTP versions the parser accepts; anything else is answered with 505.
public enum HTTPVersion: String, Sendable {
  /// HTTP/1.0: connections close after each response unless the client asks to keep them alive.
  case http10 = "HTTP/1.0"
  /// HTTP/1.1: connections stay open unless either side says `Connection: close`.
  case http11 = "HTTP/1.1"
}

/// A request's line and header fields: everything known before the body.
public struct HTTPRequestHead: Sendable, Equatable {
  /// The method token as sent (methods are case-sensitive).
  public var method: String
  /// The request target as sent (origin form such as `/v1/execute?x=1`), visible ASCII only.
  public var target: String
  /// HTTP/1.0 or HTTP/1.1.
  public var version: HTTPVersion
  /// The header fields in arrival order.
  public var headers: HTTPHeaders
  /// Whether the connection may carry another request after this one's response
  /// (RFC 9112 §9.3: HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`).
  public var keepAlive: Bool

  /// A head from its parts.
  public init(method: String, target: String, version: HTTPVersion, headers: HTTPHeaders, keepAlive: Bool) {
    self.method = method
    self.target = target
    self.version = version
    self.headers = headers
    self.keepAlive = keepAlive
  }
}

/// A complete request: head, decoded body and any chunked trailer fields.
public struct HTTPRequest: Sendable, Equatable {
  /// The request line and header fields.
  public var head: HTTPRequestHead
  /// The body with any chunked framing removed; empty when there was none.
  public var body: Data
  /// Trailer fields after a chunked body; kept apart from `headers` because RFC 9110 §6.5.1 forbids
  /// merging them blindly.
  public var trailers: HTTPHeaders
  /// Who sent it, for logs: `ADDRESS:PORT` (`[ADDRESS]:PORT` for IPv6) of a TCP peer, `unix` on a
  /// Unix socket; nil when not known (a request made up by a test). Set by the server, never parsed.
  public var client: String?

  /// A request from its parts.
  public init(head: HTTPRequestHead, body: Data = Data(), trailers: HTTPHeaders = HTTPHeaders()) {
    self.head = head
    self.body = body
    self.trailers = trailers
  }

  /// The method token, e.g. `POST`.
  public var method: String { head.method }
  /// The request target, e.g. `/v1/execute`.
  public var target: String { head.target }
  /// HTTP/1.0 or HTTP/1.1.
  public var version: HTTPVersion { head.version }
  /// The header fields in arrival order.
  public var headers: HTTPHeaders { head.headers }
  /// Whether the connection may carry another request after this one's response.
  public var keepAlive: Bool { head.keepAlive }
}
