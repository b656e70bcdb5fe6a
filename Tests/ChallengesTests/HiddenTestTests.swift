import Foundation
import Grading
import Runners
import Testing
import Wire

@testable import API
@testable import Challenges

/// Hidden tests: their grade tells the verdict and the step caption, never the test's data or what
/// the program printed on it, in the Grader's result and in the JSON the CLI and the API print.
@Suite struct HiddenTestTests {
  /// Echoes its input to stderr (where the stderr tail would show it) and prints a wrong answer
  /// made of it, so every echo channel would carry the secret.
  static let echoingSum = """
    import sys
    data = sys.stdin.read()
    sys.stderr.write("stdin was: " + data)
    print("got-" + data.replace(" ", "-").strip())

    """

  private func sumWithSecretTest(hidden: Any) -> ChallengeFixture {
    var fixture = ChallengeFixture.sum(tests: 2)
    fixture.files["tests/2.in"] = Data("4096 8191".utf8)
    fixture.files["tests/2.out"] = Data("12287\n".utf8)
    fixture.setTest(1, "hidden", hidden)
    return fixture
  }

  @Test func aHiddenTestShowsNoneOfItsInputExpectedOrActualOutput() throws {
    let result = try grade(sumWithSecretTest(hidden: true), "python", Self.echoingSum)
    #expect(result.verdict == .wrongAnswer)
    let visible = result.tests[0]
    let hidden = result.tests[1]
    #expect(!visible.hidden && hidden.hidden)
    // The sample test stays fully visible.
    #expect(visible.stderr.contains("stdin was: 7"))
    #expect(visible.message.contains("got-7"))
    #expect(hidden.verdict == .wrongAnswer)
    #expect(hidden.stderr.isEmpty)
    #expect(hidden.message == "Wrong answer on a hidden test.")
    // The whole grade as the CLI's --json and POST /v1/grade print it: the input (4096 8191), the
    // expected answer (12287) and the program's output on it (got-4096-8191) appear nowhere.
    let json = GradeEncoderText.grade(result)
    for secret in ["4096", "8191", "12287"] { #expect(!json.contains(secret), "\(json)") }
    #expect(json.contains("got-7"))
    #expect(GradeEncoder.testObject(hidden)["hidden"] as? Bool == true)
  }

  @Test func aHiddenStepsTestKeepsOnlyTheStepsKindAndADataFreeCaption() throws {
    var fixture = stepsOnly()
    fixture.setTest(1, "hidden", true)
    let result = try grade(fixture, "python", wrongInsertionSortPython)
    let hidden = result.tests[1]
    #expect(hidden.verdict == .wrongAnswer && hidden.hidden)
    let difference = try #require(hidden.firstDifference)
    // The recorder's caption ("3 is larger than 2, so shift it right.") names the input: its
    // data-free one, the same for every swap of every input, takes its place.
    #expect(difference.step == nil)
    #expect(difference.kind == "a swap")
    #expect(difference.caption == "The item before the one being inserted is larger, so shift it right.")
    #expect(difference.expected == nil && difference.actual == nil)
    #expect(
      hidden.message
        == "Wrong answer on a hidden test: your steps first differ from the expected ones at a swap (its action, "
        + "active and array differ). Expected step: The item before the one being inserted is larger, so shift it right."
    )
    // 5 of 13 steps matched: the exact share would tell where the guess went wrong.
    #expect(hidden.score == 0.25)
    #expect(hidden.operatorDifferenceStep == 6)
    let json = GradeEncoderText.test(hidden)
    // The test's input is 4 3 2 1: no array of it, sorted or not, appears, nor the step's number.
    for secret in ["[4,3,2,1]", "[3,2,4,1]", "[2,3,4,1]", "\"swap\"", "\"compare\"", "debug", "\"step\""] {
      #expect(!json.contains(secret), "\(json)")
    }
  }

