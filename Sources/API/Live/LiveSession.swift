import Foundation
import HTTP
import Runners
import Synchronization
import Wire

/// One frame toward a live client: a WebSocket text message, or an SSE event's bytes.
enum LiveFrame: Sendable, Equatable {
  case text(String)
  case bytes([UInt8])

  var byteCount: Int {
    switch self {
    case .text(let text): return text.utf8.count
    case .bytes(let bytes): return bytes.count
    }
  }
}

/// What the client said beside the machine's view of it: the bytes of stdin, a signal's number, the
/// start message's request.
enum LiveClientPayload: Sendable {
  case none
  case stdin([UInt8])
  case signal(Int32)
  case start(LiveStart)
}

/// A start message as its codec read it: how to make the run service's request of it.
struct LiveStart: Sendable {
  /// The request admitted by the run service, the run's options and what the client gets first.
  var admit: @Sendable (RunService, inout RunContext) throws(APIError) -> LivePlan
}

struct LivePlan: Sendable {
  var request: ExecuteRequest
  var options: LiveOptions
  /// Frames sent once the run has started, before its events (Piston's `runtime` message).
  var preamble: [LiveFrame] = []
  /// The request's stdin is all of it (SSE): no client sends more.
  var inputComplete = false
}

/// A live wire: how a client's messages read and how the run's events, result and errors are sent.
protocol LiveCodec: Sendable {
  /// One client message: what it means to the machine and its payload; nil when it is ignored.
  mutating func read(_ message: WebSocketMessage) -> (LiveSessionMachine.ClientMessage, LiveClientPayload)?
  /// The frames of one event of the run (none while a chunk holds only part of a character).
  mutating func frames(_ event: LiveEvent) -> [LiveFrame]
  /// What the encoder held back, then the result.
  mutating func finalFrames(_ result: ExecuteResult) -> [LiveFrame]
  /// An error before the close.
  func errorFrames(_ error: APIError) -> [LiveFrame]
  /// The close code and reason of each way a session ends.
  func closing(_ close: LiveSessionMachine.Close) -> (code: UInt16, reason: String)
}

/// Where a live session's frames go: a WebSocket session, or an SSE response's writer.
protocol LiveTransport: Sendable {
  /// Sends one frame, waiting for the client until `deadline`; false once it is gone or too slow.
  func deliver(_ frame: LiveFrame, until deadline: ContinuousClock.Instant) -> Bool
  /// Ends the session (`code`: a WebSocket close; the end of the response for SSE), dropping what
  /// is still queued toward the client. An SSE answer not begun yet answers a refusal plainly.
  func close(_ close: LiveSessionMachine.Close, code: UInt16, reason: String)
  /// Whether the client is gone (asked on every tick: a program that prints nothing is still
  /// stopped when nobody waits for it).
  var clientIsGone: Bool { get }
  /// The status the session's log line names (101 for a WebSocket, the SSE answer's own).
  var logStatus: Int { get }
}

/// One live session's shell: it feeds `LiveSessionMachine` what happens (client messages, the
/// run's events and end, the outbox toward the client, ticks) and performs the actions it answers.
///
/// Its threads: the caller's (client messages; never waits on the program), the run's
/// (`RunService.runLive`; the events closure only queues frames, so the pump that enforces the
/// limits never waits on the client), a delivery thread (the only one that waits on the client),
/// and a stdin feeder (which waits for room in the program's pipe). `LiveTicker` ticks it.
final class LiveSession<Codec: LiveCodec>: @unchecked Sendable {
  private let service: RunService
  private let transport: any LiveTransport
  private let placement: RunService.LivePlacement
  private let opened = ContinuousClock.now
  private let lock = NSLock()
  private let outboxCondition = NSCondition()
  // Guarded by `lock`.
  private var machine: LiveSessionMachine
  private var codec: Codec
  private var context: RunContext
  private var start: LiveStart?
  private var input: LiveInput?
  private var feeder: StdinFeeder?
  private var result: ExecuteResult?
  private var errorCode: String?
  private var logged = false
  // Guarded by `outboxCondition`.
  private var outbox: [LiveFrame?] = []
  private var outboxHead = 0
  private var closing: (close: LiveSessionMachine.Close, code: UInt16, reason: String)?
  /// Whether the delivery thread runs: it starts with the first frame, so a session refused before
  /// it starts (a wrong token) costs no thread.
  private var delivering = false

