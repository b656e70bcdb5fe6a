import Challenges
import Foundation
import Grading
import Sandbox
import Wire

/// The grade result's JSON (DESIGN §5), shared by the CLI's `--challenge --json` and `POST /v1/grade`:
///
/// ```json
/// {"challenge": "insertion-sort", "language": "python", "version": "3.11.2",
///  "verdict": "wrong_answer", "score": 0.4, "message": "Test 1: step 5 differs: ...",
///  "compile": null, "compile_cache": "none", "wall_ms": 180,
///  "tests": [{"name": "1", "verdict": "wrong_answer", "score": 0.4, "points": 1,
///             "cpu_ms": 10, "wall_ms": 15, "memory_kb": 9000, "message": "step 5 differs: ...",
///             "stderr": "", "first_difference": {"step": 5, "expected": {...}, "actual": {...},
///                                                "caption": "5 is larger, so shift it right."}}]}
/// ```
///
/// `compile` is an outcome object exactly as in the execute result (`ResultEncoder.outcomeValue`).
/// `first_difference` is null unless the steps checker found one; its `expected` or `actual` is null
/// when the program printed too few or too many steps.
public enum GradeEncoder {
  /// The keys of a grade result object.
  public static let gradeKeys: Set<String> = [
    "challenge", "language", "version", "verdict", "score", "message", "compile", "compile_cache", "wall_ms", "tests",
  ]
  /// The keys of each test object.
  public static let testKeys: Set<String> = [
    "name", "verdict", "score", "points", "cpu_ms", "wall_ms", "memory_kb", "message", "stderr", "first_difference",
    "hidden",
  ]

  /// The whole grade result.
  /// `exposeCompileCache` as for `ResultEncoder.executeValue`.
  public static func gradeObject(_ result: GradeResult, exposeCompileCache: Bool = true) -> [String: Any] {
    let (compile, cache) = ResultEncoder.compileCacheView(
      compile: result.compile, hit: result.compileCacheHit, expose: exposeCompileCache)
    return [
      "challenge": result.challenge,
      "language": result.language,
      "version": result.version,
      "verdict": result.verdict.rawValue,
      "score": number(result.score),
      "message": result.message,
      "compile": compile.map { foundationValue(ResultEncoder.outcomeValue($0)) } ?? NSNull(),
      "compile_cache": cache,
      "wall_ms": result.wallMilliseconds,
      "tests": result.tests.map(testObject),
    ]
  }

  /// One test's grade.
  public static func testObject(_ test: TestGrade) -> [String: Any] {
    [
      "name": test.name,
      "verdict": test.verdict.rawValue,
      "score": number(test.score),
      "points": number(test.points),
      "cpu_ms": test.cpuMilliseconds,
      "wall_ms": test.wallMilliseconds,
      "memory_kb": test.memoryKilobytes,
      "message": test.message,
      "stderr": test.stderr,
      "first_difference": test.firstDifference.map { differenceObject($0) as Any } ?? NSNull(),
      "hidden": test.hidden,
    ]
  }

  /// `{"step", "expected", "actual", "caption"}`.
  public static func differenceObject(_ difference: StepDifference) -> [String: Any] {
    [
      "step": difference.step,
      "expected": difference.expected.map(foundationValue) ?? NSNull(),
      "actual": difference.actual.map(foundationValue) ?? NSNull(),
      "caption": difference.caption,
    ]
  }

  /// A challenge as `GET /v1/challenges` and `dsa-run challenges --json` list it.
  public static func summaryObject(_ challenge: Challenge) -> [String: Any] {
    [
      "id": challenge.id,
      "title": challenge.title,
      "tags": challenge.tags,
      "tests": challenge.tests.count,
      "checker": challenge.checker.name,
      "languages": challenge.starters.keys.sorted(),
    ]
  }

