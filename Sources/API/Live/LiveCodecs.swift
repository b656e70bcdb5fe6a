import Foundation
import HTTP
import Runners
import Sandbox
import Wire

// The three live wires over the one session machine: /v1/connect's JSON messages, Piston's
// /api/v2/connect messages and close codes (its v2.js), and the SSE events of an execute.

/// `/v1/connect` (docs/api.md, "Live runs"): start/stdin/eof/signal/kill in, the run's stages,
/// output and steps out as they happen, then the result `/v1/execute` would have answered.
struct V1ConnectCodec: LiveCodec {
  let exposeCompileCache: Bool
  /// Whether the start message's request may run on a terminal (`tty`).
  private var encoder = LiveEventEncoder()

  init(exposeCompileCache: Bool) { self.exposeCompileCache = exposeCompileCache }

  mutating func read(_ message: WebSocketMessage) -> (LiveSessionMachine.ClientMessage, LiveClientPayload)? {
    guard case .text(let text) = message else {
      return (.refused(.badRequest("send JSON text messages; binary messages are not part of this protocol")), .none)
    }
    switch V1LiveMessage.read(Data(text.utf8)) {
    case .failure(let problems):
      return (.refused(.refusedBody(problems)), .none)
    case .success(.start(let body, let tty, let token)):
      let start = LiveStart { (service, context) throws(APIError) -> LivePlan in
        var ask = try body.runAsk()
        ask.liveWallMilliseconds = service.configuration.liveWallMilliseconds
        let request = try service.admit(ask, context: &context)
        var options = LiveOptions()
        options.tty = tty
        options.idleLimitMs = Int(service.configuration.liveIdleTimeout.components.seconds * 1000)
        return LivePlan(request: request, options: options)
      }
      return (.start(token: token), .start(start))
    case .success(.stdin(let data)):
      return (.stdin, .stdin(Array(data.utf8)))
    case .success(.eof):
      return (.eof, .none)
    case .success(.kill):
      return (.kill, .none)
    case .success(.signal(let name)):
      guard let number = signalNumber(named: name) else {
        return (
          .refused(
            .badRequest(
              "signal: \(name) is not a signal's name; send one such as SIGINT, SIGTERM or SIGKILL (as `kill -l` names them)"
            )), .none
        )
      }
      return (.signal, .signal(number))
    }
  }

  mutating func frames(_ event: LiveEvent) -> [LiveFrame] {
    guard let (name, fields) = encoder.encode(event) else { return [] }
    return [Self.frame(name, fields)]
  }

  mutating func finalFrames(_ result: ExecuteResult) -> [LiveFrame] {
    encoder.flush().map { Self.frame($0.name, $0.fields) }
      + [Self.frame("result", ["result": ResultEncoder.executeValue(result, exposeCompileCache: exposeCompileCache)])]
  }

  func errorFrames(_ error: APIError) -> [LiveFrame] {
    [Self.frame("error", ["error": .string(error.code), "message": .string(error.message)])]
  }

  /// 1000 once done; a refusal by its kind (1008 policy, 1011 internal, 1013 busy); 1001 "idle"
  /// for a session that never started; 1008 "too_slow" for a client that took nothing.
  func closing(_ close: LiveSessionMachine.Close) -> (code: UInt16, reason: String) {
    switch close {
    case .completed, .clientGone: return (WebSocketCloseCode.normal, "")
    case .startTimedOut: return (WebSocketCloseCode.goingAway, "idle")
    case .tooSlow: return (WebSocketCloseCode.policyViolation, "too_slow")
    case .refused(let error):
      switch error.status.code {
      case 503: return (WebSocketCloseCode.tryAgainLater, error.code)
      case 500...: return (WebSocketCloseCode.internalError, error.code)
      default: return (WebSocketCloseCode.policyViolation, error.code)
      }
    }
  }

  private static func frame(_ name: String, _ fields: [String: JSONValue]) -> LiveFrame {
    var object = fields
    object["type"] = .string(name)
    return .text(JSONValue.object(object).json)
  }
}

/// A client's message on `/v1/connect`, read strictly like the execute body.
enum V1LiveMessage {
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

  static func read(_ data: Data) -> Result<V1LiveMessage, JSONProblems> {
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
    return StrictReader.read(value, keys: keys, reader: reader) { object -> V1LiveMessage? in
      switch type {
      case "start":
        let body = object.object("body", keys: ExecuteBody.keys, required: true).flatMap(ExecuteBody.init(reading:))
        let tty = object.bool("tty") ?? false
        let token = object.string("token")
        return body.map { .start($0, tty: tty, token: token) }
      case "stdin":
        return object.string("data", required: true).map(V1LiveMessage.stdin)
      case "eof": return .eof
      case "signal": return object.string("signal", required: true).map(V1LiveMessage.signal)
      default: return .kill
      }
    }
  }
}

