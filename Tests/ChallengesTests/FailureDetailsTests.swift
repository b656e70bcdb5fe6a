import Foundation
import Grading
import Testing
import Wire

@testable import Challenges

/// A visible failed test carries what the CLI shows of it (`details`), so the API and the page can
/// show the same: its input, the expected output when one text is right, the program's output, and
/// the last step that matched. A hidden test carries none of it.
@Suite struct FailureDetailsTests {
  /// Prints the sum plus one, with a step line that must not appear in `output`.
  static let offByOne = """
    import sys
    print('@step {"action": "add"}')
    print(sum(int(x) for x in sys.stdin.read().split()) + 1)

    """

  @Test func aWrongAnswerShowsInputExpectedAndYours() throws {
    let result = try grade(ChallengeFixture.sum(tests: 2), "python", Self.offByOne)
    let first = result.tests[0]
    #expect(first.verdict == .wrongAnswer)
    let details = try #require(first.details)
    #expect(details.input == "7")
    #expect(details.expectedOutput == "7\n")
    #expect(details.output == "8\n", "step lines are not part of the output")
    #expect(!details.inputTruncated && !details.outputTruncated && !details.expectedOutputTruncated)
    #expect(details.lastMatchingStep == nil)
    let wire = first.wire
    #expect(wire.details?.input == "7")
    #expect(TestGrade(wire: wire)?.details == details)
  }

  @Test func anAcceptedTestHasNone() throws {
    let result = try grade(ChallengeFixture.sum(tests: 1), "python", "print(7)\n")
    #expect(result.tests[0].verdict == .accepted)
    #expect(result.tests[0].details == nil)
    #expect(members(result.tests[0].wire.json)["details"] == .null)
  }

  @Test func aCheckerThatAcceptsManyOutputsShowsNoExpectedOne() throws {
    var fixture = ChallengeFixture.sum(tests: 1)
    fixture["checker"] = ["name": "unordered"]
    let result = try grade(fixture, "python", "print(8)\n")
    let details = try #require(result.tests[0].details)
    #expect(details.expectedOutput == nil && details.output == "8\n")
  }

  @Test func aRuntimeErrorShowsItsInput() throws {
    let result = try grade(ChallengeFixture.sum(tests: 1), "python", "print(1)\nraise SystemExit(3)\n")
    #expect(result.tests[0].verdict == .runtimeError)
    #expect(result.tests[0].details?.input == "7")
    #expect(result.tests[0].details?.output == "1\n")
  }

  @Test func aStepDifferenceShowsTheLastMatchingStep() throws {
    let result = try grade(stepsOnly(), "python", wrongInsertionSortPython)
    let failed = result.tests[1]
    #expect(failed.firstDifference?.step == 6)
    let details = try #require(failed.details)
    #expect(details.input == "4\n4 3 2 1\n")
    #expect(details.expectedOutput == nil, "a steps-only challenge compares no output")
    // The program's step 5, the last before the first difference.
    #expect(details.lastMatchingStep == ["action": "compare", "active": [0, 1], "array": [3, 2, 4, 1]])
  }

  @Test func aHiddenTestCarriesNoneOnTheWire() throws {
    var fixture = ChallengeFixture.sum(tests: 2)
    fixture.setTest(1, "hidden", true)
    let result = try grade(fixture, "python", Self.offByOne)
    #expect(result.tests[0].details != nil)
    #expect(result.tests[1].hidden && result.tests[1].details == nil)
    #expect(members(result.tests[1].wire.json)["details"] == nil)
    // A hidden test's object that carries details anyway is refused when read back.
    var forged = members(result.tests[1].wire.json)
    forged["details"] = result.tests[0].wire.details?.json
    let reader = StrictReader()
    let object = try #require(reader.object(.object(forged), at: "", keys: WireTestGrade.keys))
    #expect(WireTestGrade(reading: object) == nil)
    #expect(reader.problems.contains { $0.path == "details" }, "\(reader.problems)")
  }

  @Test func longTextsAreCutBeforeACharacter() {
    let text = String(repeating: "é", count: 10)  // 2 bytes each
    let cut = FailureDetails.prefix(Data(text.utf8), limit: 5)
    #expect(cut.text == "éé" && cut.truncated)
    let whole = FailureDetails.prefix(Data("abc".utf8), limit: 3)
    #expect(whole.text == "abc" && !whole.truncated)
  }
}

private func members(_ value: JSONValue) -> [String: JSONValue] {
  if case .object(let members) = value { return members }
  return [:]
}
