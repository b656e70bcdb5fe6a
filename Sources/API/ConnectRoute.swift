import Foundation
import HTTP
import Runners
import Sandbox
import Synchronization
import Wire

// `GET /v1/connect` (docs/api.md, "Live runs"): a WebSocket whose client sends the execute body,
// then stdin, end of input, signals and kill, and gets the run's stages, output and steps as they happen,
// then the result `/v1/execute` would have answered.
//
// Three threads serve one running session: the connection's (the client's messages, which must
// never wait on the program), the run's (`Executor.executeLive`, whose events closure waits for
// room in the session's bounded send queue: that is the backpressure towards the program), and a
// stdin feeder (which waits for room in the program's pipe, so a client that types ahead of a
// program that does not read holds no thread the output needs).

extension APIRouter {
  /// The upgrade; authorization is settled at open (a header) or by the start message (`token`).
  func connect(_ request: HTTPRequest, trace: Trace) -> HTTPResponse {
    let authorization: LiveConnection.Authorization
    if configuration.bearerTokens.isEmpty {
      authorization = .granted
    } else if request.headers["Authorization"] != nil {
      do throws(APIError) {
        try authorize(request)
        authorization = .granted
      } catch {
        authorization = .refused(error.message)
      }
    } else {
      authorization = .needsToken
    }
    let connection = LiveConnection(router: self, requestID: trace.id, authorization: authorization)
    let session = WebSocketSession(options: liveSessionOptions) { session, event in connection.handle(session, event) }
    return .webSocket(for: request, session: session)
  }

  /// The WebSocket bounds of a live session (`/v1/connect` and Piston's `/api/v2/connect`).
  var liveSessionOptions: WebSocketSession.Options {
    // The message bound lets a whole execute body, or a paste of that size, through in one message.
    let maximumMessage = configuration.maximumBodyBytes + 64 * 1024
    return WebSocketSession.Options(
      limits: .init(maximumFrameBytes: maximumMessage, maximumMessageBytes: maximumMessage),
      // Our own idle rule (the monitor) sends a reason first; this is the backstop behind it.
      idleTimeout: configuration.liveIdleTimeout + .seconds(5))
  }

  /// Live sessions now and their bound, for `/metrics`.
  func liveMetricsText() -> String {
    "# HELP dsa_run_live_sessions Live runs (/v1/connect) holding a live slot.\n"
      + "# TYPE dsa_run_live_sessions gauge\n" + "dsa_run_live_sessions \(liveSlots.inUse)\n"
      + "# HELP dsa_run_live_sessions_limit Live runs allowed at once (live_sessions).\n"
      + "# TYPE dsa_run_live_sessions_limit gauge\n" + "dsa_run_live_sessions_limit \(liveSlots.limit)\n"
  }

  /// Whether `token` is one of the configured bearer tokens.
  func acceptsToken(_ token: String) -> Bool {
    configuration.bearerTokens.contains { Self.constantTimeEquals($0, token) }
  }
}

/// The live slots: live runs at once, counted apart from the box slots.
final class LiveSlots: Sendable {
  let limit: Int
  private let used = Mutex(0)

  init(limit: Int) { self.limit = max(1, limit) }

  var inUse: Int { used.withLock { $0 } }

  /// Takes a slot; false when all are taken.
  func acquire() -> Bool {
    used.withLock { count in
      guard count < limit else { return false }
      count += 1
      return true
    }
  }

  func release() { used.withLock { $0 -= 1 } }
}

/// Closes live sessions whose client sent nothing and whose program printed nothing for the idle
/// time: one thread for every session, waking a few times per idle period.
final class LiveIdleMonitor: @unchecked Sendable {
  private let idleTimeout: Duration
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var connections: [ObjectIdentifier: LiveConnection] = [:]
  private var running = false

  init(idleTimeout: Duration) { self.idleTimeout = idleTimeout }

