import Foundation
import Glibc

/// A response made while it is sent (Server-Sent Events): the handler returns
/// `HTTPResponse.streamed { writer in ... }`, and the connection's thread calls the closure with a
/// writer on the socket after the handler returns.
///
/// The closure decides late what to answer: a whole response (`respond`, say a 503 when no slot
/// could be had) or a head (`begin`) followed by body bytes (`write`) sent as they come, chunked
/// on HTTP/1.1 and delimited by the close on HTTP/1.0. Each write waits for the client up to the
/// server's write timeout, so a client that reads slowly holds the producer back (backpressure),
/// and one that stops reading or goes away makes `write` return false.
public final class HTTPResponseStream: Sendable, Equatable {
  let produce: @Sendable (HTTPResponseWriter) -> Void

  init(_ produce: @escaping @Sendable (HTTPResponseWriter) -> Void) { self.produce = produce }

  public static func == (left: HTTPResponseStream, right: HTTPResponseStream) -> Bool { left === right }
}

extension HTTPResponse {
  /// A response whose head and body `produce` writes through its writer on the connection's thread.
  /// When `produce` writes nothing, the client gets a plain 500.
  public static func streamed(_ produce: @escaping @Sendable (HTTPResponseWriter) -> Void) -> HTTPResponse {
    var response = HTTPResponse(status: .ok)
    response.stream = HTTPResponseStream(produce)
    return response
  }
}

/// The socket side of a streamed response. Calls may come from any one thread at a time (the
/// producer may hand the writer to a worker); `peerHasClosed` may be asked from any thread.
public final class HTTPResponseWriter: @unchecked Sendable {
  private let socket: Socket
  private let writeTimeout: Duration
  private let chunked: Bool
  private let closing: Bool
  private let lock = NSLock()
  // Guarded by `lock`.
  private var began = false
  private var failed = false
  private var answered: HTTPResponse?

  init(socket: Socket, writeTimeout: Duration, requestVersion: HTTPVersion, closing: Bool) {
    self.socket = socket
    self.writeTimeout = writeTimeout
    self.closing = closing
    chunked = requestVersion == .http11
  }

  /// The status sent (a whole response's or a streamed head's); nil while nothing is.
  public var status: HTTPStatus? {
    lock.withLock { answered?.status }
  }

  /// Sends `response` whole, when nothing has been sent yet; false otherwise or when the client is gone.
  @discardableResult public func respond(_ response: HTTPResponse) -> Bool {
    lock.withLock {
      guard answered == nil else { return false }
      var response = response
      response.stream = nil
      if response.headers["Date"] == nil { response.headers.add(name: "Date", value: HTTPDate.now()) }
      answered = response
      if !socket.sendAll(response.serialized(closeConnection: closing), until: .now + writeTimeout) { failed = true }
      return !failed
    }
  }

  /// Sends `head`'s status line and fields; its body is ignored: `write` sends the body.
  @discardableResult public func begin(_ head: HTTPResponse) -> Bool {
    lock.withLock {
      guard answered == nil else { return false }
      var head = head
      head.body = Data()
      head.stream = HTTPResponseStream { _ in }
      if head.headers["Date"] == nil { head.headers.add(name: "Date", value: HTTPDate.now()) }
      answered = head
      began = true
      let bytes = head.head(closeConnection: closing || !chunked)
      if !socket.sendAll(bytes, until: .now + writeTimeout) { failed = true }
      return !failed
    }
  }

  /// Sends body bytes after `begin`, waiting for the client up to the write timeout; false when
  /// the client is gone or too slow (nothing more is sent then).
  @discardableResult public func write(_ bytes: [UInt8]) -> Bool {
    lock.withLock {
      guard began, !failed else { return false }
      guard !bytes.isEmpty else { return true }
      var framed: [UInt8] = []
      if chunked {
        framed.reserveCapacity(bytes.count + 16)
        framed += Array((String(bytes.count, radix: 16) + "\r\n").utf8)
        framed += bytes
        framed += [ASCII.carriageReturn, ASCII.lineFeed]
      }
      if !socket.sendAll(chunked ? framed : bytes, until: .now + writeTimeout) { failed = true }
      return !failed
    }
  }

  /// Whether the client closed its end or reset the connection, asked without reading: a
  /// producer whose program prints nothing for a while polls this to stop it early.
  public var peerHasClosed: Bool {
    var descriptor = pollfd(fd: socket.descriptor, events: Self.peerHangUp, revents: 0)
    guard poll(&descriptor, 1, 0) == 1 else { return false }
    return descriptor.revents & (Self.peerHangUp | Int16(POLLHUP | POLLERR)) != 0
  }

  /// Linux's POLLRDHUP (the peer shut its sending side), which Glibc's module leaves out (_GNU_SOURCE).
  private static let peerHangUp: Int16 = 0x2000

  /// Ends the body (the last chunk); what the connection does next.
  func finish() -> (sent: Bool, mustClose: Bool) {
    lock.withLock {
      if answered == nil {
        failed = true
        let response = HTTPResponse(
          status: .internalServerError, headers: ["Content-Type": "text/plain; charset=utf-8"],
          body: Data("the response could not be made\n".utf8))
        return (socket.sendAll(response.serialized(closeConnection: true), until: .now + writeTimeout), true)
      }
      if began && chunked && !failed {
        if !socket.sendAll(Array("0\r\n\r\n".utf8), until: .now + writeTimeout) { failed = true }
      }
      return (!failed, failed || closing || (began && !chunked))
    }
  }
}
