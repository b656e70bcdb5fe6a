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

  @Test(arguments: [(0, true), (90, true), (100, false), (450, false), (2_000, false)] as [(UInt64, Bool)])
  func theWallLimitAsksAboutInputOnlyWhenTheProgramHardlyComputed(cpu: UInt64, asks: Bool) {
    var limits = BoxLimits()
    limits.wallTimeMilliseconds = 1_000
    var ending = BoxEnding(limits: limits)
    ending.killedForWallTime = true
    ending.cpuMilliseconds = cpu
    ending.wallMicroseconds = 1_000_000
    let message = classify(ending).1
    #expect(message.contains("waiting for input") == asks, "\(message)")
    #expect(message.contains("computing") == !asks, "\(message)")
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

  /// A CPU time verdict says "used more than N s" only with a reported figure at or above N, and
  /// its "(it used X s)" is the reported figure, whatever ended the program.
  @Test(arguments: [0, 480, 999, 1_000, 1_001, 1_480, 2_600] as [UInt64])
  func aCPUVerdictNeverContradictsItsFigure(cpu: UInt64) {
    let endings: [(Int32?, Bool)] = [(SIGXCPU, false), (SIGKILL, false), (SIGKILL, true), (1 << 8, false)]
    for (waitStatus, killedForCPU) in endings {
      for charged: UInt64? in [nil, cpu, cpu + 1_300] {
        var limits = BoxLimits()
        limits.cpuTimeMilliseconds = 1_000
        var ending = BoxEnding(limits: limits)
        ending.waitStatus = waitStatus
        ending.killedForCPUTime = killedForCPU && cpu > 1_000
        ending.cpuMilliseconds = cpu
        ending.programRLimitCPUMilliseconds = charged
        ending.cpuRLimitMilliseconds = 2_000
        let (status, message, _, _, kind) = classify(ending)
        let waited = waitStatus.map(String.init) ?? "-"
        let context = "cpu \(cpu) wait \(waited) charged \(charged.map(String.init) ?? "-"): \(message)"
        if message.contains("Used more than") || message.contains("Used all") {
          #expect(cpu >= 1_000, "\(context)")
          #expect(message.contains("(it used \(formatSeconds(cpu)))"), "\(context)")
        }
        if status == .timeLimit && kind == .cpu { #expect(message.contains(formatSeconds(cpu)), "\(context)") }
      }
    }
  }

  @Test func sigxcpuUnderTheLimitIsToldAsItIs() {
    func classified(charged: UInt64?) -> (Status, String, TimeLimitKind?) {
      var limits = BoxLimits()
      limits.cpuTimeMilliseconds = 2_000
      var ending = BoxEnding(limits: limits)
      ending.waitStatus = SIGXCPU
      ending.cpuMilliseconds = 1_480
      ending.programRLimitCPUMilliseconds = charged
      ending.cpuRLimitMilliseconds = 3_000
      let result = classify(ending)
      return (result.0, result.1, result.4)
    }
    // The rlimit's backstop fired: the kernel counted past it while the box's figure stayed under.
    let backstop = classified(charged: 3_010)
    #expect(backstop.0 == .timeLimit && backstop.2 == .cpu)
    #expect(backstop.1.contains("3.01 s") && backstop.1.contains("1.48 s") && backstop.1.contains("2 s limit"))
    #expect(!backstop.1.contains("more than"))
    // Nothing counted that far: the program (or another in its box) sent the signal itself.
    for charged: UInt64? in [nil, 1_500] {
      let sent = classified(charged: charged)
      #expect(sent.0 == .runtimeError && sent.2 == nil, "\(sent.1)")
      #expect(sent.1.contains("SIGXCPU") && sent.1.contains("1.48 s of its 2 s"), "\(sent.1)")
    }
  }

  @Test func aFigureAtTheLimitIsNotMoreThanIt() {
    var limits = BoxLimits()
    limits.cpuTimeMilliseconds = 1_000
    var ending = BoxEnding(limits: limits)
    ending.waitStatus = SIGXCPU
    ending.cpuMilliseconds = 1_000
    let (status, message, _, _, _) = classify(ending)
    #expect(status == .timeLimit)
    #expect(message.hasPrefix("Used all 1 s of CPU time (it used 1 s)"), "\(message)")
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