  func add(_ connection: LiveConnection) {
    condition.lock()
    defer { condition.unlock() }
    connections[ObjectIdentifier(connection)] = connection
    if !running {
      running = true
      let thread = Thread { [self] in watch() }
      thread.name = "dsa-run live idle"
      thread.start()
    }
  }

  func remove(_ connection: LiveConnection) {
    condition.lock()
    connections[ObjectIdentifier(connection)] = nil
    condition.unlock()
  }

  private func watch() {
    let period = min(Duration.seconds(1), idleTimeout / 4)
    let periodSeconds = Double(period.components.seconds) + Double(period.components.attoseconds) / 1e18
    while true {
      condition.lock()
      // The thread ends with its last session and starts again with the next.
      if connections.isEmpty {
        running = false
        condition.unlock()
        return
      }
      let current = Array(connections.values)
      condition.unlock()
      let now = ContinuousClock.now
      for connection in current where connection.idleSince + idleTimeout <= now {
        remove(connection)
        connection.closeIdle(after: idleTimeout)
      }
      Thread.sleep(forTimeInterval: periodSeconds)
    }
  }
}

/// Stdin on its way to the program: the client's chunks wait here (bounded) for a thread that
/// hands them to `LiveInput.send`, which waits while the program's pipe is full.
final class StdinFeeder: @unchecked Sendable {
  let maximumPendingBytes: Int
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var chunks: [[UInt8]] = []
  private var pendingBytes = 0
  private var finished = false
  private var stopped = false

  init(maximumPendingBytes: Int) { self.maximumPendingBytes = maximumPendingBytes }

  /// Queues `bytes`; false when the program is further behind than the bound allows.
  func push(_ bytes: [UInt8]) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard pendingBytes + bytes.count <= maximumPendingBytes else { return false }
    chunks.append(bytes)
    pendingBytes += bytes.count
    condition.signal()
    return true
  }

  /// End of input after what is queued.
  func finish() {
    condition.lock()
    finished = true
    condition.signal()
    condition.unlock()
  }

  /// Drops what is queued and ends the feeding thread.
  func stop() {
    condition.lock()
    stopped = true
    chunks = []
    pendingBytes = 0
    condition.signal()
    condition.unlock()
  }

  /// Ends the run: feeding stops first, so nothing still queued reaches the program, then the
  /// program is killed.
  func stop(killing input: LiveInput) {
    stop()
    input.kill()
  }

  /// The feeding thread's life.
  func feed(_ input: LiveInput) {
    while true {
      condition.lock()
      while chunks.isEmpty && !finished && !stopped { condition.wait() }
      if stopped {
        condition.unlock()
        return
      }
      if chunks.isEmpty {
        condition.unlock()
        input.finish()
        return
      }
      let chunk = chunks.removeFirst()
      condition.unlock()
      let taken = input.send(chunk)
      condition.lock()
      pendingBytes -= chunk.count
      condition.unlock()
      if !taken { return }
    }
  }
}

/// One `/v1/connect` session's state machine: waiting for `start`, running, ended.
final class LiveConnection: @unchecked Sendable {
  enum Authorization {
    case granted
    /// Tokens are configured and the handshake had no header: the start message must carry one.
    case needsToken
    /// The handshake's header was wrong; the message says how.
    case refused(String)
  }

  private enum Phase {
    case waitingForStart
    case running(LiveInput, StdinFeeder)
    case ended
  }

  private let router: APIRouter
  private let requestID: String
  private let opened = ContinuousClock.now
  private let lock = NSLock()
  // Guarded by `lock`.
  private var authorization: Authorization
  private var phase = Phase.waitingForStart
  private var lastActivity = ContinuousClock.now
  private var inputEnded = false
  private var killed = false

  init(router: APIRouter, requestID: String, authorization: Authorization) {
    self.router = router
    self.requestID = requestID
    self.authorization = authorization
  }

  var idleSince: ContinuousClock.Instant { lock.withLock { lastActivity } }

  private func touch() { lock.withLock { lastActivity = .now } }

  // MARK: The connection's thread

