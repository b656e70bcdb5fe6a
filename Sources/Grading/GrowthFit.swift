import Foundation

/// A complexity class a growth section may ask for (docs/challenges.md, "Growth"), by the name a
/// challenge file uses.
public enum GrowthClass: String, Sendable, Hashable, CaseIterable {
  case constant = "1"
  case logarithmic = "log n"
  case linear = "n"
  case nodesPlusEdges = "n + m"
  case linearithmic = "n log n"
  case quadratic = "n^2"
  case cubic = "n^3"
  case exponential = "2^n"

  /// The classes of inputs without edges: every class but `n + m`.
  public static let withoutEdges: [GrowthClass] = allCases.filter { $0 != .nodesPlusEdges }

  /// "O(n log n)", as a learner reads it.
  public var bigO: String { "O(\(rawValue))" }

  /// The term that usually comes with this class and fades as n grows (merge sort's n log n - n,
  /// insertion sort's n²/2 - n/2, binary search's log n + 1): fitted beside the class's own curve
  /// so that it does not push the fit to a neighbouring class at small n.
  var lowerOrder: GrowthClass? {
    switch self {
    case .constant: return nil
    case .logarithmic, .nodesPlusEdges: return .constant
    case .linear: return .logarithmic
    case .linearithmic: return .linear
    case .quadratic: return .linearithmic
    case .cubic: return .quadratic
    case .exponential: return .cubic
    }
  }

  /// log2 of the class's curve at n nodes and m edges, for charts' reference curves.
  public func log2Value(n: Double, m: Double) -> Double { log2Curve(n: n, m: m) }

  /// log2 of the class's curve at n nodes and m edges (in log space, so that 2^1024 does not overflow).
  func log2Curve(n: Double, m: Double) -> Double {
    let n = max(n, 2)
    switch self {
    case .constant: return 0
    case .logarithmic: return log2(log2(n))
    case .linear: return log2(n)
    case .nodesPlusEdges: return log2(n + max(m, 0))
    case .linearithmic: return log2(n) + log2(log2(n))
    case .quadratic: return 2 * log2(n)
    case .cubic: return 3 * log2(n)
    case .exponential: return n
    }
  }
}

/// One measured point: the input's size, its edge count for graphs, and what was counted.
public struct GrowthPoint: Sendable, Hashable {
  public var n: Int
  /// Graph inputs only.
  public var m: Int?
  public var count: Double

  public init(n: Int, m: Int? = nil, count: Double) {
    self.n = n
    self.m = m
    self.count = count
  }
}

/// How well one class's curve fits the points.
public struct GrowthClassFit: Sendable, Hashable {
  public var growthClass: GrowthClass
  /// The root mean square of the relative residuals (0 for a perfect fit; 0.1 is 10 % off on average).
  public var error: Double
  /// The share of the largest count that the class's own term carries (the rest is its lower-order
  /// term). Below `GrowthFitter.minimumLeadingShare` the class does not explain the growth: a curve
  /// one class up fits any data with its top coefficient near 0.
  public var leadingShare: Double

  public init(growthClass: GrowthClass, error: Double, leadingShare: Double) {
    self.growthClass = growthClass
    self.error = error
    self.leadingShare = leadingShare
  }

  /// The class's own term explains the growth.
  public var explainsGrowth: Bool { leadingShare >= GrowthFitter.minimumLeadingShare && error.isFinite }
}

/// The fit of every class, the best one and those too close to tell apart from it.
public struct GrowthFit: Sendable, Hashable {
  /// Every class tried, in `GrowthClass` order.
  public var fits: [GrowthClassFit]
  /// The class with the smallest error among those that explain the growth; nil when none does.
  public var best: GrowthClass?
  /// The best class and every class whose error is within the margin of the best one's.
  public var plausible: [GrowthClass]
  /// Even the best class is more than `GrowthFitter.poorFitError` off: no class fits clearly.
  public var isPoor: Bool

  /// More than one class is plausible, or none fits well.
  public var isAmbiguous: Bool { plausible.count != 1 || isPoor }
}

