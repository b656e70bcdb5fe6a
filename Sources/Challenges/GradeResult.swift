import Foundation
import Grading
import Sandbox
import Wire

/// A test's or a whole grade's verdict (DESIGN §4), as JSON words.
public enum GradeVerdict: String, Sendable, Hashable, CaseIterable {
  case accepted
  case wrongAnswer = "wrong_answer"
  /// The whole grade only: the program did not compile (tests are then `skipped`).
  case compileError = "compile_error"
  case runtimeError = "runtime_error"
  case timeLimit = "time_limit"
  case memoryLimit = "memory_limit"
  case outputLimit = "output_limit"
  case forbidden
  /// The sandbox or the challenge failed (a checker that crashed, a recorder that cannot read the
  /// test): never the learner's fault.
  case internalError = "internal_error"
  /// Tests only: not run (an earlier test failed with stop-at-first-failure, the program did not
  /// compile, or the grading time bound passed before the test could start).
  case skipped

  /// The verdict a run's status gives before any checking (`ok` has none: the checker decides).
  init?(runStatus status: Status) {
    switch status {
    case .ok: return nil
    case .compileError: self = .compileError
    case .runtimeError: self = .runtimeError
    case .timeLimit: self = .timeLimit
    case .memoryLimit: self = .memoryLimit
    case .outputLimit: self = .outputLimit
    case .forbidden: self = .forbidden
    case .internalError: self = .internalError
    }
  }
}

/// One test's grade.
public struct TestGrade: Sendable {
  public var name: String
  public var verdict: GradeVerdict
  /// From 0 to 1 (partial credit from the steps checker or a custom checker's exit code 7).
  public var score: Double
  /// The test's weight in the challenge.
  public var points: Double
  /// The run's figures; 0 for a skipped test, and for a hidden test, which has `coarse` instead.
  public var cpuMilliseconds: UInt64 = 0
  public var wallMilliseconds: UInt64 = 0
  public var memoryKilobytes: UInt64 = 0
  /// For the learner: empty when accepted, else what went wrong in plain words.
  public var message: String
  /// Where the steps first differ (steps checker only).
  public var firstDifference: StepDifference?
  /// The end of the program's stderr (at most `Grader.stderrExcerptBytes`), for tracebacks.
  public var stderr: String = ""
  /// The test is hidden: the grade was redacted (`redactedForHiddenTest`).
  public var hidden = false
  /// A hidden test's time and memory in buckets, in place of the exact figures.
  public var coarse: CoarseFigures?
  /// For `Grader.verify` and the operator, never for the learner (no encoder writes it): the number
  /// of a hidden test's first differing step, which its redacted `firstDifference` leaves out.
  public var operatorDifferenceStep: Int?
  /// For the operator's log, never for the learner (no encoder writes it): the whole error behind
  /// an `internal_error`, which may name host paths.
  public var operatorDetail = ""
  /// The start of the program's stdout (at most `Grader.stdoutExcerptBytes`), for the CLI's
  /// expected-versus-yours report; not part of the grade object.
  public var stdout: String = ""
  /// What the learner may see of a visible test that did not pass: nil for a hidden, accepted,
  /// skipped or internal-error test.
  public var details: FailureDetails?
  /// An interactive test's dialogue (`InteractionTranscript`); nil for other tests, and never in a
  /// hidden test's grade.
  public var transcript: InteractionTranscript?

  public init(name: String, verdict: GradeVerdict, score: Double, points: Double, message: String) {
    self.name = name
    self.verdict = verdict
    self.score = score
    self.points = points
    self.message = message
  }
}

/// A visible failed test's data (docs/api.md, "Grade result"), so every client can show what the
/// CLI shows: the test's input, the expected output when one text is the answer, the program's
/// ordinary output, and the last step that still matched the expected ones.
public struct FailureDetails: Sendable, Equatable {
  /// The test's stdin, at most `Grader.detailsInputBytes`; the outputs at most
  /// `Grader.detailsOutputBytes` each.
  public var input: String
  public var inputTruncated: Bool
  /// nil when the checker accepts more than one text (`unordered`, `floats`, `yes_no`, a checker
  /// program) or the test has no expected output: a diff against one of many answers misleads.
  public var expectedOutput: String?
  public var expectedOutputTruncated: Bool
  /// The program's stdout without step lines (and growth count lines).
  public var output: String
  public var outputTruncated: Bool
  /// The program's step before its first differing one, on the compared fields: nil unless the
  /// steps differ after at least one matched.
  public var lastMatchingStep: JSONValue?

