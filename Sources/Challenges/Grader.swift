import Foundation
import Grading
import Runners
import Sandbox
import Synchronization
import Wire

/// How to grade.
public struct GradeOptions: Sendable {
  /// A language version; nil picks the newest installed.
  public var version: String?
  /// Tests run at once; nil uses `Grader.defaultParallelism`.
  public var parallelism: Int?
  /// Once a test fails, start no more tests (they are reported as `skipped`); tests already running
  /// finish and count.
  public var stopAtFirstFailure: Bool
  /// A bound on the wall time of the grade's tests, from when the first test can start (the compile
  /// has its runner's own limits, as for an execute). A test not started by then is `skipped`; a test
  /// (and a custom checker's run) that would outlast it gets only what is left as its wall limit,
  /// and is `skipped` too when that cut stopped it. The grade's verdict is then `time_limit` unless a
  /// test failed first. So a grade holds its box slots for at most compile + this bound.
  public var timeBoundMilliseconds: UInt64
  /// Limits of each run of a custom checker program.
  public var checkerLimits: StepLimits
  /// The runner, when the caller resolved it already (so a request resolves it once); nil
  /// resolves the language and `version`.
  public var runner: Runner?
  /// Called once the compile step is over (with its outcome; nil when the compile cache had it or the
  /// language has no compile step), before any test starts; SSE grading streams it.
  public var onCompiled: (@Sendable (Outcome?) -> Void)?
  /// Called as each test's verdict is known, with the test's index in the challenge's order, on the
  /// grading thread that ran it (so in index order only with parallelism 1); SSE grading streams it.
  public var onTestFinished: (@Sendable (Int, TestGrade) -> Void)?

  public static let defaultTimeBoundMilliseconds: UInt64 = 120_000

  public init(
    version: String? = nil, parallelism: Int? = nil, stopAtFirstFailure: Bool = false,
    timeBoundMilliseconds: UInt64 = GradeOptions.defaultTimeBoundMilliseconds,
    checkerLimits: StepLimits = CheckerProgramRunner.defaultLimits, runner: Runner? = nil
  ) {
    self.runner = runner
    self.checkerLimits = checkerLimits
    self.version = version
    self.parallelism = parallelism
    self.stopAtFirstFailure = stopAtFirstFailure
    self.timeBoundMilliseconds = timeBoundMilliseconds
  }
}

/// The grading pipeline: compile the learner's program once (through the compile cache), run every
/// test in its own box in parallel, check each output with the challenge's checker, and combine the
/// verdicts (docs/challenges.md, DESIGN §4-§6).
///
/// Use one `Grader` per executor, from any thread; `grade` blocks until the grade is complete.
public final class Grader: Sendable {
  public let executor: Executor
  /// The bytes of a test's stderr kept in `TestGrade.stderr` (its end, where tracebacks end).
  public static let stderrExcerptBytes = 4096
  /// The bytes of a test's stdout kept in `TestGrade.stdout` (its start, where a difference begins).
  public static let stdoutExcerptBytes = 64 << 10
  /// The most of a test's stdin, and of its expected and actual output, a failed visible test's
  /// `details` carry: enough for the tests learners read, and 100 failed tests stay within 2 MiB.
  public static let detailsInputBytes = 4 << 10
  public static let detailsOutputBytes = 8 << 10

  public init(executor: Executor) {
    self.executor = executor
  }

  /// Tests at once by default: as many as the executor's environments serve at once (the warm box
  /// pool's size, or the core count for one-shot boxes).
  public var defaultParallelism: Int { max(1, executor.environments.parallelism) }