  /// A steps file's captions are the author's, and may name the test's data: a hidden test shows
  /// none of it, in the grade object (the CLI's --json, /v1/grade, SSE and stored grades are its
  /// encodings), while a visible test shows everything. The two values have digits no figure of a
  /// small Python run can hold by chance.
  @Test func aHiddenTestWhoseCaptionNamesItsInputShowsNoneOfIt() throws {
    let result = try grade(Self.captionedPairs(), "python", Self.wrongPair)
    #expect(result.tests.map(\.verdict) == [.wrongAnswer, .wrongAnswer])
    let visible = result.tests[0]
    let hidden = result.tests[1]
    // The visible test: the step's number, fields and caption, the figures, stderr.
    #expect(visible.firstDifference?.step == 2)
    #expect(visible.firstDifference?.caption == "swap 5 and 3")
    #expect(visible.firstDifference?.expected == ["action": "swap", "pair": [3, 5]])
    #expect(visible.stderr == "input 5 3\n" && visible.coarse == nil && visible.memoryKilobytes > 0)
    #expect(visible.score == 1.0 / 3)
    // The hidden one: a verdict, a quarter of a score, buckets, the step's kind.
    #expect(hidden.firstDifference?.step == nil && hidden.firstDifference?.kind == "a swap")
    #expect(hidden.firstDifference?.caption == "Swap two items.")
    #expect(hidden.score == 0.25)
    #expect(hidden.cpuMilliseconds == 0 && hidden.wallMilliseconds == 0 && hidden.memoryKilobytes == 0)
    let coarse = try #require(hidden.coarse)
    #expect(CoarseFigures.timeBuckets.map(\.name).contains(coarse.time), "\(coarse)")
    #expect(CoarseFigures.memoryBuckets.map(\.name).contains(coarse.memory), "\(coarse)")
    #expect(
      hidden.message
        == "Wrong answer on a hidden test: your steps first differ from the expected ones at a swap (its action "
        + "differs). Expected step: Swap two items.")
    let json = GradeEncoderText.grade(result)
    for secret in ["7319041", "6024173"] { #expect(!json.contains(secret), "\(json)") }
    let object = GradeEncoder.testObject(hidden)
    #expect(Set(object.keys) == GradeEncoder.hiddenTestKeys)
    #expect(GradeEncoder.hiddenTestKeys.isSuperset(of: ["time", "memory"]))
    #expect(GradeEncoder.hiddenTestKeys.isDisjoint(with: ["cpu_ms", "wall_ms", "memory_kb"]))
    #expect(object["first_difference"] as? [String: String] == ["kind": "a swap", "caption": "Swap two items."])
    let shown = GradeEncoder.testObject(visible)
    #expect(shown["cpu_ms"] is Int && shown["memory_kb"] is Int && shown["time"] == nil)
    #expect((shown["first_difference"] as? [String: Any])?["step"] as? Int == 2)
    // And back from the wire (what `dsa-run --remote` prints from).
    let read = try #require(GradeResult(wire: try WireGradeResult.read(Data(json.utf8)).get()))
    #expect(read.tests[1].coarse == coarse && read.tests[1].firstDifference?.step == nil)
    #expect(read.tests[1].firstDifference?.kind == "a swap")
  }

  @Test func everyGradeOfAHiddenTestIsRedactedSkippedOnesToo() throws {
    var fixture = Self.captionedPairs()
    fixture.setTest(0, "hidden", true)
    let stopped = try grade(
      fixture, "python", Self.wrongPair, options: GradeOptions(parallelism: 1, stopAtFirstFailure: true))
    #expect(stopped.tests.map(\.verdict) == [.wrongAnswer, .skipped])
    #expect(stopped.tests.allSatisfy { $0.hidden && $0.coarse != nil })
    // A program that does not compile: every test skipped, and still shown as hidden.
    let broken = try grade(fixture, "cpp", "int main( {\n")
    #expect(broken.verdict == .compileError)
    #expect(broken.tests.allSatisfy { $0.hidden && $0.coarse != nil }, "\(broken.tests.map(\.verdict))")
  }

