import Foundation
import Grading
import Sandbox
import Synchronization

// Live runs (docs/api.md "/v1/connect", the CLI at a terminal): the program's stdin is fed while
// it runs and its output, steps and stages are reported as they happen. The box's side is
// `BoxLive` (Sandbox/LiveStreams.swift); this is the executor's.

public enum LiveStage: String, Sendable {
  case compile, run
}

public enum LiveEvent: Sendable {
  case stageStarted(LiveStage)
  /// status is the Outcome's status word ("ok", "compile_error", "time_limit", ...)
  case stageFinished(LiveStage, status: String, wallMs: Int)
  case stdout([UInt8])
  /// With a tty there is no separate stderr: everything is stdout.
  case stderr([UInt8])
  /// Each well-formed @step line, parsed as its line completes.
  case step(Step)
}

/// The caller's side of the program's stdin, and the flow control of its output. Thread-safe.
/// Bounded: `send` blocks while the box's pipe/pty is full (that is the backpressure towards the
/// client), and returns false once the run has ended or the input was finished/killed. Output is
/// never waited on: a consumer that cannot keep up calls `pauseOutput` and later `resumeOutput`.
public final class LiveInput: Sendable {
  let box: BoxLiveInput?
  /// Why there is no input (the process is out of descriptors); `executeLive` throws it.
  let failure: SandboxError?

  public init() {
    do throws(SandboxError) {
      box = try BoxLiveInput()
      failure = nil
    } catch {
      box = nil
      failure = error
    }
  }

  @discardableResult public func send(_ bytes: [UInt8]) -> Bool { box?.send(bytes) ?? false }

  /// End of input (EOF on the pipe; ^D / EOF on the tty).
  public func finish() { box?.finish() }

  /// Stop the program now; the result's run outcome says it was stopped on request. Before the run
  /// starts (during the compile), the run is stopped as soon as it starts.
  public func kill() { box?.kill() }

  /// Sends signal `number` to the program's process group (SIGINT: a Python program raises
  /// KeyboardInterrupt); the outcome is then what the program made of it, e.g. ended by that
  /// signal or its own exit code. Only a program still running is signalled: after its end this
  /// does nothing. Before the run starts (during the compile), it is sent as the run starts. False
  /// when the run is over, `number` is not 1-64, or 64 requests are still pending.
  @discardableResult public func signal(_ number: Int32) -> Bool { box?.signal(number) ?? false }

  /// Stops reading the program's output until `resumeOutput`: the program blocks once its pipe (or
  /// pty) is full, which is the backpressure towards a consumer that cannot keep up. Every limit
  /// holds while output is paused (wall and CPU time, the idle bound, `kill`, `signal`), and time
  /// paused is not activity for the idle bound. The chunk being handed to `events` as this is
  /// called still arrives; when the program ends, what is left of its output (what its pipes hold,
  /// within the output cap) arrives paused or not, so a paused run still ends. Callable from any
  /// thread, within `events` too, and before the run starts (it then starts paused). A state, not
  /// a count: one `resumeOutput` undoes any number of pauses.
  public func pauseOutput() { box?.pauseOutput() }

  /// Reads the program's output again after `pauseOutput`.
  public func resumeOutput() { box?.resumeOutput() }

  /// Whether output is paused now.
  public var isOutputPaused: Bool { box?.outputPaused ?? false }
}

public struct LiveOptions: Sendable {
  /// A pty inside the box on a private devpts instance.
  public var tty: Bool = false
  /// End the run (`time_limit`, "the session was idle") when for this long the program took no
  /// input and no output was read from it. Input taken: without a tty, bytes the program read from
  /// its stdin pipe (bytes sent and still waiting in the pipe are not); with a tty, bytes typed
  /// into its terminal, whose input queue is small and bounded. Time with output paused is not
  /// activity (the program is blocked writing), and nothing about the client (its messages, its
  /// pings) is.
  public var idleLimitMs: Int? = nil
  public init() {}
}

