import Foundation
import Grading
import Runners
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
/// when the program printed too few or too many steps. A hidden test (`"hidden": true`) has `time`
/// and `memory` buckets in place of `cpu_ms`, `wall_ms` and `memory_kb`, and its `first_difference`
/// is `{"kind", "caption"}` only (docs/challenges.md, "Hidden tests"). A visible test that did not
/// pass has `details` (`FailureDetails`), others `"details": null`; a hidden test has no such key.
public enum GradeEncoder {
  /// The keys of a grade result object.
  public static let gradeKeys = Set(WireGradeResult.keys)
  /// The keys a test object may have (a visible test's and a hidden test's together).
  public static let testKeys = Set(WireTestGrade.keys)
  /// The keys of a visible test's object, and of a hidden test's.
  public static let visibleTestKeys = Set(WireTestGrade.visibleKeys)
  public static let hiddenTestKeys = Set(WireTestGrade.hiddenKeys)

  /// The whole grade result, as a Foundation tree (`GradeResult.wire` is the wire form).
  /// `exposeCompileCache` as for `ResultEncoder.executeValue`.
  public static func gradeObject(_ result: GradeResult, exposeCompileCache: Bool = true) -> [String: Any] {
    foundationValue(result.wire(exposeCompileCache: exposeCompileCache).json) as? [String: Any] ?? [:]
  }

  /// One test's grade, as a Foundation tree.
  public static func testObject(_ test: TestGrade) -> [String: Any] {
    foundationValue(test.wire.json) as? [String: Any] ?? [:]
  }

  /// A challenge as `GET /v1/challenges` and `dsa-run challenges --json` list it; `topic` is null
  /// for a challenge without one (listed under `ChallengeTopics.other`).
  public static func summaryObject(_ challenge: Challenge) -> [String: Any] {
    [
      "id": challenge.id,
      "title": challenge.title,
      "topic": challenge.topic ?? NSNull(),
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
      "topic": challenge.topic ?? NSNull(),
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

extension StepDifference {
  /// The difference as the wire carries it: a redacted one (no step number) in a hidden test's
  /// form, its kind and data-free caption only.
  public var wire: WireStepDifference {
    guard let step else { return WireStepDifference(kind: kind, caption: genericCaption) }
    return WireStepDifference(step: step, expected: expected, actual: actual, caption: caption)
  }

  /// A difference read back from the wire.
  public init(wire: WireStepDifference) {
    if let step = wire.step {
      self.init(step: step, expected: wire.expected, actual: wire.actual, caption: wire.caption)
    } else {
      self.init(
        step: nil, expected: nil, actual: nil, caption: wire.caption, kind: wire.kind ?? StepKind.other.phrase,
        genericCaption: wire.caption, problem: .differs)
    }
  }
}

extension TestGrade {
  /// The test's grade as the wire carries it.
  public var wire: WireTestGrade {
    WireTestGrade(
      name: name, verdict: verdict.rawValue, score: score, points: points, cpuMilliseconds: cpuMilliseconds,
      wallMilliseconds: wallMilliseconds, memoryKilobytes: memoryKilobytes, message: message, stderr: stderr,
      firstDifference: firstDifference?.wire, hidden: hidden,
      coarse: coarse.map { WireCoarseFigures(time: $0.time, memory: $0.memory) },
      details: hidden ? nil : details?.wire, transcript: hidden ? nil : transcript?.wire)
  }

  /// A test's grade read back from the wire (what `dsa-run --remote --challenge` prints); nil for a
  /// verdict this build does not know.
  public init?(wire: WireTestGrade) {
    guard let verdict = GradeVerdict(rawValue: wire.verdict) else { return nil }
    self.init(name: wire.name, verdict: verdict, score: wire.score, points: wire.points, message: wire.message)
    cpuMilliseconds = wire.cpuMilliseconds
    wallMilliseconds = wire.wallMilliseconds
    memoryKilobytes = wire.memoryKilobytes
    stderr = wire.stderr
    hidden = wire.hidden
    coarse = wire.coarse.map { CoarseFigures(time: $0.time, memory: $0.memory) }
    firstDifference = wire.firstDifference.map(StepDifference.init(wire:))
    details = wire.details.map(FailureDetails.init(wire:))
    transcript = wire.transcript.map(InteractionTranscript.init(wire:))
  }
}

extension InteractionTranscript {
  public var wire: WireTranscript {
    WireTranscript(
      turns: turns.map { WireTranscript.Turn(from: $0.from.rawValue, text: $0.text) }, truncated: truncated)
  }

  /// A transcript read back from the wire; a side this build does not know reads as the program's.
  public init(wire: WireTranscript) {
    self.init(
      turns: wire.turns.map { Turn(from: InteractionSide(rawValue: $0.from) ?? .program, text: $0.text) },
      truncated: wire.truncated)
  }
}

extension FailureDetails {
  public var wire: WireTestDetails {
    WireTestDetails(
      input: input, inputTruncated: inputTruncated, expectedOutput: expectedOutput,
      expectedOutputTruncated: expectedOutputTruncated, output: output,
      outputTruncated: outputTruncated, lastMatchingStep: lastMatchingStep)
  }

  public init(wire: WireTestDetails) {
    self.init(
      input: wire.input, inputTruncated: wire.inputTruncated, expectedOutput: wire.expectedOutput,
      expectedOutputTruncated: wire.expectedOutputTruncated,
      output: wire.output, outputTruncated: wire.outputTruncated, lastMatchingStep: wire.lastMatchingStep)
  }
}

extension GradeResult {
  /// The grade as the wire carries it (DESIGN §5): the domain-to-wire edge of grading.
  /// `exposeCompileCache` as for `ExecuteResult.wire`.
  public func wire(exposeCompileCache: Bool = true) -> WireGradeResult {
    let (shownCompile, cache) = ResultEncoder.compileCacheView(
      compile: compile, hit: compileCacheHit, expose: exposeCompileCache)
    var result = WireGradeResult(
      challenge: challenge, language: language, version: version, verdict: verdict.rawValue, score: score,
      message: message, compile: shownCompile?.wire, compileCache: cache, wallMilliseconds: wallMilliseconds,
      tests: tests.map(\.wire))
    if let growth {
      // GrowthEncoder's object holds only JSON values, so the conversion cannot fail.
      result.growth = JSONValue(foundation: GrowthEncoder.growthObject(growth)) ?? .null
    }
    return result
  }

  /// A grade read back from the wire; nil for a verdict this build does not know. `compile` stays
  /// nil: a client prints the wire's compile outcome itself.
  public init?(wire: WireGradeResult) {
    guard let verdict = GradeVerdict(rawValue: wire.verdict) else { return nil }
    var tests: [TestGrade] = []
    for test in wire.tests {
      guard let grade = TestGrade(wire: test) else { return nil }
      tests.append(grade)
    }
    self.init(
      challenge: wire.challenge, language: wire.language, version: wire.version, verdict: verdict, score: wire.score,
      message: wire.message, compile: nil, compileCacheHit: wire.compileCache == "hit", tests: tests,
      wallMilliseconds: wire.wallMilliseconds)
    if case .object = wire.growth {
      growth = (GradeEncoder.foundationValue(wire.growth) as? [String: Any]).flatMap(GrowthEncoder.growthGrade)
    }
  }
}
