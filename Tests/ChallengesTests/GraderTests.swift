import Foundation
import Grading
import Runners
import Testing

@testable import Challenges

/// A correct insertion sort with the step helper, which also prints debug lines.
let insertionSortPython = """
  import json, sys
  def step(**fields):
      print("@step " + json.dumps(fields), flush=True)
  data = sys.stdin.read().split()
  n = int(data[0]); a = [int(x) for x in data[1:1 + n]]
  print("debug: sorting", a)
  for i in range(1, n):
      j = i
      while j > 0:
          step(action="compare", active=[j - 1, j], array=a)
          if a[j - 1] <= a[j]:
              break
          a[j - 1], a[j] = a[j], a[j - 1]
          step(action="swap", active=[j - 1, j], array=a)
          j -= 1
  step(action="done", active=[], array=a)
  print(*a)

  """

/// Stops a pass after its first swap once past the second item: right on [5, 2, 4], wrong at step
/// 6 of [4, 3, 2, 1].
let wrongInsertionSortPython = insertionSortPython.replacingOccurrences(
  of: "if a[j - 1] <= a[j]:", with: "if a[j - 1] <= a[j] or j < i:")

/// The steps-only variant of the insertion sort fixture.
func stepsOnly() -> ChallengeFixture {
  var fixture = ChallengeFixture.insertionSort()
  fixture["output_checker"] = nil
  fixture.setTest(0, "expected_stdout", nil)
  fixture.setTest(1, "expected_stdout", nil)
  return fixture
}

func grade(
  _ fixture: ChallengeFixture, _ language: String, _ source: String, options: GradeOptions = GradeOptions()
) throws -> GradeResult {
  let challenge = try fixture.load().get()
  return try GradingFixture.grader.grade(
    challenge, language: language, files: [SourceFile(name: "", contents: Data(source.utf8))], options: options)
}

@Suite struct GraderTests {
  @Test func stepsOnlyChallengeIgnoresDebugLines() throws {
    let result = try grade(stepsOnly(), "python", insertionSortPython)
    #expect(result.verdict == .accepted, "\(result.message)")
    #expect(result.score == 1)
    #expect(result.tests.map(\.verdict) == [.accepted, .accepted])
    #expect(result.tests.allSatisfy { $0.wallMilliseconds > 0 && $0.memoryKilobytes > 0 })
    #expect(result.compile == nil && result.language == "python")
    #expect(result.wallMilliseconds > 0)
  }

  @Test func wrongStepsGiveTheFirstDifferenceWithItsCaption() throws {
    let result = try grade(stepsOnly(), "python", wrongInsertionSortPython)
    #expect(result.verdict == .wrongAnswer)
    #expect(result.tests[0].verdict == .accepted)
    let failed = result.tests[1]
    #expect(failed.verdict == .wrongAnswer)
    let difference = try #require(failed.firstDifference)
    #expect(difference.step == 6)
    #expect(difference.caption == "3 is larger than 2, so shift it right.")
    #expect(difference.expected == ["action": "swap", "active": [0, 1], "array": [2, 3, 4, 1]])
    #expect(difference.actual == ["action": "compare", "active": [2, 3], "array": [3, 2, 4, 1]])
    #expect(result.message.hasPrefix("Test reversed: step 6 differs: expected action \"swap\", got \"compare\""))
    // The matched prefix scores: 5 of the 13 expected steps (the program printed 10).
    #expect(failed.score == 5.0 / 13.0)
    #expect(result.score == (1 + 2 * failed.score) / 3)
  }

  @Test func outputCheckerMustPassToo() throws {
    let result = try grade(ChallengeFixture.insertionSort(), "python", insertionSortPython)
    #expect(result.verdict == .wrongAnswer, "the debug line is part of the ordinary output")
    #expect(result.tests[0].message.hasPrefix("The steps are right, but the output (without step lines) is not"))
    #expect(result.tests[0].score == 0)
    let clean = insertionSortPython.replacingOccurrences(of: "print(\"debug: sorting\", a)\n", with: "")
    #expect(try grade(ChallengeFixture.insertionSort(), "python", clean).verdict == .accepted)
  }

  /// Step lines, even malformed ones, are for the step player: output checkers never see them.
  @Test func stepLinesAreLeftOutOfOutputChecks() throws {
    let source = """
      print('@step {"i": 1}')
      print('@step not json')
      print(sum(map(int, input().split())))

      """
    let result = try grade(ChallengeFixture.sum(tests: 2), "python", source)
    #expect(result.verdict == .accepted, "\(result.message)")
  }