  /// Most stdin bytes waiting for the program: twice a message, so a paste always fits.
  let maximumPendingInput: Int

  init(
    service: RunService, codec: Codec, transport: any LiveTransport, context: RunContext,
    rules: LiveSessionMachine.Rules,
    placement: RunService.LivePlacement, maximumPendingInput: Int
  ) {
    self.service = service
    self.codec = codec
    self.transport = transport
    self.context = context
    self.placement = placement
    self.maximumPendingInput = maximumPendingInput
    machine = LiveSessionMachine(rules: rules)
  }

  // MARK: What happens

  /// The session is open: it starts ticking and delivering.
  func open() {
    feed(.opened(.now))
    LiveTicker.shared.add(self)
  }

  /// A client message (on the connection's thread).
  func receive(_ message: WebSocketMessage) {
    guard let (meaning, payload) = lock.withLock({ codec.read(message) }) else { return }
    switch payload {
    case .start(let start): lock.withLock { self.start = start }
    case .stdin(let bytes): lock.withLock { pendingStdin = bytes }
    case .signal(let number): lock.withLock { pendingSignal = number }
    case .none: break
    }
    feed(.client(meaning, .now))
  }

  /// Refuses the session before anything (a handshake whose token was refused).
  func refuse(_ error: APIError) {
    feed(.client(.refused(error), .now))
  }

  /// The start of an SSE session, whose request comes with it rather than in a message.
  func start(_ start: LiveStart) {
    lock.withLock { self.start = start }
    feed(.client(.start(token: nil), .now))
  }

  /// The client went away (the connection's thread, or the ticker for SSE).
  func clientClosed() {
    feed(.clientClosed)
    finishIfDone()
  }

  func tick(_ now: ContinuousClock.Instant) {
    if transport.clientIsGone {
      feed(.clientClosed)
      finishIfDone()
      return
    }
    feed(.tick(now))
  }

  private var pendingStdin: [UInt8] = []
  private var pendingSignal: Int32 = 0

  private func feed(_ input: LiveSessionMachine.Input) {
    let actions = lock.withLock { machine.handle(input) }
    for action in actions { perform(action) }
  }

  // MARK: What to do

  private func perform(_ action: LiveSessionMachine.Action) {
    switch action {
    case .start(let token):
      begin(token: token)
    case .feedStdin:
      let (bytes, feeder) = lock.withLock { (pendingStdin, self.feeder) }
      if let feeder, !feeder.push(bytes) {
        feed(
          .stdinRefused(
            .badRequest("stdin is more than \(maximumPendingInput) bytes ahead of the program; send more once it reads")
          ))
      }
    case .finishStdin:
      lock.withLock { feeder }?.finish()
    case .sendSignal:
      let (number, input) = lock.withLock { (pendingSignal, self.input) }
      // Dropped when the program has just ended or too many are pending: nothing to tell.
      input?.signal(number)
    case .killProgram:
      let (input, feeder) = lock.withLock { (self.input, self.feeder) }
      feeder?.stop()
      input?.kill()
    case .pauseOutput:
      lock.withLock { input }?.pauseOutput()
    case .resumeOutput:
      lock.withLock { input }?.resumeOutput()
    case .sendResult:
      let frames = lock.withLock { () -> [LiveFrame] in
        guard let result else { return [] }
        return codec.finalFrames(result)
      }
      enqueue(frames + [nil])
    case .close(let close):
      let (ending, frames) = lock.withLock { () -> ((code: UInt16, reason: String), [LiveFrame]) in
        switch close {
        case .refused(let error):
          errorCode = errorCode ?? error.code
          return (codec.closing(close), codec.errorFrames(error))
        case .startTimedOut:
          errorCode = "idle"
          let seconds = machine.rules.startTimeout.components.seconds
          return (
            codec.closing(close),
            codec.errorFrames(
              APIError(
                code: "idle", message: "no start message for \(seconds) s: the session is closed", status: .badRequest))
          )
        case .tooSlow:
          // Nothing more can reach a client that takes nothing.
          errorCode = "too_slow"
          return (codec.closing(close), [])
        case .completed:
          return (codec.closing(close), [])
        case .clientGone:
          errorCode = errorCode ?? "client_gone"
          return (codec.closing(close), [])
        }
      }
      shut(close, ending, after: frames)
    }
  }

