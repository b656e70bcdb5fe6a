import Foundation
import Testing

@testable import Grading

/// The CPU time cross-check of counted steps (docs/challenges.md, "What the counts can and cannot
/// show"), on made-up timings: start-up, work, input and output chosen per case.
@Suite struct GrowthTimeCheckTests {
  static let sizes = [16, 32, 64, 128, 256, 512, 1024]

  /// A run at each size: `startUp` ms, then `work(n)` ms; input of about 6 bytes a number, `output(n)` bytes.
  static func timings(
    startUp: Double, count: (Double) -> Double, work: (Double) -> Double,
    output: (Double) -> Double = { 20 * $0 }
  ) -> [GrowthTiming] {
    sizes.map {
      let n = Double($0)
      return GrowthTiming(
        n: $0, count: count(n), cpuMilliseconds: startUp + work(n), inputBytes: 6 * n + 5, outputBytes: output(n))
    }
  }

  static func check(_ timings: [GrowthTiming], claimed: GrowthClass?) -> GrowthTimeFinding? {
    GrowthTimeCheck.check(
      timings, claimed: claimed, classes: GrowthClass.withoutEdges, counted: "compare steps")
  }

  @Test func aProgramThatCountsNButWorksNSquaredFails() throws {
    // 1024 counted steps; 100 ms of work at n = 512, 400 ms at n = 1024, 20 ms of start-up.
    let forged = Self.timings(startUp: 20, count: { $0 }, work: { $0 * $0 / 2621.44 })
    let finding = try #require(Self.check(forged, claimed: .linear))
    #expect(finding.timeClass == .quadratic)
    #expect(abs(finding.timeRatio - 4) < 0.01)
    #expect(
      finding.message
        == "Your program's compare steps grow like O(n), but the CPU time it took grew like O(n^2) between "
        + "n = 512 and n = 1024: from 120 to 420 ms, less 20 ms of start-up (its time at n = 16), x4.0 where "
        + "its counts, input and output allow x2.0. It does work that its counts do not show.")
    // Claiming n log n does not hide it either: x4.0 against x2.2.
    let linearithmic = Self.timings(startUp: 20, count: { $0 * log2($0) }, work: { $0 * $0 / 2621.44 })
    #expect(Self.check(linearithmic, claimed: .linearithmic)?.timeClass == .quadratic)
  }

  @Test func honestProgramsPass() {
    // n log n work and counts, with a JVM's start-up.
    #expect(
      Self.check(
        Self.timings(startUp: 300, count: { $0 * log2($0) }, work: { $0 * log2($0) / 10 }), claimed: .linearithmic)
        == nil)
    // n^2 work and counts.
    #expect(
      Self.check(Self.timings(startUp: 20, count: { $0 * $0 }, work: { $0 * $0 / 2000 }), claimed: .quadratic) == nil)
    // Counted n + m, but each step prints the visited nodes (an n-long array): the output and the time
    // grow like n^2, which the output explains (bfs-order's solutions).
    let printing = Self.timings(
      startUp: 10, count: { 3 * $0 }, work: { $0 * $0 / 5000 }, output: { 7 * $0 * $0 })
    #expect(Self.check(printing, claimed: .linear) == nil)
    // log n counted, but reading the n-item input takes linear time (a stdin binary search's).
    #expect(Self.check(Self.timings(startUp: 40, count: { log2($0) }, work: { $0 / 5 }), claimed: .logarithmic) == nil)
    // Noise: 40 % more time at the largest size than the counts say is within the margin.
    var noisy = Self.timings(startUp: 20, count: { $0 * $0 }, work: { $0 * $0 / 2000 })
    noisy[noisy.count - 1].cpuMilliseconds = 20 + 1.4 * (1024 * 1024 / 2000)
    #expect(Self.check(noisy, claimed: .quadratic) == nil)
  }

  @Test func timesTooSmallToJudgeAreNotJudged() {
    // 40 ms of work at n = 512: below the 50 ms floor, however fast it grows.
    let small = Self.timings(startUp: 10, count: { $0 }, work: { $0 * $0 / 6553.6 })
    #expect(abs(small[5].cpuMilliseconds - 50) < 1e-9)
    #expect(Self.check(small, claimed: .linear) == nil)
    // 80 ms of work at n = 512 under 200 ms of start-up: the start-up's own variation would decide.
    let underStartUp = Self.timings(startUp: 200, count: { $0 }, work: { $0 * $0 / 3276.8 })
    #expect(Self.check(underStartUp, claimed: .linear) == nil)
    // The same work after a small start-up is judged.
    #expect(Self.check(Self.timings(startUp: 10, count: { $0 }, work: { $0 * $0 / 3276.8 }), claimed: .linear) != nil)
  }

  @Test func curveRatiosTakeTheSmallestSizeOutAndDoNotOverflow() {
    func timing(_ n: Int) -> GrowthTiming {
      GrowthTiming(n: n, count: 0, cpuMilliseconds: 0, inputBytes: 0, outputBytes: 0)
    }
    // Linear from 1000: (4000 - 1000) / (2000 - 1000) = 3, not 2: the start's share is taken out as
    // it is from the times.
    #expect(
      abs(GrowthTimeCheck.curveRatio(.linear, base: timing(1000), low: timing(2000), high: timing(4000)) - 3) < 1e-9)
    #expect(GrowthTimeCheck.curveRatio(.constant, base: timing(16), low: timing(512), high: timing(1024)) == 1)
    let exponential = GrowthTimeCheck.curveRatio(.exponential, base: timing(16), low: timing(512), high: timing(1024))
    #expect(exponential.isFinite && exponential > 1e150)
    #expect(
      GrowthTimeCheck.curveRatio(.exponential, base: timing(16), low: timing(1024), high: timing(4096)) == .infinity)
  }
}
