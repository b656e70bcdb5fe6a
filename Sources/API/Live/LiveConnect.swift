import Foundation
import HTTP
import Runners
import Synchronization
import Wire

/// The entry points of live sessions: the WebSocket upgrades of `/v1/connect` and
/// `/api/v2/connect`, and `POST /v1/execute` answered as events.
enum LiveConnect {
  /// `GET /v1/connect`. The token is settled at the handshake from a header (the router checked
  /// it), or by the start message, which must then bring one (browsers cannot set the header).
  static func v1(
    _ request: HTTPRequest, service: RunService, router scope: RequestScope, configuration: APIConfiguration
  )
    -> HTTPResponse
  {
    var rules = rules(configuration)
    rules.needsToken = !service.settings.bearerTokens.isEmpty && scope.context.token.isEmpty
    // Read when the start message comes: a reload meanwhile is in effect for it.
    rules.acceptsToken = { token in service.settings.bearerTokens.contains { APIRouter.constantTimeEquals($0, token) } }
    return upgrade(
      request, service: service, codec: V1ConnectCodec(exposeCompileCache: configuration.exposeCompileCache),
      context: scope.context, rules: rules, refusal: scope.refusal, configuration: configuration)
  }

  /// `GET /api/v2/connect`: Piston's messages carry no token, so a server with tokens needs the
  /// header (the router checked it).
  static func piston(
    _ request: HTTPRequest, service: RunService, scope: RequestScope, configuration: APIConfiguration
  ) -> HTTPResponse {
    var refusal = scope.refusal
    if refusal == nil && !service.settings.bearerTokens.isEmpty && scope.context.token.isEmpty {
      refusal = .unauthorized("this server needs a bearer token (Authorization: Bearer TOKEN)")
    }
    var rules = rules(configuration)
    // v2.js closes a session that sends no `init` within a second.
    rules.startTimeout = .seconds(1)
    return upgrade(
      request, service: service, codec: PistonConnectCodec(), context: scope.context, rules: rules, refusal: refusal,
      configuration: configuration)
  }

  private static func rules(_ configuration: APIConfiguration) -> LiveSessionMachine.Rules {
    var rules = LiveSessionMachine.Rules()
    rules.startTimeout = configuration.liveIdleTimeout
    rules.stallTimeout = configuration.liveStallTimeout
    return rules
  }

  /// The WebSocket bounds of a live session.
  static func sessionOptions(_ configuration: APIConfiguration) -> WebSocketSession.Options {
    // The message bound lets a whole execute body, or a paste of that size, through in one message.
    let maximumMessage = configuration.maximumBodyBytes + 64 * 1024
    return WebSocketSession.Options(
      limits: .init(maximumFrameBytes: maximumMessage, maximumMessageBytes: maximumMessage),
      // The session's own rules come first; this is the backstop behind them.
      idleTimeout: configuration.liveIdleTimeout + .seconds(5))
  }

  private static func upgrade<Codec: LiveCodec>(
    _ request: HTTPRequest, service: RunService, codec: Codec, context: RunContext, rules: LiveSessionMachine.Rules,
    refusal: APIError?, configuration: APIConfiguration
  ) -> HTTPResponse {
    let options = sessionOptions(configuration)
    let transport = WebSocketTransport()
    let live = LiveSession(
      service: service, codec: codec, transport: transport, context: context, rules: rules, placement: .liveSlot,
      maximumPendingInput: 2 * options.limits.maximumMessageBytes)
    let socket = WebSocketSession(options: options) { session, event in
      switch event {
      case .opened:
        transport.attach(session)
        live.open()
        if let refusal { live.refuse(refusal) }
      case .message(let message):
        live.receive(message)
      case .closed:
        live.clientClosed()
      }
    }
    return .webSocket(for: request, session: socket)
  }