  /// Admits the start message's request, charges it, takes its slot, and starts the run.
  private func begin(token: String?) {
    let start = lock.withLock { () -> LiveStart? in
      if let token { self.context.token = token }
      return self.start
    }
    guard let start else {
      feed(.startRefused(.internalError("a live session started without its request")))
      return
    }
    var context = lock.withLock { self.context }
    let plan: LivePlan
    do throws(APIError) {
      plan = try start.admit(service, &context)
      try service.beginLive(context: &context, placement: placement)
    } catch {
      lock.withLock { self.context = context }
      feed(.startRefused(error))
      return
    }
    // The request's stdin is the start of the input, ahead of what the client types.
    var request = plan.request
    let initial = [UInt8](request.stdin)
    request.stdin = Data()
    let input = LiveInput()
    let feeder = StdinFeeder(maximumPendingBytes: max(maximumPendingInput, initial.count))
    if !initial.isEmpty { _ = feeder.push(initial) }
    if plan.inputComplete { feeder.finish() }
    lock.withLock {
      self.context = context
      self.input = input
      self.feeder = feeder
    }
    enqueue(plan.preamble)
    feed(.started)
    let feederThread = Thread { feeder.feed(input) }
    feederThread.name = "dsa-run live stdin"
    feederThread.start()
    let prepared = request
    let runThread = Thread { [self] in run(prepared, options: plan.options, input: input, feeder: feeder) }
    runThread.name = "dsa-run live run"
    runThread.start()
  }

  private func run(_ request: ExecuteRequest, options: LiveOptions, input: LiveInput, feeder: StdinFeeder) {
    var context = lock.withLock { self.context }
    let outcome = service.runLive(
      request, options: options, input: input, placement: placement, context: &context
    ) { [self] event in
      // Never waits: the pump that calls this enforces the run's limits.
      enqueue(lock.withLock { codec.frames(event) })
    }
    feeder.stop()
    lock.withLock { self.context = context }
    switch outcome {
    case .success(let result):
      lock.withLock { self.result = result }
      feed(.finished)
    case .failure(let error):
      feed(.failed(error))
    }
    finishIfDone()
  }

  // MARK: The outbox toward the client

  /// Queues frames (nil: the result is out once it is delivered); never waits.
  private func enqueue(_ frames: [LiveFrame?]) {
    guard !frames.isEmpty else { return }
    let bytes = frames.reduce(0) { $0 + ($1?.byteCount ?? 0) }
    outboxCondition.lock()
    let open = closing == nil
    if open {
      outbox += frames
      outboxCondition.signal()
    }
    let startsDelivering = open && !delivering
    if startsDelivering { delivering = true }
    outboxCondition.unlock()
    if startsDelivering { startDelivery() }
    if open && bytes > 0 { feed(.queued(bytes: bytes, .now)) }
  }

