import Wire

/// A grading verdict (DESIGN §4). There is no presentation error: the design has none, so what
/// testlib calls PE is a `wrongAnswer` whose message says what is wrong with the form.
public enum Verdict: String, Sendable, Codable, Hashable {
  case accepted
  case wrongAnswer = "wrong_answer"
}

/// Where a learner's steps first differ from the expected ones (DESIGN §5 `first_difference`).
public struct StepDifference: Sendable, Hashable {
  /// How the steps part.
  public enum Problem: String, Sendable, Hashable {
    /// Both have the step and some compared field differs.
    case differs
    /// The program printed fewer steps.
    case missing
    /// The program printed more steps.
    case extra
  }

  /// The step number, counting from 1; nil once redacted for a hidden test (its position tells
  /// how far a guess of the test's data got).
  public var step: Int?
  /// The expected step's declared fields, or nil when the program printed more steps than expected.
  public var expected: JSONValue?
  /// The program's step's declared fields, or nil when it printed fewer steps than expected.
  public var actual: JSONValue?
  /// The expected step's caption (what it means), or a sentence saying the algorithm had finished.
  public var caption: String
  /// The expected step's kind in words that hold no data ("a comparison"; "an extra step").
  public var kind: String
  /// `caption` without the input's values (`Step.dataFreeCaption`).
  public var genericCaption: String
  public var problem: Problem
  /// The compared fields that differ (`.differs` only): the checker's option, never the data.
  public var differingFields: [String]

  public init(
    step: Int?, expected: JSONValue?, actual: JSONValue?, caption: String, kind: String = "a step",
    genericCaption: String? = nil, problem: Problem? = nil, differingFields: [String] = []
  ) {
    self.step = step
    self.expected = expected
    self.actual = actual
    self.caption = caption
    self.kind = kind
    self.genericCaption = genericCaption ?? StepKind.other.caption
    self.problem = problem ?? (actual == nil ? .missing : expected == nil ? .extra : .differs)
    self.differingFields = differingFields
  }
}

/// What a checker says about one test.
public struct CheckResult: Sendable, Hashable {
  public var verdict: Verdict
  /// From 0 to 1; 1 exactly when accepted.
  public var score: Double
  /// For a learner: empty when accepted, else the first difference in plain words.
  public var message: String
  /// Set by the step checker only.
  public var firstDifference: StepDifference?

  public init(verdict: Verdict, score: Double, message: String, firstDifference: StepDifference? = nil) {
    self.verdict = verdict
    self.score = score
    self.message = message
    self.firstDifference = firstDifference
  }

  /// Accepted with full score.
  public static let accepted = CheckResult(verdict: .accepted, score: 1, message: "")

  /// Wrong answer with score 0.
  public static func wrongAnswer(_ message: String) -> CheckResult {
    CheckResult(verdict: .wrongAnswer, score: 0, message: message)
  }
}

/// The challenge, not the learner, is wrong: bad checker options or an expected answer the checker
/// cannot read. The pipeline reports it as `internal_error`, never as `wrong_answer`.
public struct CheckerConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The checker's name ("floats").
  public var checker: String
  /// What is wrong and how to fix it.
  public var message: String

  public init(checker: String, message: String) {
    self.checker = checker
    self.message = message
  }

  public var description: String { "checker \(checker): \(message)" }
}
