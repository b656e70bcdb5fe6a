import Foundation
import Grading
import Runners

/// A practice challenge (docs/challenges.md), loaded and validated, with every file's contents in
/// memory: nothing here refers to where it came from, so a challenge from a directory and one sent
/// inline to `POST /v1/grade` grade the same way.
public struct Challenge: Sendable {
  /// The directory's name ("insertion-sort"), or the caller's name for an inline challenge.
  public var id: String
  public var title: String
  /// The statement, Markdown.
  public var statement: String
  public var tags: [String]
  /// One of `ChallengeTopics.all`, or nil: listed under `ChallengeTopics.other`.
  public var topic: String? = nil
  /// Limits of each test run, laid over the runner's (compilation uses the runner's compile limits).
  public var limits: StepLimits
  public var checker: ChallengeChecker
  /// With the steps checker only: where a test without `expected_steps` gets them.
  public var recorder: RecorderSpec?
  /// In file order, at least one.
  public var tests: [ChallengeTest]
  /// Starter code by language name ("python").
  public var starters: [String: SourceFile]
  /// Reference solutions (`solutions/correct/` and `solutions/wrong/`), in directory order.
  public var solutions: [ChallengeSolution]
  /// What every wrong solution must get.
  public var wrongSolution: WrongSolutionExpectation?
  /// How the program's counted steps must grow with n (`growth`, docs/challenges.md).
  public var growth: GrowthSection? = nil
  /// A function challenge's function (docs/challenges.md, "Function challenges"): the learner
  /// writes it, a generated driver calls it on each test's arguments. nil for a stdin program.
  public var function: FunctionSignature? = nil
  /// A function challenge's steps checker (`"checker": {"name": "steps", ...}`): the step lines the
  /// function prints during a test are compared with the test's expected steps, besides its value.
  public var functionSteps: StepChecker? = nil
  /// The reference solution whose recorded steps are the expected steps of the tests without
  /// `expected_steps` (docs/challenges.md, "Expected steps from a reference solution").
  public var reference: ChallengeReference? = nil

  /// The sum of the tests' points.
  public var totalPoints: Double { tests.reduce(0) { $0 + $1.points } }

  /// The most runs of the learner's program (and of the challenge's own programs on its behalf) one
  /// grade makes: every test, a custom checker's run per test, every size of every growth case and
  /// its generator's run. A quota charges a grade by it (docs/api.md, "Quotas").
  public var plannedRuns: Int {
    var runs = tests.count
    if case .program = checker { runs += tests.count }
    if case .functionProgram = checker { runs += tests.count }
    // An interactive test runs the interactor beside the program.
    if case .interactor = checker { runs += tests.count }
    if let growth {
      for growthCase in growth.cases {
        runs += growth.sizes.count
        if case .program = growthCase.input { runs += growth.sizes.count }
      }
    }
    return runs
  }

  /// Whether one text is the right output (`ChallengeChecker.hasOneRightOutput`).
  public var hasOneRightOutput: Bool { checker.hasOneRightOutput }

  /// The steps checker, when the challenge grades steps.
  public var stepChecker: StepChecker? {
    if case .steps(let checker, _) = checker { return checker }
    return functionSteps
  }
}

/// How a challenge's tests are checked.
public enum ChallengeChecker: Sendable {
  /// One of the output checkers (`Checkers.names` but `steps`), made with its options.
  case output(any Checker)
  /// The steps checker; then, when the challenge names an `output_checker`, the ordinary output
  /// (without step lines) is compared with it too.
  case steps(StepChecker, thenOutput: (any Checker)?)
  /// A custom checker in the testlib protocol, compiled and run in a box.
  case program(CheckerProgram)
  /// A function challenge's results compared with its tests' expected values.
  case function(FunctionComparison)
  /// A function challenge's results judged by the challenge's own program (`compare.checker`), for
  /// results with many right answers that no comparison rule can list (a topological order).
  case functionProgram(CheckerProgram)
  /// An interactive challenge's interactor (`InteractorRunner`): it talks with the program and
  /// gives each test's verdict; the same language and source as a custom checker's.
  case interactor(CheckerProgram)

  /// Whether one text is the right output, so the expected output shown against the program's says
  /// what is wrong: true for `exact`, `lines` and `tokens` (a steps challenge's `output_checker`
  /// too) and a function challenge's exact comparison. The others accept many answers (`unordered`
  /// any order, `floats` any value near enough, `yes_no` any spelling, a `program` whatever it
  /// decides, a function's other comparisons): a diff against the one expected text would point at
  /// differences that are not mistakes. A steps challenge without an output checker compares none.
  public var hasOneRightOutput: Bool {
    let oneText = [ExactChecker.name, LinesChecker.name, TokensChecker.name]
    switch self {
    case .output(let checker): return oneText.contains(type(of: checker).name)
    case .steps(_, let output?): return oneText.contains(type(of: output).name)
    case .function(let comparison): return comparison == .exact
    case .steps(_, nil), .program, .interactor, .functionProgram: return false
    }
  }