extension Executor {
  /// Compiles (through the cache, as `execute`) and runs with live stdin and live output.
  /// `events` is called on the pumping thread, in order, and must not block: while it runs the
  /// pump looks at no limit, kill or signal request. A consumer that cannot keep up calls
  /// `input.pauseOutput()` (from within `events` or any thread) and `input.resumeOutput()` once it
  /// has room: while paused the program's output is not read, its pipe fills and it waits, and
  /// every limit is still enforced. (The compile stage's events come on the calling thread before
  /// the run; pausing does not hold the compile.)
  /// Every limit of `execute` applies; the wall limit includes time spent waiting for input and
  /// time with output paused.
  /// The returned result is exactly what `execute` would return (same ResultEncoder JSON),
  /// with stdout/stderr as captured (bounded as today).
  ///
  /// A compile-cache hit runs no compile box, so it has no compile stage events (as its result
  /// has no compile outcome). Live stderr names files as the learner did (`LearnerNames`), as the
  /// result's stderr does; with a tty, where stderr is stdout, so does stdout, live and in the
  /// result. A path cut between two chunks is renamed all the same (`LearnerNameStream`).
  public func executeLive(
    _ request: ExecuteRequest, options: LiveOptions, input: LiveInput,
    events: @escaping @Sendable (LiveEvent) -> Void
  ) throws(ExecuteError) -> ExecuteResult {
    guard let boxInput = input.box else {
      throw .sandbox(input.failure ?? SandboxError(step: "live stdin", errorNumber: EMFILE))
    }
    // Whatever ends the run here, sends return false from now on.
    defer { boxInput.endRun() }
    if let idle = options.idleLimitMs, idle <= 0 {
      throw .badFiles("idle limit out of range: \(idle) ms; it must be positive")
    }
    guard request.stdin.isEmpty else {
      throw .badFiles("a live run's stdin is sent while it runs; the request's stdin must be empty")
    }
    let runner: Runner
    if let resolved = request.runner {
      runner = resolved
    } else {
      runner = try self.runner(language: request.language, version: request.version)
    }
    let program = try prepare(
      runner, requestedAs: request.language, files: request.files, compileStarts: { events(.stageStarted(.compile)) })
    if let compile = program.compile {
      events(.stageFinished(.compile, status: compile.status.rawValue, wallMs: Int(compile.wallMilliseconds)))
    }
    var result = ExecuteResult(
      language: program.language, version: program.version, compile: program.compile, run: nil,
      compileCacheHit: program.compileCacheHit, fileNames: program.fileNames)
    guard program.isRunnable else { return result }

    let steps = LiveStepLines(events: events)
    let output = LiveOutputNames(names: program.learnerNames, renamesStdout: options.tty) { stream, bytes in
      switch stream {
      case .stdout:
        events(.stdout(bytes))
        steps.take(bytes)
      case .stderr:
        events(.stderr(bytes))
      }
    }
    let live = BoxLive(
      input: boxInput, terminal: options.tty, idleLimitMilliseconds: options.idleLimitMs.map { UInt64($0) },
      output: { stream, bytes in output.take(bytes, from: stream) }, outputRests: { output.flush() })
    events(.stageStarted(.run))
    let outcome = try run(
      program, stdin: Data(), arguments: request.arguments, limits: request.runLimits, extraFiles: [], live: live)
    output.flush()
    steps.finish()
    events(.stageFinished(.run, status: outcome.status.rawValue, wallMs: Int(outcome.wallMilliseconds)))
    result.run = outcome
    return result
  }
}

/// A live run's output on its way to the events, with the learner's file names: stderr always,
/// stdout with a tty (where the program's stderr is its stdout). One stream per program stream;
/// what each holds back (at most a path's length) is given out when the output rests and at the
/// run's end. Called on the pump's thread, and once more on the caller's after the run.
final class LiveOutputNames: Sendable {
  private struct Streams {
    var stdout: LearnerNameStream?
    var stderr: LearnerNameStream
  }

