import Foundation
import Grading

/// The grade result's `growth` object (docs/challenges.md, "Growth"; docs/api.md):
///
/// ```json
/// {"verdict": "wrong_answer", "score": 0, "ambiguous": false, "class": "n^2", "wall_ms": 900,
///  "message": "Growth: Your program made 130,816 compare steps for n = 512 and ...",
///  "points": [{"n": 16, "m": null, "count": 120, "verdict": "accepted", "message": "", "cpu_ms": 20,
///              "wall_ms": 30}],
///  "cases": [{"name": "random", "expect": ["n log n"], "verdict": "wrong_answer", "ambiguous": false,
///             "class": "n^2", "message": "...", "points": [...],
///             "fits": [{"class": "n^2", "error": 0.002, "leading_share": 1.0}]}]}
/// ```
///
/// `class` and `points` at the top are those of the deciding case (the first that failed, else the
/// first), so a client with one case needs only them.
public enum GrowthEncoder {
  public static let growthKeys: Set<String> = [
    "verdict", "score", "weight", "message", "ambiguous", "class", "points", "cases", "wall_ms",
  ]

  public static func growthObject(_ growth: GrowthGrade) -> [String: Any] {
    let deciding = growth.deciding
    return [
      "verdict": growth.verdict.rawValue,
      "score": GradeEncoder.number(growth.score),
      "weight": GradeEncoder.number(growth.weight),
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
      "cpu_ms": point.cpuMilliseconds,
      "wall_ms": point.wallMilliseconds,
    ]
  }

  /// Rounded to 4 decimals; a non-finite value (a class that cannot be fitted) as null.
  private static func finite(_ value: Double) -> Any {
    value.isFinite ? GradeEncoder.number((value * 10_000).rounded() / 10_000) : NSNull()
  }

  /// A growth object read back (`dsa-run --remote --challenge`, a stored grade); nil when it is not
  /// one. A fit written as null (a class that cannot be fitted) reads back as not finite.
  public static func growthGrade(_ object: [String: Any]) -> GrowthGrade? {
    func verdict(_ value: Any?) -> GradeVerdict? { (value as? String).flatMap(GradeVerdict.init(rawValue:)) }
    func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
    func point(_ item: [String: Any]) -> GrowthPointGrade? {
      guard let n = item["n"] as? Int, let pointVerdict = verdict(item["verdict"]) else { return nil }
      var point = GrowthPointGrade(
        n: n, m: item["m"] as? Int, count: number(item["count"]), verdict: pointVerdict,
        message: item["message"] as? String ?? "")
      point.cpuMilliseconds = UInt64(max(0, (item["cpu_ms"] as? Int) ?? 0))
      point.wallMilliseconds = UInt64(max(0, (item["wall_ms"] as? Int) ?? 0))
      return point
    }
    func fit(_ item: [String: Any]) -> GrowthClassFit? {
      guard let growthClass = (item["class"] as? String).flatMap(GrowthClass.init(rawValue:)) else { return nil }
      return GrowthClassFit(
        growthClass: growthClass, error: number(item["error"]) ?? .infinity,
        leadingShare: number(item["leading_share"]) ?? .infinity)
    }
    guard let growthVerdict = verdict(object["verdict"]), let score = number(object["score"]),
      let items = object["cases"] as? [[String: Any]]
    else { return nil }
    var cases: [GrowthCaseGrade] = []
    for item in items {
      guard let name = item["name"] as? String, let caseVerdict = verdict(item["verdict"]),
        let pointItems = item["points"] as? [[String: Any]]
      else { return nil }
      let points = pointItems.compactMap(point)
      let fitItems = item["fits"] as? [[String: Any]] ?? []
      let fits = fitItems.compactMap(fit)
      guard points.count == pointItems.count, fits.count == fitItems.count else { return nil }
      cases.append(
        GrowthCaseGrade(
          name: name, allowed: (item["expect"] as? [String] ?? []).compactMap(GrowthClass.init(rawValue:)),
          verdict: caseVerdict, ambiguous: item["ambiguous"] as? Bool ?? false,
          growthClass: (item["class"] as? String).flatMap(GrowthClass.init(rawValue:)),
          message: item["message"] as? String ?? "", points: points, fits: fits))
    }
    return GrowthGrade(
      verdict: growthVerdict, score: score, weight: number(object["weight"]) ?? 1,
      message: object["message"] as? String ?? "", cases: cases,
      wallMilliseconds: UInt64(max(0, (object["wall_ms"] as? Int) ?? 0)))
  }
}
