import Foundation
import Glibc
import Grading
import Runners
import Sandbox
import SandboxTesting
import Testing

@testable import Challenges

/// The grader over the fake environment: verdicts, scores, skips and failures from scripted runs.
/// No kernel, no root (README, "Tests").
@Suite struct FakeEnvironmentGraderTests {
  /// A grader whose every run prints the sum of its stdin's numbers, except where `wrong` says.
  private func summingGrader(wrong: @escaping @Sendable (String) -> Bool = { _ in false }) -> (
    Grader, FakeEnvironmentPool
  ) {
    let pool = FakeEnvironmentPool { command in
      let input = String(decoding: command.stdin, as: UTF8.self)
      let sum = input.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }.reduce(0, +)
      return FakeRun(stdout: wrong(input) ? "0\n" : "\(sum)\n")
    }
    return (Grader(executor: TestExecutors.fake(pool)), pool)
  }

  private func grade(_ grader: Grader, _ fixture: ChallengeFixture, options: GradeOptions = GradeOptions()) throws
    -> GradeResult
  {
    try grader.grade(
      try fixture.load().get(), language: "python", files: [SourceFile(name: "", contents: Data("x".utf8))],
      options: options)
  }

  @Test func everyTestIsOneRunWithItsStdinAndTheChallengesLimits() throws {
    let (grader, pool) = summingGrader()
    var fixture = ChallengeFixture.sum(tests: 3)
    fixture["limits"] = ["cpu_ms": 900, "memory_mb": 32]
    let result = try grade(grader, fixture)
    #expect(result.verdict == .accepted && result.score == 1, "\(result.message)")
    #expect(result.tests.map(\.verdict) == [.accepted, .accepted, .accepted])
    let stdins = Set(pool.records.map { String(decoding: $0.stdin, as: UTF8.self) })
    #expect(stdins == ["7", "7 14", "7 14 21"])
    #expect(pool.records.allSatisfy { $0.limits.cpuTimeMilliseconds == 900 && $0.limits.memoryBytes == 32 << 20 })
    #expect(pool.environmentsOut == 0)
  }

  @Test func aWrongTestIsAWrongAnswerWeightedByPoints() throws {
    let (grader, _) = summingGrader(wrong: { $0 == "7 14" })
    var fixture = ChallengeFixture.sum(tests: 3)
    fixture.setTest(2, "points", 2)
    let result = try grade(grader, fixture)
    #expect(result.verdict == .wrongAnswer)
    #expect(result.tests.map(\.verdict) == [.accepted, .wrongAnswer, .accepted])
    #expect(result.score == 0.75)
  }

  @Test func stopAtTheFirstFailureSkipsTheTestsNotStarted() throws {
    let (grader, pool) = summingGrader(wrong: { $0 == "7" })
    let result = try grade(
      grader, ChallengeFixture.sum(tests: 3), options: GradeOptions(parallelism: 1, stopAtFirstFailure: true))
    #expect(result.tests.map(\.verdict) == [.wrongAnswer, .skipped, .skipped])
    #expect(pool.records.count == 1)
  }

  @Test func aRunsLimitIsTheTestsVerdictAndASandboxFailureOnlyThatTests() throws {
    let pool = FakeEnvironmentPool { command throws(SandboxError) in
      switch String(decoding: command.stdin, as: UTF8.self) {
      case "7":
        var run = FakeRun()
        run.killedForWallTime = true
        run.signal = SIGKILL
        return run
      case "7 14":
        throw SandboxError(step: "mount tmpfs on /run/secret", errorNumber: ENOSPC)
      default:
        return FakeRun(stdout: "42\n")
      }
    }
    let result = try grade(Grader(executor: TestExecutors.fake(pool)), ChallengeFixture.sum(tests: 3))
    #expect(result.tests.map(\.verdict) == [.timeLimit, .internalError, .accepted])
    #expect(result.tests[0].message.contains("of wall time"))
    #expect(result.tests[1].message == "The sandbox failed on this test, which is not your fault.")
    #expect(result.tests[1].operatorDetail.contains("/run/secret"))
  }

  @Test func theDefaultParallelismIsTheEnvironmentsOwn() {
    let grader = Grader(executor: TestExecutors.fake(FakeEnvironmentPool(parallelism: 3)))
    #expect(grader.defaultParallelism == 3)
  }
}
