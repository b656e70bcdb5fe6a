import Challenges
import Foundation
import Grading

/// The grade result's `growth` object (docs/challenges.md, "Growth"; docs/api.md):
///
/// ```json
/// {"verdict": "wrong_answer", "score": 0, "ambiguous": false, "class": "n^2", "wall_ms": 900,
///  "message": "Growth: Your program made 130,816 compare steps for n = 512 and ...",
///  "points": [{"n": 16, "m": null, "count": 120, "verdict": "accepted", "message": "", "wall_ms": 30}],
///  "cases": [{"name": "random", "expect": ["n log n"], "verdict": "wrong_answer", "ambiguous": false,
///             "class": "n^2", "message": "...", "points": [...],
///             "fits": [{"class": "n^2", "error": 0.002, "leading_share": 1.0}]}]}
/// ```
///
/// `class` and `points` at the top are those of the deciding case (the first that failed, else the
/// first), so a client with one case needs only them.
public enum GrowthEncoder {
  public static let growthKeys: Set<String> = [
    "verdict", "score", "message", "ambiguous", "class", "points", "cases", "wall_ms",
  ]

  public static func growthObject(_ growth: GrowthGrade) -> [String: Any] {
    let deciding = growth.deciding
    return [
      "verdict": growth.verdict.rawValue,
      "score": GradeEncoder.number(growth.score),
      "message": growth.message,
      "ambiguous": deciding?.ambiguous ?? false,
      "class": deciding?.growthClass.map { $0.rawValue as Any } ?? NSNull(),
      "points": (deciding?.points ?? []).map(pointObject),
      "cases": growth.cases.map(caseObject),
      "wall_ms": growth.wallMilliseconds,
    ]
  }

  static func caseObject(_ grade: GrowthCaseGrade) -> [String: Any] {
    [
      "name": grade.name,
      "expect": grade.allowed.map(\.rawValue),
      "verdict": grade.verdict.rawValue,
      "ambiguous": grade.ambiguous,
      "class": grade.growthClass.map { $0.rawValue as Any } ?? NSNull(),
      "message": grade.message,
      "points": grade.points.map(pointObject),
      "fits": grade.fits.map {
        [
          "class": $0.growthClass.rawValue, "error": finite($0.error), "leading_share": finite($0.leadingShare),
        ] as [String: Any]
      },
    ]
  }

  static func pointObject(_ point: GrowthPointGrade) -> [String: Any] {
    [
      "n": point.n,
      "m": point.m.map { $0 as Any } ?? NSNull(),
      "count": point.count.map(GradeEncoder.number) ?? NSNull(),
      "verdict": point.verdict.rawValue,
      "message": point.message,
      "wall_ms": point.wallMilliseconds,
    ]
  }

  /// Rounded to 4 decimals; a non-finite value (a class that cannot be fitted) as null.
  private static func finite(_ value: Double) -> Any {
    value.isFinite ? GradeEncoder.number((value * 10_000).rounded() / 10_000) : NSNull()
  }
}
