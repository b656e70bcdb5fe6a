import Foundation
import Grading
import Runners
import Testing
import Wire

@testable import Challenges

/// `trace(n) -> 2n`, whose steps are `visit 1..n`; `tests` are (name, n, expected value, expected
/// nodes visited), each test's steps inline.
private func traceChallenge(_ tests: [(String, Int, Int, [Int])]) throws -> Challenge {
  let listed = tests.map { name, n, value, nodes in
    let steps = nodes.map { #"@step {\"action\": \"visit\", \"node\": \#($0), \"caption\": \"Visit \#($0)\"}"# }
    return #"{"name": "\#(name)", "args": {"n": \#(n)}, "expected": \#(value), "expected_steps": ""#
      + steps.joined(separator: "\\n") + #""}"#
  }
  let json = """
    {"title": "trace", "statement": "Trace.", "limits": {"cpu_ms": 2000, "wall_ms": 5000},
     "function": {"name": "trace", "params": [{"name": "n", "type": "int"}], "returns": "int"},
     "checker": {"name": "steps", "options": {"fields": ["action", "node"]}},
     "tests": [\(listed.joined(separator: ",\n"))]}
    """
  switch ChallengeLoader.decodeInline(Data(json.utf8), id: "trace") {
  case .success(let challenge): return challenge
  case .failure(let error): throw error
  }
}

private func grade(_ challenge: Challenge, _ language: String, _ source: String) throws -> GradeResult {
  try GradingFixture.grader.grade(
    challenge, language: language, files: [SourceFile(name: "", contents: Data(source.utf8))])
}

/// `trace` in each language, printing its step lines by hand as the recorder will.
private let traceSources = [
  "python": """
  import json

  # Printed while the file loads, before any test: no test's step.
  print('@step {"action": "visit", "node": 0, "caption": "loading"}')

  def trace(n):
      for k in range(1, n + 1):
          print("@step " + json.dumps({"action": "visit", "node": k, "caption": "Visit %d" % k}))
      return 2 * n

  """,
  "javascript": """
  function trace(n) {
    for (let k = 1; k <= n; k++) console.log('@step {"action": "visit", "node": ' + k + ', "caption": "Visit ' + k + '"}');
    return 2 * n;
  }

  """,
  "cpp": #"""
  #include <bits/stdc++.h>
  using namespace std;

  long long trace(long long n) {
      for (long long k = 1; k <= n; k++)
          cout << "@step {\"action\": \"visit\", \"node\": " << k << ", \"caption\": \"Visit " << k << "\"}" << endl;
      return 2 * n;
  }

  """#,
  "java": #"""
  class Solution {
      public static long trace(long n) {
          for (long k = 1; k <= n; k++)
              System.out.println("@step {\"action\": \"visit\", \"node\": " + k + ", \"caption\": \"Visit " + k + "\"}");
          return 2 * n;
      }
  }

  """#,
  "kotlin": #"""
  class Solution {
      fun trace(n: Long): Long {
          for (k in 1..n) println("@step {\"action\": \"visit\", \"node\": $k, \"caption\": \"Visit $k\"}")
          return 2 * n
      }
  }

  """#,
  "go": #"""
  package main

  import "fmt"

  func Trace(n int) int {
  	for k := 1; k <= n; k++ {
  		fmt.Printf("@step {\"action\": \"visit\", \"node\": %d, \"caption\": \"Visit %d\"}\n", k, k)
  	}
  	return 2 * n
  }

  """#,
  "dart": #"""
  int trace(int n) {
    for (var k = 1; k <= n; k++) print('@step {"action": "visit", "node": $k, "caption": "Visit $k"}');
    return 2 * n;
  }

  """#,
]

@Suite struct FunctionStepsTests {
  /// The steps a function prints during a test are that test's, compared beside its value: both must
  /// pass, and the score is the steps' when the value is right, else 0.
  @Test(arguments: ["python", "javascript", "cpp", "java", "go", "kotlin", "dart"])
  func stepsAreComparedBesideTheValue(language: String) throws {
    try #require(GradingFixture.isInstalled(language))
    let challenge = try traceChallenge([
      ("one", 1, 2, [1]), ("three", 3, 6, [1, 2, 3]),
      ("steps-differ", 3, 6, [1, 9, 3]), ("value-differs", 2, 5, [1, 2]),
    ])
    let result = try grade(challenge, language, traceSources[language]!)
    let summary = result.tests.map { "\($0.name) \($0.verdict.rawValue): \($0.message)" }
    #expect(result.tests.map(\.verdict) == [.accepted, .accepted, .wrongAnswer, .wrongAnswer], "\(summary)")
    #expect(result.tests[2].firstDifference?.step == 2, "\(summary)")
    #expect(abs(result.tests[2].score - 1.0 / 3.0) < 1e-9, "\(result.tests[2].score)")
    #expect(result.tests[3].score == 0)
    #expect(
      result.tests[3].message == "The steps are right, but the value is not: Expected 5, your function returned 4.",
      "\(summary)")
    // The failed test's details show the steps that still matched.
    #expect(result.tests[2].details?.lastMatchingStep == .object(["action": .string("visit"), "node": .number(1)]))
  }

  /// A learner's `@begin` line moves no steps between tests: without the run's nonce it is ordinary
  /// output of the test that printed it; with the nonce (dug out of the driver's frame) the steps of
  /// the test it names are refused rather than taken from the wrong test.
  @Test func forgedTestMarkersMoveNoSteps() throws {
    try #require(GradingFixture.isInstalled("python"))
    let challenge = try traceChallenge([("one", 1, 2, [1]), ("two", 2, 4, [1, 2])])
    let stepLines = """
              print('@step {"action": "visit", "node": 1, "caption": "Visit 1"}')
              print('@step {"action": "visit", "node": 2, "caption": "Visit 2"}')
      """
    // Test "two" prints nothing: only a split at the fake marker would give it its steps.
    let guessed = """
      def trace(n):
          if n == 1:
              print('@step {"action": "visit", "node": 1, "caption": "Visit 1"}')
              print("@begin 0123456789abcdef0123456789abcdef 1")
      \(stepLines)
          return 2 * n

      """
    let withGuess = try grade(challenge, "python", guessed)
    #expect(withGuess.tests.map(\.verdict) == [.wrongAnswer, .wrongAnswer], "\(withGuess.tests.map(\.message))")
    #expect(withGuess.tests[0].message.contains("step 2 is extra"), "\(withGuess.tests[0].message)")

    let stolen = """
      import sys

      def trace(n):
          if n == 1:
              nonce = sys._getframe(1).f_locals["nonce"]
              print('@step {"action": "visit", "node": 1, "caption": "Visit 1"}')
              print("\\n@begin " + nonce + " 1", flush=True)
      \(stepLines)
          return 2 * n

      """
    let withNonce = try grade(challenge, "python", stolen)
    #expect(withNonce.tests.map(\.verdict) == [.accepted, .wrongAnswer], "\(withNonce.tests.map(\.message))")
    #expect(withNonce.tests[1].message.contains("copy of the driver's test marker"), "\(withNonce.tests[1].message)")
  }

  @Test func theLoaderReadsStepsInFunctionChallengesStrictly() {
    func problems(checker: String = #"{"name": "steps", "options": {"fields": ["action"]}}"#, test: String) -> [String]
    {
      let json = """
        {"title": "t", "statement": "s",
         "function": {"name": "trace", "params": [{"name": "n", "type": "int"}], "returns": "int"},
         \(checker.isEmpty ? "" : "\"checker\": \(checker),") "tests": [\(test)]}
        """
      return ChallengeLoader.decodeInline(Data(json.utf8), id: "t").problems
    }
    let step = #"@step {\"action\": \"visit\", \"caption\": \"Visit\"}"#
    #expect(problems(test: #"{"args": {"n": 1}, "expected": 2, "expected_steps": "\#(step)"}"#) == [])
    #expect(
      problems(test: #"{"args": {"n": 1}, "expected": 2}"#) == [
        "challenge t: tests[0]: expected_steps is required: the challenge has no reference to take the steps from"
      ])
    #expect(
      problems(checker: #"{"name": "lines"}"#, test: #"{"args": {"n": 1}, "expected": 2}"#).first?.contains(
        "its only checker is steps") == true)
    #expect(
      problems(checker: "", test: #"{"args": {"n": 1}, "expected": 2, "expected_steps": "\#(step)"}"#) == [
        "challenge t: tests[0].expected_steps: is only for the steps checker"
      ])
    #expect(
      problems(test: #"{"args": {"n": 1}, "expected": 2, "expected_steps": "@step {\"node\": 1, \"caption\": \"x\"}"}"#)
        == [
          "challenge t: checker.options.fields: the checker compares field \"action\", which no step from the file has"
        ])
  }

  /// `reference`: its steps are recorded into expected/ with a stamp; a load uses them only while the
  /// stamp matches, and a reference that fails a test is not recorded.
  @Test func referenceStepsAreRecordedAndUsedOnlyWhileFresh() throws {
    try #require(GradingFixture.isInstalled("python"))
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let reference = traceSources["python"]!
    let fixture = ChallengeFixture(
      id: "traced",
      description: [
        "title": "trace", "statement": "statement.md",
        "function": ["name": "trace", "params": [["name": "n", "type": "int"]], "returns": "int"],
        "checker": ["name": "steps", "options": ["fields": ["action", "node"]]],
        "reference": "solutions/correct/solution.py",
        "tests": [
          ["name": "one", "args": ["n": 1], "expected": 2],
          ["name": "two", "args": ["n": 2], "expected": 4, "hidden": true],
        ],
      ],
      files: ["statement.md": Data("Trace.".utf8), "solutions/correct/solution.py": Data(reference.utf8)])
    let directory = try fixture.write(under: temporary.path)

    let unrecorded = ChallengeLoader.load(directory: directory).problems
    #expect(unrecorded.count == 2, "\(unrecorded)")
    #expect(
      unrecorded.first?.contains(
        "(expected/stamp.json is missing); record them again: dsa-run challenges --check --record")
        == true, "\(unrecorded)")

    func record() throws -> ReferenceRecorder.Recording {
      guard case .success(let challenge) = ChallengeLoader.load(directory: directory, recording: true) else {
        throw ChallengeLoadError(problems: [])
      }
      #expect(challenge.reference?.recordedTests == [0, 1])
      let recording = try ReferenceRecorder(executor: GradingFixture.executor).record(challenge)
      if recording.problems.isEmpty {
        try ReferenceRecorder.write(recording, reference: challenge.reference!, to: directory)
      }
      return recording
    }
    #expect(try record().problems == [])
    let recorded = try #require(try? ChallengeLoader.load(directory: directory).get())
    #expect(recorded.tests[1].expectedSteps?.count == 2)
    #expect(try grade(recorded, "python", reference).verdict == .accepted)
    let skipping = reference.replacingOccurrences(of: "range(1, n + 1)", with: "range(2, n + 1)")
    #expect(try grade(recorded, "python", skipping).tests.map(\.verdict) == [.wrongAnswer, .wrongAnswer])

    // A changed reference, then a hand-edited steps file, make the recorded steps stale.
    let referencePath = directory + "/solutions/correct/solution.py"
    try Data((reference + "# changed\n").utf8).write(to: URL(fileURLWithPath: referencePath))
    #expect(
      ChallengeLoader.load(directory: directory).problems.first?.contains(
        "the reference changed since they were recorded") == true)
    try Data(reference.utf8).write(to: URL(fileURLWithPath: referencePath))
    #expect(ChallengeLoader.load(directory: directory).problems == [])
    try Data("@step {\"action\": \"visit\", \"node\": 1, \"caption\": \"Visit 1\"}\n".utf8).write(
      to: URL(fileURLWithPath: directory + "/expected/two.steps"))
    #expect(
      ChallengeLoader.load(directory: directory).problems == [
        "challenge traced: tests[1]: the steps recorded from the reference solutions/correct/solution.py are out of "
          + "date (expected/two.steps is not what was recorded); record them again: dsa-run challenges --check "
          + "--record \(directory)"
      ])

    // A reference that fails a test is not recorded, and the test is named.
    let failing = reference.replacingOccurrences(of: "return 2 * n", with: "return 2 * n if n < 2 else 0")
    try Data(failing.utf8).write(to: URL(fileURLWithPath: referencePath))
    let problems = try record().problems
    #expect(
      problems.count == 1 && problems[0].hasPrefix("test two: the reference failed it: wrong_answer"), "\(problems)")
  }

  @Test func inlineChallengesTakeNoReference() {
    let json = """
      {"title": "t", "statement": "s", "reference": "solution.py",
       "function": {"name": "trace", "params": [{"name": "n", "type": "int"}], "returns": "int"},
       "checker": {"name": "steps", "options": {"fields": ["action"]}},
       "tests": [{"args": {"n": 1}, "expected": 2}]}
      """
    let problems = ChallengeLoader.decodeInline(Data(json.utf8), id: "t").problems
    #expect(
      problems.first?.hasPrefix("challenge t: reference: is only for a challenge directory") == true, "\(problems)")
  }
}
