import Foundation
import Runners
import Testing

@testable import Challenges

/// The grade's time bound covers the tests' wall time: a test that would outlast it gets only what
/// is left, so a sleeping program holds its box for the bound, not tests x wall.
@Suite struct GradeBudgetTests {
  @Test func aSleepingProgramsGradeEndsWithinTheBound() throws {
    var fixture = ChallengeFixture.sum(tests: 7)
    // The case: 7 tests of 8 s wall each, 56 s in all without a bound on the whole.
    fixture["limits"] = ["wall_ms": 8000]
    let result = try grade(
      fixture, "python", "import time\ntime.sleep(60)\n",
      options: GradeOptions(parallelism: 1, timeBoundMilliseconds: 1500))
    #expect(result.tests[0].verdict == .skipped)
    #expect(result.tests[0].message == "Stopped: grading reached its bound of 1.5 s while this test ran.")
    #expect(result.tests.dropFirst().allSatisfy { $0.verdict == .skipped })
    #expect(result.verdict == .timeLimit)
    #expect(result.message.contains("before 7 test(s) could finish"))
    // Generous against the bound (1.5 s), far below one test's own wall limit (8 s).
    #expect(result.wallMilliseconds < 6000, "\(result.wallMilliseconds) ms")
    #expect(result.tests[0].wallMilliseconds <= 1500 + 500)
  }

  @Test func testsWithinTheBoundKeepTheirOwnLimits() throws {
    var fixture = ChallengeFixture.sum(tests: 2)
    fixture["limits"] = ["wall_ms": 700]
    let result = try grade(
      fixture, "python", "import time\ntime.sleep(60)\n",
      options: GradeOptions(parallelism: 1, timeBoundMilliseconds: 60_000))
    // Each test's own wall limit stops it: a real time limit, not the bound.
    #expect(result.tests.map(\.verdict) == [.timeLimit, .timeLimit])
  }
}