  /// The name a challenge file uses ("lines", "steps", "program").
  public var name: String {
    switch self {
    case .output(let checker): return type(of: checker).name
    case .steps: return StepChecker.name
    case .program: return CheckerProgram.name
    case .function, .functionProgram: return "function"
    case .interactor: return "interactor"
    }
  }
}

/// A custom checker's source (`"checker": {"name": "program", "options": {"language", "source"}}`).
public struct CheckerProgram: Sendable {
  public static let name = "program"
  /// A language name of `ChallengeLanguages` ("cpp").
  public var language: String
  /// The source file, named as in the challenge directory ("checker.cpp"; empty for inline).
  public var source: SourceFile

  public init(language: String, source: SourceFile) {
    self.language = language
    self.source = source
  }
}

/// A recorder a challenge names: `{"name": "bfs", "directed": true}`.
public struct RecorderSpec: Sendable, Hashable {
  public var name: String
  /// Graph recorders only.
  public var directed: Bool

  public init(name: String, directed: Bool = false) {
    self.name = name
    self.directed = directed
  }
}

/// One test, with its files' contents.
public struct ChallengeTest: Sendable {
  public var name: String
  public var stdin: Data
  /// What the output must be; nil for steps-only tests.
  public var expectedStdout: String?
  /// From the test's `expected_steps` file; nil when the challenge's recorder gives them.
  public var expectedSteps: [Step]?
  /// Positive.
  public var points: Double
  /// A hidden test's grade says only its verdict, figures and step caption: never its input, its
  /// expected output or steps, or what the program printed on it (docs/challenges.md).
  public var hidden: Bool
  /// A function challenge's test: the arguments in the signature's order (`stdin` then holds them
  /// as text for people, "intervals = [[1,3]]", and `expectedStdout` the expected value's JSON).
  public var arguments: [FunctionValue]?
  /// A function challenge's test: the expected value (under `any_of`, the array of answers).
  public var expected: FunctionValue?
  /// Set when a daemon's catalogue let this test's file values go: `stdin`, `expectedStdout`,
  /// `arguments` and `expected` are then empty until `Challenge.loadingTestValues()`.
  var deferredFiles: DeferredTestFiles?

  public init(
    name: String, stdin: Data, expectedStdout: String? = nil, expectedSteps: [Step]? = nil, points: Double = 1,
    hidden: Bool = false
  ) {
    self.name = name
    self.stdin = stdin
    self.expectedStdout = expectedStdout
    self.expectedSteps = expectedSteps
    self.points = points
    self.hidden = hidden
  }
}

/// `"reference": "solutions/correct/main.py"`: the solution whose step lines, recorded by
/// `dsa-run challenges --check --record` into `expected/`, are the expected steps of every test
/// without `expected_steps`.
public struct ChallengeReference: Sendable {
  /// The path in the challenge directory, as challenge.json gives it.
  public var path: String
  public var language: String
  public var file: SourceFile
  /// The tests whose expected steps come from the reference (by index): `--record` runs it on these.
  public var recordedTests: [Int]

  public init(path: String, language: String, file: SourceFile, recordedTests: [Int]) {
    self.path = path
    self.language = language
    self.file = file
    self.recordedTests = recordedTests
  }
}

/// A reference solution shipped with a challenge.
public struct ChallengeSolution: Sendable {
  public enum Kind: String, Sendable {
    /// `solutions/correct/`: must be accepted.
    case correct
    /// `solutions/wrong/`: must fail as `wrong_solution` says.
    case wrong
    /// `solutions/slow/`: its growth must fail as `growth.slow_solution` says.
    case slow
  }
  public var kind: Kind
  public var language: String
  /// Named as in the directory ("Main.java").
  public var file: SourceFile

  public init(kind: Kind, language: String, file: SourceFile) {
    self.kind = kind
    self.language = language
    self.file = file
  }
}

/// `wrong_solution`: the verdict every wrong solution gets on `test`, and for steps challenges the
/// first differing step (1-based).
public struct WrongSolutionExpectation: Sendable, Hashable {
  public var verdict: GradeVerdict
  public var test: String
  public var step: Int?

  public init(verdict: GradeVerdict, test: String, step: Int? = nil) {
    self.verdict = verdict
    self.test = test
    self.step = step
  }
}

/// The source languages a challenge's files may be in, by file extension (docs/challenges.md).
public enum ChallengeLanguages {
  /// Extension -> language name of runners/*.json.
  public static let byExtension: [String: String] = [
    "py": "python", "js": "javascript", "java": "java", "c": "c", "cpp": "cpp", "kt": "kotlin", "dart": "dart",
    "go": "go",
  ]
  /// Every language name, sorted.
  public static let names = Array(Set(byExtension.values)).sorted()

  /// The language of a file name ("Main.java" -> "java"), or nil.
  public static func language(ofFile name: String) -> String? {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    return byExtension[String(name[name.index(after: dot)...])]
  }
}