  public init(
    input: String, inputTruncated: Bool, expectedOutput: String?, expectedOutputTruncated: Bool, output: String,
    outputTruncated: Bool, lastMatchingStep: JSONValue?
  ) {
    self.input = input
    self.inputTruncated = inputTruncated
    self.expectedOutput = expectedOutput
    self.expectedOutputTruncated = expectedOutputTruncated
    self.output = output
    self.outputTruncated = outputTruncated
    self.lastMatchingStep = lastMatchingStep
  }

  /// A failed test's details: its input, the expected output when `challenge` has one right output,
  /// and `output` (what the program printed, without step and count lines), each cut to its bound.
  init(_ test: ChallengeTest, output: String, challenge: Challenge, lastMatchingStep: JSONValue?) {
    let input = Self.prefix(test.stdin, limit: Grader.detailsInputBytes)
    let expected =
      challenge.hasOneRightOutput
      ? test.expectedStdout.map { Self.prefix(Data($0.utf8), limit: Grader.detailsOutputBytes) } : nil
    let shown = Self.prefix(Data(output.utf8), limit: Grader.detailsOutputBytes)
    self.init(
      input: input.text, inputTruncated: input.truncated, expectedOutput: expected?.text,
      expectedOutputTruncated: expected?.truncated ?? false, output: shown.text, outputTruncated: shown.truncated,
      lastMatchingStep: lastMatchingStep)
  }

  /// At most `limit` bytes of `data` as text, cut before a character rather than inside one, and
  /// whether anything was cut.
  static func prefix(_ data: Data, limit: Int) -> (text: String, truncated: Bool) {
    guard data.count > limit else { return (String(decoding: data, as: UTF8.self), false) }
    var end = data.startIndex + limit
    // A UTF-8 continuation byte (10xxxxxx) belongs to the character that starts before it.
    while end > data.startIndex, data[end] & 0xC0 == 0x80 { end -= 1 }
    return (String(decoding: data[data.startIndex..<end], as: UTF8.self), true)
  }
}

/// A hidden test's time and memory, in buckets (docs/challenges.md, "Hidden tests"): a program can
/// spend time or memory on purpose to tell its input, so a hidden test shows a few values at most.
public struct CoarseFigures: Sendable, Hashable {
  /// "under 0.1 s", "under 1 s", "under 10 s" or "10 s or more": of the larger of its CPU and wall time.
  public var time: String
  /// "under 16 MiB", "under 64 MiB", "under 256 MiB", "under 1 GiB" or "1 GiB or more".
  public var memory: String

  public init(time: String, memory: String) {
    self.time = time
    self.memory = memory
  }

  /// The buckets of a run's figures.
  public init(cpuMilliseconds: UInt64, wallMilliseconds: UInt64, memoryKilobytes: UInt64) {
    time = Self.time(milliseconds: max(cpuMilliseconds, wallMilliseconds))
    memory = Self.memory(kilobytes: memoryKilobytes)
  }

  /// The upper bounds of the time buckets, in ms, and their names.
  public static let timeBuckets: [(below: UInt64, name: String)] = [
    (100, "under 0.1 s"), (1000, "under 1 s"), (10_000, "under 10 s"),
  ]
  public static let longestTime = "10 s or more"
  /// The upper bounds of the memory buckets, in KiB, and their names.
  public static let memoryBuckets: [(below: UInt64, name: String)] = [
    (16 << 10, "under 16 MiB"), (64 << 10, "under 64 MiB"), (256 << 10, "under 256 MiB"), (1 << 20, "under 1 GiB"),
  ]
  public static let largestMemory = "1 GiB or more"

  public static func time(milliseconds: UInt64) -> String {
    timeBuckets.first { milliseconds < $0.below }?.name ?? longestTime
  }

  public static func memory(kilobytes: UInt64) -> String {
    memoryBuckets.first { kilobytes < $0.below }?.name ?? largestMemory
  }
}

extension TestGrade {
  /// A hidden test's partial score is rounded down to a multiple of this: the exact share of
  /// matched steps (or a custom checker's score) would tell where a guess of the data went wrong.
  public static let hiddenScoreStep = 0.25

