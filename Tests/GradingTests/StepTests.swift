import Foundation
import Testing
import Wire

@testable import Grading

@Suite struct StepParserTests {
  @Test func parsesStepsAndKeepsOtherLines() throws {
    let output = "hello\r\n@step {\"i\": 1, \"caption\": \"c\"}\r\ndebug\n@step {\"i\": 2.0}  \n@stepper\n"
    let parsed = try StepParser().parse(output).get()
    #expect(parsed.steps.map(\.fields) == [["i": 1], ["i": 2]])
    #expect(parsed.steps[0].caption == "c")
    #expect(parsed.ordinaryOutput == "hello\ndebug\n@stepper\n")
  }

  @Test(arguments: [
    ("@step not json", 1),
    ("ok\n@step [1, 2]", 2),
    ("a\nb\n@step {\"a\": 1}\n@step {\"a\": }", 4),
    ("@step ", 1),
    ("@step {} {}", 1),
    ("@step \u{FF}{", 1),
    ("@step " + String(repeating: "[", count: 100_000), 1),
    ("@step {\"a\": " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}", 1),
  ])
  func garbageStepLinesNameTheLine(_ output: String, _ line: Int) {
    guard case .failure(let error) = StepParser().parse(output) else {
      Issue.record("parsed \(output.prefix(40).debugDescription)")
      return
    }
    #expect(error.line == line)
  }

  /// The bound stops the parse at the step past it (line 10,001), so the work done is 10,001 lines,
  /// not a million; no wall-time assertion (the machine's load would decide it).
  @Test func aMillionStepLinesStopAtTheBoundQuickly() {
    let output = String(repeating: "@step {\"a\": 1}\n", count: 1_000_000)
    let result = StepParser(maximumSteps: 10_000).parse(output)
    guard case .failure(let error) = result else {
      Issue.record("a million steps were accepted")
      return
    }
    #expect(error.line == 10_001)
    #expect(error.problem.contains("more than 10000 steps"))
  }

  /// Megabytes of malformed step lines: `replayable` keeps the good steps before the bound and says
  /// where it stopped; grading's `parse` fails at the first malformed line; step lines past the
  /// total byte bound stop both.
  @Test func malformedStepLinesCountAgainstTheBounds() {
    let good = (0..<3).map { "@step {\"i\": \($0)}\n" }.joined()
    let output = good + String(repeating: "@step {\"i\": \n", count: (4 << 20) / 13)
    let (steps, problem) = StepParser().replayable(output)
    #expect(steps.map { $0.fields["i"] } == [.number(0), .number(1), .number(2)])
    #expect(problem.hasPrefix("Stopped reading steps at line 10001: the output has more than 10000 step lines"))
    guard case .failure(let error) = StepParser().parse(output) else {
      Issue.record("malformed step lines were accepted")
      return
    }
    #expect(error.line == 4)
    let wide = String(repeating: "@step {\"a\": \"" + String(repeating: "x", count: 10_000) + "\"}\n", count: 420)
    #expect(StepParser().replayable(wide).problem.contains("step lines of more than 4194304 bytes"))
    guard case .failure(let tooMuch) = StepParser().parse(wide) else {
      Issue.record("4.2 MB of step lines were accepted")
      return
    }
    #expect(tooMuch.problem == "the step lines pass 4194304 bytes in all")
    #expect(StepParser().replayable(good).problem == "")
  }

  /// The lazy line reader splits as `split` at "\n" and "\r\n" characters does (what the fuzz
  /// target checks too), on the awkward cases: lone CR, CR CR LF, marks after a line break, no
  /// final line break, empty text.
  @Test func linesSplitAsCharacterSplitDoes() throws {
    let samples = [
      "", "\n", "a", "a\n", "a\r\nb", "a\rb\n", "a\r\r\nb", "\n\u{301}x\n", "@step {\"a\": 1}\r\nx\r\n",
      "e\u{301}\n@step {\"b\": \"\u{1F600}\"}\n\n", "\r", "x\r\n\r\n",
    ]
    for sample in samples {
      let lines = sample.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
      let ordinary = lines.filter { !$0.utf8.starts(with: StepParser.prefix.utf8) }.joined(separator: "\n")
      #expect(StepParser.ordinaryOutput(sample) == ordinary, "\(sample.debugDescription)")
      let parsed = try StepParser().parse(sample).get()
      #expect(parsed.ordinaryOutput == ordinary, "\(sample.debugDescription)")
      #expect(parsed.steps.count == lines.count - lines.filter { !$0.utf8.starts(with: StepParser.prefix.utf8) }.count)
    }
  }

  @Test func longLinesAreRefused() {
    let long = "@step {\"a\": \"" + String(repeating: "x", count: 70_000) + "\"}"
    guard case .failure(let error) = StepParser().parse("x\n" + long) else {
      Issue.record("a long line was accepted")
      return
    }
    #expect(error.line == 2)
    #expect(error.problem.contains("longer than"))
  }

