import Foundation
import Glibc
import Testing

@testable import Sandbox

@Suite struct OutcomeTests {
  private func ending(_ change: (inout BoxEnding) -> Void) -> BoxEnding {
    var ending = BoxEnding(limits: BoxLimits())
    ending.waitStatus = 0
    change(&ending)
    return ending
  }

  @Test func cleanExitIsOK() {
    let (status, message, exitCode, signal, _) = classify(ending { _ in })
    #expect(status == .ok && message.isEmpty && exitCode == 0 && signal == nil)
  }

  @Test func nonZeroExitIsRuntimeError() {
    let (status, message, exitCode, _, _) = classify(ending { $0.waitStatus = 3 << 8 })
    #expect(status == .runtimeError && exitCode == 3)
    #expect(message.contains("code 3"))
  }

  @Test(arguments: [(SIGSEGV, "memory access"), (SIGFPE, "division by zero"), (SIGABRT, "aborted")])
  func fatalSignalsAreRuntimeErrorsExplained(signal: Int32, words: String) {
    let (status, message, _, reported, _) = classify(ending { $0.waitStatus = signal })
    #expect(status == .runtimeError && reported == signal)
    #expect(message.contains(words))
  }

  @Test func sigsysIsForbidden() {
    #expect(classify(ending { $0.waitStatus = SIGSYS }).0 == .forbidden)
  }

  @Test func wallKillSaysWall() {
    let result = classify(
      ending {
        $0.waitStatus = nil
        $0.killedForWallTime = true
        $0.cpuMilliseconds = 10
      })
    #expect(result.0 == .timeLimit && result.4 == .wall)
    #expect(result.1.contains("10 s of wall time while using 0.01 s of CPU"))
  }

  @Test func cpuOverrunBeatsWall() {
    let result = classify(
      ending {
        $0.waitStatus = SIGKILL
        $0.killedForWallTime = true
        $0.cpuMilliseconds = 6_000
      })
    #expect(result.0 == .timeLimit && result.4 == .cpu)
  }

  @Test func outputLimitWins() {
    #expect(
      classify(
        ending {
          $0.killedForOutput = true
          $0.killedForWallTime = true
        }
      ).0 == .outputLimit)
  }

  @Test func oomKillIsMemoryLimit() {
    let result = classify(
      ending {
        $0.waitStatus = SIGKILL
        $0.memoryLimitHit = true
        $0.memoryKilobytes = 262_144
      })
    #expect(result.0 == .memoryLimit)
    #expect(result.1.contains("256 MiB"))
  }

  @Test func statusWordsAreTheContract() {
    #expect(
      Status.allCases.map(\.rawValue) == [
        "ok", "compile_error", "runtime_error", "time_limit", "memory_limit", "output_limit", "forbidden",
        "internal_error",
      ])
  }

  /// The messages' times and sizes, formatted without Foundation, as String(format:) rounded them.
  @Test func timesAndSizesAreRoundedToTheirDecimals() {
    #expect(formatSeconds(2000) == "2 s")
    #expect(formatSeconds(1234) == "1.23 s")
    #expect(formatSeconds(1236) == "1.24 s")
    #expect(formatSeconds(5) == "0.01 s")
    #expect(formatSeconds(1) == "0.00 s")
    #expect(formatSeconds(59_999) == "60.00 s")
    #expect(formatBytes(3 << 30) == "3 GiB")
    #expect(formatBytes(256 << 20) == "256 MiB")
    #expect(formatBytes((1 << 20) + (1 << 19)) == "1.5 MiB")
    #expect(formatBytes((100 << 20) + 1) == "100.0 MiB")
    #expect(formatBytes(2048) == "2 KiB")
  }
}