  /// Grades a program on a challenge.
  ///
  /// Throws only what stops any run from starting (unknown language or version, a toolchain not
  /// installed, bad files) and a sandbox failure while compiling. Everything else is in the result:
  /// a compile error is the `compile_error` verdict; a sandbox failure in one test, a custom checker
  /// that fails or a recorder that cannot read a test are that test's `internal_error`.
  public func grade(
    _ challenge: Challenge, language: String, files: [SourceFile], options: GradeOptions = GradeOptions()
  ) throws(ExecuteError) -> GradeResult {
    let started = DispatchTime.now().uptimeNanoseconds
    var result = try grade(challenge, language: language, files: files, options: options, started: started)
    result.wallMilliseconds = (DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
    return result
  }

  private func grade(
    _ catalogued: Challenge, language: String, files: [SourceFile], options: GradeOptions, started: UInt64
  ) throws(ExecuteError) -> GradeResult {
    // A daemon's catalogue keeps large function tests on disk (`DeferredTestFiles`).
    let loaded = catalogued.loadingTestValues()
    let challenge = (try? loaded.get()) ?? catalogued
    let runner: Runner
    if let given = options.runner {
      runner = given
    } else {
      runner = try executor.runner(language: language, version: options.version)
    }
    var programFiles = files
    if let signature = challenge.function {
      // The generated driver is the entry point; the learner's file is what it loads.
      programFiles = try FunctionDrivers.programFiles(signature, language: runner.language, learnerFiles: files)
    }
    let program = try executor.prepare(runner, requestedAs: language, files: programFiles)
    options.onCompiled?(program.compile)
    var result = GradeResult(
      challenge: challenge.id, language: program.language, version: program.version, verdict: .accepted, score: 0,
      message: "", compile: program.compile, compileCacheHit: program.compileCacheHit, tests: [], wallMilliseconds: 0)

    guard program.isRunnable else {
      result.verdict = .compileError
      result.message = program.compile?.message ?? "The code did not compile."
      if let signature = challenge.function, let compile = program.compile,
        let missing = FunctionDrivers.missingFunctionMessage(
          signature, language: runner.language,
          compilerOutput: String(decoding: compile.stdout + compile.stderr, as: UTF8.self))
      {
        result.message = missing
      }
      result.tests = challenge.tests.map {
        Self.shown(
          TestGrade(
            name: $0.name, verdict: .skipped, score: 0, points: $0.points, message: "Not run: the code did not compile."
          ),
          of: $0)
      }
      return result
    }

    if case .failure(let failure) = loaded {
      result.tests = challenge.tests.map { Self.shown(Self.challengeFailed($0, failure), of: $0) }
      return finish(result, challenge: challenge, options: options)
    }
    if let signature = challenge.function {
      let judge: FunctionValueJudge?
      do throws(CheckerFailure) {
        judge = try FunctionValueJudge.make(challenge, executor: executor, limits: options.checkerLimits)
      } catch {
        result.tests = challenge.tests.map { Self.shown(Self.challengeFailed($0, error), of: $0) }
        return finish(result, challenge: challenge, options: options)
      }
      guard let judge else { preconditionFailure("a function challenge is judged by compare or its checker") }
      let deadline = DispatchTime.now().uptimeNanoseconds + options.timeBoundMilliseconds * 1_000_000
      result.tests = gradeFunction(
        challenge, signature: signature, judge: judge, program: program, options: options, deadline: deadline)
      let stopped = options.stopAtFirstFailure && result.tests.contains { $0.verdict != .accepted }
      if let section = challenge.growth, !stopped {
        result.growth = GrowthGrader(
          executor: executor, program: program, challenge: challenge, section: section, gradeDeadline: deadline,
          gradeBoundMilliseconds: options.timeBoundMilliseconds
        )
        .grade(parallelism: options.parallelism ?? defaultParallelism)
      }
      return finish(result, challenge: challenge, options: options)
    }

    var checkerProgram: CheckerProgramRunner?
    var interactor: InteractorRunner?
    if case .program(let source) = challenge.checker {
      do {
        checkerProgram = try CheckerProgramRunner(source, executor: executor, limits: options.checkerLimits)
      } catch {
        result.tests = challenge.tests.map {
          var grade = TestGrade(
            name: $0.name, verdict: .internalError, score: 0, points: $0.points, message: error.message)
          grade.operatorDetail = error.detail
          return Self.shown(grade, of: $0)
        }
        return finish(result, challenge: challenge, options: options)
      }
    }
    if case .interactor(let source) = challenge.checker {
      do {
        interactor = try InteractorRunner(source, executor: executor, limits: options.checkerLimits)
      } catch {
        result.tests = challenge.tests.map { Self.shown(Self.challengeFailed($0, error), of: $0) }
        return finish(result, challenge: challenge, options: options)
      }
    }

    let shared = SharedProgress(count: challenge.tests.count)
    let deadline = DispatchTime.now().uptimeNanoseconds + options.timeBoundMilliseconds * 1_000_000
    let work = TestWork(
      executor: executor, challenge: challenge, program: program, checkerProgram: checkerProgram,
      interactor: interactor, deadline: deadline, boundMilliseconds: options.timeBoundMilliseconds)
    let workers = min(options.parallelism ?? defaultParallelism, challenge.tests.count)
    let group = DispatchGroup()
    for _ in 0..<max(1, workers) {
      group.enter()
      let thread = Thread {
        defer { group.leave() }
        while true {
          let index = shared.next.wrappingAdd(1, ordering: .relaxed).oldValue
          guard index < challenge.tests.count else { return }
          let test = challenge.tests[index]
          let grade: TestGrade
          if shared.stopped.load(ordering: .relaxed) {
            grade = Self.shown(
              TestGrade(
                name: test.name, verdict: .skipped, score: 0, points: test.points,
                message: "Not run: an earlier test failed (stop at first failure)."), of: test)
          } else if work.remainingMilliseconds() < TestWork.shortestRunMilliseconds {
            grade = Self.shown(
              TestGrade(
                name: test.name, verdict: .skipped, score: 0, points: test.points,
                message: "Not run: grading passed its bound of \(Self.seconds(options.timeBoundMilliseconds))."),
              of: test)
          } else {
            grade = Self.shown(work.grade(test), of: test)
            if options.stopAtFirstFailure, grade.verdict != .accepted { shared.stopped.store(true, ordering: .relaxed) }
          }
          shared.grades.withLock { $0[index] = grade }
          options.onTestFinished?(index, grade)
        }
      }
      thread.name = "dsa-run grading"
      thread.start()
    }
    group.wait()
    result.tests = shared.grades.withLock { $0.map { $0! } }
    if let section = challenge.growth, !shared.stopped.load(ordering: .relaxed) {
      // Within the grade's bound too: a growth section's own budget never lets a grade hold its
      // slots past what `timeBoundMilliseconds` promises.
      result.growth = GrowthGrader(
        executor: executor, program: program, challenge: challenge, section: section, gradeDeadline: deadline,
        gradeBoundMilliseconds: options.timeBoundMilliseconds
      )
      .grade(parallelism: options.parallelism ?? defaultParallelism)
    }
    return finish(result, challenge: challenge, options: options)
  }

  /// A function challenge's tests: the visible ones in one process and the hidden ones in another,
  /// at once when the executor serves two boxes at once (`FunctionTestWork`).
  /// A test whose run the grade's time bound stopped: skipped, not the learner's time limit.
  static func cutByBound(_ given: TestGrade, outcome: Outcome, boundMilliseconds: UInt64) -> TestGrade {
    var grade = given
    grade.verdict = .skipped
    grade.wallMilliseconds = outcome.wallMilliseconds
    grade.message = "Stopped: grading reached its bound of \(Grader.seconds(boundMilliseconds)) while this test ran."
    return grade
  }

  /// A run's figures and the excerpts of its output a test's grade shows.
  static func takeFigures(of outcome: Outcome, into grade: inout TestGrade) {
    grade.cpuMilliseconds = outcome.cpuMilliseconds
    grade.wallMilliseconds = outcome.wallMilliseconds
    grade.memoryKilobytes = outcome.memoryKilobytes
    grade.stderr = String(decoding: outcome.stderr.suffix(Grader.stderrExcerptBytes), as: UTF8.self)
    grade.stdout = String(decoding: outcome.stdout.prefix(Grader.stdoutExcerptBytes), as: UTF8.self)
  }

  private func gradeFunction(
    _ challenge: Challenge, signature: FunctionSignature, judge: FunctionValueJudge, program: PreparedProgram,
    options: GradeOptions, deadline: UInt64
  ) -> [TestGrade] {
    let work = FunctionTestWork(
      executor: executor, challenge: challenge, signature: signature, judge: judge, program: program,
      deadline: deadline, boundMilliseconds: options.timeBoundMilliseconds)
    let shared = SharedProgress(count: challenge.tests.count)
    let indices = Array(challenge.tests.indices)
    let groups = [indices.filter { !challenge.tests[$0].hidden }, indices.filter { challenge.tests[$0].hidden }]
      .filter { !$0.isEmpty }
    let runGroup = { @Sendable (group: [Int]) in
      work.grade(group, stop: shared.stopped, stopAtFirstFailure: options.stopAtFirstFailure) { index, grade in
        let shown = Self.shown(grade, of: challenge.tests[index])
        shared.grades.withLock { $0[index] = shown }
        options.onTestFinished?(index, shown)
      }
    }
    if groups.count > 1, options.parallelism ?? defaultParallelism > 1 {
      let group = DispatchGroup()
      for tests in groups {
        group.enter()
        let thread = Thread {
          runGroup(tests)
          group.leave()
        }
        thread.name = "dsa-run grading"
        thread.start()
      }
      group.wait()
    } else {
      for tests in groups { runGroup(tests) }
    }
    return shared.grades.withLock { $0.map { $0! } }
  }

  /// The overall verdict, message and weighted score from the tests.
  private func finish(_ partial: GradeResult, challenge: Challenge, options: GradeOptions) -> GradeResult {
    var result = partial
    // A growth section weighs in like a test of its `points` (docs/challenges.md, "Growth").
    let growthWeight = challenge.growth?.points ?? 0
    let total = challenge.totalPoints + growthWeight
    let earned = result.tests.reduce(0) { $0 + $1.points * $1.score } + growthWeight * (result.growth?.score ?? 0)
    result.score = total > 0 ? earned / total : 0
    if let failed = result.tests.first(where: { $0.verdict != .accepted && $0.verdict != .skipped }) {
      result.verdict = failed.verdict
      result.message = "Test \(failed.name): \(failed.message)"
    } else if let growth = result.growth, growth.verdict != .accepted {
      result.verdict = growth.verdict
      result.message = growth.message
    } else if let skipped = result.tests.filter({ $0.verdict == .skipped }).first {
      // Every test that ran passed, but not every test ran in time: the program is too slow overall.
      let count = result.tests.filter { $0.verdict == .skipped }.count
      result.verdict = .timeLimit
      result.message =
        "Grading passed its bound of \(Self.seconds(options.timeBoundMilliseconds)) before \(count) test(s) "
        + "could finish, from test \(skipped.name) on."
    } else {
      result.verdict = .accepted
    }
    return result
  }

  /// A test's grade as it may leave the grader: redacted when the test is hidden, whatever the
  /// verdict, so every route (CLI text and JSON, /v1/grade, SSE, stored grades) shows the same.
  static func shown(_ grade: TestGrade, of test: ChallengeTest) -> TestGrade {
    test.hidden ? grade.redactedForHiddenTest() : grade
  }

  /// A test's grade when the challenge's own program (its interactor) could not be prepared.
  static func challengeFailed(_ test: ChallengeTest, _ error: CheckerFailure) -> TestGrade {
    var grade = TestGrade(
      name: test.name, verdict: .internalError, score: 0, points: test.points, message: error.message)
    grade.operatorDetail = error.detail
    return grade
  }

  static func seconds(_ milliseconds: UInt64) -> String {
    milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : String(format: "%.1f s", Double(milliseconds) / 1000)
  }
}

/// What the grading threads share.
private final class SharedProgress: Sendable {
  let next = Atomic<Int>(0)
  let stopped = Atomic<Bool>(false)
  let grades: Mutex<[TestGrade?]>

