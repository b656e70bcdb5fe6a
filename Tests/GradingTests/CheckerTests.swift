import Foundation
import Testing
import Wire

@testable import Grading

/// One checker case: the expected answer, the output, whether it is accepted, and (for wrong
/// answers) a piece of the message.
struct CheckCase: Sendable, CustomTestStringConvertible {
  let checker: String
  let options: CheckerOptions
  let expected: String
  let output: String
  let accepted: Bool
  let message: String
  /// Symmetric cases are also run with expected and output swapped.
  let symmetric: Bool

  init(
    _ checker: String, _ expected: String, _ output: String, _ accepted: Bool, _ message: String = "",
    options: CheckerOptions = [:], symmetric: Bool = true
  ) {
    self.checker = checker
    self.expected = expected
    self.output = output
    self.accepted = accepted
    self.message = message
    self.options = options
    self.symmetric = symmetric
  }

  var testDescription: String { "\(checker) \(expected.debugDescription) vs \(output.debugDescription)" }
}

let checkCases: [CheckCase] = [
  // exact
  CheckCase("exact", "1 2\n", "1 2\n", true),
  CheckCase("exact", "", "", true),
  CheckCase("exact", "1 2\n", "1 2", false, "line 1, column 4: expected a line break, got end of output"),
  CheckCase("exact", "1 2\n", "1 2\r\n", false, "carriage return"),
  CheckCase("exact", "1 2\n", "1 2 \n", false, "got a space"),
  CheckCase("exact", "a\nb\n", "a\nc\n", false, "line 2, column 1: expected \"b\", got \"c\""),
  CheckCase("exact", "x", "", false, "got end of output"),
  // lines
  CheckCase("lines", "1\n2\n", "1\r\n2\r\n", true),
  CheckCase("lines", "1\n2\n", "1  \t\n2\n\n\n", true),
  CheckCase("lines", "1\n2", "1\n2\n", true),
  CheckCase("lines", "", "\n\n \n", true),
  CheckCase("lines", "", "", true),
  CheckCase("lines", "1\n2\n7\n", "1\n2\n8\n", false, "line 3: expected \"7\", got \"8\""),
  CheckCase("lines", "1\n2\n", "1\n", false, "line 2: expected \"2\", got end of output"),
  CheckCase("lines", "1\n\n2\n", "1\n2\n", false, "line 2: expected an empty line, got \"2\""),
  CheckCase("lines", "a b\n", " a b\n", false, "line 1"),
  CheckCase("lines", "1\n", "", false, "got end of output"),
  // tokens
  CheckCase("tokens", "1 2 3\n", "1\n2\t3", true),
  CheckCase("tokens", "1 2 3", "  1 2 3  \r\n\r\n", true),
  CheckCase("tokens", "", "\n \t", true),
  CheckCase("tokens", "1 2 3", "1 2 4", false, "word 3 (line 1): expected \"3\", got \"4\""),
  CheckCase("tokens", "1 2 3", "1 2", false, "expected 3 words, got 2"),
  CheckCase("tokens", "1.0", "1", false, "expected \"1.0\", got \"1\""),
  CheckCase("tokens", "a", "", false, "expected 1 word, got 0"),
  // floats
  CheckCase("floats", "1.0 2.5", "1 2.5000001", true),
  CheckCase("floats", "0.333333", "0.3333333333", true),
  CheckCase("floats", "1.0", "1.01", false, "value 1 (line 1): expected 1.0, got 1.01"),
  CheckCase("floats", "nan", "NaN", true),
  CheckCase("floats", "nan", "0", false, "expected nan, got 0"),
  CheckCase("floats", "inf", "Infinity", true),
  CheckCase("floats", "-inf", "-INF", true),
  CheckCase("floats", "inf", "-inf", false, "expected inf"),
  CheckCase("floats", "inf", "1e308", false, "expected inf"),
  CheckCase("floats", "1e308", "1.0000000001e308", true),
  CheckCase("floats", "1e300", "1.1e300", false, "value 1"),
  CheckCase("floats", "123456789012345678901234567890", "1.23456789012345678901234567890e29", true),
  CheckCase("floats", "1e400", "inf", true),
  CheckCase("floats", "1.5 IMPOSSIBLE", "1.5 IMPOSSIBLE", true),
  CheckCase("floats", "1.5 IMPOSSIBLE", "1.5 impossible", false, "expected \"IMPOSSIBLE\""),
  CheckCase("floats", "1.5", "abc", false, "expected the number 1.5, got \"abc\""),
  CheckCase("floats", "1", "0x1", false, "expected the number 1"),
  CheckCase("floats", "1 2", "1", false, "expected 2 values, got 1"),
  CheckCase("floats", "", "", true),
  CheckCase("floats", "1", "1.05", true, options: ["epsilon": 0.1]),
  CheckCase("floats", "1", "1.0000001", false, "allowed error 0", options: ["epsilon": 0]),
  // unordered
  CheckCase("unordered", "a\nb\nb\n", "b\r\na\nb  \n\n", true),
  CheckCase("unordered", "a\nb\nb\n", "a\nb\n", false, "expected the line \"b\" twice, got it once"),
  CheckCase("unordered", "a\nb\n", "a\nb\nc\n", false, "unexpected line \"c\""),
  CheckCase("unordered", "3 1 2", "1 2\n3", true, options: ["by": "tokens"]),
  CheckCase(
    "unordered", "3 1 2", "1 2 2", false, "expected the word \"3\" once, got it 0 times",
    options: ["by": "tokens"]),
  CheckCase("unordered", "", "", true),
  CheckCase("unordered", "x", "", false, "got it 0 times"),
  // Read lazily: trailing empty lines (CRLF or not) end the text wherever they are long runs, and a
  // run of empty lines followed by text is not trailing.
  CheckCase("lines", "a\n", "a\r\n\r\n" + String(repeating: "\n", count: 10_000), true),
  CheckCase(
    "lines", "a\n", "a" + String(repeating: "\n", count: 10_000) + "b", false,
    "line 2: expected end of output, got an empty line"),
  CheckCase("lines", "a\nb", "a  \t\r\nb\u{0B}", true),
  CheckCase("unordered", "a\nb", "b\na" + String(repeating: "\n", count: 1000), true),
  CheckCase("unordered", "a\nb", "b\n\na", false, "unexpected line (empty)"),
  CheckCase(
    "tokens", "1", String(repeating: "1 ", count: 100_000), false, "expected 1 word, got 100000: extra \"1\" on line 1",
    symmetric: false),
  CheckCase(
    "tokens", String(repeating: "1 ", count: 5) + "2", "1 1", false, "expected 6 words, got 2: word 3 should be \"1\"",
    symmetric: false),
  CheckCase("floats", "1.5", "1.5 2 3", false, "expected 1 value, got 3: extra \"2\" on line 1", symmetric: false),
  CheckCase("yes_no", "yes no", "YES", false, "expected 2 answers, got 1: answer 2 is missing", symmetric: false),
  // yes_no
  CheckCase("yes_no", "YES", "yes", true),
  CheckCase("yes_no", "No\nyes\n", "NO YES\r\n", true),
  CheckCase("yes_no", "YES", "NO", false, "expected YES, got \"NO\"", symmetric: false),
  CheckCase("yes_no", "NO", "YES", false, "expected NO, got \"YES\"", symmetric: false),
  CheckCase("yes_no", "YES", "", false, "answer 1 is missing", symmetric: false),
  CheckCase("yes_no", "YES", "maybe", false, "expected YES or NO, got \"maybe\"", symmetric: false),
  CheckCase("yes_no", "YES", "YES NO", false, "extra \"NO\"", symmetric: false),
]