  @Test func stepLinesRoundTrip() throws {
    let steps = InsertionSortRecorder.record([3, 1, 2])
    let text = steps.map(\.line).joined(separator: "\n")
    // A line holds the fields and the caption; the recorder's data-free kind and caption are not
    // part of it, and a step read back takes them from its action.
    let read = try StepParser().parse(text).get().steps
    #expect(read.map(\.object) == steps.map(\.object))
    #expect(read.allSatisfy { $0.kind == nil && $0.genericCaption == nil })
    #expect(read.map(\.dataFreeKind) == steps.map(\.dataFreeKind))
  }
}

@Suite struct StepCheckerTests {
  let expected = [
    Step(["action": "compare", "array": [5, 2], "note": "x"], caption: "Compare 5 and 2."),
    Step(["action": "swap", "array": [2, 5]], caption: "5 is larger than 2, so shift it right."),
    Step(["action": "done", "array": [2, 5]], caption: "Done."),
  ]

  func output(_ steps: [[String: JSONValue]]) -> String {
    steps.map { Step($0).line }.joined(separator: "\n")
  }

  @Test func identicalStepsWithDebugLinesAreAccepted() throws {
    let checker = try StepChecker(fields: ["action", "array"])
    let text =
      "debug: starting\n" + output([["action": "compare", "array": [5, 2], "extra": 1]]) + "\nprint me\n"
      + output([["action": "swap", "array": [2.0, 5]], ["action": "done", "array": [2, 5], "note": "y"]])
    let result = checker.check(expectedSteps: expected, output: text)
    #expect(result.verdict == .accepted)
    #expect(result.score == 1)
  }

  @Test func firstDifferenceCarriesTheCaption() throws {
    let checker = try StepChecker(fields: ["action", "array"])
    let text = output([
      ["action": "compare", "array": [5, 2]], ["action": "compare", "array": [5, 2]],
      ["action": "done", "array": [2, 5]],
    ])
    let result = checker.check(expectedSteps: expected, output: text)
    #expect(result.verdict == .wrongAnswer)
    #expect(abs(result.score - 1.0 / 3) < 1e-12)
    let difference = try #require(result.firstDifference)
    #expect(difference.step == 2)
    #expect(difference.caption == "5 is larger than 2, so shift it right.")
    #expect(difference.expected == ["action": "swap", "array": [2, 5]])
    #expect(difference.actual == ["action": "compare", "array": [5, 2]])
    #expect(result.message.contains("step 2 differs: expected action \"swap\", got \"compare\""))
    #expect(result.message.contains("5 is larger than 2"))
  }

  @Test func missingAndExtraSteps() throws {
    let checker = try StepChecker(fields: ["action"])
    let short = checker.check(expectedSteps: expected, output: output([["action": "compare"]]))
    #expect(short.verdict == .wrongAnswer)
    #expect(abs(short.score - 1.0 / 3) < 1e-12)
    #expect(short.firstDifference?.step == 2)
    #expect(short.firstDifference?.actual == nil)
    #expect(short.message.contains("step 2 is missing"))

    let long = checker.check(
      expectedSteps: expected,
      output: output([["action": "compare"], ["action": "swap"], ["action": "done"], ["action": "done"]]))
    #expect(long.verdict == .wrongAnswer)
    #expect(long.score == 0.75)
    #expect(long.firstDifference?.step == 4)
    #expect(long.firstDifference?.expected == nil)
    #expect(long.message.contains("step 4 is extra"))

    let none = checker.check(expectedSteps: expected, output: "no steps at all\n")
    #expect(none.score == 0)
    #expect(none.firstDifference?.caption == "Compare 5 and 2.")
  }

  @Test func onlyDeclaredFieldsAreCompared() throws {
    let checker = try StepChecker(fields: ["action"])
    let text = output([["action": "compare", "array": [9]], ["action": "swap"], ["action": "done", "array": []]])
    #expect(checker.check(expectedSteps: expected, output: text).verdict == .accepted)
    let strict = try StepChecker(fields: ["action", "note"])
    let result = strict.check(expectedSteps: expected, output: text)
    #expect(result.firstDifference?.step == 1)
    #expect(result.message.contains("expected note \"x\", got nothing"))
  }

  @Test func malformedStepLineIsWrongAnswerNamingTheLine() throws {
    let checker = try StepChecker(fields: ["action"])
    let result = checker.check(expectedSteps: expected, output: "a\nb\n@step {broken\n")
    #expect(result.verdict == .wrongAnswer)
    #expect(result.score == 0)
    #expect(result.message.contains("line 3"))
  }

  @Test func expectedStepsFromAFileUseTheSharedSignature() throws {
    let checker = try Checkers.make(name: "steps", options: ["fields": ["action", "array"], "max_steps": 5])
    let file = expected.map(\.line).joined(separator: "\n") + "\n"
    #expect(try checker.check(input: "", expected: file, output: file).verdict == .accepted)
    let tooMany = String(repeating: "@step {\"action\": \"x\"}\n", count: 6)
    let result = try checker.check(input: "", expected: file, output: tooMany)
    #expect(result.message.contains("more than 5 steps"))
  }

  @Test func emptySequencesMatch() throws {
    let checker = try StepChecker(fields: ["a"])
    #expect(checker.check(expectedSteps: [], output: "answer\n").verdict == .accepted)
  }
}
