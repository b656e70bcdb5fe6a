import Challenges
import Foundation
import Grading

// The growth part of a grade in text: per case a small chart of the counts, with what the asked
// class would have counted from the same start, so the difference shows at a glance.

/// Prints every growth case of a grade, then its verdict line.
func printGrowth(_ growth: GrowthGrade) {
  for growthCase in growth.cases {
    print("")
    let asked = growthCase.allowed.map(\.bigO).joined(separator: " or ")
    let named = growthCase.growthClass.map { "grows like \($0.bigO)" } ?? "no clear class"
    let ambiguous = growthCase.ambiguous ? " (ambiguous: not rejected)" : ""
    print("growth, \(growthCase.name) inputs (asks \(asked)): \(named), \(growthCase.verdict.rawValue)\(ambiguous)")
    print(growthChart(growthCase))
    if !growthCase.message.isEmpty { print(growthCase.message) }
  }
}

/// One row per size: n, the count (or why there is none), the asked class's curve scaled to the
/// first counted size, and a bar of the count against the largest count.
func growthChart(_ growthCase: GrowthCaseGrade, width: Int = 36) -> String {
  let counted = growthCase.points.filter { $0.count != nil }
  let largest = counted.compactMap(\.count).max() ?? 0
  let reference = growthCase.allowed.first
  let first = counted.first { ($0.count ?? 0) > 0 }
  func curve(_ point: GrowthPointGrade) -> String {
    guard let reference, let first, let start = first.count else { return "" }
    let log = { (p: GrowthPointGrade) in reference.log2Value(n: Double(p.n), m: Double(p.m ?? 0)) }
    let value = start * exp2(log(point) - log(first))
    return value.isFinite && value < 1e15 ? GrowthFit.grouped(value) : "huge"
  }
  let header =
    "n".leftPadded(8) + "  " + "count".leftPadded(12) + "  " + (reference.map { $0.bigO } ?? "").leftPadded(12) + "  "
  var lines = [header]
  for point in growthCase.points {
    var line = String(point.n).leftPadded(8) + "  "
    guard let count = point.count else {
      lines.append(line + point.verdict.rawValue.leftPadded(12))
      continue
    }
    line += GrowthFit.grouped(count).leftPadded(12) + "  " + curve(point).leftPadded(12) + "  "
    let bar = largest > 0 ? Int((count / largest * Double(width)).rounded()) : 0
    lines.append(line + String(repeating: "#", count: bar))
  }
  return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