  init(count: Int) { grades = Mutex(Array(repeating: nil, count: count)) }
}

/// Runs and checks one test.
private struct TestWork: Sendable {
  let executor: Executor
  let challenge: Challenge
  let program: PreparedProgram
  let checkerProgram: CheckerProgramRunner?
  let interactor: InteractorRunner?
  /// When the grade's time bound passes (uptime nanoseconds), and the bound itself.
  let deadline: UInt64
  let boundMilliseconds: UInt64

  /// Below this much time left, a test is not started: it could not show anything in time.
  static let shortestRunMilliseconds: UInt64 = 100

  func remainingMilliseconds() -> UInt64 {
    let now = DispatchTime.now().uptimeNanoseconds
    return now >= deadline ? 0 : (deadline - now) / 1_000_000
  }

  /// `limits` with the wall time lowered to what the grade's bound leaves, and whether it was lowered.
  func withinBound(_ limits: StepLimits, runner: Runner) -> (StepLimits, lowered: Bool) {
    let own = runner.runLimits(limits).wallTimeMilliseconds
    let left = max(1, remainingMilliseconds())
    guard left < own else { return (limits, false) }
    var lowered = limits
    lowered.wallMilliseconds = left
    return (lowered, true)
  }

  func grade(_ test: ChallengeTest) -> TestGrade {
    var grade = TestGrade(name: test.name, verdict: .internalError, score: 0, points: test.points, message: "")
    let outcome: Outcome
    let (limits, lowered) = withinBound(challenge.limits, runner: program.runner)
    if let interactor {
      let (interactorLimits, _) = withinBound(
        interactor.limits(for: program.runner.runLimits(limits)), runner: interactor.program.runner)
      return interactor.grade(
        test, program: program, learnerLimits: limits, interactorLimits: interactorLimits, lowered: lowered,
        boundMilliseconds: boundMilliseconds, challenge: challenge)
    }
    do throws(ExecuteError) {
      outcome = try executor.run(program, stdin: test.stdin, limits: limits)
    } catch {
      if case .notStarted(let why) = error {
        grade.verdict = .skipped
        grade.message = "Not run: \(why)."
        return grade
      }
      // The error can name host paths; the learner learns only that it was not their fault.
      grade.message = "The sandbox failed on this test, which is not your fault."
      grade.operatorDetail = "\(error)"
      return grade
    }
    if lowered, outcome.status == .timeLimit, outcome.timeLimitKind == .wall {
      return Grader.cutByBound(grade, outcome: outcome, boundMilliseconds: boundMilliseconds)
    }
    Grader.takeFigures(of: outcome, into: &grade)
    if let verdict = GradeVerdict(runStatus: outcome.status) {
      grade.verdict = verdict
      grade.message = outcome.message
      if verdict != .internalError { grade.details = details(of: test, output: outcome.stdout, grade: grade) }
      return grade
    }
    switch check(test, output: outcome.stdout) {
    case .success(let checked):
      grade.verdict = checked.verdict == .accepted ? .accepted : .wrongAnswer
      grade.score = checked.score
      grade.message = checked.message
      grade.firstDifference = checked.firstDifference
      if grade.verdict != .accepted { grade.details = details(of: test, output: outcome.stdout, grade: grade) }
    case .failure(let failure):
      grade.message = "The challenge's checker failed, which is not your fault: \(failure.message)"
      grade.operatorDetail = failure.detail
    }
    return grade
  }

