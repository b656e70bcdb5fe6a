import Foundation
import Glibc
import Runners
import Sandbox
import Synchronization
import Testing

// A live run's consumer never holds the run: it pauses the output (`LiveInput.pauseOutput`) instead
// of blocking in `events`, and every limit holds while the output is paused. The idle bound counts
// what the program really exchanged: input it took and output read from it.

/// Prints lines as fast as it can, forever.
let busyPrinter = "while True:\n    print('x' * 100)\n"

@Suite("Live flow control and the idle bound", .serialized)
struct LiveFlowControlTests {
  @Test(
    "a busy printer whose client paused its output and never resumed ends at its wall limit",
    arguments: BoxKind.allCases)
  func pausedBusyPrinterEndsAtItsWallLimit(kind: BoxKind) throws {
    let started = Date()
    // An output limit well above what can come before the pause takes hold: a loaded machine let
    // the printer reach the default limit first (seen in a full run), which is not what this holds.
    let run = LiveRunThread("python", busyPrinter, executor: kind.executor, react: .pauseAtFirstOutput) {
      $0.runLimits.wallMilliseconds = 2_000
      $0.runLimits.cpuMilliseconds = 1_000
      $0.runLimits.outputKilobytes = 16 * 1024
    }
    let result = try run.result(seconds: 60)
    let elapsed = Date().timeIntervalSince(started)
    #expect(result.run?.status == .timeLimit, "\(result.messages)")
    #expect(elapsed < 8, "the run ended \(elapsed) s after it started")
    // Past the pause only what was being handed over and what the pipe held at the end came: a
    // pump that went on reading would have passed on megabytes in 2 s. (272 KiB was seen once on a
    // loaded machine, 647 KiB at load 10 with seven builds beside the suite: chunks read before the
    // pause took hold, then a pipe's worth at the end.)
    #expect(run.recorder.stdoutByteCount <= 1 << 20, "\(run.recorder.stdoutByteCount) bytes came after a pause")
    #expect(run.recorder.stdoutByteCount == result.run?.stdout.count)
  }

  @Test("the CPU limit holds while the output is paused")
  func cpuLimitHoldsWhilePaused() throws {
    // The printing thread blocks on the full pipe and lets go of the GIL; the other one spins.
    let source = """
      import threading
      def spin():
          while True:
              pass
      threading.Thread(target=spin, daemon=True).start()
      while True:
          print('x' * 100, flush=True)

      """
    let started = Date()
    let run = LiveRunThread("python", source, react: .pauseAtFirstOutput) {
      $0.runLimits.wallMilliseconds = 6_000
      $0.runLimits.cpuMilliseconds = 1_000
    }
    let result = try run.result(seconds: 60)
    let elapsed = Date().timeIntervalSince(started)
    #expect(result.run?.status == .timeLimit, "\(result.messages)")
    #expect(result.run?.timeLimitKind == .cpu, "\(result.messages)")
    #expect(elapsed < 8, "the run ended \(elapsed) s after it started")
  }

  @Test("a paused program that sleeps past its wall limit ends by wall time")
  func pausedSleeperEndsAtItsWallLimit() throws {
    let started = Date()
    let run = LiveRunThread(
      "python", "import time\nprint('up', flush=True)\ntime.sleep(30)\n", react: .pauseAtFirstOutput
    ) { $0.runLimits.wallMilliseconds = 2_000 }
    let result = try run.result(seconds: 60)
    #expect(result.run?.status == .timeLimit, "\(result.messages)")
    #expect(result.run?.timeLimitKind == .wall, "\(result.messages)")
    #expect(Date().timeIntervalSince(started) < 8)
  }

  @Test(
    "output paused from the start waits in the program's pipe; resumed, all of it arrives", arguments: BoxKind.allCases)
  func resumedRunGetsAllItsOutput(kind: BoxKind) throws {
    // 600 kB, far more than a pipe holds (and within the 1 MiB output cap): the program waits.
    let source = "import sys\nfor i in range(60000):\n    sys.stdout.write(f'{i:09d}\\n')\n"
    let run = LiveRunThread("python", source, executor: kind.executor, startPaused: true) {
      $0.runLimits.wallMilliseconds = 30_000
    }
    usleep(1_500_000)
    #expect(run.recorder.stdoutByteCount == 0, "output came while paused")
    #expect(run.input.isOutputPaused)
    run.input.resumeOutput()
    let result = try run.result()
    #expect(result.run?.status == .ok, "\(result.messages)")
    let expected = (0..<60_000).map { String(format: "%09d\n", $0) }.joined()
    #expect(result.stdout == expected)
    #expect(run.recorder.stdout == expected, "the live chunks differ from the output")
  }

