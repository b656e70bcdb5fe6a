import Foundation
import Grading
import Runners
import Sandbox
import Synchronization

/// One size's run in a growth case.
public struct GrowthPointGrade: Sendable {
  public var n: Int
  /// Graph inputs only.
  public var m: Int?
  /// What was counted; nil when the run did not end `ok` or its output could not be counted.
  public var count: Double?
  /// `accepted` when counted, else why not (the run's status, `wrong_answer` for an uncountable
  /// output, `skipped` when the budget ran out first).
  public var verdict: GradeVerdict
  public var message: String
  public var cpuMilliseconds: UInt64 = 0
  public var wallMilliseconds: UInt64 = 0
  /// The run's stdin and what it wrote (stdout and stderr), for the time check (`GrowthTimeCheck`).
  public var inputBytes = 0
  public var outputBytes = 0

  public init(n: Int, m: Int? = nil, count: Double? = nil, verdict: GradeVerdict, message: String) {
    self.n = n
    self.m = m
    self.count = count
    self.verdict = verdict
    self.message = message
  }
}

/// One growth case's grade: its points, the class they fit and the verdict.
public struct GrowthCaseGrade: Sendable {
  public var name: String
  public var allowed: [GrowthClass]
  public var verdict: GradeVerdict
  /// The fit could not tell an allowed class from another: never a rejection.
  public var ambiguous: Bool
  /// The best-fitting class; nil when fewer than three sizes were counted or none fits.
  public var growthClass: GrowthClass?
  public var message: String
  /// In size order.
  public var points: [GrowthPointGrade]
  /// Every class's fit, for a chart's reference curves and for the curious.
  public var fits: [GrowthClassFit]

  public init(
    name: String, allowed: [GrowthClass], verdict: GradeVerdict, ambiguous: Bool, growthClass: GrowthClass?,
    message: String, points: [GrowthPointGrade], fits: [GrowthClassFit]
  ) {
    self.name = name
    self.allowed = allowed
    self.verdict = verdict
    self.ambiguous = ambiguous
    self.growthClass = growthClass
    self.message = message
    self.points = points
    self.fits = fits
  }
}

/// The growth section's grade.
public struct GrowthGrade: Sendable {
  /// The first case's verdict (in file order) that is not `accepted`, else `accepted`.
  public var verdict: GradeVerdict
  /// The share of cases accepted.
  public var score: Double
  /// The section's weight, as a test's points.
  public var weight: Double
  public var message: String
  public var cases: [GrowthCaseGrade]
  /// The growth runs' wall time, generators included.
  public var wallMilliseconds: UInt64

  public init(
    verdict: GradeVerdict, score: Double, weight: Double, message: String, cases: [GrowthCaseGrade],
    wallMilliseconds: UInt64
  ) {
    self.verdict = verdict
    self.score = score
    self.weight = weight
    self.message = message
    self.cases = cases
    self.wallMilliseconds = wallMilliseconds
  }

  /// The case a one-line summary names: the first that failed, else the first.
  public var deciding: GrowthCaseGrade? { cases.first { $0.verdict != .accepted } ?? cases.first }
}

/// Runs a prepared program at every size of every growth case, in parallel within the section's
/// one budget, and fits the counts (docs/challenges.md, "Growth").
struct GrowthGrader: Sendable {
  let executor: Executor
  let program: PreparedProgram
  let challenge: Challenge
  let section: GrowthSection
  /// When the whole grade's bound passes (uptime nanoseconds), and the bound: the growth budget
  /// ends then at the latest.
  var gradeDeadline = UInt64.max
  var gradeBoundMilliseconds: UInt64 = 0
  /// Limits of a generator program's run; its stdout is the input, so the output bound is larger.
  static let generatorLimits: StepLimits = {
    var limits = CheckerProgramRunner.defaultLimits
    limits.outputKilobytes = 16 << 10
    return limits
  }()

