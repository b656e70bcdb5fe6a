import Foundation
import Grading
import Runners
import Testing

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

  @Test func aHiddenStepsTestKeepsOnlyTheCaption() throws {
    var fixture = stepsOnly()
    fixture.setTest(1, "hidden", true)
    let result = try grade(fixture, "python", wrongInsertionSortPython)
    let hidden = result.tests[1]
    #expect(hidden.verdict == .wrongAnswer && hidden.hidden)
    let difference = try #require(hidden.firstDifference)
    #expect(difference.step == 6)
    #expect(difference.caption == "3 is larger than 2, so shift it right.")
    #expect(difference.expected == nil && difference.actual == nil)
    #expect(hidden.message == "Wrong answer on a hidden test: step 6 differs. Expected step: \(difference.caption)")
    #expect(hidden.score == 5.0 / 13.0)
    let json = GradeEncoderText.test(hidden)
    // The test's input is 4 3 2 1: no array of it, sorted or not, appears.
    for secret in ["[4,3,2,1]", "[3,2,4,1]", "[2,3,4,1]", "\"swap\"", "\"compare\"", "debug"] {
      #expect(!json.contains(secret), "\(json)")
    }
  }

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