  /// What a hidden test's grade may say: its verdict, a score rounded down to a quarter, its time
  /// and memory in buckets, a fixed sentence for the verdict, and for steps the expected step's
  /// kind and data-free caption and, in general terms, how the steps part. Everything else can
  /// carry the test's data: the stderr tail (a program can echo its stdin), a checker's message
  /// (it names the expected token), the expected and actual step fields, the step's own caption
  /// (a recorder's names the values it compares), the step's number and the exact score (how far a
  /// guess of the data got), the exact figures (a program can spend time or memory to tell a
  /// value), an exit code.
  public func redactedForHiddenTest() -> TestGrade {
    let rounded =
      verdict == .accepted
      ? score : (score / Self.hiddenScoreStep).rounded(.down) * Self.hiddenScoreStep
    var redacted = TestGrade(name: name, verdict: verdict, score: rounded, points: points, message: "")
    redacted.hidden = true
    redacted.operatorDetail = operatorDetail
    redacted.operatorDifferenceStep = firstDifference?.step ?? operatorDifferenceStep
    redacted.coarse =
      coarse
      ?? CoarseFigures(
        cpuMilliseconds: cpuMilliseconds, wallMilliseconds: wallMilliseconds, memoryKilobytes: memoryKilobytes)
    if let difference = firstDifference {
      redacted.firstDifference = StepDifference(
        step: nil, expected: nil, actual: nil, caption: difference.genericCaption, kind: difference.kind,
        genericCaption: difference.genericCaption, problem: difference.problem,
        differingFields: difference.differingFields)
    }
    switch verdict {
    case .accepted: redacted.message = ""
    case .wrongAnswer:
      redacted.message = redacted.firstDifference.map(Self.hiddenStepSentence) ?? "Wrong answer on a hidden test."
    case .compileError: redacted.message = message
    case .runtimeError: redacted.message = "The program failed on a hidden test (runtime error)."
    case .timeLimit: redacted.message = "The program went over the time limit on a hidden test."
    case .memoryLimit: redacted.message = "The program went over the memory limit on a hidden test."
    case .outputLimit: redacted.message = "The program went over the output limit on a hidden test."
    case .forbidden: redacted.message = "The program made a forbidden system call on a hidden test."
    case .internalError: redacted.message = "Grading failed on a hidden test, which is not your fault."
    // Fixed sentences of the grader's own.
    case .skipped: redacted.message = message
    }
    return redacted
  }

  /// How a hidden test's steps part, in general terms: the expected step's kind, the names of the
  /// compared fields that differ (the challenge's option), and its data-free caption.
  static func hiddenStepSentence(_ difference: StepDifference) -> String {
    let start = "Wrong answer on a hidden test: "
    switch difference.problem {
    case .differs:
      let fields = difference.differingFields
      let named =
        fields.isEmpty
        ? "" : " (its \(listed(fields)) \(fields.count == 1 ? "differs" : "differ"))"
      return start + "your steps first differ from the expected ones at \(difference.kind)\(named). "
        + "Expected step: \(difference.genericCaption)"
    case .missing:
      return start + "your program stopped printing steps too early; the next expected step is "
        + "\(difference.kind). Expected step: \(difference.genericCaption)"
    case .extra:
      return start + "your program printed more steps than expected. \(difference.genericCaption)"
    }
  }

  /// "action, active and array".
  private static func listed(_ names: [String]) -> String {
    guard let last = names.last, names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + last
  }
}

/// A whole grade: the compile step and every test, in the challenge's test order.
public struct GradeResult: Sendable {
  /// The challenge's id.
  public var challenge: String
  public var language: String
  public var version: String
  /// The first test verdict (in file order) that is neither `accepted` nor `skipped`;
  /// `compile_error` when compiling failed; `time_limit` when only the total time bound skipped
  /// tests; `accepted` when every test was.
  public var verdict: GradeVerdict
  /// The weighted score, 0 to 1: the sum of points x test score over the total points.
  public var score: Double
  /// One line for the learner ("test reversed: step 5 differs..."); empty when accepted.
  public var message: String
  /// The compile step; nil for interpreted languages and compile-cache hits.
  public var compile: Outcome?
  public var compileCacheHit: Bool
  public var tests: [TestGrade]
  /// Wall time of the whole grade, compile included.
  public var wallMilliseconds: UInt64
  /// The `growth` section's grade; nil when the challenge has none or it was not run.
  public var growth: GrowthGrade? = nil

  public init(
    challenge: String, language: String, version: String, verdict: GradeVerdict, score: Double, message: String,
    compile: Outcome?, compileCacheHit: Bool, tests: [TestGrade], wallMilliseconds: UInt64
  ) {
    self.challenge = challenge
    self.language = language
    self.version = version
    self.verdict = verdict
    self.score = score
    self.message = message
    self.compile = compile
    self.compileCacheHit = compileCacheHit
    self.tests = tests
    self.wallMilliseconds = wallMilliseconds
  }
}
