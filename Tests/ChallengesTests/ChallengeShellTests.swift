import Foundation
import Grading
import Runners
import Testing

@testable import Challenges
@testable import dsa_run

// `dsa-run challenges show`, `challenges starter`, and what a failed visible test shows, through the
// built binary.

@Suite struct ChallengeShellTests {
  @Test func showPrintsTheStatementAndTheSampleTests() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    let result = try runCLI(["challenges", "show", "sum"], data: data.path)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("sum: Sum\n"))
    #expect(result.stdout.contains("Print the sum."))
    #expect(result.stdout.contains("Sample test 2 (1 point):\n  input:\n    7 14\n  expected output:\n    21\n"))
    let missing = try runCLI(["challenges", "show", "nope"], data: data.path)
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("no challenge \"nope\""))
  }

  @Test func showLeavesOutTheHiddenTests() throws {
    // insertion-sort marks "reversed" and "negatives" hidden: their inputs never reach the shell.
    let result = try runCLI(["challenges", "show", "insertion-sort"], data: repositoryRoot)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Sample test"), "\(result.stdout)")
    #expect(!result.stdout.contains("Sample test reversed") && !result.stdout.contains("Sample test negatives"))
    let hiddenInput = try String(
      contentsOfFile: repositoryRoot + "/challenges/insertion-sort/tests/reversed.in", encoding: .utf8)
    let line = try #require(hiddenInput.split(separator: "\n").last)
    #expect(!result.stdout.contains(String(line)), "\(result.stdout)")
  }

  /// A challenge refused at load has no solutions graded: the summary must not say they behaved.
  @Test func checkSolutionsDoesNotVouchForABrokenChallengesSolutions() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    let broken = data.path + "/challenges/broken"
    try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
    try Data(#"{"title": "Broken", "colour": "red"}"#.utf8).write(to: URL(fileURLWithPath: broken + "/challenge.json"))
    let result = try runCLI(["challenges", "--check", "--solutions", broken], data: data.path)
    #expect(result.status == 1, "\(result.stdout)")
    #expect(!result.stdout.contains("every solution behaved as expected"), "\(result.stdout)")
    #expect(result.stdout.contains("the broken challenges' solutions were not graded"), "\(result.stdout)")
  }

  /// balanced-brackets shows 2000-character strings as visible tests: each is cut to a line a
  /// terminal can hold, saying how much was left out.
  @Test func showCutsALongLine() throws {
    let result = try runCLI(["challenges", "show", "balanced-brackets"], data: repositoryRoot)
    #expect(result.status == 0, "\(result.stderr)")
    let longest = result.stdout.split(separator: "\n").map(\.count).max() ?? 0
    #expect(longest <= 300, "a line of \(longest) characters")
    #expect(result.stdout.contains("more characters)"), "\(result.stdout)")
  }

  @Test func starterWritesTheStarterCodeAndKeepsAnExistingFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let target = directory.path + "/sort.py"
    let written = try runCLI(
      ["challenges", "starter", "insertion-sort", "--lang", "py", "-o", target], data: repositoryRoot)
    #expect(written.status == 0, "\(written.stderr)")
    let starter = try Data(
      contentsOf: URL(fileURLWithPath: repositoryRoot + "/challenges/insertion-sort/starter/main.py"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == starter)
    #expect(written.stderr.contains("dsa-run --lang python \(target) --challenge insertion-sort"))
    try Data("my work\n".utf8).write(to: URL(fileURLWithPath: target))
    let refused = try runCLI(
      ["challenges", "starter", "insertion-sort", "--lang", "python", "-o", target], data: repositoryRoot)
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("exists; give --force"))
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "my work\n")
    let printed = try runCLI(["challenges", "starter", "insertion-sort", "--lang", "cpp"], data: repositoryRoot)
    #expect(printed.status == 0)
    #expect(
      Data(printed.stdout.utf8)
        == (try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/challenges/insertion-sort/starter/main.cpp"))))
    let unknown = try runCLI(["challenges", "starter", "insertion-sort", "--lang", "cobol"], data: repositoryRoot)
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("has no cobol starter"))
  }

  @Test func aWrongOutputShowsTheInputAndExpectedAgainstYours() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    try Data("print(sum(map(int, input().split())) + 1)\n".utf8).write(
      to: URL(fileURLWithPath: data.path + "/off-by-one.py"))
    let result = try data.grade("off-by-one.py", "sum")
    #expect(result.status == 120)
    #expect(
      result.stdout.contains(
        "Input of test 1:\n    7\nExpected output (-) and yours (+), from line 1:\n  - 7\n  + 8\n"), "\(result.stdout)")
  }

  @Test func theDiffIsShownOnlyWhereOneExpectedTextIsTheAnswer() throws {
    func output(_ name: String, _ options: CheckerOptions = [:]) throws -> any Checker {
      try Checkers.make(name: name, options: options)
    }
    let steps = try StepChecker(fields: ["array"])
    for name in ["exact", "lines", "tokens"] {
      #expect(ChallengeChecker.output(try output(name)).hasOneRightOutput, "\(name)")
      #expect(ChallengeChecker.steps(steps, thenOutput: try output(name)).hasOneRightOutput, "steps then \(name)")
    }
    for name in ["floats", "unordered", "yes_no"] {
      #expect(!ChallengeChecker.output(try output(name)).hasOneRightOutput, "\(name)")
      #expect(!ChallengeChecker.steps(steps, thenOutput: try output(name)).hasOneRightOutput, "steps then \(name)")
    }
    #expect(!ChallengeChecker.steps(steps, thenOutput: nil).hasOneRightOutput)
    let program = CheckerProgram(language: "cpp", source: SourceFile(name: "checker.cpp", contents: Data()))
    #expect(!ChallengeChecker.program(program).hasOneRightOutput)
    #expect(ChallengeChecker.function(.exact).hasOneRightOutput)
    #expect(!ChallengeChecker.function(.unordered).hasOneRightOutput)
    #expect(!ChallengeChecker.function(.anyOf).hasOneRightOutput)
  }

  @Test func aCheckerOfManyAnswersSaysItsMessageWithoutADiff() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    var fixture = ChallengeFixture.sum()
    fixture.id = "sum-floats"
    fixture["checker"] = ["name": "floats"]
    _ = try fixture.write(under: data.path + "/challenges")
    try Data("print(sum(map(int, input().split())) + 1)\n".utf8).write(
      to: URL(fileURLWithPath: data.path + "/off-by-one.py"))
    let result = try data.grade("off-by-one.py", "sum-floats")
    #expect(result.status == 120)
    #expect(result.stdout.contains("Test 1, wrong_answer: "), "\(result.stdout)")
    #expect(result.stdout.contains("Input of test 1:\n    7\n"), "\(result.stdout)")
    #expect(!result.stdout.contains("Expected output (-) and yours (+)"), "\(result.stdout)")
  }

  @Test func starterSaysWhichLanguagesAChallengeHasStartersIn() throws {
    let other = try runCLI(["challenges", "starter", "insertion-sort", "--lang", "rust"], data: repositoryRoot)
    #expect(other.status == 2)
    #expect(
      other.stderr
        == "dsa-run: insertion-sort has no rust starter; it has starters in: c, cpp, dart, go, java, javascript, "
        + "kotlin, python (dsa-run challenges starter insertion-sort --lang c)\n")
    // A stdin challenge without starter/ is written from its statement (every sample has starters).
    let data = try CLIData()
    defer { data.directory.remove() }
    #expect(!FileManager.default.fileExists(atPath: data.path + "/challenges/sum/starter"))
    let none = try runCLI(["challenges", "starter", "sum", "--lang", "python"], data: data.path)
    #expect(none.status == 2)
    #expect(none.stderr.contains("sum has no python starter: it has no starter code in any language"))
    let shown = try runCLI(["challenges", "show", "sum"], data: data.path)
    #expect(shown.stdout.hasSuffix("\nNo starter code: write the program from the statement.\n"), "\(shown.stdout)")
  }

  @Test func aWrongStepShowsTheInputAndTheLastStepThatMatched() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    let result = try data.grade("wrong.py", "sample")
    #expect(result.status == 120)
    #expect(result.stdout.contains("Input of test reversed:"), "\(result.stdout)")
    #expect(result.stdout.contains("Step 5, the last one that matched: {"), "\(result.stdout)")
  }
}