@Suite struct CheckerTests {
  /// Options are read by the strict reader: every problem, each with its key, in one error.
  @Test func everyOptionProblemIsNamed() {
    #expect(
      throws: CheckerConfigurationError(
        checker: "floats",
        message:
          "option colour: unknown key; known keys: epsilon, non_numbers; option epsilon: expected a number, got a string"
      )
    ) { try Checkers.make(name: "floats", options: ["epsilon": "small", "colour": 1]) }
    #expect(
      throws: CheckerConfigurationError(
        checker: "steps", message: "option max_steps: 0 is out of range: expected a whole number from 1 to 1000000"
      )
    ) { try Checkers.make(name: "steps", options: ["fields": ["array"], "max_steps": 0]) }
    #expect(
      throws: CheckerConfigurationError(checker: "steps", message: "option max_steps: expected a whole number, got 1.5")
    ) {
      try Checkers.make(name: "steps", options: ["fields": ["array"], "max_steps": 1.5])
    }
  }

  @Test(arguments: checkCases)
  func checks(_ item: CheckCase) throws {
    let checker = try Checkers.make(name: item.checker, options: item.options)
    let result = try checker.check(input: "", expected: item.expected, output: item.output)
    #expect(result.verdict == (item.accepted ? .accepted : .wrongAnswer), "\(result.message)")
    #expect(result.score == (item.accepted ? 1 : 0))
    if item.accepted {
      #expect(result.message.isEmpty)
    } else {
      #expect(result.message.contains(item.message), "message: \(result.message)")
    }
  }

  @Test(arguments: checkCases.filter(\.symmetric))
  func swappedOrder(_ item: CheckCase) throws {
    let checker = try Checkers.make(name: item.checker, options: item.options)
    let result = try checker.check(input: "", expected: item.output, output: item.expected)
    #expect(result.verdict == (item.accepted ? .accepted : .wrongAnswer), "\(result.message)")
  }

  @Test(
    arguments: [
      ("exact", ["x": JSONValue.bool(true)]),
      ("floats", ["epsilon": "big"]),
      ("floats", ["epsilon": -1]),
      ("floats", ["epsilon": 1]),
      ("floats", ["non_numbers": "maybe"]),
      ("unordered", ["by": "words"]),
      ("steps", [:]),
      ("steps", ["fields": []]),
      ("steps", ["fields": [1]]),
      ("steps", ["fields": ["a", "a"]]),
      ("steps", ["fields": ["a"], "max_steps": 0]),
      ("steps", ["fields": ["a"], "max_steps": 1.5]),
      ("nonsense", [:]),
    ] as [(String, CheckerOptions)])
  func misconfiguredCheckersThrow(_ name: String, _ options: CheckerOptions) {
    #expect(throws: CheckerConfigurationError.self) { try Checkers.make(name: name, options: options) }
  }

  @Test func unusableExpectedAnswersAreConfigurationErrors() throws {
    let yesNo = try YesNoChecker(options: [:])
    #expect(throws: CheckerConfigurationError.self) { try yesNo.check(input: "", expected: "maybe", output: "YES") }
    let floats = try FloatsChecker(options: ["non_numbers": "reject"])
    #expect(throws: CheckerConfigurationError.self) { try floats.check(input: "", expected: "1 x", output: "1 x") }
    let steps = try StepChecker(fields: ["a"])
    #expect(throws: CheckerConfigurationError.self) {
      try steps.check(input: "", expected: "@step {oops", output: "")
    }
  }

  @Test func everyNamedCheckerIsMade() throws {
    for name in Checkers.names where name != StepChecker.name {
      _ = try Checkers.make(name: name)
    }
    _ = try Checkers.make(name: StepChecker.name, options: ["fields": ["array"]])
  }

  @Test func doubleCompareSemantics() {
    #expect(FloatsChecker.matches(expected: .nan, actual: .nan, epsilon: 1e-6))
    #expect(!FloatsChecker.matches(expected: 1, actual: .nan, epsilon: 1e-6))
    #expect(!FloatsChecker.matches(expected: .infinity, actual: .greatestFiniteMagnitude, epsilon: 1e-6))
    #expect(!FloatsChecker.matches(expected: .greatestFiniteMagnitude, actual: .infinity, epsilon: 1e-6))
    #expect(FloatsChecker.matches(expected: 0, actual: 1e-7, epsilon: 1e-6))
    #expect(FloatsChecker.matches(expected: 1e10, actual: 1e10 + 1000, epsilon: 1e-6))
    #expect(!FloatsChecker.matches(expected: 1e10, actual: 1e10 + 100_000, epsilon: 1e-6))
    #expect(FloatsChecker.number("1.") == 1)
    #expect(FloatsChecker.number(".5") == 0.5)
    #expect(FloatsChecker.number("-2e-3") == -0.002)
    #expect(FloatsChecker.number("1e") == nil)
    #expect(FloatsChecker.number(".") == nil)
    #expect(FloatsChecker.number("--1") == nil)
    #expect(FloatsChecker.number("1,5") == nil)
  }
}