  @Test(
    "a program that ends while its output is paused still finishes, and its output arrives", arguments: BoxKind.allCases
  )
  func programEndingWhilePausedFinishes(kind: BoxKind) throws {
    let run = LiveRunThread("python", "print('one')\nprint('two')\n", executor: kind.executor, startPaused: true)
    let result = try run.result(seconds: 60)
    #expect(result.run?.status == .ok, "\(result.messages)")
    #expect(result.stdout == "one\ntwo\n")
    #expect(run.recorder.stdout == "one\ntwo\n")
  }

  @Test("kill ends a run whose output is paused", arguments: BoxKind.allCases)
  func killWhilePaused(kind: BoxKind) throws {
    let run = LiveRunThread("python", busyPrinter, executor: kind.executor, react: .pauseAtFirstOutput) {
      $0.runLimits.wallMilliseconds = 30_000
      // What a loaded machine passes on before the pause holds (up to about 1 MiB, above) must not
      // reach the output limit before the kill.
      $0.runLimits.outputKilobytes = 16 << 10
    }
    #expect(run.recorder.wait { $0.stdoutByteCount > 0 })
    usleep(500_000)
    let killed = Date()
    run.input.kill()
    let result = try run.result(seconds: 60)
    #expect(Date().timeIntervalSince(killed) < 8)
    #expect(result.run?.message.contains("on request") == true, "\(result.messages)")
  }

  @Test(
    "input sent to a program that never reads it is not activity: the run ends at its idle limit",
    arguments: BoxKind.allCases)
  func unreadInputIsNotActivity(kind: BoxKind) throws {
    var options = LiveOptions()
    options.idleLimitMs = 1_000
    let started = Date()
    let run = LiveRunThread("python", "import time\ntime.sleep(30)\n", options: options, executor: kind.executor) {
      $0.runLimits.wallMilliseconds = 20_000
    }
    // A byte every 200 ms, until the run ends (a send then says so) or 15 s have passed.
    var sends = 0
    while sends < 75 && run.input.send([0x78]) {
      sends += 1
      usleep(200_000)
    }
    let result = try run.result(seconds: 60)
    #expect(result.run?.status == .timeLimit, "\(result.messages)")
    #expect(result.run?.message.contains("idle") == true, "\(result.messages)")
    #expect(Date().timeIntervalSince(started) < 8)
  }

  @Test("a program that reads its input, printing nothing, is not idle")
  func inputTakenIsActivity() throws {
    var options = LiveOptions()
    options.idleLimitMs = 800
    let source = "import sys\ncount = 0\nfor line in sys.stdin:\n    count += 1\nprint(count)\n"
    let run = LiveRunThread("python", source, options: options) { $0.runLimits.wallMilliseconds = 30_000 }
    // Typing every 200 ms for 3 s, well past the idle bound.
    for index in 0..<15 {
      usleep(200_000)
      #expect(run.input.send(Array("line \(index)\n".utf8)), "the run ended while input was typed")
    }
    run.input.finish()
    let result = try run.result()
    #expect(result.run?.status == .ok, "\(result.messages)")
    #expect(result.stdout == "15\n")
  }

  @Test("time with the output paused is not activity: the run ends at its idle limit")
  func pausedOutputIsNotActivity() throws {
    var options = LiveOptions()
    options.idleLimitMs = 1_000
    let started = Date()
    let run = LiveRunThread("python", busyPrinter, options: options, react: .pauseAtFirstOutput) {
      $0.runLimits.wallMilliseconds = 20_000
    }
    let result = try run.result(seconds: 60)
    #expect(result.run?.status == .timeLimit, "\(result.messages)")
    #expect(result.run?.message.contains("idle") == true, "\(result.messages)")
    #expect(Date().timeIntervalSince(started) < 8)
  }
}
