import Foundation
import HTTP
import Runners
import Sandbox
import Synchronization
import Wire

// `GET /api/v2/connect`: Piston's interactive jobs over a WebSocket, on the live path
// (`Executor.executeLive`) as /v1/connect. Its messages and close codes are Piston's (v2.js):
// `init` within 1 s, then `data` on stdin and `signal`; the server sends `runtime`, `stage`,
// `data`, `exit` and closes 4999 "Job Completed". Unlike Piston's own code, a valid `signal`
// reaches the program (v2.js emits 'signal' where job.js listens for 'kill'): the box's init
// sends it to the program's process group while the program runs.

extension APIRouter {
  func pistonConnect(_ request: HTTPRequest, trace: Trace) -> HTTPResponse {
    let connection = PistonConnection(router: self, requestID: trace.id)
    let session = WebSocketSession(options: liveSessionOptions) { session, event in connection.handle(session, event) }
    return .webSocket(for: request, session: session)
  }
}

/// Piston's close codes and reasons (v2.js).
enum PistonClose {
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
}

/// One `/api/v2/connect` session: waiting for `init`, running, ended.
final class PistonConnection: @unchecked Sendable {
  private enum Phase {
    case waitingForInit
    case running(LiveInput, StdinFeeder)
    case ended
  }

  private let router: APIRouter
  private let requestID: String
  private let lock = NSLock()
  // Guarded by `lock`.
  private var phase = Phase.waitingForInit

  init(router: APIRouter, requestID: String) {
    self.router = router
    self.requestID = requestID
  }

  func handle(_ session: WebSocketSession, _ event: WebSocketSession.Event) {
    switch event {
    case .opened:
      let timer = Thread { [self] in
        Thread.sleep(forTimeInterval: 1)
        if lock.withLock({ if case .waitingForInit = phase { return true } else { return false } }) {
          session.close(code: PistonClose.initializationTimeout.0, reason: PistonClose.initializationTimeout.1)
        }
      }
      timer.name = "dsa-run piston init timeout"
      timer.start()
    case .message(.binary(let data)):
      receive(String(decoding: data, as: UTF8.self), session: session)
    case .message(.text(let text)):
      receive(text, session: session)
    case .closed:
      // A client that goes away takes its program with it.
      let running = lock.withLock { () -> (LiveInput, StdinFeeder)? in
        defer { phase = .ended }
        if case .running(let input, let feeder) = phase { return (input, feeder) }
        return nil
      }
      if let (input, feeder) = running {
        feeder.stop(killing: input)
      }
    }
  }

  private func receive(_ text: String, session: WebSocketSession) {
    let reader = StrictReader(nulls: .absent)
    guard let value = reader.parse(Data(text.utf8)) else {
      notify(
        "the message is not valid JSON: \(reader.problems.first.map(\.description) ?? "it could not be read")",
        session: session)
      return
    }
    guard case .object(let fields) = value, case .string(let type)? = fields["type"] else { return }
    let current = lock.withLock { phase }
    switch type {
    case "init":
      guard case .waitingForInit = current else {
        close(session, PistonClose.alreadyInitialized)
        return
      }
      start(fields, session: session)
    case "data":
      guard case .running(_, let feeder) = current else {
        if case .waitingForInit = current { close(session, PistonClose.notYetInitialized) }
        return
      }
      guard case .string("stdin")? = fields["stream"] else {
        close(session, PistonClose.onlyStdin)
        return
      }
      // Piston writes whatever it was given; a non-string is written as its JSON text.
      var data = ""
      switch fields["data"] {
      case .string(let given)?: data = given
      case let other?: data = other.json
      case nil: break
      }
      if !feeder.push(Array(data.utf8)) {
        notify(
          "stdin is more than \(feeder.maximumPendingBytes) bytes ahead of the program; send more once it reads",
          session: session)
      }
    case "signal":
      guard case .running(let input, _) = current else {
        if case .waitingForInit = current { close(session, PistonClose.notYetInitialized) }
        return
      }
      guard case .string(let name)? = fields["signal"], PistonClose.signalNames.contains(name),
        let number = signalNumber(named: name)
      else {
        close(session, PistonClose.invalidSignal)
        return
      }
      // The run's exit then reports what the program made of it (docs/compat.md, "Piston v2").
      input.signal(number)
    default:
      return  // v2.js ignores unknown types
    }
  }