  /// `POST /v1/execute` with `Accept: text/event-stream`: the body admitted now (a mistake is the
  /// ordinary JSON answer), the run in a box slot as without events (a full line is the ordinary
  /// 503), its events written while it happens.
  static func eventStream(_ body: ExecuteBody, service: RunService, scope: inout RequestScope) throws(APIError)
    -> HTTPResponse
  {
    let configuration = service.configuration
    let request = try service.admit(try body.runAsk(), context: &scope.context)
    let base = scope.context
    return .streamed { writer in
      let transport = EventStreamTransport(writer: writer, context: base, service: service)
      let live = LiveSession(
        service: service, codec: EventStreamCodec(exposeCompileCache: configuration.exposeCompileCache),
        transport: transport, context: base, rules: rules(configuration),
        placement: .boxSlot(admitted: { transport.begin() }), maximumPendingInput: max(1, request.stdin.count))
      live.open()
      live.start(
        LiveStart { (_, _) throws(APIError) -> LivePlan in
          LivePlan(request: request, options: LiveOptions(), inputComplete: true)
        })
      // The connection's thread answers with this stream: it waits here until the session ends.
      transport.waitUntilClosed()
    }
  }
}

/// A live session's WebSocket: frames are text messages; a close drops what is queued. It holds
/// the WebSocket session weakly: the session's event handler holds the live session, which holds
/// this, and the connection's loop is what keeps a session alive.
final class WebSocketTransport: LiveTransport, @unchecked Sendable {
  private let lock = NSLock()
  private weak var session: WebSocketSession?

  func attach(_ session: WebSocketSession) { lock.withLock { self.session = session } }

  func deliver(_ frame: LiveFrame, until deadline: ContinuousClock.Instant) -> Bool {
    guard let session = lock.withLock({ session }) else { return false }
    let message: WebSocketMessage
    switch frame {
    case .text(let text): message = .text(text)
    case .bytes(let bytes): message = .binary(Data(bytes))
    }
    while true {
      switch session.send(message, until: min(deadline, .now + .milliseconds(250))) {
      case .queued: return true
      case .closed: return false
      case .wouldBlock: if ContinuousClock.now >= deadline { return false }
      }
    }
  }

  func close(_ close: LiveSessionMachine.Close, code: UInt16, reason: String) {
    lock.withLock { session }?.close(code: code, reason: reason, discardingQueued: close == .tooSlow)
  }

  var clientIsGone: Bool { false }
  var logStatus: Int { 101 }
}

/// A live session's SSE answer: frames are event bytes written as they come; the head goes once
/// the run has its slot, and a refusal before that is the ordinary JSON answer.
final class EventStreamTransport: LiveTransport, @unchecked Sendable {
  private let writer: HTTPResponseWriter
  private let context: RunContext
  private let service: RunService
  private let closed = NSCondition()
  private var isClosed = false
  private let started = ContinuousClock.now

  init(writer: HTTPResponseWriter, context: RunContext, service: RunService) {
    self.writer = writer
    self.context = context
    self.service = service
  }

  func begin() { writer.begin(eventStreamHead(requestID: context.requestID)) }

  func deliver(_ frame: LiveFrame, until deadline: ContinuousClock.Instant) -> Bool {
    guard writer.status != nil else { return false }
    switch frame {
    case .bytes(let bytes): return writer.write(bytes)
    case .text(let text): return writer.write(Array(text.utf8))
    }
  }

  func close(_ close: LiveSessionMachine.Close, code: UInt16, reason: String) {
    closed.lock()
    defer { closed.unlock() }
    guard !isClosed else { return }
    isClosed = true
    if writer.status == nil, case .refused(let error) = close {
      var response = error.response
      response.headers.add(name: "X-Request-Id", value: context.requestID)
      writer.respond(response)
    }
    let status = writer.status?.code ?? 500
    service.metrics.recordRequest(route: context.route, code: status)
    closed.broadcast()
  }

  func waitUntilClosed() {
    closed.lock()
    while !isClosed { closed.wait() }
    closed.unlock()
  }

  var clientIsGone: Bool { writer.peerHasClosed }
  var logStatus: Int { writer.status?.code ?? 500 }
}