  func handle(_ session: WebSocketSession, _ event: WebSocketSession.Event) {
    switch event {
    case .opened:
      if case .refused(let message) = lock.withLock({ authorization }) {
        refuse(session, APIError.unauthorized(message))
        return
      }
      lock.withLock { sessionForIdle = session }
      router.liveMonitor.add(self)
    case .message(.binary):
      touch()
      refuse(session, .badRequest("send JSON text messages; binary messages are not part of this protocol"))
    case .message(.text(let text)):
      touch()
      receive(text, session: session)
    case .closed:
      // A client that goes away takes its program with it, at once.
      router.liveMonitor.remove(self)
      let running = lock.withLock { () -> (LiveInput, StdinFeeder)? in
        defer { phase = .ended }
        if case .running(let input, let feeder) = phase {
          killed = true
          return (input, feeder)
        }
        return nil
      }
      if let (input, feeder) = running {
        feeder.stop(killing: input)
      }
    }
  }

  private func receive(_ text: String, session: WebSocketSession) {
    let message: LiveClientMessage
    switch LiveClientMessage.read(Data(text.utf8)) {
    case .failure(let problems):
      refuse(session, APIError.refusedBody(problems))
      return
    case .success(let read):
      message = read
    }
    lock.lock()
    let current = phase
    lock.unlock()
    switch (current, message) {
    case (.ended, _):
      return  // the result or an error is on its way; nothing the client says changes it
    case (.waitingForStart, .start(let body, let tty, let token)):
      start(body, tty: tty, token: token, session: session)
    case (.waitingForStart, _):
      refuse(session, .badRequest("the first message must be {\"type\":\"start\",\"body\":{...}}"))
    case (.running, .start):
      refuse(session, .badRequest("this session has started already; open another for another run"))
    case (.running(_, let feeder), .stdin(let data)):
      if lock.withLock({ inputEnded }) {
        refuse(session, .badRequest("stdin after eof: the program's input is over"))
      } else if !feeder.push(Array(data.utf8)) {
        refuse(
          session,
          .badRequest(
            "stdin is more than \(feeder.maximumPendingBytes) bytes ahead of the program; send more once it reads"))
      }
    case (.running(_, let feeder), .eof):
      lock.withLock { inputEnded = true }
      feeder.finish()
    case (.running(let input, let feeder), .kill):
      lock.withLock { killed = true }
      feeder.stop(killing: input)
    case (.running(let input, _), .signal(let name)):
      guard let number = LiveClientMessage.signalNumber(name) else {
        refuse(
          session,
          .badRequest(
            "signal: \(name) is not a signal's name; send one such as SIGINT, SIGTERM or SIGKILL (as `kill -l` names them)"
          ))
        return
      }
      // Dropped when the program has just ended or too many are pending: nothing to tell.
      input.signal(number)
    }
  }

  private func start(_ body: ExecuteBody, tty: Bool, token: String?, session: WebSocketSession) {
    if case .needsToken = lock.withLock({ authorization }) {
      guard let token else {
        refuse(session, .unauthorized("this server needs a token: put \"token\" in the start message"))
        return
      }
      guard router.acceptsToken(token) else {
        refuse(session, .unauthorized("the token is not valid"))
        return
      }
      lock.withLock { authorization = .granted }
    }
    var trace = APIRouter.Trace(id: requestID)
    var request: ExecuteRequest
    do throws(APIError) {
      let runner = try router.resolveRunner(language: body.language, version: body.version, trace: &trace)
      request = try body.executeRequest(maxima: router.configuration.maxima, runnerLimits: runner.runLimits())
      request.runner = runner
    } catch {
      refuse(session, error)
      return
    }
    guard router.liveSlots.acquire() else {
      refuse(
        session,
        .busy(
          "all \(router.liveSlots.limit) live sessions are taken; try again shortly",
          retryAfterSeconds: router.configuration.retryAfterSeconds))
      return
    }
    // The body's stdin is the start of the input, ahead of what the client types.
    let initial = [UInt8](request.stdin)
    request.stdin = Data()
    let input = LiveInput()
    let feeder = StdinFeeder(maximumPendingBytes: 2 * session.options.limits.maximumMessageBytes)
    if !initial.isEmpty { _ = feeder.push(initial) }
    lock.withLock { phase = .running(input, feeder) }
    var liveOptions = LiveOptions()
    liveOptions.tty = tty
    let options = liveOptions
    let runRequest = request
    let language = trace.language ?? body.language
    let feederThread = Thread { feeder.feed(input) }
    feederThread.name = "dsa-run live stdin"
    feederThread.start()
    let runThread = Thread { [self] in
      run(runRequest, options: options, input: input, feeder: feeder, language: language, session: session)
    }
    runThread.name = "dsa-run live run"
    runThread.start()
  }

