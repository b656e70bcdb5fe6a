import Foundation
import Grading
import Runners
import Testing

@testable import Challenges

/// A testlib-protocol checker whose behaviour the test's input chooses (its first word).
let cppChecker = """
  #include <cstdlib>
  #include <fstream>
  #include <iostream>
  #include <string>
  int main(int argc, char** argv) {
    if (argc != 4) return 3;
    std::ifstream input(argv[1]), output(argv[2]), answer(argv[3]);
    std::string mode, got, want;
    input >> mode;
    output >> got;
    answer >> want;
    if (mode == "crash") std::abort();
    if (mode == "loop") for (volatile long i = 0;; ++i) {}
    if (mode == "fail") { std::cerr << "the answer file is unusable"; return 3; }
    if (mode == "partial") { std::cout << "0.25\\n"; std::cerr << "one of four"; return 7; }
    if (got == want) return 0;
    std::cerr << "expected " << want << ", got " << got;
    return 1;
  }

  """

let pythonChecker = """
  import sys
  mode = open(sys.argv[1]).read().split()[0]
  if mode == "pe":
      print("the answer must be a single number", file=sys.stderr)
      sys.exit(2)
  if mode == "noscore":
      print("lots")
      sys.exit(7)
  if mode == "five":
      sys.exit(5)
  if mode == "full":
      print("1")
      sys.exit(7)
  sys.exit(0)

  """

/// A challenge whose tests are `mode answer` and whose learner program echoes the answer word.
func checkerChallenge(language: String, source: String, file: String, modes: [(String, String)]) -> ChallengeFixture {
  var fixture = ChallengeFixture(
    id: "checked",
    description: [
      "title": "Checked", "statement": "statement.md",
      "checker": ["name": "program", "options": ["language": language, "source": file]],
    ],
    files: ["statement.md": Data("Echo the second word.\n".utf8), file: Data(source.utf8)])
  var tests: [[String: Any]] = []
  for (index, (input, answer)) in modes.enumerated() {
    fixture.files["tests/\(index).in"] = Data(input.utf8)
    fixture.files["tests/\(index).out"] = Data(answer.utf8)
    tests.append([
      "name": input.split(separator: " ")[0] + "-\(index)", "stdin": "tests/\(index).in",
      "expected_stdout": "tests/\(index).out",
    ])
  }
  fixture["tests"] = tests
  return fixture
}

let echoSecondWord = "print(input().split()[1])\n"

@Suite struct CheckerProgramTests {
  @Test func cppCheckerExitCodesMapToVerdicts() throws {
    try #require(GradingFixture.isInstalled("cpp"), "g++ is missing; install it with scripts/install-toolchains cpp")
    let fixture = checkerChallenge(
      language: "cpp", source: cppChecker, file: "checker.cpp",
      modes: [("same 5", "5"), ("same 6", "7"), ("partial 1", "1"), ("crash 1", "1"), ("loop 1", "1"), ("fail 1", "1")])
    var limits = StepLimits()
    limits.cpuMilliseconds = 300
    limits.wallMilliseconds = 2000
    let result = try grade(fixture, "python", echoSecondWord, options: GradeOptions(checkerLimits: limits))
    let byName = Dictionary(uniqueKeysWithValues: result.tests.map { ($0.name, $0) })
    #expect(byName["same-0"]?.verdict == .accepted)
    #expect(byName["same-1"]?.verdict == .wrongAnswer)
    #expect(byName["same-1"]?.message == "expected 7, got 6")
    #expect(byName["partial-2"]?.verdict == .wrongAnswer)
    #expect(byName["partial-2"]?.score == 0.25)
    #expect(byName["partial-2"]?.message == "Partly right (score 0.25): one of four")
    #expect(byName["crash-3"]?.verdict == .internalError)
    #expect(byName["crash-3"]?.message.contains("the checker crashed (SIGABRT)") == true)
    #expect(byName["loop-4"]?.verdict == .internalError)
    #expect(byName["loop-4"]?.message.contains("the checker ran out of time") == true)
    #expect(byName["fail-5"]?.verdict == .internalError)
    #expect(byName["fail-5"]?.message.contains("the answer file is unusable") == true)
    // The first non-accepted test in file order decides.
    #expect(result.verdict == .wrongAnswer)
    #expect(abs(result.score - 1.25 / 6) < 1e-9)
  }

  @Test func pythonCheckerExitCodesMapToVerdicts() throws {
    let fixture = checkerChallenge(
      language: "python", source: pythonChecker, file: "check.py",
      modes: [("ok 1", "1"), ("pe 1", "1"), ("noscore 1", "1"), ("five 1", "1"), ("full 1", "1")])
    let result = try grade(fixture, "python", echoSecondWord)
    #expect(result.tests.map(\.verdict) == [.accepted, .wrongAnswer, .internalError, .internalError, .accepted])
    #expect(result.tests[1].message == "The output is not in the expected form: the answer must be a single number")
    #expect(result.tests[2].message.contains("without a score from 0 to 1"))
    #expect(result.tests[3].message.contains("exited with code 5, which the testlib protocol does not define"))
    #expect(result.tests[2].message.hasPrefix("The challenge's checker failed, which is not your fault"))
    #expect(result.verdict == .wrongAnswer)
  }

  @Test func checkerThatDoesNotCompileIsAnInternalError() throws {
    try #require(GradingFixture.isInstalled("cpp"), "g++ is missing; install it with scripts/install-toolchains cpp")
    let fixture = checkerChallenge(
      language: "cpp", source: "int main( {", file: "checker.cpp", modes: [("same 1", "1"), ("same 2", "2")])
    let result = try grade(fixture, "python", echoSecondWord)
    #expect(result.verdict == .internalError)
    #expect(result.tests.allSatisfy { $0.verdict == .internalError && $0.message.contains("did not compile") })
  }
}