  /// Ends the session: what is queued is dropped, `frames` (an error) go out within a second, then
  /// the close; without frames the transport closes at once, which also ends a delivery that waits
  /// on a client that takes nothing.
  private func shut(
    _ close: LiveSessionMachine.Close, _ ending: (code: UInt16, reason: String), after frames: [LiveFrame]
  ) {
    outboxCondition.lock()
    guard closing == nil else {
      outboxCondition.unlock()
      return
    }
    closing = (close, ending.code, ending.reason)
    outbox = frames.map { $0 }
    outboxHead = 0
    outboxCondition.signal()
    let startsDelivering = !frames.isEmpty && !delivering
    if startsDelivering { delivering = true }
    let delivers = delivering
    outboxCondition.unlock()
    if startsDelivering { startDelivery() }
    if frames.isEmpty { transport.close(close, code: ending.code, reason: ending.reason) }
    if !delivers { finishIfDone() }
  }

  private func startDelivery() {
    let thread = Thread { [self] in deliverFrames() }
    thread.name = "dsa-run live delivery"
    thread.start()
  }

  /// The delivery thread: the only one that waits on the client.
  private func deliverFrames() {
    while true {
      outboxCondition.lock()
      while outboxHead == outbox.count && closing == nil { outboxCondition.wait() }
      guard outboxHead < outbox.count else {
        let ending = closing!
        outboxCondition.unlock()
        transport.close(ending.close, code: ending.code, reason: ending.reason)
        finishIfDone()
        return
      }
      let frame = outbox[outboxHead]
      outboxHead += 1
      if outboxHead > 256 && outboxHead * 2 > outbox.count {
        outbox.removeFirst(outboxHead)
        outboxHead = 0
      }
      let closingNow = closing != nil
      outboxCondition.unlock()
      guard let frame else {
        feed(.resultSent)
        continue
      }
      // An error before a close waits a second at most; the run's frames as long as the client
      // lives, which the stall rule bounds.
      let deadline: ContinuousClock.Instant = .now + (closingNow ? .seconds(1) : .seconds(3600))
      if transport.deliver(frame, until: deadline) {
        feed(.delivered(bytes: frame.byteCount, .now))
      } else if !closingNow {
        feed(.clientClosed)
      }
    }
  }

  // MARK: The end

  /// Writes the session's log line once the run is over and the session closed.
  private func finishIfDone() {
    let line = lock.withLock { () -> RunContext? in
      guard !logged, machine.phase == .ended else { return nil }
      let runOver = input == nil || result != nil || errorCode != nil
      guard runOver else { return nil }
      logged = true
      return context
    }
    guard let line else { return }
    LiveTicker.shared.remove(self)
    service.log(
      line, method: transport.logStatus == 101 ? "GET" : "POST", status: transport.logStatus,
      error: lock.withLock { errorCode },
      totalMilliseconds: RunService.milliseconds(ContinuousClock.now - opened))
  }
}

/// Ticks every live session a few times a second (start timeouts, stalled clients, SSE clients
/// gone): one thread for all of them, which ends with the last session and starts with the next.
final class LiveTicker: @unchecked Sendable {
  static let shared = LiveTicker()
  static let period = Duration.milliseconds(250)

  private let condition = NSCondition()
  // Guarded by `condition`.
  private var sessions: [ObjectIdentifier: @Sendable (ContinuousClock.Instant) -> Void] = [:]
  private var running = false

  func add<Codec>(_ session: LiveSession<Codec>) {
    condition.lock()
    defer { condition.unlock() }
    sessions[ObjectIdentifier(session)] = { [weak session] now in session?.tick(now) }
    if !running {
      running = true
      let thread = Thread { [self] in watch() }
      thread.name = "dsa-run live ticker"
      thread.start()
    }
  }

  func remove<Codec>(_ session: LiveSession<Codec>) {
    condition.lock()
    sessions[ObjectIdentifier(session)] = nil
    condition.unlock()
  }

  private func watch() {
    while true {
      condition.lock()
      if sessions.isEmpty {
        running = false
        condition.unlock()
        return
      }
      let current = Array(sessions.values)
      condition.unlock()
      let now = ContinuousClock.now
      for tick in current { tick(now) }
      Thread.sleep(forTimeInterval: 0.25)
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
    guard !stopped, pendingBytes + bytes.count <= maximumPendingBytes else { return false }
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