/// Least squares of each class's curve against counted steps (docs/challenges.md, "Fitting").
///
/// Each class c with curve g is fitted as `count ≈ a·g(n) + b·h(n)`, where h is the lower-order term
/// that usually comes with c (`GrowthClass.lowerOrder`), a and b free (so any constant factor fits),
/// minimising relative residuals (so the small sizes weigh as much as the large ones). A class counts
/// only when its own term carries at least half the largest count. The best class has the smallest
/// error; another class whose error is within `relativeMargin` times the best (or `absoluteMargin`
/// above it) is plausible too, and then the fit is ambiguous.
public enum GrowthFitter {
  /// The class's own term must carry this share of the largest count.
  public static let minimumLeadingShare = 0.5
  /// Another class is as plausible as the best when its error is at most this many times the best's...
  public static let relativeMargin = 2.5
  /// ...or at most this much above it (two fits both within a few percent cannot be told apart).
  public static let absoluteMargin = 0.05
  /// Above this error (25 % off on average) the best class is only a guess.
  public static let poorFitError = 0.25

  public static func fit(_ points: [GrowthPoint], classes: [GrowthClass]) -> GrowthFit {
    let fits = classes.map { fitOne($0, points) }
    let candidates = fits.filter(\.explainsGrowth).sorted { $0.error < $1.error }
    guard let best = candidates.first else { return GrowthFit(fits: fits, best: nil, plausible: [], isPoor: true) }
    let bound = max(best.error * relativeMargin, best.error + absoluteMargin)
    let plausible = candidates.filter { $0.error <= bound }.map(\.growthClass)
    return GrowthFit(fits: fits, best: best.growthClass, plausible: plausible, isPoor: best.error > poorFitError)
  }

  /// One class's two-term fit, in scaled columns so that 2^n at n = 1024 and log n share one solve.
  static func fitOne(_ growthClass: GrowthClass, _ points: [GrowthPoint]) -> GrowthClassFit {
    guard !points.isEmpty else { return GrowthClassFit(growthClass: growthClass, error: .infinity, leadingShare: 0) }
    // Dividing by the count makes the residuals relative; a count of 0 is taken as 1.
    let weightsLog = points.map { -log2(max($0.count, 1)) }
    let targets = points.map { $0.count / max($0.count, 1) }
    func column(_ curve: GrowthClass) -> [Double] {
      let logs = zip(points, weightsLog).map { curve.log2Curve(n: Double($0.n), m: Double($0.m ?? 0)) + $1 }
      let top = logs.max() ?? 0
      return logs.map { exp2($0 - top) }
    }
    let own = column(growthClass)
    var coefficients: [Double]
    var columns = [own]
    if let lower = growthClass.lowerOrder {
      let companion = column(lower)
      columns.append(companion)
      coefficients = solve2(own, companion, targets) ?? [solve1(own, targets), 0]
    } else {
      coefficients = [solve1(own, targets)]
    }
    if !coefficients.allSatisfy(\.isFinite) { coefficients = [solve1(own, targets)] + [0] }
    var squares = 0.0
    for index in points.indices {
      var predicted = 0.0
      for (coefficient, values) in zip(coefficients, columns) { predicted += coefficient * values[index] }
      squares += (targets[index] - predicted) * (targets[index] - predicted)
    }
    let error = (squares / Double(points.count)).squareRoot()
    // The largest size's point: how much of its count the class's own term carries.
    let last = points.indices.max { points[$0].n < points[$1].n }!
    let share = targets[last] > 0 ? coefficients[0] * own[last] / targets[last] : 0
    return GrowthClassFit(growthClass: growthClass, error: error, leadingShare: share)
  }

  private static func solve1(_ u: [Double], _ b: [Double]) -> Double {
    let uu = zip(u, u).reduce(0) { $0 + $1.0 * $1.1 }
    return uu > 0 ? zip(u, b).reduce(0) { $0 + $1.0 * $1.1 } / uu : 0
  }

  /// The normal equations of two columns; nil when they are (nearly) the same direction.
  private static func solve2(_ u: [Double], _ v: [Double], _ b: [Double]) -> [Double]? {
    func dot(_ x: [Double], _ y: [Double]) -> Double { zip(x, y).reduce(0) { $0 + $1.0 * $1.1 } }
    let (uu, uv, vv) = (dot(u, u), dot(u, v), dot(v, v))
    let (ub, vb) = (dot(u, b), dot(v, b))
    let determinant = uu * vv - uv * uv
    guard determinant > 1e-9 * uu * vv else { return nil }
    return [(ub * vv - vb * uv) / determinant, (uu * vb - uv * ub) / determinant]
  }
}

/// What a growth fit means for a challenge that allows some classes.
public struct GrowthJudgement: Sendable, Hashable {
  public var verdict: Verdict
  /// The fit could not tell an allowed class from another one (or fits poorly): never a rejection.
  public var isAmbiguous: Bool
  /// The best-fitting class, named as the challenge allows it when the two coincide on these points
  /// (n and n + m); nil when no class explains the counts.
  public var growthClass: GrowthClass?
  /// For the learner, naming the classes and two measured points.
  public var message: String
}