  private func start(_ fields: [String: JSONValue], session: WebSocketSession) {
    let job: PistonJob
    do throws(PistonError) {
      job = try PistonJob.read(
        fields, runtimes: PistonRuntime.list(router.executor), maxima: router.configuration.maxima)
    } catch {
      lock.withLock { phase = .ended }
      notify(error.message, session: session)
      return
    }
    guard router.liveSlots.acquire() else {
      lock.withLock { phase = .ended }
      notify("all \(router.liveSlots.limit) live sessions are taken; try again shortly", session: session)
      return
    }
    var request = job.executeRequest()
    // Piston's interactive jobs ignore the init's stdin: input is what the client sends.
    request.stdin = Data()
    let input = LiveInput()
    let feeder = StdinFeeder(maximumPendingBytes: 2 * session.options.limits.maximumMessageBytes)
    lock.withLock { phase = .running(input, feeder) }
    let runRequest = request
    send(
      [
        "type": "runtime", "language": .string(job.runtime.language),
        "version": .string(job.runtime.version.description),
      ], session: session)
    let feederThread = Thread { feeder.feed(input) }
    feederThread.name = "dsa-run piston stdin"
    feederThread.start()
    let runThread = Thread { [self] in
      run(runRequest, runtime: job.runtime, input: input, feeder: feeder, session: session)
    }
    runThread.name = "dsa-run piston run"
    runThread.start()
  }

  private func run(
    _ request: ExecuteRequest, runtime: PistonRuntime, input: LiveInput, feeder: StdinFeeder,
    session: WebSocketSession
  ) {
    defer { router.liveSlots.release() }
    let started = ContinuousClock.now
    do throws(ExecuteError) {
      let result = try router.executor.executeLive(request, options: LiveOptions(), input: input) { [self] event in
        switch event {
        case .stageStarted(let stage):
          send(["type": "stage", "stage": .string(stage.rawValue)], session: session)
        case .stdout(let bytes):
          send(
            ["type": "data", "stream": "stdout", "data": .string(String(decoding: bytes, as: UTF8.self))],
            session: session)
        case .stderr(let bytes):
          send(
            ["type": "data", "stream": "stderr", "data": .string(String(decoding: bytes, as: UTF8.self))],
            session: session)
        case .stageFinished(.compile, let status, _) where status == Status.ok.rawValue:
          // A compile that succeeded exited 0; a failed one is told with its outcome below.
          send(["type": "exit", "stage": "compile", "code": 0, "signal": .null], session: session)
        case .stageFinished, .step:
          break
        }
      }
      if let compile = result.compile, result.run == nil {
        // The compiler's output is known once it has finished: Piston streams it, we send it whole.
        if !compile.stdout.isEmpty {
          send(
            ["type": "data", "stream": "stdout", "data": .string(String(decoding: compile.stdout, as: UTF8.self))],
            session: session)
        }
        if !compile.stderr.isEmpty {
          send(
            ["type": "data", "stream": "stderr", "data": .string(String(decoding: compile.stderr, as: UTF8.self))],
            session: session)
        }
        sendExit("compile", compile, session: session)
      }
      if let run = result.run { sendExit("run", run, session: session) }
      session.close(code: PistonClose.jobCompleted.0, reason: PistonClose.jobCompleted.1)
      router.metrics.recordRun(
        language: runtime.runner.language, status: APIRouter.statusWord(result),
        seconds: APIRouter.seconds(ContinuousClock.now - started))
    } catch {
      let message: String
      if case .badFiles(let problem) = error {
        message = problem
      } else {
        message = "the server could not carry out this job; its operators can find why under request id \(requestID)"
      }
      notify(message, session: session)
    }
    feeder.stop()
    lock.withLock { phase = .ended }
  }

  private func sendExit(_ stage: String, _ outcome: Outcome, session: WebSocketSession) {
    guard case .object(let stageObject) = PistonStage.value(outcome) else { return }
    send(
      [
        "type": "exit", "stage": .string(stage), "code": stageObject["code"] ?? .null,
        "signal": stageObject["signal"] ?? .null,
      ],
      session: session)
  }

  /// Sends one message, waiting for room in the session's queue (the program waits meanwhile).
  private func send(_ object: [String: JSONValue], session: WebSocketSession) {
    let message = WebSocketMessage.text(JSONValue.object(object).json)
    while true {
      switch session.send(message, until: .now + .milliseconds(250)) {
      case .queued, .closed: return
      case .wouldBlock:
        if case .ended = lock.withLock({ phase }) { return }
      }
    }
  }

  /// Piston's error path: `{"type":"error","message"}`, then 4002; a running program is killed.
  private func notify(_ message: String, session: WebSocketSession) {
    let running = lock.withLock { () -> (LiveInput, StdinFeeder)? in
      if case .running(let input, let feeder) = phase { return (input, feeder) }
      phase = .ended
      return nil
    }
    if let (input, feeder) = running {
      feeder.stop(killing: input)
    }
    _ = session.trySend(.text(JSONValue.object(["type": "error", "message": .string(message)]).json))
    close(session, PistonClose.notifiedError)
  }

  private func close(_ session: WebSocketSession, _ close: (UInt16, String)) {
    session.close(code: close.0, reason: close.1)
  }
}
