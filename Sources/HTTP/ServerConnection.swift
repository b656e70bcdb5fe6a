import Foundation

/// One client connection, served start to end on its own thread: wait for bytes, feed the parser,
/// answer its events in order, repeat; then close the way the last answer calls for.
///
/// Answering in the order the parser reports is all pipelining needs: the handler runs for one
/// request at a time and nothing more is read until every request already parsed is answered, so
/// responses can never overtake each other and a fast pipelining client cannot queue unbounded work.
struct ServerConnection {
  let socket: Socket
  let configuration: HTTPServer.Configuration
  let handler: HTTPServer.Handler
  /// Readable once the server stops; an idle connection then closes instead of waiting.
  let stopSignal: Int32
  let isStopping: @Sendable () -> Bool
  /// The peer's address, as requests carry it (`HTTPRequest.client`).
  var client: String?

  /// Bytes per read: enough for a typical request in one read, small enough that hundreds of
  /// connections cost little.
  static let readChunkBytes = 16 * 1024
  /// How long a closing connection keeps reading (and discarding) what the client still sends.
  static let lingerTimeout = Duration.seconds(2)

  private enum Next {
    case keepOpen
    /// The peer is gone or too slow: close at once.
    case close
    /// A response said `Connection: close`: send FIN, drain, then close.
    case closeAfterDraining
    /// A 101 went out: the connection is the session's now.
    case webSocket(WebSocketSession)
  }

  func run() {
    var parser = HTTPRequestParser(limits: configuration.parserLimits)
    var buffer = [UInt8](repeating: 0, count: Self.readChunkBytes)
    var idleSince = ContinuousClock.now
    // When the first byte of the request in progress arrived; its read deadline counts from there.
    var requestStarted: ContinuousClock.Instant?
    while true {
      let readiness =
        parser.isIdle
        ? socket.waitForInput(until: idleSince + configuration.idleTimeout, wake: stopSignal)
        : socket.waitForInput(until: (requestStarted ?? .now) + configuration.requestReadTimeout)
      switch readiness {
      case .woken:
        return  // Stopping, and no request has begun here: nothing to finish.
      case .timedOut:
        if parser.isIdle { return }
        let seconds = configuration.requestReadTimeout.wholeMillisecondsRoundedUp / 1000
        let timeout = HTTPResponse(
          status: .requestTimeout, headers: ["Content-Type": "text/plain; charset=utf-8"],
          body: Data("the request did not arrive within \(max(seconds, 1)) s; send it at once\n".utf8))
        if write(configuration.observedOwnAnswer(timeout), closing: true, version: .http11) {
          drainBeforeClosing(&buffer)
        }
        return
      case .ready:
        break
      }
      switch socket.receive(into: &buffer) {
      case .wouldBlock:
        continue
      case .endOfInput, .failed:
        // Every request already parsed has been answered, so a client that half-closed after its
        // last request has had its responses; a partial request has nobody left to answer.
        return
      case .bytes(let count):
        if parser.isIdle { requestStarted = .now }
        let events = parser.feed(buffer[..<count])
        switch answer(events, partialRequestFollows: !parser.isIdle, requestStarted: &requestStarted) {
        case .keepOpen: break
        case .close: return
        case .closeAfterDraining:
          drainBeforeClosing(&buffer)
          return
        case .webSocket(let session):
          WebSocketConnection(socket: socket, session: session, stopSignal: stopSignal, isStopping: isStopping).run()
          return
        }
        if parser.isIdle {
          idleSince = .now
          requestStarted = nil
        }
      }
    }
  }

  /// Acts on the parser's events in order.
  private func answer(
    _ events: [HTTPRequestParser.Event], partialRequestFollows: Bool, requestStarted: inout ContinuousClock.Instant?
  ) -> Next {
    for (index, event) in events.enumerated() {
      switch event {
      case .expectContinue:
        // When the whole body came with the head, the request follows in this batch: asking for
        // the body would only add a stray interim response.
        if index + 1 < events.count, case .request = events[index + 1] { continue }
        guard socket.sendAll(HTTPResponse.continueHead, until: .now + configuration.writeTimeout) else {
          return .close
        }
      case .request(var request):
        request.client = client
        let response = handler(request)
        if let session = response.webSocketSession {
          return upgrade(
            to: session, response: response, isLastEvent: index == events.count - 1 && !partialRequestFollows)
        }
        // A handler asks for the connection to end with `Connection: close` (the serializer drops
        // the field and writes its own); a stopping server ends every connection after its answer.
        let closing =
          !request.keepAlive || response.headers.listContains("close", for: "Connection") || isStopping()
        if let stream = response.stream {
          let writer = HTTPResponseWriter(
            socket: socket, writeTimeout: configuration.writeTimeout, requestVersion: request.version, closing: closing)
          stream.produce(writer)
          let (sent, mustClose) = writer.finish()
          guard sent else { return .close }
          if mustClose { return .closeAfterDraining }
          requestStarted = .now
          continue
        }
        guard write(response, closing: closing, version: request.version, bodyOmitted: request.method == "HEAD")
        else { return .close }
        if closing { return .closeAfterDraining }
        // Bytes after this request belong to the next one, whose deadline starts now.
        requestStarted = .now
      case .error(let error):
        let response = configuration.observedOwnAnswer(.error(error))
        return write(response, closing: true, version: .http11) ? .closeAfterDraining : .close
      }
    }
    return .keepOpen
  }

  /// Sends the 101 and hands the connection to `session`, unless the client sent bytes after its
  /// handshake: RFC 6455 §4.1 has it wait for the 101, and the parser would have taken them as HTTP.
  private func upgrade(to session: WebSocketSession, response: HTTPResponse, isLastEvent: Bool) -> Next {
    guard isLastEvent && !isStopping() else {
      session.finish()
      session.onEvent(session, .closed(code: WebSocketCloseCode.abnormal, reason: "the handshake was refused"))
      let refusal = HTTPResponse(
        status: .badRequest, headers: ["Content-Type": "text/plain; charset=utf-8"],
        body: Data("send nothing after a WebSocket handshake until its 101 arrives\n".utf8))
      return write(refusal, closing: true, version: .http11) ? .closeAfterDraining : .close
    }
    return write(response, closing: false, version: .http11) ? .webSocket(session) : .close
  }

  /// Writes `response` with a `Date` field; false when the client is gone or does not read.
  private func write(_ response: HTTPResponse, closing: Bool, version: HTTPVersion, bodyOmitted: Bool = false) -> Bool {
    var response = response
    if response.headers["Date"] == nil { response.headers.add(name: "Date", value: HTTPDate.now()) }
    let bytes = response.serialized(closeConnection: closing, requestVersion: version, bodyOmitted: bodyOmitted)
    return socket.sendAll(bytes, until: .now + configuration.writeTimeout)
  }

  /// A lingering close (RFC 9112 §9.6): closing a socket with unread input makes the kernel send
  /// RST, and a client still sending its body (a 413, a pipelined request after `Connection:
  /// close`) would then lose the response it has not read yet. So send FIN first and read until
  /// the client closes too, for a bounded time.
  private func drainBeforeClosing(_ buffer: inout [UInt8]) {
    socket.shutdownOutput()
    let deadline = ContinuousClock.now + Self.lingerTimeout
    while socket.waitForInput(until: deadline) == .ready {
      switch socket.receive(into: &buffer) {
      case .bytes, .wouldBlock: continue
      case .endOfInput, .failed: return
      }
    }
  }
}
