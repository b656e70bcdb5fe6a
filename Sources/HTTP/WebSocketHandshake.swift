import Foundation
import SystemCore

/// The server side of the RFC 6455 §4.2 opening handshake: checks a request and answers it.
///
/// Pure, like the parser: it reads a request and returns a response, so the checks are tested
/// without sockets and the server only writes what it gets back.
public enum WebSocketHandshake {
  /// The only protocol version RFC 6455 defines; sent back in `Sec-WebSocket-Version` with a 426.
  public static let version = "13"
  /// Appended to the client's key before hashing (RFC 6455 §1.3).
  static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

  /// Why a request is not a WebSocket handshake, with the response that says so.
  public struct Refusal: Error, Sendable, Equatable {
    /// 400 for a malformed handshake, 426 (with `Sec-WebSocket-Version: 13`) for another version.
    public let status: HTTPStatus
    /// What is wrong and what to send instead; the response's body.
    public let message: String

    /// The plain-text response to send; the connection then carries on as HTTP.
    public var response: HTTPResponse {
      var headers: HTTPHeaders = ["Content-Type": "text/plain; charset=utf-8"]
      if status.code == 426 {
        headers.add(name: "Sec-WebSocket-Version", value: WebSocketHandshake.version)
        headers.add(name: "Upgrade", value: "websocket")
      }
      return HTTPResponse(status: status, headers: headers, body: Data((message + "\n").utf8))
    }
  }

  /// The `Sec-WebSocket-Accept` value for `key`: base64(SHA-1(key + GUID)).
  public static func acceptValue(for key: String) -> String {
    Digest.base64(Digest.sha1(Array((key + acceptGUID).utf8)))
  }

  /// The 101 response's fields for a valid handshake, or why it is not one.
  ///
  /// No subprotocol or extension is negotiated: `Sec-WebSocket-Protocol` and
  /// `Sec-WebSocket-Extensions` (permessage-deflate) are left unanswered, which RFC 6455 §4.2.2
  /// allows and which means the client must not use them.
  public static func check(_ request: HTTPRequest) -> Result<HTTPHeaders, Refusal> {
    func refuse(_ message: String) -> Result<HTTPHeaders, Refusal> {
      .failure(Refusal(status: .badRequest, message: message))
    }
    guard request.method == "GET" else {
      return refuse("a WebSocket handshake is a GET request, not \(request.method)")
    }
    guard request.version == .http11 else {
      return refuse("a WebSocket handshake needs HTTP/1.1")
    }
    guard request.headers.listContains("websocket", for: "Upgrade") else {
      return refuse("this route is a WebSocket: send Upgrade: websocket")
    }
    guard request.headers.listContains("upgrade", for: "Connection") else {
      return refuse("a WebSocket handshake needs Connection: Upgrade")
    }
    guard request.body.isEmpty else {
      return refuse("a WebSocket handshake has no body")
    }
    let versions = request.headers.values(for: "Sec-WebSocket-Version")
    guard versions.count == 1, versions[0].trimmingCharacters(in: .whitespaces) == version else {
      return .failure(
        Refusal(
          status: HTTPStatus(code: 426),
          message: versions.isEmpty
            ? "a WebSocket handshake needs Sec-WebSocket-Version: 13"
            : "only WebSocket version 13 is spoken, not \(versions.joined(separator: ", "))"))
    }
    let keys = request.headers.values(for: "Sec-WebSocket-Key")
    guard keys.count == 1 else {
      return refuse("a WebSocket handshake needs exactly one Sec-WebSocket-Key")
    }
    let key = keys[0].trimmingCharacters(in: .whitespaces)
    // RFC 6455 §4.1: the key is 16 random bytes in base64, so 24 characters.
    guard let decoded = Data(base64Encoded: key), decoded.count == 16 else {
      return refuse("Sec-WebSocket-Key must be 16 bytes in base64 (24 characters)")
    }
    return .success([
      "Upgrade": "websocket",
      "Sec-WebSocket-Accept": acceptValue(for: key),
    ])
  }
}

extension HTTPResponse {
  /// The answer that hands this connection to `session` when `request` is a valid WebSocket
  /// handshake (101 Switching Protocols; the server then runs the WebSocket loop on the
  /// connection's thread), or the 400/426 that says what is wrong with it.
  public static func webSocket(for request: HTTPRequest, session: WebSocketSession) -> HTTPResponse {
    switch WebSocketHandshake.check(request) {
    case .failure(let refusal):
      return refusal.response
    case .success(let headers):
      var response = HTTPResponse(status: HTTPStatus(code: 101), headers: headers)
      response.webSocketSession = session
      return response
    }
  }
}
