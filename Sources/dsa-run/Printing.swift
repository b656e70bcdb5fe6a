import Foundation
import Sandbox
import Wire

// How the CLI shows a result and which exit code it gives: one place for
// local runs, `exec` and `--remote`, so they print exactly the same.

/// One step (compile or run) as the CLI prints it: from a local `Outcome`
/// or from the daemon's JSON.
struct PrintedStep {
  /// nil for a status word this build does not know (treated as internal).
  var status: Status?
  var statusWord: String
  var message: String
  var exitCode: Int32?
  var signal: Int32?
  var stdout: Data
  var stderr: Data
  var truncated: Bool

  init(_ outcome: Outcome) {
    status = outcome.status
    statusWord = outcome.status.rawValue
    message = outcome.message
    exitCode = outcome.exitCode
    signal = outcome.signal
    stdout = outcome.stdout
    stderr = outcome.stderr
    truncated = outcome.stdoutTruncated || outcome.stderrTruncated
  }

  /// An outcome of the daemon's execute or grade result (DESIGN §5).
  init(wire outcome: WireOutcome) {
    status = Status(rawValue: outcome.status)
    statusWord = outcome.status
    message = outcome.message
    exitCode = outcome.exitCode
    signal = outcome.signal.flatMap { name in (1..<65).first { signalName($0) == name } }
    stdout = Data(outcome.stdout.utf8)
    stderr = Data(outcome.stderr.utf8)
    truncated = outcome.stdoutTruncated || outcome.stderrTruncated
  }

  /// The documented exit code for this step.
  var cliExitCode: Int32 {
    switch status {
    case .ok, .runtimeError, .compileError:
      if let signal { return 128 + signal }
      return exitCode ?? 0
    case .forbidden: return 122
    case .outputLimit: return 123
    case .timeLimit: return 124
    case .memoryLimit: return 125
    case .internalError, nil: return 3
    }
  }

  /// Passes the program's output through, plus one line whenever it did not end ok: a non-zero
  /// exit, a signal, a limit or the sandbox (the same message as --json's). The program's own exit
  /// code is passed through, so a program's 2 or 124 is told from dsa-run's usage error or
  /// time_limit by this line alone.
  func printPlain() {
    ProgramOutput.write(stdout, to: 1, endOfStream: true)
    ProgramOutput.write(stderr, to: 2, endOfStream: true)
    if truncated || signal != nil || status != .ok {
      ProgramOutput.writeOwnLine("\(statusWord): \(message)")
    }
  }
}

/// The documented exit code for a local outcome.
func exitCode(for outcome: Outcome) -> Int32 { PrintedStep(outcome).cliExitCode }

/// Prints a compile-and-run result (unless `json`, whose object the caller printed) and returns its
/// exit code: a failed compile shows the compiler's messages on stderr and gives 121. Nothing is
/// printed after an interrupt.
func printRun(compile: PrintedStep?, run: PrintedStep?, json: Bool) -> Int32 {
  if let compile, compile.status != .ok {
    if !json && !wasInterrupted {
      ProgramOutput.write(compile.stdout, to: 2, endOfStream: true)
      ProgramOutput.write(compile.stderr, to: 2, endOfStream: true)
      ProgramOutput.writeOwnLine("\(compile.statusWord): \(compile.message)")
    }
    return compile.status == .compileError ? 121 : compile.cliExitCode
  }
  guard let run else { return 3 }
  if !json && !wasInterrupted { run.printPlain() }
  return run.cliExitCode
}

/// `printRun`, then the exit.
func finishRun(compile: PrintedStep?, run: PrintedStep?, json: Bool) -> Never {
  finish(printRun(compile: compile, run: run, json: json))
}