  // MARK: The run's thread

  private func run(
    _ request: ExecuteRequest, options: LiveOptions, input: LiveInput, feeder: StdinFeeder, language: String,
    session: WebSocketSession
  ) {
    defer { router.liveSlots.release() }
    let started = ContinuousClock.now
    let encoder = Mutex(LiveEventEncoder())
    var runStatus: String?
    var errorCode: String?
    var detail: String?
    do throws(ExecuteError) {
      let result = try router.executor.executeLive(request, options: options, input: input) { [self] event in
        guard let (name, fields) = encoder.withLock({ $0.encode(event) }) else { return }
        deliver(name, fields, session: session)
      }
      for (name, fields) in encoder.withLock({ $0.flush() }) { deliver(name, fields, session: session) }
      let value = ResultEncoder.executeValue(result, exposeCompileCache: router.configuration.exposeCompileCache)
      deliver("result", ["result": value], session: session, evenIfKilled: true)
      session.close(code: WebSocketCloseCode.normal)
      runStatus = APIRouter.statusWord(result)
      router.metrics.recordRun(
        language: language, status: runStatus!, seconds: APIRouter.seconds(ContinuousClock.now - started))
    } catch {
      var apiError = APIError.from(error)
      if apiError.status == .internalServerError {
        detail = "\(error)"
        apiError.message =
          "the server could not carry out this run; its operators can find why under request id \(requestID)"
      }
      errorCode = apiError.code
      sendError(apiError, session: session)
    }
    feeder.stop()
    lock.withLock { phase = .ended }
    router.liveMonitor.remove(self)
    if let sink = router.configuration.logSink {
      sink(
        RequestLogEntry(
          id: requestID, time: LogTime.now(), method: "GET", route: "/v1/connect", status: 101, error: errorCode,
          language: language, runStatus: runStatus, queueMilliseconds: nil,
          runMilliseconds: APIRouter.milliseconds(ContinuousClock.now - started),
          totalMilliseconds: APIRouter.milliseconds(ContinuousClock.now - opened), detail: detail))
    }
  }

  /// Sends one event, waiting for room in the session's queue (the program waits meanwhile); gives
  /// up once the session is closed or the run was killed, so a stuck client never holds the run.
  private func deliver(
    _ name: String, _ fields: [String: JSONValue], session: WebSocketSession, evenIfKilled: Bool = false
  ) {
    var object = fields
    object["type"] = .string(name)
    let message = WebSocketMessage.text(JSONValue.object(object).json)
    while true {
      switch session.send(message, until: .now + .milliseconds(250)) {
      case .queued:
        touch()
        return
      case .closed:
        return
      case .wouldBlock:
        if !evenIfKilled && lock.withLock({ killed }) { return }
      }
    }
  }

  // MARK: Either thread

  /// The error message, then the close its kind calls for (1008 policy, 1011 internal, 1013 busy).
  private func sendError(_ error: APIError, session: WebSocketSession) {
    let message = WebSocketMessage.text(
      JSONValue.object(["type": "error", "error": .string(error.code), "message": .string(error.message)]).json)
    _ = session.send(message, until: .now + .seconds(1))
    let code: UInt16
    switch error.status.code {
    case 500...502, 504...: code = WebSocketCloseCode.internalError
    case 503: code = WebSocketCloseCode.tryAgainLater
    default: code = WebSocketCloseCode.policyViolation
    }
    session.close(code: code, reason: error.code)
  }