  @Test func garbageStepLineIsAWrongAnswerNamingTheLine() throws {
    let result = try grade(stepsOnly(), "python", "print('hello')\nprint('@step {not json')\n")
    #expect(result.verdict == .wrongAnswer)
    #expect(
      result.tests[0].message.contains("line 2: \"@step \" must be followed by one JSON object"),
      "\(result.tests[0].message)")
  }

  @Test func aMillionStepLinesAreAClearWrongAnswer() throws {
    var fixture = stepsOnly()
    fixture["limits"] = ["output_kb": 16384]
    let started = Date()
    let result = try grade(fixture, "python", "import sys\nsys.stdout.write('@step {}\\n' * 1000000)\n")
    #expect(result.verdict == .wrongAnswer)
    #expect(result.tests[0].message.contains("line 10001: more than 10000 steps"), "\(result.tests[0].message)")
    #expect(Date().timeIntervalSince(started) < 20)
  }

  @Test func stopAtFirstFailureSkipsTheRest() throws {
    let result = try grade(
      ChallengeFixture.sum(tests: 5), "python", "print(0)\n",
      options: GradeOptions(parallelism: 1, stopAtFirstFailure: true))
    #expect(result.tests.map(\.verdict) == [.wrongAnswer, .skipped, .skipped, .skipped, .skipped])
    #expect(result.tests[1].message.contains("an earlier test failed"))
    #expect(result.verdict == .wrongAnswer && result.score == 0)
    let all = try grade(ChallengeFixture.sum(tests: 5), "python", "print(0)\n")
    #expect(all.tests.allSatisfy { $0.verdict == .wrongAnswer })
  }

  @Test func cppIsCompiledOnceAndRunOnEveryTest() throws {
    try #require(GradingFixture.isInstalled("cpp"), "g++ is missing; install it with scripts/install-toolchains cpp")
    let source = """
      #include <iostream>
      // \(UUID().uuidString): a fresh cache key
      int main() { long long total = 0, x; while (std::cin >> x) total += x; std::cout << total << "\\n"; }

      """
    let first = try grade(ChallengeFixture.sum(tests: 8), "cpp", source, options: GradeOptions(parallelism: 3))
    #expect(first.verdict == .accepted, "\(first.message)")
    #expect(first.tests.count == 8 && first.score == 1)
    #expect(first.compile?.status == .ok && !first.compileCacheHit)
    let second = try grade(ChallengeFixture.sum(tests: 8), "cpp", source)
    #expect(second.compileCacheHit && second.compile == nil && second.verdict == .accepted)
  }

  @Test func compileErrorSkipsEveryTest() throws {
    try #require(GradingFixture.isInstalled("cpp"), "g++ is missing; install it with scripts/install-toolchains cpp")
    let result = try grade(ChallengeFixture.sum(), "cpp", "int main( {\n")
    #expect(result.verdict == .compileError)
    #expect(result.compile?.status == .compileError)
    #expect(result.tests.allSatisfy { $0.verdict == .skipped && $0.message.contains("did not compile") })
    #expect(result.score == 0)
  }

  @Test func runFailuresAreTheTestsVerdicts() throws {
    let crash = try grade(ChallengeFixture.sum(tests: 1), "python", "raise ValueError('boom')\n")
    #expect(crash.verdict == .runtimeError)
    #expect(crash.tests[0].stderr.contains("ValueError: boom"))
    var limited = ChallengeFixture.sum(tests: 1)
    limited["limits"] = ["cpu_ms": 300]
    let slow = try grade(limited, "python", "while True: pass\n")
    #expect(slow.verdict == .timeLimit)
    #expect(slow.tests[0].cpuMilliseconds >= 250)
  }

  @Test func timeBoundSkipsTestsNotStartedInTime() throws {
    let result = try grade(
      ChallengeFixture.sum(tests: 6), "python", "import time\ntime.sleep(0.3)\nprint(sum(map(int, input().split())))\n",
      options: GradeOptions(parallelism: 1, timeBoundMilliseconds: 500))
    #expect(result.tests[0].verdict == .accepted)
    #expect(result.tests.last?.verdict == .skipped)
    #expect(result.tests.last?.message.contains("bound of 0.5 s") == true)
    #expect(result.verdict == .timeLimit)
    #expect(result.message.contains("before"))
    #expect(result.score > 0 && result.score < 1)
  }

  @Test func weightedScore() throws {
    var fixture = ChallengeFixture.sum(tests: 2)
    fixture.setTest(1, "points", 3)
    // Right on test 1 (7), wrong on test 2 (7 + 14 = 21).
    let result = try grade(fixture, "python", "print(7)\n")
    #expect(result.tests.map(\.verdict) == [.accepted, .wrongAnswer])
    #expect(result.score == 0.25)
  }

  @Test func referenceSolutionsAreVerified() throws {
    var fixture = stepsOnly()
    fixture.files["solutions/correct/main.py"] = Data(insertionSortPython.utf8)
    fixture.files["solutions/wrong/main.py"] = Data(wrongInsertionSortPython.utf8)
    fixture["wrong_solution"] = ["verdict": "wrong_answer", "test": "reversed", "step": 6]
    let challenge = try fixture.load().get()
    for solution in challenge.solutions {
      let verification = try GradingFixture.grader.verify(solution, of: challenge)
      #expect(verification.problem == nil, "\(solution.kind): \(verification.problem ?? "")")
    }
    fixture["wrong_solution"] = ["verdict": "wrong_answer", "test": "reversed", "step": 5]
    let expectingStep5 = try fixture.load().get()
    let wrong = try #require(expectingStep5.solutions.first { $0.kind == .wrong })
    #expect(
      try GradingFixture.grader.verify(wrong, of: expectingStep5).problem
        == "expected wrong_answer on test reversed at step 5, got wrong_answer on test reversed at step 6")
    let correctAsWrong = ChallengeSolution(kind: .wrong, language: "python", file: wrong.file)
    var swapped = correctAsWrong
    swapped.file = SourceFile(name: "main.py", contents: Data(insertionSortPython.utf8))
    #expect(
      try GradingFixture.grader.verify(swapped, of: expectingStep5).problem
        == "expected wrong_answer on test reversed at step 5, got accepted on test reversed with no step difference")
  }
}
