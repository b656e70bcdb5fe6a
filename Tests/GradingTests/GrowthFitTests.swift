import Foundation
import Testing

@testable import Grading

/// Synthetic counts of every class: the fitter must name the class, clearly, however it is scaled
/// and whatever lower-order term rides along; and at sizes too small to tell n from n log n it must
/// say so instead of rejecting.
@Suite struct GrowthFitTests {
  static let sizes = [16, 32, 64, 128, 256, 512, 1024]
  /// 2^n is only countable at small n.
  static let exponentialSizes = [4, 6, 8, 10, 12, 14, 16]

  /// A class, its curve and a lower-order term of the kind real counts carry.
  struct Shape: Sendable, CustomStringConvertible {
    var growthClass: GrowthClass
    var curve: @Sendable (Double, Double) -> Double
    var lowerOrder: @Sendable (Double, Double) -> Double
    var description: String { growthClass.rawValue }
  }

  static let shapes: [Shape] = [
    Shape(growthClass: .constant, curve: { _, _ in 4 }, lowerOrder: { _, _ in 0 }),
    Shape(growthClass: .logarithmic, curve: { n, _ in log2(n) }, lowerOrder: { _, _ in 1 }),
    Shape(growthClass: .linear, curve: { n, _ in n }, lowerOrder: { n, _ in 3 * log2(n) + 5 }),
    Shape(growthClass: .nodesPlusEdges, curve: { n, m in n + m }, lowerOrder: { _, _ in 4 }),
    Shape(growthClass: .linearithmic, curve: { n, _ in n * log2(n) }, lowerOrder: { n, _ in -n + 1 }),
    Shape(growthClass: .quadratic, curve: { n, _ in n * n }, lowerOrder: { n, _ in -n / 2 }),
    Shape(growthClass: .cubic, curve: { n, _ in n * n * n }, lowerOrder: { n, _ in 3 * n * n }),
    Shape(growthClass: .exponential, curve: { n, _ in pow(2, n) }, lowerOrder: { n, _ in n * n }),
  ]

  /// Graph points whose edge counts are not proportional to n, so n + m is its own curve.
  static func points(
    _ shape: Shape, factor: Double, withLowerOrder: Bool, sizes given: [Int]? = nil
  ) -> [GrowthPoint] {
    let sizes = given ?? (shape.growthClass == .exponential ? exponentialSizes : Self.sizes)
    return sizes.enumerated().map { index, size in
      let n = Double(size)
      let m = shape.growthClass == .nodesPlusEdges ? n * Double(1 + (index * 5) % 7) : 0
      let count = factor * shape.curve(n, m) + (withLowerOrder ? shape.lowerOrder(n, m) : 0)
      return GrowthPoint(n: size, m: shape.growthClass == .nodesPlusEdges ? Int(m) : nil, count: count.rounded())
    }
  }

  static func classes(for shape: Shape) -> [GrowthClass] {
    shape.growthClass == .nodesPlusEdges ? GrowthClass.allCases : GrowthClass.withoutEdges
  }

  @Test(arguments: shapes)
  func noiseFreeCountsNameTheirClassClearly(_ shape: Shape) {
    // Counts are whole numbers, so a constant's or a logarithm's curve needs a factor to be more than 1.
    let fit = GrowthFitter.fit(Self.points(shape, factor: 1, withLowerOrder: false), classes: Self.classes(for: shape))
    #expect(fit.best == shape.growthClass, "\(fit.fits)")
    #expect(fit.plausible == [shape.growthClass], "\(fit.fits)")
    #expect(!fit.isAmbiguous)
  }

  @Test(arguments: shapes, [0.25, 7, 1000])
  func aConstantFactorChangesNothing(_ shape: Shape, factor: Double) {
    let fit = GrowthFitter.fit(
      Self.points(shape, factor: factor, withLowerOrder: false), classes: Self.classes(for: shape))
    #expect(fit.best == shape.growthClass, "\(fit.fits)")
    #expect(!fit.isAmbiguous, "\(fit.fits)")
  }

  @Test(arguments: shapes)
  func lowerOrderTermsDoNotMoveTheClass(_ shape: Shape) {
    let fit = GrowthFitter.fit(Self.points(shape, factor: 2, withLowerOrder: true), classes: Self.classes(for: shape))
    #expect(fit.best == shape.growthClass, "\(fit.fits)")
    #expect(!fit.isAmbiguous, "\(fit.fits)")
  }

  @Test func aHeavyLowerOrderTermAtSmallSizesStillNamesTheLeadingClass() {
    // At n = 16 the 100·n term is six times n²; by 1024 it is a tenth. A one-term fit calls this
    // n log n; the fitted lower-order term keeps it n².
    let points = Self.sizes.map { GrowthPoint(n: $0, count: Double($0 * $0 + 100 * $0)) }
    let fit = GrowthFitter.fit(points, classes: GrowthClass.withoutEdges)
    #expect(fit.best == .quadratic, "\(fit.fits)")
    #expect(fit.judge(allowed: [.linearithmic], points: points, counted: "steps").verdict == .wrongAnswer)
  }

