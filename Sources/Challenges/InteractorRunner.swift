import Foundation
import Grading
import Runners
import Sandbox
import Synchronization

/// An interactive challenge's interactor (docs/challenges.md, "Interactive problems"), compiled once
/// and run in a box of its own beside the learner's program on every test, in the testlib
/// interactor convention: it runs as `interactor input.txt output.txt answer.txt` (the test's
/// stdin, a file it may write and nobody reads, the test's `expected_stdout` or an empty file), its
/// stdout is the program's stdin and the program's stdout its stdin, and it gives the verdict:
///
/// | exit | meaning |
/// |---|---|
/// | 0 | accepted |
/// | 1 | wrong answer |
/// | 2 | presentation error (the dialogue broke the protocol), reported as wrong answer |
/// | 3 | the interactor failed: internal_error |
/// | 7 | partial: the score (0 to 1) is the first number on its stderr (after testlib's "points") |
/// | 8 | testlib's unexpected end of the program's output, reported as wrong answer |
///
/// Anything else (another code, a signal, its own limits) is `internal_error`, never the learner's
/// fault. Its message is its stderr, at most `CheckerProgramRunner.maximumMessageBytes`.
public struct InteractorRunner: Sendable {
  public static let fileNames = ["input.txt", "output.txt", "answer.txt"]
  /// How long both programs may be seen waiting (no byte moved, neither using CPU) before the test
  /// ends as a deadlock.
  public static let deadlockWindowMilliseconds: UInt64 = 1_500
  /// CPU time a side may use in that window and still count as waiting: a runtime's own threads
  /// (the JVM's, Dart's) use a little while its program is blocked.
  public static let idleCPUShare = 0.02
  public static let deadlockMessage =
    "Your program and the interactor were both waiting for each other: did you forget to flush your output "
    + "after each line?"

  public let executor: Executor
  public let program: PreparedProgram
  /// The grade's limits for the challenge's own programs (`GradeOptions.checkerLimits`): the
  /// interactor's CPU and memory; its wall time and output follow the learner's (`limits(for:)`).
  public let ownLimits: StepLimits

  public init(_ interactor: CheckerProgram, executor: Executor, limits: StepLimits) throws(CheckerFailure) {
    self.executor = executor
    self.ownLimits = limits
    do {
      program = try executor.prepare(language: interactor.language, version: nil, files: [interactor.source])
    } catch {
      throw CheckerFailure("the challenge's interactor cannot be prepared", detail: "\(error)")
    }
    if !program.isRunnable {
      let compile = program.compile
      let messages = compile.map { String(decoding: $0.stderr + $0.stdout, as: UTF8.self) } ?? ""
      throw CheckerFailure(
        "the challenge's interactor did not compile (\(compile?.status.rawValue ?? "?")): "
          + CheckerProgramRunner.excerpt(messages.isEmpty ? compile?.message ?? "" : messages))
    }
  }

  /// The interactor's limits for a test whose program runs under `learner`: the grade's limits for
  /// the challenge's programs (CPU, memory), a wall time a second longer than the program's (the
  /// program's limit ends a test, not the interactor's) and the program's output bound (the
  /// dialogue is bounded alike both ways).
  func limits(for learner: BoxLimits) -> StepLimits {
    var limits = ownLimits
    limits.wallMilliseconds = learner.wallTimeMilliseconds + 1_000
    limits.outputKilobytes = max(learner.outputBytesPerStream >> 10, ownLimits.outputKilobytes ?? 0)
    return limits
  }

  /// What the interactor's run said about the test.
  enum Verdict {
    case accepted
    case wrong(CheckResult)
    case failed(CheckerFailure)
  }

  static func verdict(of outcome: Outcome) -> Verdict {
    let stderr = String(decoding: outcome.stderr, as: UTF8.self)
    let said = CheckerProgramRunner.excerpt(stderr)
    switch (outcome.status, outcome.exitCode) {
    case (.ok, 0?): return .accepted
    case (.runtimeError, 1?): return .wrong(.wrongAnswer(said.isEmpty ? "The interactor says: wrong answer." : said))
    case (.runtimeError, 2?):
      return .wrong(.wrongAnswer("The dialogue broke the interactor's protocol" + (said.isEmpty ? "." : ": " + said)))
    case (.runtimeError, 8?):
      return .wrong(
        .wrongAnswer("Your program's output ended before the interactor expected" + (said.isEmpty ? "." : ": " + said)))
    case (.runtimeError, 3?):
      return .failed(CheckerFailure("the interactor reported its own failure" + (said.isEmpty ? "" : ": " + said)))
    case (.runtimeError, 7?):
      var tokens = stderr.split(whereSeparator: \.isWhitespace).map(String.init)
      if tokens.first == "points" { tokens.removeFirst() }
      guard let token = tokens.first, let score = Double(token), score.isFinite, (0...1).contains(score) else {
        return .failed(
          CheckerFailure("the interactor exited 7 (partial) without a score from 0 to 1 first on its stderr"))
      }
      if score == 1 { return .accepted }
      let rest = CheckerProgramRunner.excerpt(tokens.dropFirst().joined(separator: " "))
      return .wrong(
        CheckResult(
          verdict: .wrongAnswer, score: score,
          message: "Partly right (score \(score))" + (rest.isEmpty ? "." : ": " + rest)))
    case (.ok, _), (.runtimeError, _):
      if let signal = outcome.signal {
        return .failed(CheckerFailure("the interactor crashed (\(signalName(signal)))"))
      }
      return .failed(
        CheckerFailure(
          "the interactor exited with code \(outcome.exitCode.map(String.init) ?? "?"), which the testlib protocol "
            + "does not define" + (said.isEmpty ? "" : ": " + said)))
    case (.timeLimit, _): return .failed(CheckerFailure("the interactor ran out of time: \(outcome.message)"))
    default: return .failed(CheckerFailure("the interactor failed (\(outcome.status.rawValue)): \(outcome.message)"))
    }
  }
}

