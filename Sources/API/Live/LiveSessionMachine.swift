import Foundation

/// The rules of one live session, whatever its wire (`/v1/connect`, `/api/v2/connect`, SSE): a
/// pure state machine, `(state, input) -> [action]`, with no thread, socket or clock of its own.
/// `LiveSession` feeds it what happens and performs what it answers; `LiveSessionMachineTests`
/// drive it alone.
///
/// Its rules (docs/api.md, "Live runs"; docs/security.md):
/// - the token is settled before anything is charged or started: a session that needs one and
///   does not bring a good one is refused, and costs nothing but its connection;
/// - the program's limits never wait on the client: output goes into a queue toward the client
///   bounded in bytes; past its high-water mark the program's output is paused (its pipe fills,
///   it waits, its wall and CPU limits run on), and a client that stays behind past the stall time
///   is closed with `tooSlow` and its program killed;
/// - a session that never starts its run is closed after the start timeout;
/// - the client's stdin is refused after its end of input; a client that goes away kills its program.
struct LiveSessionMachine: Sendable {
  struct Rules: Sendable {
    /// The start message must bring a token (tokens are configured and the handshake had none).
    var needsToken = false
    /// Whether a token is one of the configured ones.
    var acceptsToken: @Sendable (String) -> Bool = { _ in true }
    /// No start within this long of the open: closed.
    var startTimeout: Duration = .seconds(60)
    /// Bytes queued toward the client past which the program's output is paused...
    var highWaterBytes = 1 << 20
    /// ...and under which it is resumed.
    var lowWaterBytes = 256 << 10
    /// Paused this long without the client taking anything: closed, the program killed.
    var stallTimeout: Duration = .seconds(10)
  }

  enum Phase: Sendable, Equatable {
    case awaitingStart
    /// The shell is admitting and starting the run.
    case starting
    case running
    /// The run is over; its result is on its way, then the close.
    case finishing
    case ended
  }

  /// What the client said, as its codec read it.
  enum ClientMessage: Sendable, Equatable {
    case start(token: String?)
    case stdin
    case eof
    case signal
    case kill
    /// A message the codec refused (malformed, binary where text is wanted, an unknown signal).
    case refused(APIError)
  }

  enum Input: Sendable, Equatable {
    case opened(ContinuousClock.Instant)
    case client(ClientMessage, ContinuousClock.Instant)
    /// The shell admitted the request, charged it and took its slot; the run has started.
    case started
    /// Admission, the quota or the slot refused it.
    case startRefused(APIError)
    /// The feeder could not take the client's stdin (it is too far ahead of the program).
    case stdinRefused(APIError)
    /// `bytes` of the program's events went into the queue toward the client.
    case queued(bytes: Int, ContinuousClock.Instant)
    /// `bytes` of it reached the client's connection.
    case delivered(bytes: Int, ContinuousClock.Instant)
    case tick(ContinuousClock.Instant)
    case clientClosed
    /// The run ended with a result.
    case finished
    /// The run could not be carried out (a sandbox failure, redacted already).
    case failed(APIError)
    /// The result went out; nothing more will.
    case resultSent
  }

  /// Why the shell closes the session; each codec has its words and codes for these.
  enum Close: Sendable, Equatable {
    /// The run is over and its result sent.
    case completed
    /// A refusal: the error goes to the client first.
    case refused(APIError)
    /// No start within the start timeout.
    case startTimedOut
    /// The client stopped taking the output.
    case tooSlow
    /// The client went away; nothing more can reach it.
    case clientGone
  }

  enum Action: Sendable, Equatable {
    /// Admit the start message's request, charge it (to `token` when the message had to bring one;
    /// else to the handshake's), take its slot, start.
    case start(token: String?)
    /// Hand the client's stdin (the shell holds its bytes) to the feeder.
    case feedStdin
    case finishStdin
    case sendSignal
    /// Stop feeding and kill the program.
    case killProgram
    case pauseOutput
    case resumeOutput
    /// Send the run's result (the run is over).
    case sendResult
    case close(Close)
  }

  let rules: Rules
  private(set) var phase = Phase.awaitingStart
  private var opened: ContinuousClock.Instant?
  private var inputEnded = false
  /// Bytes in the queue toward the client.
  private(set) var queuedBytes = 0
  private(set) var paused = false
  /// When output was paused, or the client last took something while it was.
  private var stalledSince: ContinuousClock.Instant?

