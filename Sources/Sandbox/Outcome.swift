import Foundation

/// Status words shared by the CLI, the API and grading (DESIGN §4).
public enum Status: String, Sendable, Codable, CaseIterable {
  case ok
  case compileError = "compile_error"
  case runtimeError = "runtime_error"
  case timeLimit = "time_limit"
  case memoryLimit = "memory_limit"
  case outputLimit = "output_limit"
  case forbidden
  case internalError = "internal_error"
}

/// Which clock ran out, for `time_limit`.
public enum TimeLimitKind: String, Sendable {
  case cpu
  case wall
}

/// What the program did in its box: a value, never an error.
public struct Outcome: Sendable {
  public var status: Status
  /// Written for a learner.
  public var message: String
  /// Exit code when the program exited; nil when a signal ended it.
  public var exitCode: Int32?
  /// The signal that ended the program, if any.
  public var signal: Int32?
  public var stdout: Data
  public var stderr: Data
  public var stdoutTruncated: Bool
  public var stderrTruncated: Bool
  /// CPU time of every process of the box.
  public var cpuMilliseconds: UInt64
  /// Wall time from the program's release to its end, in microseconds.
  public var wallMicroseconds: UInt64
  public var wallMilliseconds: UInt64 { wallMicroseconds / 1000 }
  /// Peak memory of the box (cgroup peak, or the largest process RSS in
  /// rlimit-only mode).
  public var memoryKilobytes: UInt64
  public var timeLimitKind: TimeLimitKind?
  /// How the figures were measured ("cgroup-v2", "cgroup-v1", "rlimit").
  public var accounting: String
  /// stdout and stderr as they arrived, interleaved (what a terminal would have shown); the same
  /// bytes as `stdout` and `stderr`, within the same caps.
  public var arrival: [OutputChunk] = []

  /// The interleaved output as one text (Piston's `output`, Judge0's `redirect_stderr_to_stdout`).
  public var interleavedOutput: Data { arrival.reduce(into: Data()) { $0.append($1.bytes) } }
}

/// A stretch of one stream's output, in the order the host read it; consecutive reads of the same
/// stream are one chunk.
public struct OutputChunk: Sendable, Equatable {
  public var stream: BoxStream
  public var bytes: Data

  public init(stream: BoxStream, bytes: Data) {
    self.stream = stream
    self.bytes = bytes
  }
}

/// Linux's signals by number, named as `kill -l` names them; the real-time ones as glibc numbers
/// them (SIGRTMIN is 34: glibc keeps 32 and 33 for its threads), which is how programs see them.
private let signalNames: [Int32: String] = {
  var names: [Int32: String] = [
    SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
    SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
    SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
    SIGSTKFLT: "SIGSTKFLT", SIGCHLD: "SIGCHLD", SIGCONT: "SIGCONT", SIGSTOP: "SIGSTOP", SIGTSTP: "SIGTSTP",
    SIGTTIN: "SIGTTIN", SIGTTOU: "SIGTTOU", SIGURG: "SIGURG", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
    SIGVTALRM: "SIGVTALRM", SIGPROF: "SIGPROF", SIGWINCH: "SIGWINCH", SIGIO: "SIGIO", SIGPWR: "SIGPWR",
    SIGSYS: "SIGSYS", 34: "SIGRTMIN", 64: "SIGRTMAX",
  ]
  for offset in Int32(1)...15 { names[34 + offset] = "SIGRTMIN+\(offset)" }
  for offset in Int32(1)...14 { names[64 - offset] = "SIGRTMAX-\(offset)" }
  return names
}()
private let signalNumbers = Dictionary(uniqueKeysWithValues: signalNames.map { ($0.value, $0.key) })

/// The signal's conventional name, e.g. "SIGSEGV".
public func signalName(_ number: Int32) -> String {
  signalNames[number] ?? "signal \(number)"
}

/// The number of the signal named `name` ("SIGINT", "SIGRTMIN+3"), as `signalName` names them.
public func signalNumber(named name: String) -> Int32? { signalNumbers[name] }

/// What a run printed, as the host kept it (each stream capped at the box's output limit).
public struct CapturedOutput: Sendable {
  public var stdout = Data()
  public var stderr = Data()
  public var stdoutTruncated = false
  public var stderrTruncated = false
  /// Both streams in arrival order (`Outcome.arrival`).
  public var arrival: [OutputChunk] = []