/// `/api/v2/connect`, Piston's interactive jobs (its v2.js): `init` within 1 s, then `data` on
/// stdin and `signal`; out go `runtime`, `stage`, `data` and `exit`, then the close 4999 "Job
/// Completed". Unlike Piston's own code, a valid `signal` reaches the program (v2.js emits 'signal'
/// where job.js listens for 'kill'): the box's init sends it to the program's process group.
struct PistonConnectCodec: LiveCodec {
  static let alreadyInitialized: (UInt16, String) = (4000, "Already Initialized")
  static let initializationTimeout: (UInt16, String) = (4001, "Initialization Timeout")
  static let notifiedError: (UInt16, String) = (4002, "Notified Error")
  static let notYetInitialized: (UInt16, String) = (4003, "Not yet initialized")
  static let onlyStdin: (UInt16, String) = (4004, "Can only write to stdin")
  static let invalidSignal: (UInt16, String) = (4005, "Invalid signal")
  static let jobCompleted: (UInt16, String) = (4999, "Job Completed")

  /// The names `globals.SIGNALS` accepts.
  static let signalNames: Set<String> = {
    var names: Set<String> = [
      "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1",
      "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP",
      "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR",
      "SIGSYS", "SIGRTMIN", "SIGRTMAX",
    ]
    for offset in 1...15 { names.insert("SIGRTMIN+\(offset)") }
    for offset in 1...14 { names.insert("SIGRTMAX-\(offset)") }
    return names
  }()

  /// A refusal Piston answers with a close code alone, no message.
  private static func closeOnly(_ close: (UInt16, String)) -> APIError {
    APIError(code: "piston_\(close.0)", message: close.1, status: .badRequest)
  }

  mutating func read(_ message: WebSocketMessage) -> (LiveSessionMachine.ClientMessage, LiveClientPayload)? {
    let text: String
    switch message {
    case .text(let given): text = given
    case .binary(let data): text = String(decoding: data, as: UTF8.self)
    }
    let reader = StrictReader(nulls: .absent)
    guard let value = reader.parse(Data(text.utf8)) else {
      let why = reader.problems.first.map(\.description) ?? "it could not be read"
      return (.refused(.badRequest("the message is not valid JSON: \(why)")), .none)
    }
    // v2.js ignores what has no type, and types it does not know.
    guard case .object(let fields) = value, case .string(let type)? = fields["type"] else { return nil }
    switch type {
    case "init":
      let start = LiveStart { (service, context) throws(APIError) -> LivePlan in
        let job: PistonJob
        do throws(PistonError) {
          job = try PistonJob.read(
            fields, runtimes: PistonRuntime.list(service), maxima: service.settings.maxima)
        } catch {
          throw .badRequest(error.message)
        }
        var ask = job.runAsk()
        ask.liveWallMilliseconds = service.configuration.liveWallMilliseconds
        var request = try service.admit(ask, context: &context)
        // Piston's interactive jobs ignore the init's stdin: input is what the client sends.
        request.stdin = Data()
        var options = LiveOptions()
        options.idleLimitMs = Int(service.configuration.liveIdleTimeout.components.seconds * 1000)
        let runtime: [String: JSONValue] = [
          "type": "runtime", "language": .string(job.runtime.language),
          "version": .string(job.runtime.version.description),
        ]
        return LivePlan(request: request, options: options, preamble: [.text(JSONValue.object(runtime).json)])
      }
      return (.start(token: nil), .start(start))
    case "data":
      guard case .string("stdin")? = fields["stream"] else { return (.refused(Self.closeOnly(Self.onlyStdin)), .none) }
      // Piston writes whatever it was given; a non-string is written as its JSON text.
      var data = ""
      switch fields["data"] {
      case .string(let given)?: data = given
      case let other?: data = other.json
      case nil: break
      }
      return (.stdin, .stdin(Array(data.utf8)))
    case "signal":
      guard case .string(let name)? = fields["signal"], Self.signalNames.contains(name),
        let number = signalNumber(named: name)
      else { return (.refused(Self.closeOnly(Self.invalidSignal)), .none) }
      return (.signal, .signal(number))
    default:
      return nil
    }
  }