extension GrowthFit {
  /// Accepted when the plausible classes include an allowed one (ambiguously so when they also
  /// include another, or the fit is poor); wrong answer only when a clear fit names no allowed
  /// class. `counted` names what was counted ("compare steps").
  public func judge(allowed: [GrowthClass], points: [GrowthPoint], counted: String) -> GrowthJudgement {
    let sorted = points.sorted { $0.n < $1.n }
    let asked = allowed.map(\.bigO).joined(separator: " or ")
    let evidence = Self.evidence(sorted, counted: counted)
    if sorted.allSatisfy({ $0.count == 0 }) {
      return GrowthJudgement(
        verdict: .wrongAnswer, isAmbiguous: false, growthClass: nil,
        message: "Your program printed no \(counted) at any size, so its growth cannot be measured.")
    }
    guard let best else {
      return GrowthJudgement(
        verdict: .accepted, isAmbiguous: true, growthClass: nil,
        message:
          "\(evidence): no class fits these counts, so the growth is not judged (the challenge asks for \(asked)).")
    }
    // A class whose curve is another's times a constant on these points (n and n + m when every
    // graph has m = k·n) is the same answer: allowing one allows both.
    func isAllowed(_ growthClass: GrowthClass) -> Bool {
      allowed.contains { $0 == growthClass || Self.coincide($0, growthClass, on: sorted) }
    }
    let allowedPlausible = plausible.filter(isAllowed)
    if !allowedPlausible.isEmpty {
      if allowedPlausible.count == plausible.count, !isPoor {
        let named = allowed.first { $0 == best || Self.coincide($0, best, on: sorted) } ?? best
        return GrowthJudgement(
          verdict: .accepted, isAmbiguous: false, growthClass: named,
          message: "\(evidence): that grows like \(named.bigO).")
      }
      let names = plausible.map(\.bigO).joined(separator: " or ")
      let why =
        isPoor && plausible.count == 1
        ? "which fits \(best.bigO) only loosely" : "which fits \(names) about equally well"
      return GrowthJudgement(
        verdict: .accepted, isAmbiguous: true, growthClass: best,
        message: "\(evidence), \(why); the sizes tried cannot tell them apart, so it is not rejected.")
    }
    if isPoor {
      return GrowthJudgement(
        verdict: .accepted, isAmbiguous: true, growthClass: best,
        message:
          "\(evidence): that is closest to \(best.bigO), but no class fits clearly, so it is not rejected "
          + "(the challenge asks for \(asked)).")
    }
    return GrowthJudgement(
      verdict: .wrongAnswer, isAmbiguous: false, growthClass: best,
      message: "\(evidence): that grows like \(best.bigO), and this challenge asks for \(asked).")
  }

  /// Whether two classes' curves differ only by a constant factor (within 10 %) on these points.
  static func coincide(_ first: GrowthClass, _ second: GrowthClass, on points: [GrowthPoint]) -> Bool {
    let differences = points.map {
      first.log2Curve(n: Double($0.n), m: Double($0.m ?? 0)) - second.log2Curve(n: Double($0.n), m: Double($0.m ?? 0))
    }
    guard let low = differences.min(), let high = differences.max() else { return false }
    return high - low <= log2(1.1)
  }

  /// "Your program made 4,950 compare steps for n = 100 and 19,900 for n = 200": the two largest sizes.
  static func evidence(_ sorted: [GrowthPoint], counted: String) -> String {
    let shown = Array(sorted.suffix(2))
    func size(_ point: GrowthPoint) -> String { point.m.map { "n = \(point.n), m = \($0)" } ?? "n = \(point.n)" }
    guard shown.count == 2 else {
      return shown.first.map { "Your program made \(grouped($0.count)) \(counted) for \(size($0))" } ?? "Your program"
    }
    return
      "Your program made \(grouped(shown[0].count)) \(counted) for \(size(shown[0])) and \(grouped(shown[1].count)) "
      + "for \(size(shown[1]))"
  }

  /// 19900 -> "19,900".
  public static func grouped(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
    var digits = String(Int(value.rounded()))
    var result = ""
    while digits.count > 3 {
      result = "," + digits.suffix(3) + result
      digits.removeLast(3)
    }
    return digits + result
  }
}