  /// Output given whole; its arrival order is taken as stdout, then stderr, unless `arrival` says.
  public init(
    stdout: Data = Data(), stderr: Data = Data(), stdoutTruncated: Bool = false, stderrTruncated: Bool = false,
    arrival: [OutputChunk]? = nil
  ) {
    self.stdout = stdout
    self.stderr = stderr
    self.stdoutTruncated = stdoutTruncated
    self.stderrTruncated = stderrTruncated
    self.arrival =
      arrival
      ?? [OutputChunk(stream: .stdout, bytes: stdout), OutputChunk(stream: .stderr, bytes: stderr)].filter {
        !$0.bytes.isEmpty
      }
  }

  /// Keeps `bytes` (already within the stream's cap) as read from `stream`.
  public mutating func append(_ bytes: UnsafeRawBufferPointer, from stream: BoxStream) {
    switch stream {
    case .stdout: stdout.append(contentsOf: bytes)
    case .stderr: stderr.append(contentsOf: bytes)
    }
    if let last = arrival.indices.last, arrival[last].stream == stream {
      arrival[last].bytes.append(contentsOf: bytes)
    } else {
      arrival.append(OutputChunk(stream: stream, bytes: Data(bytes)))
    }
  }
}

/// The facts the classifier needs, gathered after a run ended: every box, and the fake
/// environment of the tests, turns them into an `Outcome` through the one classifier below.
public struct BoxEnding: Sendable {
  public var waitStatus: Int32?
  public var killedForWallTime = false
  public var killedForCPUTime = false
  public var killedForOutput = false
  public var cpuMilliseconds: UInt64 = 0
  public var wallMicroseconds: UInt64 = 0
  public var wallMilliseconds: UInt64 { wallMicroseconds / 1000 }
  public var memoryKilobytes: UInt64 = 0
  public var memoryLimitHit = false
  public var limits: BoxLimits
  /// stderr texts by which the program's runtime says it ran out of its memory budget
  /// (`BoxSpec.outOfMemoryTexts`).
  public var outOfMemoryTexts: [String] = []
  /// stderr went to stdout's pipe (`BoxSpec.mergesStderrIntoStdout`): the runtime's words are there.
  public var stderrIsInStdout = false
  /// A live run's caller asked for the program to be stopped (`BoxLiveInput.kill`).
  public var killedOnRequest = false
  /// A live run went `idleLimitMilliseconds` with no input taken by the program and no output read
  /// from it (`BoxLive.idleLimitMilliseconds`).
  public var killedForIdle = false
  public var idleLimitMilliseconds: UInt64 = 0
  /// The program's own CPU time as its RLIMIT_CPU counts it (the kernel's tick-based count), and
  /// that rlimit's soft limit, which sends SIGXCPU: nil when unknown. They tell the rlimit's
  /// SIGXCPU from one the program sent itself.
  public var programRLimitCPUMilliseconds: UInt64?
  public var cpuRLimitMilliseconds: UInt64?

  public init(limits: BoxLimits) { self.limits = limits }
}

extension Outcome {
  /// Classifies a run's facts and output (`classify`) into what the program did.
  public init(_ ending: BoxEnding, output: CapturedOutput, accounting: String) {
    let (status, message, exitCode, signal, timeKind) = classify(
      ending, stderr: ending.stderrIsInStdout ? output.stdout : output.stderr)
    self.init(
      status: status, message: message, exitCode: exitCode, signal: signal, stdout: output.stdout,
      stderr: output.stderr, stdoutTruncated: output.stdoutTruncated, stderrTruncated: output.stderrTruncated,
      cpuMilliseconds: ending.cpuMilliseconds, wallMicroseconds: ending.wallMicroseconds,
      memoryKilobytes: ending.memoryKilobytes, timeLimitKind: timeKind, accounting: accounting,
      arrival: output.arrival)
  }

  /// Renames files in the stream texts (`LearnerNames`) the same way in `arrival`, chunk by chunk.
  public mutating func rewriteText(stdout rewritesStdout: Bool, _ rewrite: (Data) -> Data) {
    if rewritesStdout { stdout = rewrite(stdout) }
    stderr = rewrite(stderr)
    for index in arrival.indices where rewritesStdout || arrival[index].stream == .stderr {
      arrival[index].bytes = rewrite(arrival[index].bytes)
    }
  }