  mutating func frames(_ event: LiveEvent) -> [LiveFrame] {
    switch event {
    case .stageStarted(let stage):
      return [Self.frame(["type": "stage", "stage": .string(stage.rawValue)])]
    case .stdout(let bytes):
      return [Self.data("stdout", bytes)]
    case .stderr(let bytes):
      return [Self.data("stderr", bytes)]
    case .stageFinished(.compile, let status, _) where status == Status.ok.rawValue:
      // A compile that succeeded exited 0; a failed one is told with its outcome at the end.
      return [Self.frame(["type": "exit", "stage": "compile", "code": 0, "signal": .null])]
    case .stageFinished, .step:
      return []
    }
  }

  mutating func finalFrames(_ result: ExecuteResult) -> [LiveFrame] {
    var frames: [LiveFrame] = []
    if let compile = result.compile, result.run == nil {
      // The compiler's output is known once it has finished: Piston streams it, we send it whole.
      if !compile.stdout.isEmpty { frames.append(Self.data("stdout", [UInt8](compile.stdout))) }
      if !compile.stderr.isEmpty { frames.append(Self.data("stderr", [UInt8](compile.stderr))) }
      frames.append(Self.exit("compile", compile))
    }
    if let run = result.run { frames.append(Self.exit("run", run)) }
    return frames
  }

  /// Piston's error path: `{"type":"error","message"}`, then 4002; its protocol refusals are a
  /// close code alone.
  func errorFrames(_ error: APIError) -> [LiveFrame] {
    if error == LiveSessionMachine.notStarted || error == LiveSessionMachine.startedAlready
      || error.code.hasPrefix("piston_")
    {
      return []
    }
    return [Self.frame(["type": "error", "message": .string(error.message)])]
  }

  func closing(_ close: LiveSessionMachine.Close) -> (code: UInt16, reason: String) {
    switch close {
    case .completed, .clientGone: return Self.jobCompleted
    case .startTimedOut: return Self.initializationTimeout
    case .tooSlow: return (WebSocketCloseCode.policyViolation, "too_slow")
    case .refused(let error):
      if error == LiveSessionMachine.notStarted { return Self.notYetInitialized }
      if error == LiveSessionMachine.startedAlready { return Self.alreadyInitialized }
      if error.code.hasPrefix("piston_") { return (UInt16(error.code.dropFirst(7)) ?? 4002, error.message) }
      return Self.notifiedError
    }
  }

  private static func exit(_ stage: String, _ outcome: Outcome) -> LiveFrame {
    var fields: [String: JSONValue] = ["type": "exit", "stage": .string(stage), "code": .null, "signal": .null]
    if case .object(let stageObject) = PistonStage.value(outcome) {
      fields["code"] = stageObject["code"] ?? .null
      fields["signal"] = stageObject["signal"] ?? .null
    }
    return frame(fields)
  }

  private static func data(_ stream: String, _ bytes: [UInt8]) -> LiveFrame {
    frame(["type": "data", "stream": .string(stream), "data": .string(String(decoding: bytes, as: UTF8.self))])
  }

  private static func frame(_ object: [String: JSONValue]) -> LiveFrame { .text(JSONValue.object(object).json) }
}

/// `POST /v1/execute` answered as Server-Sent Events (docs/api.md, "Streamed answers"): the same
/// events as /v1/connect, each an `event:` name and its object; no client messages.
struct EventStreamCodec: LiveCodec {
  let exposeCompileCache: Bool
  private var encoder = LiveEventEncoder()

  init(exposeCompileCache: Bool) { self.exposeCompileCache = exposeCompileCache }

  mutating func read(_ message: WebSocketMessage) -> (LiveSessionMachine.ClientMessage, LiveClientPayload)? { nil }

  mutating func frames(_ event: LiveEvent) -> [LiveFrame] {
    guard let (name, fields) = encoder.encode(event) else { return [] }
    return [.bytes(serverSentEvent(name, .object(fields)))]
  }

  mutating func finalFrames(_ result: ExecuteResult) -> [LiveFrame] {
    encoder.flush().map { .bytes(serverSentEvent($0.name, .object($0.fields))) }
      + [.bytes(serverSentEvent("result", ResultEncoder.executeValue(result, exposeCompileCache: exposeCompileCache)))]
  }

  func errorFrames(_ error: APIError) -> [LiveFrame] {
    [.bytes(serverSentEvent("error", ["error": .string(error.code), "message": .string(error.message)]))]
  }

  func closing(_ close: LiveSessionMachine.Close) -> (code: UInt16, reason: String) { (0, "") }
}