/// Who wrote a part of an interactive test's dialogue.
public enum InteractionSide: String, Sendable {
  case program
  case interactor
}

/// What each side of an interactive test wrote, in the order the host read it, bounded
/// (`maximumBytes` in all); kept on a visible test's grade (`TestGrade.transcript`).
public struct InteractionTranscript: Sendable, Equatable {
  public struct Turn: Sendable, Equatable {
    public var from: InteractionSide
    public var text: String
    public init(from: InteractionSide, text: String) {
      self.from = from
      self.text = text
    }
  }

  public static let maximumBytes = 16 << 10

  /// Consecutive writes of one side are one turn.
  public var turns: [Turn]
  /// More was written than `maximumBytes`; the rest is not kept.
  public var truncated: Bool

  public init(turns: [Turn] = [], truncated: Bool = false) {
    self.turns = turns
    self.truncated = truncated
  }
}

extension InteractorRunner {
  /// Runs one test: the learner's `program` under `learnerLimits` (already within the grade's bound;
  /// `lowered` when that bound cut its wall time) talking with the interactor.
  func grade(
    _ test: ChallengeTest, program: PreparedProgram, learnerLimits: StepLimits, interactorLimits: StepLimits,
    lowered: Bool, boundMilliseconds: UInt64, challenge: Challenge
  ) -> TestGrade {
    var grade = TestGrade(name: test.name, verdict: .internalError, score: 0, points: test.points, message: "")
    let files = zip(Self.fileNames, [test.stdin, Data(), Data((test.expectedStdout ?? "").utf8)]).map {
      SourceFile(name: $0, contents: $1)
    }
    let learnerBox = program.runner.runLimits(learnerLimits)
    let ended: InteractorSession.Ended
    let session: InteractorSession
    do throws(ExecuteError) {
      do throws(SandboxError) {
        session = try InteractorSession()
      } catch {
        throw .sandbox(error)
      }
      ended = try session.run(
        executor: executor, learner: program, learnerLimits: learnerLimits, interactor: self.program,
        interactorLimits: interactorLimits, files: files,
        fallbackWindowMilliseconds: Self.deadlockWindowMilliseconds + learnerBox.cpuTimeMilliseconds)
    } catch {
      return Self.notRun(grade, error)
    }
    let outcome: Outcome
    switch ended.learner {
    case .failure(let error): return Self.notRun(grade, error)
    case .success(let ran): outcome = ran
    }
    if lowered, !ended.deadlocked, outcome.status == .timeLimit, outcome.timeLimitKind == .wall {
      return Grader.cutByBound(grade, outcome: outcome, boundMilliseconds: boundMilliseconds)
    }
    Grader.takeFigures(of: outcome, into: &grade)
    grade.transcript = session.transcript.value
    decide(&grade, learner: outcome, interactor: ended.interactor, ended: ended)
    if grade.verdict != .accepted, grade.verdict != .internalError {
      grade.details = FailureDetails(
        test, output: String(decoding: outcome.stdout, as: UTF8.self), challenge: challenge, lastMatchingStep: nil)
    }
    return grade
  }

  /// The test's verdict from both runs (docs/challenges.md, "Interactive problems"): a deadlock is
  /// `time_limit`; an interactor that decided while the program still talked gives its verdict
  /// (what the program did after, reading the end of its input, is a consequence); else a program
  /// that failed (a crash, a limit) has its own verdict, and the interactor's decides the rest. An
  /// interactor that fails is `internal_error`, never the learner's fault.
  private func decide(
    _ grade: inout TestGrade, learner: Outcome, interactor: Result<Outcome, ExecuteError>,
    ended: InteractorSession.Ended
  ) {
    if ended.deadlocked {
      grade.verdict = .timeLimit
      grade.message = Self.deadlockMessage
      return
    }
    let learnerVerdict = GradeVerdict(runStatus: learner.status)
    let said: Verdict
    switch interactor {
    case .failure(let error):
      said = .failed(CheckerFailure("the interactor could not run (the sandbox failed)", detail: "\(error)"))
    case .success(let outcome): said = Self.verdict(of: outcome)
    }
    var interactorAccepted = false
    if case .accepted = said { interactorAccepted = true }
    if let learnerVerdict, !ended.interactorDecidedFirst || interactorAccepted {
      grade.verdict = learnerVerdict
      grade.message = learner.message
      return
    }
    switch said {
    case .accepted:
      grade.verdict = .accepted
      grade.score = 1
    case .wrong(let result):
      grade.verdict = .wrongAnswer
      grade.score = result.score
      grade.message = result.message
    case .failed(let failure):
      grade.verdict = .internalError
      grade.message = "The challenge's interactor failed, which is not your fault: \(failure.message)"
      grade.operatorDetail = failure.detail
    }
  }

  private static func notRun(_ partial: TestGrade, _ error: ExecuteError) -> TestGrade {
    var grade = partial
    if case .notStarted(let why) = error {
      grade.verdict = .skipped
      grade.message = "Not run: \(why)."
      return grade
    }
    grade.message = "The sandbox failed on this test, which is not your fault."
    grade.operatorDetail = "\(error)"
    return grade
  }
}