  /// This outcome read as a compile step's: a compiler that failed rejected the code
  /// (`compile_error`, explained by the first of `errorHints` whose text it printed), and a limit
  /// or a crash is said to have happened while compiling. An `ok` compile stays `ok`.
  public func asCompile(errorHints: [(text: String, message: String)]) -> Outcome {
    var outcome = self
    switch status {
    case .ok:
      break
    case .runtimeError:
      outcome.status = .compileError
      outcome.message = "The code did not compile: see the compiler's messages."
      if let hint = errorHints.first(where: { hint in
        let text = Data(hint.text.utf8)
        return stderr.range(of: text) != nil || stdout.range(of: text) != nil
      }) {
        outcome.message = "The code did not compile because " + hint.message
      }
    default:
      outcome.message = "While compiling: " + message
    }
    return outcome
  }
}

/// Turns what happened into a status and a learner-readable message: the one place where a run's
/// facts become a status word.
func classify(_ ending: BoxEnding, stderr: Data = Data()) -> (Status, String, Int32?, Int32?, TimeLimitKind?) {
  let limits = ending.limits
  let cpuSeconds = formatSeconds(ending.cpuMilliseconds)
  let wallSeconds = formatSeconds(ending.wallMilliseconds)
  var exitCode: Int32?
  var signal: Int32?
  if let status = ending.waitStatus {
    if status & 0x7f == 0 {
      exitCode = (status >> 8) & 0xff
    } else {
      signal = status & 0x7f
    }
  }

  if ending.killedForOutput {
    return (
      .outputLimit,
      "Stopped after printing more than \(formatBytes(limits.outputBytesPerStream)) on one stream: is there an endless loop around a print?",
      exitCode, signal, nil
    )
  }
  if ending.killedOnRequest {
    return (.runtimeError, "Stopped on request while it ran (after \(wallSeconds)).", exitCode, signal, nil)
  }
  if ending.killedForIdle {
    return (
      .timeLimit,
      "Stopped after \(formatSeconds(ending.idleLimitMilliseconds)) in which the program read no input and no output was read from it: the session was idle.",
      exitCode, signal, .wall
    )
  }
  let cpuLimit = limits.cpuTimeMilliseconds
  let slowerAlgorithm = "is there an endless loop, or a slower algorithm than needed?"
  // The figure reported is the one the limit was enforced on (the cgroup's, by the pump; without
  // one, RLIMIT_CPU's own count), so it is at or above the limit whenever the limit stopped the
  // program; a message that says so with a figure under the limit would contradict itself.
  let overCPULimit = ending.cpuMilliseconds > cpuLimit
  let stoppedForCPU = ending.killedForCPUTime || signal == SIGXCPU || overCPULimit
  if exitCode != 0 && stoppedForCPU && ending.cpuMilliseconds >= cpuLimit {
    let used = (overCPULimit ? "more than " : "all ") + formatSeconds(cpuLimit)
    return (.timeLimit, "Used \(used) of CPU time (it used \(cpuSeconds)): \(slowerAlgorithm)", exitCode, signal, .cpu)
  }
  if ending.killedForCPUTime {
    // The pump saw the box's figure above the limit; a figure read lower at the end is a
    // measurement the box cannot make (the counters only grow), so both are said.
    return (
      .timeLimit,
      "Stopped when its CPU time passed its \(formatSeconds(cpuLimit)) limit (its figure read at its end is \(cpuSeconds)): \(slowerAlgorithm)",
      exitCode, signal, .cpu
    )
  }
  if signal == SIGXCPU, let charged = ending.programRLimitCPUMilliseconds, let soft = ending.cpuRLimitMilliseconds,
    charged >= soft
  {
    // RLIMIT_CPU's backstop, above the limit, fired before the box's figure reached the limit: the
    // kernel's own count ran that far ahead of it. Said as it is.
    return (
      .timeLimit,
      "Stopped by the kernel's CPU time backstop: it counted \(formatSeconds(charged)) of CPU time for the program, although the box's figure is \(cpuSeconds) of its \(formatSeconds(cpuLimit)) limit (on a busy machine the kernel's count runs ahead): \(slowerAlgorithm)",
      exitCode, signal, .cpu
    )
  }
  if ending.killedForWallTime {
    // Only a program that used the processor for under a tenth of its wall time spent it waiting.
    // One that used more was computing, just slower than the clock: a busy loop beside a CPU hog
    // on each core got half of one, and one beside three hogs a core still got more than a fifth.
    let wall = max(ending.wallMilliseconds, limits.wallTimeMilliseconds)
    let hint =
      ending.cpuMilliseconds * 10 < wall
      ? "is it waiting for input, or sleeping?"
      : "it was computing all the while, more slowly when the machine is busy: \(slowerAlgorithm)"
    return (
      .timeLimit,
      "Killed after \(formatSeconds(limits.wallTimeMilliseconds)) of wall time while using \(cpuSeconds) of CPU: \(hint)",
      exitCode, signal, .wall
    )
  }
  if signal == SIGSYS {
    return (
      .forbidden,
      "Stopped by the sandbox: the program made a system call that is not allowed here (for example starting a debugger or changing mounts).",
      exitCode, signal, nil
    )
  }
  if ending.memoryLimitHit && exitCode != 0 {
    return (
      .memoryLimit,
      "Ran out of memory: the limit is \(formatBytes(limits.memoryBytes)) and the program used \(formatBytes(ending.memoryKilobytes * 1024)) at its peak.",
      exitCode, signal, nil
    )
  }
  if !ending.outOfMemoryTexts.isEmpty, exitCode != 0,
    ending.outOfMemoryTexts.contains(where: { stderr.range(of: Data($0.utf8)) != nil })
  {
    return (
      .memoryLimit,
      "Ran out of memory: the limit is \(limits.memoryBytes >> 20) MiB and the program asked for more than its runtime could give it.",
      exitCode, signal, nil
    )
  }
  if let signal {
    let hint: String
    switch signal {
    case SIGSEGV: hint = ": a bad memory access, such as an index past the end of an array or a too-deep recursion"
    case SIGFPE: hint = ": an arithmetic error such as division by zero"
    case SIGABRT: hint = ": the program aborted, often a failed assertion or an uncaught exception"
    case SIGXFSZ: hint = ": it wrote a file larger than \(formatBytes(limits.fileSizeBytes))"
    // Not the CPU time limit's, which is told above.
    case SIGXCPU:
      let limit = formatSeconds(cpuLimit)
      hint = ", the CPU time limit's signal, but not from the limit: the program had used \(cpuSeconds) of its \(limit)"
    case SIGKILL: hint = ""
    default: hint = ""
    }
    return (.runtimeError, "The program was ended by \(signalName(signal))\(hint).", exitCode, signal, nil)
  }
  if let exitCode, exitCode != 0 {
    return (.runtimeError, "The program exited with code \(exitCode) after \(wallSeconds).", exitCode, signal, nil)
  }
  return (.ok, "", exitCode ?? 0, nil, nil)
}

// Whole-number arithmetic, not String(format:): every outcome formats its times, and Foundation's
// formatter costs a one-shot CLI start more than the rest of the message.
func formatSeconds(_ milliseconds: UInt64) -> String {
  if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
  return decimal(milliseconds, scale: 1000, digits: 2) + " s"
}

/// `value / scale` rounded half up to `digits` (1 or 2) decimals: decimal(1234, scale: 1000, digits: 2) is
/// "1.23". Times and sizes of a box are far below 2^57, so `value * 100` cannot overflow.
func decimal(_ value: UInt64, scale: UInt64, digits: Int) -> String {
  let unit: UInt64 = digits == 1 ? 10 : 100
  let rounded = (value * unit + scale / 2) / scale
  let fraction = String(rounded % unit)
  return "\(rounded / unit)." + String(repeating: "0", count: digits - fraction.count) + fraction
}

func formatBytes(_ bytes: UInt64) -> String {
  if bytes >= 1 << 30 && bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
  if bytes >= 1 << 20 {
    return bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : decimal(bytes, scale: 1 << 20, digits: 1) + " MiB"
  }
  if bytes >= 1 << 10 { return "\(bytes >> 10) KiB" }
  return "\(bytes) bytes"
}