  /// A client's mistake (or a refusal) ends the session: its program, if any, is killed.
  private func refuse(_ session: WebSocketSession, _ error: APIError) {
    let running = lock.withLock { () -> (LiveInput, StdinFeeder)? in
      killed = true
      if case .running(let input, let feeder) = phase { return (input, feeder) }
      phase = .ended
      return nil
    }
    if let (input, feeder) = running {
      feeder.stop(killing: input)
    }
    // On the connection's thread the queue must not be waited on: trySend, and close regardless.
    let message = WebSocketMessage.text(
      JSONValue.object(["type": "error", "error": .string(error.code), "message": .string(error.message)]).json)
    _ = session.trySend(message)
    let code: UInt16 =
      error.status.code == 503
      ? WebSocketCloseCode.tryAgainLater
      : (error.status.code >= 500 ? WebSocketCloseCode.internalError : WebSocketCloseCode.policyViolation)
    session.close(code: code, reason: error.code)
  }

  // MARK: The idle monitor's thread

  func closeIdle(after idleTimeout: Duration) {
    let running = lock.withLock { () -> (LiveInput, StdinFeeder)? in
      killed = true
      if case .running(let input, let feeder) = phase { return (input, feeder) }
      phase = .ended
      return nil
    }
    guard let session = lock.withLock({ sessionForIdle }) else { return }
    _ = session.trySend(
      .text(
        JSONValue.object([
          "type": "error", "error": "idle",
          "message": .string(
            "no message and no output for \(idleTimeout.components.seconds) s: the session is closed"),
        ]).json))
    if let (input, feeder) = running {
      feeder.stop(killing: input)
    }
    session.close(code: WebSocketCloseCode.goingAway, reason: "idle")
  }

  private weak var sessionForIdle: WebSocketSession?
}

/// A client's message on `/v1/connect`, read strictly like the execute body.
enum LiveClientMessage {
  case start(ExecuteBody, tty: Bool, token: String?)
  case stdin(String)
  case eof
  case kill
  /// A signal for the program, by name ("SIGINT").
  case signal(String)

  static let keysByType: [String: [String]] = [
    "start": ["type", "body", "tty", "token"], "stdin": ["type", "data"], "eof": ["type"], "kill": ["type"],
    "signal": ["type", "signal"],
  ]

  /// The number of a signal named as `kill -l` names it (SIGINT, SIGRTMIN+1); nil for anything else.
  static func signalNumber(_ name: String) -> Int32? { Sandbox.signalNumber(named: name) }

  static func read(_ data: Data) -> Result<LiveClientMessage, JSONProblems> {
    let reader = StrictReader()
    guard let value = reader.parse(data) else { return .failure(JSONProblems(reader.problems)) }
    var type: String?
    if case .object(let fields) = value, case .string(let given)? = fields["type"] { type = given }
    guard let type, let keys = keysByType[type] else {
      let known = keysByType.keys.sorted().joined(separator: ", ")
      return .failure(
        JSONProblems([
          JSONProblem(path: "type", message: "must be one of \(known), as a string", kind: .invalid)
        ]))
    }
    return StrictReader.read(value, keys: keys, reader: reader) { object -> LiveClientMessage? in
      switch type {
      case "start":
        let body = object.object("body", keys: ExecuteBody.keys, required: true).flatMap(ExecuteBody.init(reading:))
        let tty = object.bool("tty") ?? false
        let token = object.string("token")
        return body.map { .start($0, tty: tty, token: token) }
      case "stdin":
        return object.string("data", required: true).map(LiveClientMessage.stdin)
      case "eof": return .eof
      case "signal": return object.string("signal", required: true).map(LiveClientMessage.signal)
      default: return .kill
      }
    }
  }
}