  private let streams: Mutex<Streams>
  private let deliver: @Sendable (BoxStream, [UInt8]) -> Void

  init(
    names: [LearnerName], renamesStdout: Bool, deliver: @escaping @Sendable (BoxStream, [UInt8]) -> Void
  ) {
    streams = Mutex(
      Streams(stdout: renamesStdout ? LearnerNameStream(names: names) : nil, stderr: LearnerNameStream(names: names)))
    self.deliver = deliver
  }

  func take(_ bytes: [UInt8], from stream: BoxStream) {
    let renamed = streams.withLock { streams -> [UInt8] in
      switch stream {
      case .stdout: return streams.stdout == nil ? bytes : streams.stdout!.take(bytes)
      case .stderr: return streams.stderr.take(bytes)
      }
    }
    if !renamed.isEmpty { deliver(stream, renamed) }
  }

  /// Gives out what both streams hold, as at their end.
  func flush() {
    let (stdout, stderr) = streams.withLock { streams in (streams.stdout?.flush() ?? [], streams.stderr.flush()) }
    if !stdout.isEmpty { deliver(.stdout, stdout) }
    if !stderr.isEmpty { deliver(.stderr, stderr) }
  }
}

/// Splits live stdout into lines and reports each well-formed step line as it completes: the
/// steps the result's `steps` will hold, in the same order, within the same bounds
/// (`StepParser.replayable`, which a line at a time gives the same answer as on the whole output).
final class LiveStepLines: Sendable {
  private struct State {
    /// The line so far, dropped once it is longer than a step line may be.
    var line: [UInt8] = []
    var length = 0
    var isStepLine = false
    var stepLines = 0
    var stepBytes = 0
    var stopped = false
  }

  private let events: @Sendable (LiveEvent) -> Void
  private let parser = StepParser()
  private let state = Mutex(State())

  init(events: @escaping @Sendable (LiveEvent) -> Void) { self.events = events }

  func take(_ bytes: [UInt8]) {
    var start = 0
    while let newline = bytes[start...].firstIndex(of: 0x0a) {
      append(bytes[start..<newline])
      endLine(terminated: true)
      start = newline + 1
    }
    append(bytes[start...])
  }

  /// The last line, when the output does not end with a newline.
  func finish() {
    if state.withLock({ $0.length > 0 }) { endLine(terminated: false) }
  }

  private func append(_ bytes: ArraySlice<UInt8>) {
    state.withLock { state in
      let prefix = StepParser.prefix.utf8
      if state.length < prefix.count {
        let head = (state.line + bytes.prefix(prefix.count - state.length))
        state.isStepLine = head.count == prefix.count && head.elementsEqual(prefix)
      }
      state.length += bytes.count
      if state.isStepLine && state.length <= parser.maximumLineBytes + 1 {
        state.line += bytes
      } else if state.length <= prefix.count {
        state.line += bytes
      } else {
        state.line = []
      }
    }
  }

  private func endLine(terminated: Bool) {
    let line = state.withLock { state -> [UInt8]? in
      defer {
        state.line = []
        state.length = 0
        state.isStepLine = false
      }
      guard !state.stopped, state.isStepLine else { return nil }
      // As `StepParser` reads lines: a CR before the LF is not part of the line.
      let length = state.length - (terminated && state.line.last == 0x0d ? 1 : 0)
      state.stepLines += 1
      state.stepBytes += length
      if state.stepLines > parser.maximumSteps || state.stepBytes > parser.maximumTotalBytes {
        state.stopped = true
        return nil
      }
      return state.line.isEmpty ? nil : state.line + (terminated ? [0x0a] : [])
    }
    guard let line else { return }
    for step in parser.replayableSteps(String(decoding: line, as: UTF8.self)) { events(.step(step)) }
  }
}