  /// A failed test's data for the learner (`FailureDetails`). `Grader.shown` drops it from a hidden
  /// test's grade with the rest of its data.
  func details(of test: ChallengeTest, output: Data, grade: TestGrade) -> FailureDetails {
    var text = String(decoding: output, as: UTF8.self)
    if challenge.growth?.count == .countLine { text = GrowthCount.withoutCountLines(text) }
    var lastMatchingStep: JSONValue?
    if let checker = challenge.stepChecker, let number = grade.firstDifference?.step, number > 1,
      case .success(let parsed) = checker.parser.parse(text), parsed.steps.count >= number - 1
    {
      lastMatchingStep = parsed.steps[number - 2].projected(on: checker.fields)
    }
    return FailureDetails(
      test, output: StepParser.ordinaryOutput(text), challenge: challenge, lastMatchingStep: lastMatchingStep)
  }

  private func check(_ test: ChallengeTest, output outputData: Data) -> Result<CheckResult, CheckerFailure> {
    var output = String(decoding: outputData, as: UTF8.self)
    if challenge.growth?.count == .countLine { output = GrowthCount.withoutCountLines(output) }
    let input = String(decoding: test.stdin, as: UTF8.self)
    switch challenge.checker {
    case .program:
      guard let checkerProgram else { return .failure(CheckerFailure("the checker was not prepared")) }
      // Step lines are for the step player, never part of an answer (DESIGN §6).
      let answer = Data(StepParser.ordinaryOutput(output).utf8)
      let (limits, _) = withinBound(checkerProgram.limits, runner: checkerProgram.program.runner)
      return checkerProgram.check(
        input: test.stdin, output: answer, answer: Data((test.expectedStdout ?? "").utf8), limits: limits)
    case .output(let checker):
      do {
        return .success(
          try checker.check(
            input: input, expected: test.expectedStdout ?? "", output: StepParser.ordinaryOutput(output)))
      } catch {
        return .failure(CheckerFailure(error.description))
      }
    case .steps(let stepChecker, let outputChecker):
      return checkSteps(test, input: input, output: output, checker: stepChecker, thenOutput: outputChecker)
    case .function, .functionProgram:
      // Function challenges are graded by FunctionTestWork, never here.
      return .failure(CheckerFailure("a function challenge's test reached the output checkers"))
    case .interactor:
      // Interactive tests are graded by InteractorRunner, never here.
      return .failure(CheckerFailure("an interactive test reached the output checkers"))
    }
  }

