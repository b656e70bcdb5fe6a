import Foundation

/// One growth run as the time cross-check sees it: its size, what was counted, the CPU time the box
/// measured, and the bytes it read and wrote.
public struct GrowthTiming: Sendable, Hashable {
  public var n: Int
  /// Graph inputs only.
  public var m: Int?
  public var count: Double
  public var cpuMilliseconds: Double
  /// The run's stdin, which the grader made: the program had to read it.
  public var inputBytes: Double
  /// What the program wrote (stdout and stderr): step lines that print an array grow faster than
  /// the steps counted, and writing them takes time.
  public var outputBytes: Double

  public init(n: Int, m: Int? = nil, count: Double, cpuMilliseconds: Double, inputBytes: Double, outputBytes: Double) {
    self.n = n
    self.m = m
    self.count = count
    self.cpuMilliseconds = cpuMilliseconds
    self.inputBytes = inputBytes
    self.outputBytes = outputBytes
  }
}

/// The time check's finding against a program's counts.
public struct GrowthTimeFinding: Sendable, Hashable {
  /// The CPU time's growth between the two largest sizes, start-up taken out.
  public var timeRatio: Double
  /// The most the counts, the claimed class, the input and the output allow.
  public var allowedRatio: Double
  /// The class whose curve grows most like the time did; nil when none grows that fast.
  public var timeClass: GrowthClass?
  /// For the learner.
  public var message: String
}

/// Counts are what a program says it did; the box's CPU time is what it did. A program whose CPU time
/// grows much faster between the two largest sizes than its counts allow did work it did not count
/// (docs/challenges.md, "What the counts can and cannot show").
///
/// The rule, with n0 the smallest size counted and n1 < n2 the two largest: the work at a size is
/// its CPU time less the CPU time at n0 (the program's start-up: the interpreter, the JVM), and the
/// time's growth is `(t2 - t0) / (t1 - t0)`. Each explanation of the work is taken the same way,
/// `(x2 - x0) / (x1 - x0)`: the counts, the class they were judged to fit, the input's bytes and the
/// output's bytes (a program's time honestly grows with what it must read and print). The program
/// fails only when the time grew more than `margin` times the largest of these, and only when the
/// work at n1 is at least `floorMilliseconds` and at least the start-up (below that the time is too
/// small, or too much start-up, to judge).
public enum GrowthTimeCheck {
  /// Below this much work at the second largest size, CPU time says nothing reliable.
  public static let floorMilliseconds = 50.0
  /// How much faster than everything that explains it the time may grow: CPU time varies from run to
  /// run by some tens of percent on a shared machine (another process on the same core, a garbage
  /// collection), and classes one apart differ by about x2 when a size doubles.
  public static let margin = 1.5

  /// The finding when the time grew too fast for the counts; nil when it did not, or when the times
  /// are too small to judge. `claimed` is the class the counts were judged to fit, `classes` those
  /// a message may name, `counted` what was counted ("compare steps").
  public static func check(
    _ timings: [GrowthTiming], claimed: GrowthClass?, classes: [GrowthClass], counted: String
  ) -> GrowthTimeFinding? {
    let sorted = timings.sorted { $0.n < $1.n }
    guard sorted.count >= 3, let base = sorted.first else { return nil }
    let low = sorted[sorted.count - 2]
    let high = sorted[sorted.count - 1]
    guard base.n < low.n, low.n < high.n else { return nil }
    let startUp = max(0, base.cpuMilliseconds)
    let lowWork = low.cpuMilliseconds - startUp
    let highWork = high.cpuMilliseconds - startUp
    guard lowWork >= max(floorMilliseconds, startUp), highWork > 0 else { return nil }
    let timeRatio = highWork / lowWork

    func measured(_ value: (GrowthTiming) -> Double) -> Double {
      let first = value(base)
      let grown = value(low) - first
      guard grown > 0 else { return value(high) > first ? .infinity : 1 }
      return max(0, value(high) - first) / grown
    }
    var allowed = [measured(\.count), measured(\.inputBytes), measured(\.outputBytes)]
    if let claimed { allowed.append(curveRatio(claimed, base: base, low: low, high: high)) }
    let allowedRatio = allowed.max() ?? 1
    guard timeRatio > allowedRatio * margin else { return nil }

    // The class whose curve, taken the same way, is nearest the time's growth among those that grow
    // faster than what was allowed.
    let faster = classes.map { ($0, curveRatio($0, base: base, low: low, high: high)) }.filter { $0.1 > allowedRatio }
    let timeClass = faster.min { abs(log2($0.1 / timeRatio)) < abs(log2($1.1 / timeRatio)) }?.0
    let grew = timeClass.map { "grew like \($0.bigO)" } ?? "grew faster than any class tried"
    let start =
      claimed.map { "Your program's \(counted) grow like \($0.bigO), but the CPU time it took \(grew)" }
      ?? "Your program's \(counted) grow more slowly than the CPU time it took, which \(grew)"
    let message =
      "\(start) between n = \(low.n) and n = \(high.n): from \(milliseconds(low.cpuMilliseconds)) to "
      + "\(milliseconds(high.cpuMilliseconds)) ms, less \(milliseconds(startUp)) ms of start-up (its time at "
      + "n = \(base.n)), x\(String(format: "%.1f", timeRatio)) where its counts, input and output allow "
      + "x\(String(format: "%.1f", allowedRatio)). It does work that its counts do not show."
    return GrowthTimeFinding(
      timeRatio: timeRatio, allowedRatio: allowedRatio, timeClass: timeClass, message: message)
  }

  /// `(g(n2) - g(n0)) / (g(n1) - g(n0))` for a class's curve g, in log space so that 2^n does not
  /// overflow; infinity when the curve does not grow from n0 to n1 but does to n2.
  static func curveRatio(_ growthClass: GrowthClass, base: GrowthTiming, low: GrowthTiming, high: GrowthTiming)
    -> Double
  {
    func log2Curve(_ timing: GrowthTiming) -> Double {
      growthClass.log2Curve(n: Double(timing.n), m: Double(timing.m ?? 0))
    }
    let (first, middle, last) = (log2Curve(base), log2Curve(low), log2Curve(high))
    let below = exp2(first - middle)
    guard below < 1 else { return last > first ? .infinity : 1 }
    // Past 2^1000 the start's share is nothing, and exp2 would overflow.
    guard last - middle < 1000 else { return .infinity }
    return max(0, exp2(last - middle) - below) / (1 - below)
  }

  private static func milliseconds(_ value: Double) -> String { String(Int(value.rounded())) }
}