  @Test func aWrongSolutionOnAHiddenTestIsStillComparedByItsStep() throws {
    var fixture = stepsOnly()
    fixture.setTest(1, "hidden", true)
    fixture.files["solutions/wrong/main.py"] = Data(wrongInsertionSortPython.utf8)
    fixture["wrong_solution"] = ["verdict": "wrong_answer", "test": "reversed", "step": 6]
    let challenge = try fixture.load().get()
    let wrong = try #require(challenge.solutions.first { $0.kind == .wrong })
    #expect(try GradingFixture.grader.verify(wrong, of: challenge).problem == nil)
    fixture["wrong_solution"] = ["verdict": "wrong_answer", "test": "reversed", "step": 5]
    let expectingStep5 = try fixture.load().get()
    #expect(
      try GradingFixture.grader.verify(wrong, of: expectingStep5).problem
        == "expected wrong_answer on test reversed at step 5, got wrong_answer on test reversed at step 6")
  }

  /// Steps from files, fields `action` and `pair`: compare the two numbers, swap them, done, with
  /// captions that name them. The sample (5 3) is visible, the secret (7319041 6024173) hidden.
  static func captionedPairs() -> ChallengeFixture {
    func steps(_ first: Int, _ second: Int) -> Data {
      let lines = [
        #"@step {"action": "compare", "pair": [\#(first), \#(second)], "caption": "compare \#(first) with \#(second)"}"#,
        #"@step {"action": "swap", "pair": [\#(second), \#(first)], "caption": "swap \#(first) and \#(second)"}"#,
        #"@step {"action": "done", "pair": [\#(second), \#(first)], "caption": "done: \#(second) \#(first)"}"#,
      ]
      return Data((lines.joined(separator: "\n") + "\n").utf8)
    }
    return ChallengeFixture(
      id: "pairs",
      description: [
        "title": "Order a pair", "statement": "statement.md",
        "checker": ["name": "steps", "options": ["fields": ["action", "pair"]]],
        "tests": [
          ["name": "sample", "stdin": "tests/sample.in", "expected_steps": "tests/sample.steps"],
          ["name": "secret", "stdin": "tests/secret.in", "expected_steps": "tests/secret.steps", "hidden": true],
        ],
      ],
      files: [
        "statement.md": Data("Compare the two numbers, swap them if needed.\n".utf8),
        "tests/sample.in": Data("5 3\n".utf8), "tests/sample.steps": steps(5, 3),
        "tests/secret.in": Data("7319041 6024173\n".utf8), "tests/secret.steps": steps(7_319_041, 6_024_173),
      ])
  }

  /// Compares twice instead of swapping, and echoes its input on stderr and stdout.
  static let wrongPair = """
    import sys
    a, b = map(int, sys.stdin.read().split())
    sys.stderr.write(f"input {a} {b}\\n")
    print('@step {"action": "compare", "pair": [%d, %d]}' % (a, b))
    print('@step {"action": "compare", "pair": [%d, %d]}' % (b, a))
    print('@step {"action": "done", "pair": [%d, %d]}' % (b, a))
    print("read", a, b)

    """

  @Test func runFailuresOnAHiddenTestSayOnlyTheVerdict() throws {
    var fixture = sumWithSecretTest(hidden: true)
    fixture["limits"] = ["cpu_ms": 2000]
    // Exits with a code made of the input: an exit code would be a channel too.
    let program = """
      import sys
      d = sys.stdin.read().split()
      print(sum(map(int, d)))
      sys.exit(int(d[0]) % 200 + 1 if d[0] == '4096' else 0)

      """
    let result = try grade(fixture, "python", program)
    let hidden = result.tests[1]
    #expect(hidden.verdict == .runtimeError)
    #expect(hidden.message == "The program failed on a hidden test (runtime error).")
    #expect(!result.message.contains("97") && !result.message.contains("exit"))
  }

  @Test func hiddenMustBeABoolean() throws {
    guard case .failure(let error) = try sumWithSecretTest(hidden: "yes").load() else {
      Issue.record("a string for hidden was accepted")
      return
    }
    #expect(error.problems.map(\.field) == ["tests[1].hidden"])
    #expect(error.problems.first?.message == "must be true or false")
    let loaded = try sumWithSecretTest(hidden: false).load().get()
    #expect(loaded.tests.map(\.hidden) == [false, false])
    // GET /v1/challenges/ID says which tests are hidden, not what they hold.
    let hiddenOne = try sumWithSecretTest(hidden: true).load().get()
    let listed = GradeEncoder.challengeObject(hiddenOne)["tests"] as? [[String: Any]]
    #expect(listed?.map { $0["hidden"] as? Bool } == [false, true])
  }
}

/// A grade and a test as the JSON the CLI and the API send.
enum GradeEncoderText {
  static func grade(_ result: GradeResult) -> String {
    String(decoding: ResultEncoder.data(GradeEncoder.gradeObject(result)), as: UTF8.self)
  }

  static func test(_ test: TestGrade) -> String {
    String(decoding: ResultEncoder.data(GradeEncoder.testObject(test)), as: UTF8.self)
  }
}
