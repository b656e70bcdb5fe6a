import Foundation
import Grading
import Runners
import Testing
import Wire

@testable import Challenges

/// The step recorder inside a function challenge: the learner's function imports it as any program
/// would, the driver still reports the result, and the steps land where the driver puts the
/// learner's output (the test's stderr capture). Reading them from there is the grader's business.
@Suite struct RecorderInFunctionTests {
  static let challengeText = """
    {"title": "Sort with the recorder", "statement": "Sort.",
     "function": {"name": "sort_items", "params": [{"name": "items", "type": "int[]"}], "returns": "int[]"},
     "tests": [{"name": "three", "args": {"items": [3, 1, 2]}, "expected": [1, 2, 3]},
               {"name": "two", "args": {"items": [2, 1]}, "expected": [1, 2]}]}
    """

  /// Bubble sort through the recorder: the steps of [3, 1, 2] are compare, swap, compare, swap,
  /// compare, done (and of [2, 1] compare, swap, done).
  static let solutions = [
    "python": """
    from dsa import Recorder

    def sort_items(items: list[int]) -> list[int]:
        rec = Recorder(items)
        for end in range(len(items) - 1, 0, -1):
            for i in range(end):
                rec.compare(i, i + 1)
                if rec.array[i] > rec.array[i + 1]:
                    rec.swap(i, i + 1)
        rec.done()
        return rec.array

    """,
    "javascript": """
    const { Recorder } = require('dsa');

    function sortItems(items) {
      const rec = new Recorder(items);
      for (let end = items.length - 1; end > 0; end--) {
        for (let i = 0; i < end; i++) {
          rec.compare(i, i + 1);
          if (rec.array[i] > rec.array[i + 1]) rec.swap(i, i + 1);
        }
      }
      rec.done();
      return rec.array;
    }

    """,
    "cpp": """
    #include <bits/stdc++.h>
    #include <dsa/recorder.hpp>
    using namespace std;

    vector<long long> sortItems(vector<long long> items) {
        dsa::Recorder rec(items);
        for (size_t end = items.size(); end-- > 1;) {
            for (size_t i = 0; i < end; i++) {
                rec.compare(i, i + 1);
                if (rec.array()[i] > rec.array()[i + 1]) rec.swap(i, i + 1);
            }
        }
        rec.done();
        return rec.array();
    }

    """,
  ]

  @Test(arguments: ["python", "javascript", "cpp"])
  func aFunctionUsingTheRecorderIsGradedAndItsStepsReachTheTestsOutput(language: String) throws {
    try #require(GradingFixture.isInstalled(language), "needs \(language): scripts/install-toolchains \(language)")
    let challenge = try ChallengeLoader.decodeInline(Data(Self.challengeText.utf8), id: "recorder-function").get()
    let source = try #require(Self.solutions[language])
    let result = try GradingFixture.grader.grade(
      challenge, language: language, files: [SourceFile(name: "", contents: Data(source.utf8))])
    #expect(
      result.verdict == .accepted,
      "\(language): \(result.message) \(result.tests.map(\.stderr)) \(result.compile?.message ?? "")")
    let actions = result.tests.map { test in
      test.stderr.split(separator: "\n").filter { $0.hasPrefix("@step {") }.compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any])?["action"] as? String
      }
    }
    #expect(
      actions == [["compare", "swap", "compare", "swap", "compare", "done"], ["compare", "swap", "done"]],
      "\(language): \(result.tests.map(\.stderr))")
  }
}