  @Test func realCountsOfTheSampleAlgorithms() {
    // Merge sort's worst-case compares, insertion sort's on reversed and on sorted input, binary
    // search's probes for a target above every item.
    let mergeSort = Self.sizes.map { GrowthPoint(n: $0, count: Double($0) * log2(Double($0)) - Double($0) + 1) }
    #expect(GrowthFitter.fit(mergeSort, classes: GrowthClass.withoutEdges).best == .linearithmic)
    let small = [8, 12, 16, 24, 32, 48, 64]
    let reversed = small.map { GrowthPoint(n: $0, count: Double($0 * ($0 - 1) / 2)) }
    #expect(GrowthFitter.fit(reversed, classes: GrowthClass.withoutEdges).plausible == [.quadratic])
    let sorted = small.map { GrowthPoint(n: $0, count: Double($0 - 1)) }
    #expect(GrowthFitter.fit(sorted, classes: GrowthClass.withoutEdges).plausible == [.linear])
    let probes = Self.sizes.map { GrowthPoint(n: $0, count: floor(log2(Double($0))) + 1) }
    #expect(GrowthFitter.fit(probes, classes: GrowthClass.withoutEdges).plausible == [.logarithmic])
  }

  @Test func nLogNAgainstNAtSmallSizesIsAmbiguousNeverWrong() {
    let points = [4, 8, 16].map { GrowthPoint(n: $0, count: Double($0) * log2(Double($0))) }
    let fit = GrowthFitter.fit(points, classes: GrowthClass.withoutEdges)
    #expect(fit.isAmbiguous)
    #expect(Set(fit.plausible).isSuperset(of: [.linear, .linearithmic]), "\(fit.fits)")
    for allowed in [[GrowthClass.linear], [.linearithmic]] {
      let judgement = fit.judge(allowed: allowed, points: points, counted: "compare steps")
      #expect(judgement.verdict == .accepted, "\(judgement.message)")
      #expect(judgement.isAmbiguous)
      #expect(judgement.message.contains("O(n) or O(n log n)") || judgement.message.contains("O(n log n) or O(n)"))
      #expect(judgement.message.contains("not rejected"))
    }
  }

  @Test func aClearWrongClassNamesBothClassesAndTwoPoints() {
    let points = [100, 200, 400, 800].map { GrowthPoint(n: $0, count: Double($0 * ($0 - 1) / 2)) }
    let fit = GrowthFitter.fit(points, classes: GrowthClass.withoutEdges)
    let judgement = fit.judge(allowed: [.linearithmic], points: points, counted: "compare steps")
    #expect(judgement.verdict == .wrongAnswer)
    #expect(judgement.growthClass == .quadratic)
    #expect(
      judgement.message
        == "Your program made 79,800 compare steps for n = 400 and 319,600 for n = 800: that grows like O(n^2), "
        + "and this challenge asks for O(n log n).")
  }

  @Test func nAndNPlusMCoincideWhenEdgesAreProportional() {
    let points = Self.sizes.map { GrowthPoint(n: $0, m: 2 * $0, count: Double(3 * $0 + 5)) }
    let fit = GrowthFitter.fit(points, classes: GrowthClass.allCases)
    let judgement = fit.judge(allowed: [.nodesPlusEdges], points: points, counted: "edge checks")
    #expect(judgement.verdict == .accepted)
    #expect(!judgement.isAmbiguous, "\(judgement.message)")
    #expect(judgement.growthClass == .nodesPlusEdges)
    let quadratic = Self.sizes.map { GrowthPoint(n: $0, m: 2 * $0, count: Double($0 * $0)) }
    let slow = GrowthFitter.fit(quadratic, classes: GrowthClass.allCases)
      .judge(allowed: [.nodesPlusEdges], points: quadratic, counted: "edge checks")
    #expect(slow.verdict == .wrongAnswer)
    #expect(slow.message.contains("n = 1024, m = 2048"))
  }

  @Test func countsOfNothingAreWrongNotAmbiguous() {
    let points = Self.sizes.map { GrowthPoint(n: $0, count: 0) }
    let judgement = GrowthFitter.fit(points, classes: GrowthClass.withoutEdges)
      .judge(allowed: [.linear], points: points, counted: "compare steps")
    #expect(judgement.verdict == .wrongAnswer)
    #expect(judgement.message.contains("no compare steps"))
  }

  @Test func aGrowthBetweenClassesIsNotRejected() {
    // n^1.5 lies between n log n and n²: neither is clear, so an n log n challenge does not reject it.
    let points = Self.sizes.map { GrowthPoint(n: $0, count: pow(Double($0), 1.5).rounded()) }
    let fit = GrowthFitter.fit(points, classes: GrowthClass.withoutEdges)
    #expect(fit.isAmbiguous, "\(fit.fits)")
    #expect(fit.judge(allowed: [.linearithmic], points: points, counted: "steps").verdict == .accepted)
  }

  @Test func numbersAreGroupedForLearners() {
    #expect(GrowthFit.grouped(19_900) == "19,900")
    #expect(GrowthFit.grouped(1_000_000) == "1,000,000")
    #expect(GrowthFit.grouped(999) == "999")
  }
}
