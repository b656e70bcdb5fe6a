import Foundation
import Glibc
import Runners
import Sandbox
import Synchronization
import Testing

// Signals sent to a live run's program (`LiveInput.signal`): the box's init sends them to the
// program's process group while it is unreaped, on warm boxes (the daemon's) and one-shot boxes
// (the CLI's) alike.

/// A program that handles SIGINT (Python's KeyboardInterrupt) and SIGTERM (a handler) its own way.
/// The handler writes with os.write: the signal may come while `print('ready')` is still flushing,
/// and a print inside it would then be a reentrant call on stdout.
let signalHandlingProgram = """
  import os, signal, sys, time
  def on_term(number, frame):
      os.write(1, b'term handled\\n')
      sys.exit(4)
  signal.signal(signal.SIGTERM, on_term)
  try:
      print('ready', flush=True)
      time.sleep(30)
  except KeyboardInterrupt:
      print('caught', flush=True)
      sys.exit(3)

  """

enum BoxKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case warm, oneShot
  var executor: Executor { self == .warm ? LiveFixture.executor : LiveFixture.oneShotExecutor }
  var testDescription: String { rawValue }
}

@Suite("Live signals", .serialized)
struct LiveSignalTests {
  /// Starts the program, waits for "ready", sends `signal`; the result.
  func run(_ kind: BoxKind, _ source: String, signal: Int32) throws -> ExecuteResult {
    let run = LiveRunThread("python", source, executor: kind.executor) { $0.runLimits.wallMilliseconds = 20_000 }
    let ready = run.recorder.wait { $0.stdout.contains("ready") }
    if !ready { run.input.kill() }
    try #require(ready, "no 'ready': \(run.recorder.stdout.debugDescription)")
    #expect(run.input.signal(signal))
    return try run.result()
  }

  @Test("SIGINT raises KeyboardInterrupt: the program prints and exits with its own code", arguments: BoxKind.allCases)
  func interruptIsCaught(kind: BoxKind) throws {
    let result = try run(kind, signalHandlingProgram, signal: SIGINT)
    #expect(result.stdout == "ready\ncaught\n", "\(result.messages)")
    #expect(result.run?.exitCode == 3 && result.run?.signal == nil, "\(result.messages)")
    #expect(result.run?.status == .runtimeError)
  }

  @Test("SIGTERM runs the program's handler", arguments: BoxKind.allCases)
  func terminateRunsTheHandler(kind: BoxKind) throws {
    let result = try run(kind, signalHandlingProgram, signal: SIGTERM)
    #expect(result.stdout == "ready\nterm handled\n", "\(result.messages)")
    #expect(result.run?.exitCode == 4, "\(result.messages)")
  }

  @Test("a signal the program does not handle ends it, and the outcome names that signal", arguments: BoxKind.allCases)
  func unhandledSignalEndsTheProgram(kind: BoxKind) throws {
    let source = "import time\nprint('ready', flush=True)\ntime.sleep(30)\n"
    for signal in [SIGINT, SIGKILL] {
      let result = try run(kind, source, signal: signal)
      #expect(result.run?.signal == signal, "\(signalName(signal)): \(result.messages)")
      #expect(result.run?.status == .runtimeError)
      #expect(result.run?.message.contains(signalName(signal)) == true, "\(result.messages)")
      #expect(result.run?.message.contains("on request") == false, "a signal is not the kill: \(result.messages)")
    }
  }

  @Test("the wall limit still ends a program stopped by SIGSTOP")
  func stoppedProgramStillEndsAtItsWallLimit() throws {
    let run = LiveRunThread("python", "import time\nprint('ready', flush=True)\ntime.sleep(30)\n") {
      $0.runLimits.wallMilliseconds = 2_000
    }
    #expect(run.recorder.wait { $0.stdout.contains("ready") })
    #expect(run.input.signal(SIGSTOP))
    let result = try run.result()
    #expect(result.run?.status == .timeLimit, "\(result.messages)")
  }

  // The program has ended (and was reaped) before the signal reaches its init: on a warm box the
  // init is then waiting for its next command, and must take the stray signal as nothing, not as a
  // broken command (which would fail this run or the next on the same box).
  @Test("a signal for a program that already ended is harmless, and the box runs on", arguments: BoxKind.allCases)
  func signalAfterTheEndIsHarmless(kind: BoxKind) throws {
    for round in 0..<3 {
      let input = LiveInput()
      let queued = Mutex(false)
      let request = ExecuteRequest(
        language: "python", files: [SourceFile(name: "", contents: Data("print('bye')\n".utf8))])
      let result = try kind.executor.executeLive(request, options: LiveOptions(), input: input) { event in
        guard case .stdout = event else { return }
        // The pump waits here (against the events contract, on purpose: a pause would not hold the
        // run's end): meanwhile the program exits and its init reaps it.
        usleep(500_000)
        let accepted = input.signal(SIGINT)
        queued.withLock { $0 = accepted }
      }
      #expect(result.run?.status == .ok, "round \(round): \(result.messages)")
      #expect(result.stdout == "bye\n")
      #expect(queued.withLock { $0 }, "round \(round): the request was refused before the run ended")
      #expect(!input.signal(SIGINT), "a signal after the run must say the run is over")
    }
  }

  @Test("out-of-range signal numbers are refused")
  func outOfRangeNumbersAreRefused() {
    let input = LiveInput()
    #expect(!input.signal(0))
    #expect(!input.signal(65))
    #expect(!input.signal(-9))
  }
}