  init(rules: Rules) { self.rules = rules }

  mutating func handle(_ input: Input) -> [Action] {
    switch input {
    case .opened(let now):
      opened = now
      return []
    case .client(let message, _):
      return receive(message)
    case .started:
      guard phase == .starting else { return [] }
      phase = .running
      return []
    case .startRefused(let error):
      guard phase == .starting else { return [] }
      return end(.refused(error))
    case .stdinRefused(let error):
      guard phase == .running else { return [] }
      return [.killProgram] + end(.refused(error))
    case .queued(let bytes, let now):
      queuedBytes += bytes
      guard !paused, queuedBytes > rules.highWaterBytes, phase == .running else { return [] }
      paused = true
      stalledSince = now
      return [.pauseOutput]
    case .delivered(let bytes, let now):
      queuedBytes = max(0, queuedBytes - bytes)
      guard paused else { return [] }
      stalledSince = now
      guard queuedBytes <= rules.lowWaterBytes else { return [] }
      paused = false
      stalledSince = nil
      return phase == .running ? [.resumeOutput] : []
    case .tick(let now):
      return tick(now)
    case .clientClosed:
      guard phase != .ended else { return [] }
      let wasRunning = phase == .running || phase == .starting
      phase = .ended
      return (wasRunning ? [.killProgram] : []) + [.close(.clientGone)]
    case .finished:
      guard phase == .running else { return [] }
      phase = .finishing
      return [.sendResult]
    case .failed(let error):
      guard phase == .running || phase == .starting else { return [] }
      return end(.refused(error))
    case .resultSent:
      guard phase == .finishing else { return [] }
      phase = .ended
      return [.close(.completed)]
    }
  }

  private mutating func receive(_ message: ClientMessage) -> [Action] {
    switch (phase, message) {
    case (.finishing, _), (.ended, _):
      return []  // the result or an error is on its way; nothing the client says changes it
    case (_, .refused(let error)):
      return (phase == .running ? [.killProgram] : []) + end(.refused(error))
    case (.awaitingStart, .start(let token)):
      if rules.needsToken {
        guard let token else {
          return end(.refused(.unauthorized("this server needs a token: put \"token\" in the start message")))
        }
        guard rules.acceptsToken(token) else { return end(.refused(.unauthorized("the token is not valid"))) }
        phase = .starting
        return [.start(token: token)]
      }
      phase = .starting
      return [.start(token: nil)]
    case (.awaitingStart, _):
      return end(.refused(Self.notStarted))
    case (.starting, .start), (.running, .start):
      return [.killProgram] + end(.refused(Self.startedAlready))
    case (.starting, _):
      return []
    case (.running, .stdin):
      guard !inputEnded else { return [.killProgram] + end(.refused(Self.inputOver)) }
      return [.feedStdin]
    case (.running, .eof):
      inputEnded = true
      return [.finishStdin]
    case (.running, .signal):
      return [.sendSignal]
    case (.running, .kill):
      return [.killProgram]
    }
  }

  private mutating func tick(_ now: ContinuousClock.Instant) -> [Action] {
    switch phase {
    case .awaitingStart:
      guard let opened, now - opened >= rules.startTimeout else { return [] }
      return end(.startTimedOut)
    case .running, .finishing:
      guard paused, let stalledSince, now - stalledSince >= rules.stallTimeout else { return [] }
      let wasRunning = phase == .running
      phase = .ended
      return (wasRunning ? [.killProgram] : []) + [.close(.tooSlow)]
    case .starting, .ended:
      return []
    }
  }

  /// The refusals of the protocol itself; a codec may answer them in its own words and codes.
  static let notStarted = APIError(
    code: "bad_request", message: "the first message must be {\"type\":\"start\",\"body\":{...}}",
    status: .badRequest)
  static let startedAlready = APIError(
    code: "bad_request", message: "this session has started already; open another for another run",
    status: .badRequest)
  static let inputOver = APIError(
    code: "bad_request", message: "stdin after eof: the program's input is over", status: .badRequest)

  private mutating func end(_ close: Close) -> [Action] {
    phase = .ended
    return [.close(close)]
  }
}