  /// A challenge in full, as `GET /v1/challenges/ID` shows it to a learner: the statement, the
  /// limits (null where the runner's apply), the tests' names and points (not their data), and the
  /// starter code by language.
  public static func challengeObject(_ challenge: Challenge) -> [String: Any] {
    func limit(_ value: UInt64?) -> Any { value.map { $0 as Any } ?? NSNull() }
    return [
      "id": challenge.id,
      "title": challenge.title,
      "statement": challenge.statement,
      "tags": challenge.tags,
      "checker": challenge.checker.name,
      "limits": [
        "cpu_ms": limit(challenge.limits.cpuMilliseconds), "wall_ms": limit(challenge.limits.wallMilliseconds),
        "memory_mb": limit(challenge.limits.memoryMegabytes), "output_kb": limit(challenge.limits.outputKilobytes),
        "processes": limit(challenge.limits.processes),
      ],
      "tests": challenge.tests.map { ["name": $0.name, "points": number($0.points), "hidden": $0.hidden] },
      "starters": challenge.starters.mapValues { String(decoding: $0.contents, as: UTF8.self) },
    ]
  }

  /// A grade object read back (what `dsa-run --remote --challenge` prints from the daemon's answer);
  /// nil when it is not one. `compile` stays nil: a client prints the JSON's compile output itself.
  public static func gradeResult(_ object: [String: Any]) -> GradeResult? {
    func double(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
    func count(_ value: Any?) -> UInt64 { (value as? NSNumber).map { UInt64(max(0, $0.int64Value)) } ?? 0 }
    guard let challenge = object["challenge"] as? String, let language = object["language"] as? String,
      let verdict = (object["verdict"] as? String).flatMap(GradeVerdict.init(rawValue:)),
      let score = double(object["score"]), let items = object["tests"] as? [[String: Any]]
    else { return nil }
    var tests: [TestGrade] = []
    for item in items {
      guard let name = item["name"] as? String,
        let testVerdict = (item["verdict"] as? String).flatMap(GradeVerdict.init(rawValue:)),
        let testScore = double(item["score"]), let testPoints = double(item["points"])
      else { return nil }
      var test = TestGrade(
        name: name, verdict: testVerdict, score: testScore, points: testPoints,
        message: item["message"] as? String ?? "")
      test.cpuMilliseconds = count(item["cpu_ms"])
      test.wallMilliseconds = count(item["wall_ms"])
      test.memoryKilobytes = count(item["memory_kb"])
      test.stderr = item["stderr"] as? String ?? ""
      test.hidden = item["hidden"] as? Bool ?? false
      if let difference = item["first_difference"] as? [String: Any], let step = difference["step"] as? Int {
        test.firstDifference = StepDifference(
          step: step, expected: difference["expected"].flatMap(ResultEncoder.value).flatMap { $0 == .null ? nil : $0 },
          actual: difference["actual"].flatMap(ResultEncoder.value).flatMap { $0 == .null ? nil : $0 },
          caption: difference["caption"] as? String ?? "")
      }
      tests.append(test)
    }
    return GradeResult(
      challenge: challenge, language: language, version: object["version"] as? String ?? "", verdict: verdict,
      score: score, message: object["message"] as? String ?? "", compile: nil,
      compileCacheHit: object["compile_cache"] as? String == "hit", tests: tests,
      wallMilliseconds: count(object["wall_ms"]))
  }

  /// A JSON value as JSONSerialization writes it (integral numbers without a fraction).
  public static func foundationValue(_ value: JSONValue) -> Any {
    switch value {
    case .null: return NSNull()
    case .bool(let flag): return flag
    case .number(let number): return Self.number(number)
    case .string(let text): return text
    case .array(let items): return items.map(foundationValue)
    case .object(let fields): return fields.mapValues(foundationValue)
    }
  }

  /// Integral values as integers (so 1 prints as 1, not 1.0); non-finite values as null.
  static func number(_ value: Double) -> Any {
    guard value.isFinite else { return NSNull() }
    if value == value.rounded(), abs(value) < 1e15 { return Int(value) }
    return value
  }
}