  func grade(parallelism: Int) -> GrowthGrade {
    let started = DispatchTime.now().uptimeNanoseconds
    let deadline = min(started + section.budgetMilliseconds * 1_000_000, gradeDeadline)
    var prepared: [String: Result<PreparedProgram, CheckerFailure>] = [:]
    for growthCase in section.cases {
      guard case .program(let source) = growthCase.input else { continue }
      prepared[growthCase.name] = prepareGenerator(source)
    }
    let generators = prepared
    // The smallest sizes first: when the budget runs out, the sizes counted are the cheap ones, and
    // they are what names a too-slow program's class (a hang at the largest size gets what is left).
    let jobs = section.sizes.indices.flatMap { sizeIndex in
      section.cases.indices.map { (caseIndex: $0, sizeIndex: sizeIndex) }
    }
    let results = Mutex(
      [[GrowthPointGrade?]](
        repeating: Array(repeating: nil, count: section.sizes.count), count: section.cases.count))
    let next = Atomic<Int>(0)
    let group = DispatchGroup()
    for _ in 0..<max(1, min(parallelism, jobs.count)) {
      group.enter()
      let thread = Thread {
        defer { group.leave() }
        while true {
          let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
          guard index < jobs.count else { return }
          let (caseIndex, sizeIndex) = jobs[index]
          let growthCase = section.cases[caseIndex]
          let point = measure(
            growthCase, n: section.sizes[sizeIndex], sizeIndex: sizeIndex, generator: generators[growthCase.name],
            deadline: deadline)
          results.withLock { $0[caseIndex][sizeIndex] = point }
        }
      }
      thread.name = "dsa-run growth"
      thread.start()
    }
    group.wait()
    let measured = results.withLock { $0.map { $0.map { $0! } } }
    let cases = zip(section.cases, measured).map { judge($0, points: $1) }
    let failed = cases.first { $0.verdict != .accepted }
    let accepted = Double(cases.filter { $0.verdict == .accepted }.count)
    return GrowthGrade(
      verdict: failed?.verdict ?? .accepted, score: cases.isEmpty ? 0 : accepted / Double(cases.count),
      weight: section.points,
      message: failed.map { cases.count > 1 ? "Growth on \($0.name) inputs: \($0.message)" : "Growth: \($0.message)" }
        ?? "",
      cases: cases, wallMilliseconds: (DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
  }

  private func prepareGenerator(_ source: CheckerProgram) -> Result<PreparedProgram, CheckerFailure> {
    do {
      let prepared = try executor.prepare(language: source.language, version: nil, files: [source.source])
      guard prepared.isRunnable else {
        return .failure(CheckerFailure("the challenge's input generator did not compile"))
      }
      return .success(prepared)
    } catch {
      return .failure(CheckerFailure("the challenge's input generator cannot be prepared", detail: "\(error)"))
    }
  }

  /// Which bound a growth deadline is: the section's own budget, or the grade's when that comes first.
  func budgetPhrase(_ deadline: UInt64) -> String {
    deadline == gradeDeadline && gradeBoundMilliseconds > 0
      ? "the grade's bound of \(Grader.seconds(gradeBoundMilliseconds))"
      : "the growth budget of \(Grader.seconds(section.budgetMilliseconds))"
  }

  static func remaining(_ deadline: UInt64) -> UInt64 {
    let now = DispatchTime.now().uptimeNanoseconds
    return now >= deadline ? 0 : (deadline - now) / 1_000_000
  }

  /// `limits` over the runner's, with the wall time cut to what the budget leaves, and whether it was cut.
  func withinBudget(_ limits: StepLimits, runner: Runner, deadline: UInt64) -> (StepLimits, Bool) {
    let own = limits.applied(to: runner.run.limits.applied(to: BoxLimits())).wallTimeMilliseconds
    let left = max(1, Self.remaining(deadline))
    guard left < own else { return (limits, false) }
    var cut = limits
    cut.wallMilliseconds = left
    return (cut, true)
  }

  /// Each growth run's limits: the section's laid over the challenge's.
  var runLimits: StepLimits {
    var limits = challenge.limits
    let own = section.limits
    limits.cpuMilliseconds = own.cpuMilliseconds ?? limits.cpuMilliseconds
    limits.wallMilliseconds = own.wallMilliseconds ?? limits.wallMilliseconds
    limits.memoryMegabytes = own.memoryMegabytes ?? limits.memoryMegabytes
    limits.outputKilobytes = own.outputKilobytes ?? limits.outputKilobytes
    limits.processes = own.processes ?? limits.processes
    return limits
  }

  private func measure(
    _ growthCase: GrowthCase, n: Int, sizeIndex: Int, generator: Result<PreparedProgram, CheckerFailure>?,
    deadline: UInt64
  ) -> GrowthPointGrade {
    if let signature = challenge.function {
      return measureFunction(
        growthCase, signature: signature, n: n, sizeIndex: sizeIndex, generator: generator, deadline: deadline)
    }
    var point = GrowthPointGrade(n: n, verdict: .internalError, message: "")
    let budget = budgetPhrase(deadline)
    guard Self.remaining(deadline) >= 100 else {
      point.verdict = .skipped
      point.message = "Not run at n = \(n): \(budget) ran out first."
      return point
    }
    let stdin: Data
    switch growthCase.input {
    case .shape(let shape):
      let input = shape.input(n: n, index: sizeIndex, seed: growthCase.seed)
      stdin = input.stdin
      point.m = input.edges
    case .program:
      switch generate(n: n, seed: growthCase.seed, generator: generator, deadline: deadline) {
      case .failure(let failure):
        point.message =
          "The challenge's input generator failed at n = \(n), which is not your fault: \(failure.message)"
        return point
      case .success(let data):
        stdin = data
        if growthCase.allowed.contains(.nodesPlusEdges) {
          // A graph's first line is `n m s`: m is the second integer.
          let words = String(decoding: data.prefix(256), as: UTF8.self).split(whereSeparator: \.isWhitespace)
          point.m = words.count > 1 ? Int(words[1]) : nil
        }
      }
    }
    let (cut, wasCut) = withinBudget(runLimits, runner: program.runner, deadline: deadline)
    guard let outcome = run(stdin, limits: cut, for: &point) else { return point }
    point.cpuMilliseconds = outcome.cpuMilliseconds
    point.wallMilliseconds = outcome.wallMilliseconds
    point.inputBytes = stdin.count
    point.outputBytes = outcome.stdout.count + outcome.stderr.count
    if wasCut, outcome.status == .timeLimit, outcome.timeLimitKind == .wall {
      point.verdict = .timeLimit
      point.message = "At n = \(n) the program was still running when \(budget) ran out."
      return point
    }
    if let verdict = GradeVerdict(runStatus: outcome.status) {
      point.verdict = verdict
      point.message = "At n = \(n): \(outcome.message)"
      return point
    }
    count(outcome.stdout, into: &point)
    return point
  }

  /// What a run printed, counted into its point: `accepted` with the count, else why it cannot be.
  func count(_ output: Data, into point: inout GrowthPointGrade) {
    switch section.count.count(output) {
    case .failure(let error):
      point.verdict = .wrongAnswer
      point.message = "At n = \(point.n) the output cannot be counted: \(error.message)."
    case .success(let count):
      point.verdict = .accepted
      point.count = count
    }
  }

  /// One growth run of the program; nil with `point` saying why when it could not run.
  func run(_ stdin: Data, limits: StepLimits, for point: inout GrowthPointGrade) -> Outcome? {
    do throws(ExecuteError) {
      return try executor.run(program, stdin: stdin, limits: limits)
    } catch {
      if case .notStarted(let why) = error {
        point.verdict = .skipped
        point.message = "Not run at n = \(point.n): \(why)."
      } else {
        point.message = "The sandbox failed at n = \(point.n), which is not your fault."
      }
      return nil
    }
  }

  func generate(
    n: Int, seed: UInt64, generator: Result<PreparedProgram, CheckerFailure>?, deadline: UInt64
  ) -> Result<Data, CheckerFailure> {
    guard case .success(let prepared)? = generator else {
      if case .failure(let failure)? = generator { return .failure(failure) }
      return .failure(CheckerFailure("the generator was not prepared"))
    }
    let (limits, _) = withinBudget(Self.generatorLimits, runner: prepared.runner, deadline: deadline)
    do {
      let outcome = try executor.run(prepared, stdin: Data(), arguments: [String(n), String(seed)], limits: limits)
      guard outcome.status == .ok else {
        return .failure(CheckerFailure("it ended \(outcome.status.rawValue): \(outcome.message)"))
      }
      return .success(outcome.stdout)
    } catch {
      return .failure(CheckerFailure("the sandbox failed", detail: "\(error)"))
    }
  }

  private func judge(_ growthCase: GrowthCase, points: [GrowthPointGrade]) -> GrowthCaseGrade {
    let counted = points.compactMap { point in point.count.map { GrowthPoint(n: point.n, m: point.m, count: $0) } }
    var grade = GrowthCaseGrade(
      name: growthCase.name, allowed: growthCase.allowed, verdict: .accepted, ambiguous: false, growthClass: nil,
      message: "", points: points, fits: [])
    let fit = counted.count >= GrowthSection.minimumSizes ? GrowthFitter.fit(counted, classes: growthCase.classes) : nil
    grade.fits = fit?.fits ?? []
    // A run that failed decides: the smallest size that failed, as a learner reproduces it most
    // easily; one the budget left out only when no run failed of itself.
    if let failed = points.first(where: { $0.verdict != .accepted && $0.verdict != .skipped })
      ?? points.first(where: { $0.verdict == .skipped })
    {
      // A program too slow to finish the largest sizes (out of output or time) usually shows its
      // class on the smaller ones already: a clear wrong class there says more than the limit.
      if let fit,
        case let judgement = fit.judge(allowed: growthCase.allowed, points: counted, counted: section.count.noun),
        judgement.verdict == .wrongAnswer, judgement.growthClass != nil
      {
        grade.verdict = .wrongAnswer
        grade.growthClass = judgement.growthClass
        grade.message = judgement.message + " " + failed.message
        return grade
      }
      grade.verdict = failed.verdict == .skipped ? .timeLimit : failed.verdict
      grade.message = failed.message
      grade.growthClass = fit?.best
      return grade
    }
    guard let fit else {
      grade.verdict = .internalError
      grade.message = "Fewer than \(GrowthSection.minimumSizes) sizes were counted."
      return grade
    }
    let judgement = fit.judge(allowed: growthCase.allowed, points: counted, counted: section.count.noun)
    grade.verdict = judgement.verdict == .accepted ? .accepted : .wrongAnswer
    grade.ambiguous = judgement.isAmbiguous
    grade.growthClass = judgement.growthClass
    grade.message = judgement.message
    // Counts are what the program says it did: the box's CPU time must not grow much faster.
    if grade.verdict == .accepted {
      let timings = points.compactMap { point in
        point.count.map {
          GrowthTiming(
            n: point.n, m: point.m, count: $0, cpuMilliseconds: Double(point.cpuMilliseconds),
            inputBytes: Double(point.inputBytes), outputBytes: Double(point.outputBytes))
        }
      }
      if let finding = GrowthTimeCheck.check(
        timings, claimed: judgement.growthClass, classes: growthCase.classes, counted: section.count.noun)
      {
        grade.verdict = .wrongAnswer
        grade.ambiguous = false
        grade.message = finding.message
      }
    }
    return grade
  }
}