  private func checkSteps(
    _ test: ChallengeTest, input: String, output: String, checker: StepChecker, thenOutput outputChecker: (any Checker)?
  ) -> Result<CheckResult, CheckerFailure> {
    let expected: [Step]
    if let steps = test.expectedSteps {
      expected = steps
    } else if let recorder = challenge.recorder {
      do {
        expected = try RecorderInput.record(recorder, stdin: input)
      } catch {
        return .failure(CheckerFailure("the \(recorder.name) recorder cannot read the test's input: \(error.message)"))
      }
    } else {
      return .failure(CheckerFailure("the test has no expected steps and the challenge no recorder"))
    }
    let parsed: ParsedSteps
    switch checker.parser.parse(output) {
    case .failure(let error): return .success(.wrongAnswer("Your output's \(error)"))
    case .success(let steps): parsed = steps
    }
    var result = checker.check(expectedSteps: expected, actualSteps: parsed.steps)
    guard let outputChecker, let expectedOutput = test.expectedStdout else {
      return .success(result)
    }
    let outputResult: CheckResult
    do {
      outputResult = try outputChecker.check(input: input, expected: expectedOutput, output: parsed.ordinaryOutput)
    } catch {
      return .failure(CheckerFailure(error.description))
    }
    guard outputResult.verdict != .accepted else { return .success(result) }
    // Both must pass; the score is the steps' only when the answer is right too.
    if result.verdict == .accepted {
      result = .wrongAnswer("The steps are right, but the output (without step lines) is not: " + outputResult.message)
    } else {
      result.score = 0
      result.message += " The output (without step lines) is wrong too: " + outputResult.message
    }
    return .success(result)
  }
}

/// A reference solution graded, and whether it did what the challenge says it must.
public struct SolutionVerification: Sendable {
  public var solution: ChallengeSolution
  public var result: GradeResult
  /// nil when the solution behaved as required; else what went differently, in words.
  public var problem: String?
}

extension Grader {
  /// Grades a challenge's reference solution: a correct one must be accepted; a wrong one must get
  /// `wrong_solution`'s verdict on its test (and, when given, its first difference at `step`).
  public func verify(_ solution: ChallengeSolution, of challenge: Challenge, options: GradeOptions = GradeOptions())
    throws(ExecuteError) -> SolutionVerification
  {
    let result = try grade(challenge, language: solution.language, files: [solution.file], options: options)
    var verification = SolutionVerification(solution: solution, result: result, problem: nil)
    switch solution.kind {
    case .correct:
      if result.verdict != .accepted {
        verification.problem = "expected accepted, got \(result.verdict.rawValue): \(result.message)"
      }
    case .slow:
      verification.problem = Self.slowProblem(result, expected: challenge.growth?.slowSolution)
    case .wrong:
      guard let expected = challenge.wrongSolution else {
        verification.problem = "the challenge has no wrong_solution to compare with"
        return verification
      }
      guard let test = result.tests.first(where: { $0.name == expected.test }) else {
        verification.problem = "no test is named \(expected.test)"
        return verification
      }
      var wanted = "\(expected.verdict.rawValue) on test \(expected.test)"
      var got = "\(test.verdict.rawValue) on test \(test.name)"
      if let step = expected.step {
        wanted += " at step \(step)"
        // A hidden test's step number is kept for this comparison only.
        got +=
          (test.firstDifference?.step ?? test.operatorDifferenceStep).map { " at step \($0)" }
          ?? " with no step difference"
      }
      if wanted != got { verification.problem = "expected \(wanted), got \(got)" }
    }
    return verification
  }

  /// What a slow solution did differently from `growth.slow_solution` (wrong answer on its case, its
  /// counts fitting the named class), or nil.
  static func slowProblem(_ result: GradeResult, expected: SlowSolutionExpectation?) -> String? {
    guard let expected else { return "the challenge has no growth.slow_solution to compare with" }
    guard let growthCase = result.growth?.cases.first(where: { $0.name == expected.caseName }) else {
      return "its growth was not graded (no case \(expected.caseName) in the grade)"
    }
    let wanted = "wrong_answer growing like \(expected.growthClass.rawValue) on case \(expected.caseName)"
    let got =
      "\(growthCase.verdict.rawValue) growing like \(growthCase.growthClass?.rawValue ?? "nothing clear") on case "
      + growthCase.name
    return wanted == got ? nil : "expected \(wanted), got \(got): \(growthCase.message)"
  }
}
