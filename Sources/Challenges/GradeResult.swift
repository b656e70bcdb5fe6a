import Foundation
import Grading
import Sandbox

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
  /// The run's figures; 0 for a skipped test.
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
  /// For the operator's log, never for the learner (no encoder writes it): the whole error behind
  /// an `internal_error`, which may name host paths.
  public var operatorDetail = ""
  /// The start of the program's stdout (at most `Grader.stdoutExcerptBytes`), for the CLI's
  /// expected-versus-yours report; not part of the grade object.
  public var stdout: String = ""

  public init(name: String, verdict: GradeVerdict, score: Double, points: Double, message: String) {
    self.name = name
    self.verdict = verdict
    self.score = score
    self.points = points
    self.message = message
  }
}

extension TestGrade {
  /// What a hidden test's grade may say: its verdict, score and figures, a fixed sentence for the
  /// verdict, and for steps the number and caption of the first differing step. Everything else can
  /// carry the test's data: the stderr tail (a program can echo its stdin), a checker's message
  /// (it names the expected token), the expected and actual step fields, an exit code.
  public func redactedForHiddenTest() -> TestGrade {
    var redacted = TestGrade(name: name, verdict: verdict, score: score, points: points, message: "")
    redacted.hidden = true
    redacted.operatorDetail = operatorDetail
    redacted.cpuMilliseconds = cpuMilliseconds
    redacted.wallMilliseconds = wallMilliseconds
    redacted.memoryKilobytes = memoryKilobytes
    if let difference = firstDifference {
      redacted.firstDifference = StepDifference(
        step: difference.step, expected: nil, actual: nil, caption: difference.caption)
    }
    switch verdict {
    case .accepted: redacted.message = ""
    case .wrongAnswer:
      redacted.message =
        firstDifference.map { "Wrong answer on a hidden test: step \($0.step) differs. Expected step: \($0.caption)" }
        ?? "Wrong answer on a hidden test."
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
