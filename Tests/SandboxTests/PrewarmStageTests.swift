import Foundation
import Testing

@testable import Sandbox

// A pre-warmed box whose program compiles before it runs (`PrewarmStage`, Dart's), and one whose
// runtime holds memory a cold run would not (`warmUpMemoryBytes`), with a Python stand-in for the
// runtime: it warms up holding `warmUpMegabytes`, then takes a handover "MODE COMPILE_MS RUN_MS
// RUN_MB", burns the compile's CPU, writes the marker (or fails as a compiler would), and runs.
@Suite(
  .serialized,
  .enabled(if: Fixture.host.cgroups.mode != .rlimitOnly, "a pre-warmed box needs a cgroup to count CPU from a handover")
)
struct PrewarmStageTests {
  static let readyMarker = Data("\u{0}ready\n".utf8)
  static let stageMarker = Data("\u{0}compiled\n".utf8)

  static func launcher(warmUpMegabytes: Int) -> String {
    """
    import os, time

    def burn(milliseconds):
        end = time.process_time() + milliseconds / 1000
        while time.process_time() < end:
            pass

    held = b"\\x01" * (\(warmUpMegabytes) << 20)
    os.write(2, b"\\0ready\\n")
    message = b""
    while not message.endswith(b"\\0"):
        byte = os.read(0, 1)
        if not byte:
            os._exit(125)
        message += byte
    mode, compile_ms, run_ms, run_mb = message[:-1].decode().split()
    burn(int(compile_ms))
    if mode == "fail":
        os.write(2, b"main.x:1: error: no\\n")
        os._exit(3)
    os.write(2, b"\\0compiled\\n")
    extra = b"\\x02" * (int(run_mb) << 20)
    burn(int(run_ms))
    os.write(1, b"ran\\n")

    """
  }

  static func spec(cpuMilliseconds: UInt64 = 2_000, memoryMegabytes: UInt64 = 256) -> BoxSpec {
    var spec = BoxSpec(
      command: ["/usr/bin/python3", "-S", "/box/launcher.py"], environment: [], policy: Fixture.defaultPolicy)
    spec.limits.cpuTimeMilliseconds = cpuMilliseconds
    spec.limits.wallTimeMilliseconds = 20_000
    spec.limits.memoryBytes = memoryMegabytes << 20
    return spec
  }

  static let stage = PrewarmStage(marker: stageMarker, cpuTimeMilliseconds: 5_000, wallTimeMilliseconds: 20_000)

  /// Starts a box with the launcher and hands `message` over.
  func handOver(
    _ message: String, spec: BoxSpec, warmUpMegabytes: Int = 0, warmUpMemoryBytes: UInt64 = 0
  ) throws -> (outcome: Outcome, compile: (cpuMicroseconds: UInt64, wallMicroseconds: UInt64)?, resident: UInt64) {
    let box = try PrewarmedBox(
      host: Fixture.host, spec: spec,
      files: [BoxFile(name: "launcher.py", contents: Data(Self.launcher(warmUpMegabytes: warmUpMegabytes).utf8))],
      readyMarker: Self.readyMarker, warmUpMemoryBytes: warmUpMemoryBytes)
    let resident = box.residentAtReadyBytes
    let handed = try box.handOver(
      spec: spec, files: [BoxFile(name: "main.x", contents: Data("source".utf8))],
      handover: Data((message + "\u{0}").utf8),
      stdin: Data(), stage: Self.stage)
    let ran = try #require(handed, "the box did not take the handover")
    return (ran.outcome, ran.compile, resident)
  }

  @Test func theMarkerSplitsTheCompilesFiguresFromTheRuns() throws {
    let ran = try handOver("ok 300 100 0", spec: Self.spec())
    #expect(ran.outcome.status == .ok && ran.outcome.stdout == Data("ran\n".utf8))
    #expect(ran.outcome.stderr.isEmpty, "the marker was left in stderr")
    let compile = try #require(ran.compile, "no marker was seen")
    #expect(compile.cpuMicroseconds >= 280_000, "compile CPU \(compile.cpuMicroseconds) µs")
    #expect(
      ran.outcome.cpuMilliseconds >= 90 && ran.outcome.cpuMilliseconds < 280,
      "run CPU \(ran.outcome.cpuMilliseconds) ms")
    #expect(compile.wallMicroseconds >= 280_000)
  }

  @Test func theCompileHasTheStagesLimitsAndTheRunItsOwn() throws {
    // 600 ms of compile under a 300 ms run limit: the stage's limit holds until the marker.
    let long = try handOver("ok 600 50 0", spec: Self.spec(cpuMilliseconds: 300))
    #expect(long.outcome.status == .ok, "\(long.outcome.message)")
    let spinning = try handOver("ok 50 2000 0", spec: Self.spec(cpuMilliseconds: 300))
    #expect(spinning.outcome.status == .timeLimit)
    #expect(spinning.outcome.cpuMilliseconds >= 300 && spinning.outcome.cpuMilliseconds < 1_000)
    #expect(spinning.compile != nil)
  }

  @Test func aProgramThatEndsBeforeTheMarkerIsAllCompile() throws {
    let failed = try handOver("fail 100 0 0", spec: Self.spec())
    #expect(failed.compile == nil)
    #expect(failed.outcome.exitCode == 3 && failed.outcome.stderr == Data("main.x:1: error: no\n".utf8))
    #expect(failed.outcome.cpuMilliseconds >= 90)
  }

  @Test func theWarmUpsMemoryIsAllowedAndNotReportedAsTheRuns() throws {
    // 96 MiB held since the warm-up and 80 MiB of the run's own under a 128 MiB limit.
    let spec = Self.spec(memoryMegabytes: 128)
    let allowed = try handOver("ok 0 0 80", spec: spec, warmUpMegabytes: 96, warmUpMemoryBytes: 256 << 20)
    #expect(allowed.outcome.status == .ok, "\(allowed.outcome.message)")
    #expect(allowed.resident >= 96 << 20, "resident at the ready marker \(allowed.resident >> 20) MiB")
    let peak = allowed.outcome.memoryKilobytes
    #expect(peak >= 70 << 10 && peak <= 128 << 10, "reported peak \(peak >> 10) MiB")
    // Without the allowance the warm-up's share crowds the run out.
    let crowded = try handOver("ok 0 0 80", spec: spec, warmUpMegabytes: 96, warmUpMemoryBytes: 0)
    #expect(crowded.outcome.status == .memoryLimit)
  }
}
