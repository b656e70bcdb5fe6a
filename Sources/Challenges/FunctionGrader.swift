import Foundation
import Grading
import Runners
import Sandbox
import Synchronization
import Wire

/// What one run of a function challenge's driver reported (`FunctionProtocol`): only lines that
/// carry the run's nonce count, so a learner's printed `@result` line is ignored.
struct FunctionReport {
  /// A test's reported outcome, its JSON object as read (with the reader that kept its long
  /// numbers' text).
  struct Result {
    var fields: [String: JSONValue]
    var reader: StrictReader
    var cpuMilliseconds: UInt64
    var wallMilliseconds: UInt64

    /// The budget of one call this result passed ("CPU" first), with what it used; nil within both.
    func overBudget(_ budget: BoxLimits) -> (clock: String, used: UInt64, limit: UInt64)? {
      if cpuMilliseconds > budget.cpuTimeMilliseconds { return ("CPU", cpuMilliseconds, budget.cpuTimeMilliseconds) }
      if wallMilliseconds > budget.wallTimeMilliseconds {
        return ("wall", wallMilliseconds, budget.wallTimeMilliseconds)
      }
      return nil
    }
  }

  /// The tests begun, in order.
  var begun: [Int] = []
  var results: [Int: Result] = [:]
  /// The test the driver's watchdog ended, and which budget it passed ("cpu" or "wall").
  var limit: (test: Int, kind: String)?
  var missingFunction = false
  var done = false
  /// The learner's stderr before the first test (loading their file) and during each test.
  var stderrBeforeTests = ""
  var stderrByTest: [Int: String] = [:]

  static func parse(stdout: Data, stderr: Data, nonce: String) -> FunctionReport {
    var report = FunctionReport()
    for line in stdout.split(separator: UInt8(ascii: "\n")) {
      guard line.first == UInt8(ascii: "@") else { continue }
      let text = String(decoding: line, as: UTF8.self)
      let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
      guard parts.count >= 2, parts[1] == nonce else { continue }
      let rest = parts.count > 2 ? String(parts[2]) : ""
      switch parts[0] {
      case Substring(FunctionProtocol.begin):
        if let index = Int(rest) { report.begun.append(index) }
      case Substring(FunctionProtocol.result):
        let reader = StrictReader()
        guard case .object(let fields)? = reader.parse(Data(rest.utf8)), case .number(let test)? = fields["test"],
          let index = Int(exactly: test)
        else { continue }
        func milliseconds(_ key: String) -> UInt64 {
          if case .number(let value)? = fields[key], value >= 0, value < 1e12 { return UInt64(value) }
          return 0
        }
        report.results[index] = Result(
          fields: fields, reader: reader, cpuMilliseconds: milliseconds("cpu_ms"),
          wallMilliseconds: milliseconds("wall_ms"))
      case Substring(FunctionProtocol.limit):
        let reader = StrictReader()
        if case .object(let fields)? = reader.parse(Data(rest.utf8)), case .number(let test)? = fields["test"],
          let index = Int(exactly: test), case .string(let kind)? = fields["kind"]
        {
          report.limit = (index, kind)
        }
      case Substring(FunctionProtocol.missing): report.missingFunction = true
      case Substring(FunctionProtocol.done): report.done = true
      default: continue
      }
    }
    report.splitStderr(stderr, nonce: nonce)
    return report
  }

  /// The learner's stderr cut at the driver's `@begin NONCE k` lines.
  private mutating func splitStderr(_ stderr: Data, nonce: String) {
    let marker = "\n@begin \(nonce) "
    let text = String(decoding: stderr, as: UTF8.self)
    var pieces = text.components(separatedBy: marker)
    stderrBeforeTests = pieces.removeFirst()
    for piece in pieces {
      guard let newline = piece.firstIndex(of: "\n"), let index = Int(piece[..<newline]) else {
        stderrMarkers.append(-1)
        continue
      }
      stderrMarkers.append(index)
      stderrByTest[index, default: ""] += String(piece[piece.index(after: newline)...])
    }
  }

  /// The tests named by the markers in stderr, in order (-1 for a marker naming none).
  var stderrMarkers: [Int] = []

  /// What the function printed during test `index`, when the markers around it in stderr are the
  /// driver's: the markers up to the next test's are the tests begun, in order, and no other marker
  /// names this test. Only code that dug the nonce out of the driver's memory can print a marker
  /// (docs/security.md); its steps then count for no test after the forged marker.
  func printedDuring(_ index: Int) -> String? {
    guard let position = stderrMarkers.firstIndex(of: index), stderrMarkers.count(where: { $0 == index }) == 1,
      stderrMarkers.prefix(position + 1).elementsEqual(begun.prefix(position + 1))
    else { return nil }
    if position + 1 < stderrMarkers.count,
      position + 1 >= begun.count || stderrMarkers[position + 1] != begun[position + 1]
    {
      return nil
    }
    return stderrByTest[index] ?? ""
  }
}

/// How a function challenge's returned values are judged: by a comparison rule with the expected
/// value, or by the challenge's checker program (prepared once a grade).
enum FunctionValueJudge: Sendable {
  case compare(FunctionComparison)
  case program(CheckerProgramRunner)

  /// The challenge's judge; a checker program that cannot be prepared is the challenge's failure.
  static func make(_ challenge: Challenge, executor: Executor, limits: StepLimits) throws(CheckerFailure)
    -> FunctionValueJudge?
  {
    switch challenge.checker {
    case .function(let comparison): return .compare(comparison)
    case .functionProgram(let source):
      return .program(try CheckerProgramRunner(source, executor: executor, limits: limits))
    default: return nil
    }
  }
}

/// Runs a function challenge's tests: in one process per group (visible tests in one, hidden tests
/// in another, so no visible test's stderr or figures can carry what the function saw of a hidden
/// test), each test under the driver's own CPU and wall budget; the box's limits (the tests left
/// times the per-test limits, within the grade's bound) are the backstop. A test that crashes the
/// process or passes its budget gets its own verdict, and the tests after it run in a fresh process.
struct FunctionTestWork: Sendable {
  let executor: Executor
  let challenge: Challenge
  let signature: FunctionSignature
  let judge: FunctionValueJudge
  let program: PreparedProgram
  let deadline: UInt64
  let boundMilliseconds: UInt64
  /// Given what each accepted test printed (its cut of the learner's output), when the reference's
  /// steps are being recorded (`ReferenceRecorder`).
  var printedSteps: (@Sendable (Int, String) -> Void)? = nil

  /// The limits of one test (the challenge's laid over the runner's).
  var perTest: BoxLimits { program.runner.runLimits(challenge.limits) }

  func remainingMilliseconds() -> UInt64 {
    let now = DispatchTime.now().uptimeNanoseconds
    return now >= deadline ? 0 : (deadline - now) / 1_000_000
  }

  /// Grades the tests at `indices` (in order), calling `finished` with each test's grade as it is known.
  func grade(
    _ indices: [Int], stop: borrowing Atomic<Bool>, stopAtFirstFailure: Bool, finished: (Int, TestGrade) -> Void
  ) {
    var pending = indices[...]
    func finish(_ index: Int, _ given: TestGrade) {
      pending.removeAll { $0 == index }
      var grade = given
      // As for a stdin challenge: the arguments, the expected value when one is right, the value returned.
      if grade.details == nil, ![.accepted, .skipped, .internalError].contains(grade.verdict) {
        grade.details = FailureDetails(
          challenge.tests[index], output: grade.stdout, challenge: challenge, lastMatchingStep: nil)
      }
      finished(index, grade)
      if stopAtFirstFailure, grade.verdict != .accepted { stop.store(true, ordering: .relaxed) }
    }
    func skipAll(_ message: String) {
      for index in pending { finish(index, skipped(index, message)) }
    }
    while !pending.isEmpty {
      if stop.load(ordering: .relaxed) {
        return skipAll("Not run: an earlier test failed (stop at first failure).")
      }
      if remainingMilliseconds() < 100 {
        return skipAll("Not run: grading passed its bound of \(Grader.seconds(boundMilliseconds)).")
      }
      let batch = Array(pending)
      let nonce = Self.nonce()
      var limits = challenge.limits
      let count = UInt64(batch.count)
      let ceilings = BoxLimits.ceilings
      // One test's budget more than the tests': the runtime's start (a JVM's, an interpreter's) counts
      // in the box's figures, and the driver's own watchdog must end a test before the backstop.
      limits.cpuMilliseconds = min(perTest.cpuTimeMilliseconds * (count + 1), ceilings.cpuTimeMilliseconds)
      limits.wallMilliseconds = min(perTest.wallTimeMilliseconds * (count + 1), ceilings.wallTimeMilliseconds)
      limits.outputKilobytes = min(perTest.outputBytesPerStream * count, ceilings.outputBytesPerStream) >> 10
      var lowered = false
      let left = max(1, remainingMilliseconds())
      if left < limits.wallMilliseconds! {
        limits.wallMilliseconds = left
        lowered = true
      }
      let outcome: Outcome
      do throws(ExecuteError) {
        outcome = try executor.run(program, stdin: stdin(batch, nonce: nonce), limits: limits)
      } catch {
        for index in batch {
          var grade = TestGrade(
            name: challenge.tests[index].name, verdict: .internalError, score: 0,
            points: challenge.tests[index].points, message: "The sandbox failed on this test, which is not your fault.")
          if case .notStarted(let why) = error {
            grade.verdict = .skipped
            grade.message = "Not run: \(why)."
          }
          grade.operatorDetail = "\(error)"
          finish(index, grade)
        }
        return
      }
      let report = FunctionReport.parse(stdout: outcome.stdout, stderr: outcome.stderr, nonce: nonce)
      var reportedCPU: UInt64 = 0
      var reportedWall: UInt64 = 0
      for index in batch {
        guard let result = report.results[index] else { continue }
        reportedCPU += result.cpuMilliseconds
        reportedWall += result.wallMilliseconds
        var grade = graded(index, result: result)
        if let steps = challenge.functionSteps, [.accepted, .wrongAnswer].contains(grade.verdict) {
          grade = withSteps(grade, index: index, printed: report.printedDuring(index), checker: steps)
        }
        if let printedSteps, grade.verdict == .accepted, let printed = report.printedDuring(index) {
          printedSteps(index, printed)
        }
        grade.memoryKilobytes = outcome.memoryKilobytes
        grade.stderr = excerpt(report.stderrByTest[index] ?? "")
        finish(index, grade)
      }
      if pending.isEmpty { return }
      if report.missingFunction {
        let name = FunctionDrivers.byLanguage[program.language]?.functionName(signature) ?? signature.name
        for index in pending {
          var grade = failed(
            index, .runtimeError,
            FunctionDrivers.missingFunctionMessage(name))
          grade.stderr = excerpt(report.stderrBeforeTests)
          grade.wallMilliseconds = outcome.wallMilliseconds
          grade.memoryKilobytes = outcome.memoryKilobytes
          finish(index, grade)
        }
        return
      }
      // The test that was running when the process ended (`@begin` without its result).
      guard let running = report.begun.last(where: { report.results[$0] == nil }), pending.contains(running) else {
        // Nothing ran: the learner's file failed as it loaded (or the process ended between tests
        // with no test to blame); every test left would fail the same way.
        if lowered, outcome.status == .timeLimit, outcome.timeLimitKind == .wall {
          // The grade's bound, not a test's limit, stopped it: as for a stdin test cut by the bound.
          return skipAll(
            "Not run: grading reached its bound of \(Grader.seconds(boundMilliseconds)) before this test started.")
        }
        let verdict = GradeVerdict(runStatus: outcome.status) ?? .runtimeError
        let why =
          outcome.status == .ok
          ? "The program ended before running the tests (does your file call exit?)."
          : "Your file failed before any test ran: \(outcome.message)"
        for index in pending {
          var grade = failed(index, verdict, why)
          grade.stderr = excerpt(report.stderrBeforeTests)
          grade.cpuMilliseconds = outcome.cpuMilliseconds
          grade.wallMilliseconds = outcome.wallMilliseconds
          grade.memoryKilobytes = outcome.memoryKilobytes
          finish(index, grade)
        }
        return
      }
      var grade: TestGrade
      if let limit = report.limit, limit.test == running {
        let budget = limit.kind == "cpu" ? perTest.cpuTimeMilliseconds : perTest.wallTimeMilliseconds
        grade = failed(
          running, .timeLimit,
          "Stopped after \(Grader.seconds(budget)) of \(limit.kind == "cpu" ? "CPU" : "wall") time on this test: "
            + "the limit of one test.")
        if limit.kind == "cpu" { grade.cpuMilliseconds = budget } else { grade.wallMilliseconds = budget }
      } else if lowered, outcome.status == .timeLimit, outcome.timeLimitKind == .wall {
        grade = skipped(
          running, "Stopped: grading reached its bound of \(Grader.seconds(boundMilliseconds)) while this test ran.")
      } else if outcome.status == .ok {
        grade = failed(running, .runtimeError, "The program ended while this test ran (does your function call exit?).")
      } else if outcome.status == .timeLimit, let kind = outcome.timeLimitKind {
        // The box's backstop (the budgets of every test left) ended a test its driver could not stop
        // (JavaScript's calls are bounded by wall time only): the figures and the limit named are this
        // test's, never the whole process's, which would contradict the per-test limit shown beside them.
        let used =
          kind == .cpu
          ? outcome.cpuMilliseconds > reportedCPU ? outcome.cpuMilliseconds - reportedCPU : outcome.cpuMilliseconds
          : outcome.wallMilliseconds > reportedWall ? outcome.wallMilliseconds - reportedWall : outcome.wallMilliseconds
        let budget = kind == .cpu ? perTest.cpuTimeMilliseconds : perTest.wallTimeMilliseconds
        grade = failed(
          running, .timeLimit,
          "Stopped after \(Grader.seconds(used)) of \(kind == .cpu ? "CPU" : "wall") time on this test: the limit of "
            + "one test is \(Grader.seconds(budget)). Is there an endless loop, or a slower algorithm than needed?")
        if kind == .cpu { grade.cpuMilliseconds = used } else { grade.wallMilliseconds = used }
      } else {
        grade = failed(running, GradeVerdict(runStatus: outcome.status) ?? .runtimeError, outcome.message)
        grade.cpuMilliseconds = outcome.cpuMilliseconds > reportedCPU ? outcome.cpuMilliseconds - reportedCPU : 0
      }
      grade.memoryKilobytes = outcome.memoryKilobytes
      grade.stderr = excerpt(report.stderrByTest[running] ?? "")
      finish(running, grade)
      if grade.verdict == .skipped {
        return skipAll("Not run: grading passed its bound of \(Grader.seconds(boundMilliseconds)).")
      }
      // The rest run again in a fresh process, from the test after the one that ended it.
      if let position = batch.firstIndex(of: running) {
        let before = Set(batch[..<position])
        for index in pending where before.contains(index) {
          finish(index, failed(index, .internalError, "The driver did not report this test, which is not your fault."))
        }
      }
    }
  }

  /// The driver's stdin for these tests.
  func stdin(_ batch: [Int], nonce: String) -> Data {
    Self.driverInput(
      nonce: nonce, cpuMilliseconds: perTest.cpuTimeMilliseconds, wallMilliseconds: perTest.wallTimeMilliseconds,
      tests: batch.map { ($0, challenge.tests[$0].arguments ?? []) })
  }

  /// The driver's stdin: the nonce line, then the budgets and the tests as one JSON object.
  static func driverInput(
    nonce: String, cpuMilliseconds: UInt64, wallMilliseconds: UInt64, tests: [(index: Int, arguments: [FunctionValue])]
  ) -> Data {
    var text = nonce + "\n"
    text += "{\"cpu_ms\":\(cpuMilliseconds),\"wall_ms\":\(wallMilliseconds),\"tests\":["
    for (position, test) in tests.enumerated() {
      if position > 0 { text += "," }
      text += "{\"index\":\(test.index),\"args\":[" + test.arguments.map(\.json).joined(separator: ",") + "]}"
    }
    return Data((text + "]}\n").utf8)
  }

  /// A fresh random nonce: 32 hex digits.
  static func nonce() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<2).map { _ in
      let hex = String(generator.next() as UInt64, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }

  private func excerpt(_ text: String) -> String {
    String(decoding: Array(text.utf8.suffix(Grader.stderrExcerptBytes)), as: UTF8.self)
  }

  private func skipped(_ index: Int, _ message: String) -> TestGrade {
    TestGrade(
      name: challenge.tests[index].name, verdict: .skipped, score: 0, points: challenge.tests[index].points,
      message: message)
  }

  private func failed(_ index: Int, _ verdict: GradeVerdict, _ message: String) -> TestGrade {
    TestGrade(
      name: challenge.tests[index].name, verdict: verdict, score: 0, points: challenge.tests[index].points,
      message: message)
  }

  /// A reported result judged: the budget, then the type, then the comparison. The driver only
  /// reports what the function returned; the verdict is made here.
  func graded(_ index: Int, result: FunctionReport.Result) -> TestGrade {
    let test = challenge.tests[index]
    var grade = failed(index, .wrongAnswer, "")
    grade.cpuMilliseconds = result.cpuMilliseconds
    grade.wallMilliseconds = result.wallMilliseconds
    if let over = result.overBudget(perTest) {
      grade.verdict = .timeLimit
      grade.message =
        "Your function took \(Grader.seconds(over.used)) of \(over.clock) time on this test; the limit is "
        + "\(Grader.seconds(over.limit))."
      return grade
    }
    if case .string(let raised)? = result.fields["raised"] {
      grade.verdict = .runtimeError
      grade.message = "Your function raised an exception: \(raised)"
      return grade
    }
    let type = signature.returns
    if case .string(let kind)? = result.fields["unencodable"] {
      grade.message = "Your function returned \(kind), which is not \(type.phrase) (\(type))."
      return grade
    }
    guard let json = result.fields["value"] else {
      grade.verdict = .internalError
      grade.message = "The driver reported no value for this test, which is not your fault."
      return grade
    }
    let before = result.reader.problems.count
    guard let actual = FunctionValue.read(json, as: type, at: "value", reader: result.reader, lenientFloats: true)
    else {
      let problem = result.reader.problems.dropFirst(before).first
      var place = problem?.path ?? ""
      place = place.hasPrefix("value") ? String(place.dropFirst(5)) : place
      grade.message =
        "Your function returned \(Self.cut(json.json)), which is not \(type.phrase) (\(type))"
        + (problem.map { place.isEmpty ? ": \($0.message)." : ": at \(place), \($0.message)." } ?? ".")
      grade.stdout = json.json + "\n"
      return grade
    }
    grade.stdout = actual.json + "\n"
    let comparison: FunctionComparison
    switch judge {
    case .compare(let rule): comparison = rule
    case .program(let checker): return judged(by: checker, index: index, actual: actual, grade: grade)
    }
    guard let expected = test.expected else {
      grade.verdict = .internalError
      grade.message = "The test has no expected value, which is not your fault."
      return grade
    }
    if comparison.accepts(actual, expected: expected) {
      grade.verdict = .accepted
      grade.score = 1
      // Kept for the details when the steps are compared and fail.
      grade.stdout = challenge.functionSteps == nil ? "" : actual.json + "\n"
      return grade
    }
    let wanted = comparison == .anyOf ? "one of \(expected.excerpt())" : expected.excerpt()
    let order = comparison == .unordered ? " (in any order)" : ""
    grade.message = "Expected \(wanted)\(order), your function returned \(actual.excerpt())."
    return grade
  }

  /// A returned value judged by the challenge's checker program: the arguments as one JSON object
  /// (`input.txt`), the value (`output.txt`) and the test's expected value or `null` (`answer.txt`),
  /// each one line of JSON; its testlib exit code decides, and its failure is never the learner's.
  private func judged(by checker: CheckerProgramRunner, index: Int, actual: FunctionValue, grade given: TestGrade)
    -> TestGrade
  {
    var grade = given
    let test = challenge.tests[index]
    let arguments = zip(signature.parameters, test.arguments ?? []).map {
      "\(JSONValue.string($0.name).json):\($1.json)"
    }
    let input = Data(("{" + arguments.joined(separator: ",") + "}\n").utf8)
    let answer = Data(((test.expected?.json ?? "null") + "\n").utf8)
    switch checker.check(input: input, output: Data((actual.json + "\n").utf8), answer: answer) {
    case .failure(let failure):
      grade.verdict = .internalError
      grade.message = "The challenge's checker failed on this test, which is not your fault: \(failure.message)"
      grade.operatorDetail = failure.detail
    case .success(let checked):
      grade.verdict = checked.verdict == .accepted ? .accepted : .wrongAnswer
      grade.score = checked.score
      grade.message =
        checked.verdict == .accepted
        ? "" : "Your function returned \(actual.excerpt()): \(checked.message)"
      if checked.verdict == .accepted { grade.stdout = challenge.functionSteps == nil ? "" : actual.json + "\n" }
    }
    return grade
  }

  /// A value's grade joined with the steps the function printed during the test, as a stdin
  /// challenge's steps with its `output_checker`: the test passes only when both pass, and its score
  /// is the steps' when the value is right, else 0.
  func withSteps(_ valueGrade: TestGrade, index: Int, printed: String?, checker: StepChecker) -> TestGrade {
    let test = challenge.tests[index]
    var grade = valueGrade
    let valueRight = valueGrade.verdict == .accepted
    guard let expected = test.expectedSteps else {
      grade.verdict = .internalError
      grade.score = 0
      grade.message = "The test has no expected steps, which is not your fault."
      return grade
    }
    guard let printed else {
      grade.verdict = .wrongAnswer
      grade.score = 0
      grade.message =
        "Your output held a copy of the driver's test marker, so the steps of this test could not be told "
        + "from another test's."
      return grade
    }
    var result: CheckResult
    var parsedSteps: [Step] = []
    switch checker.parser.parse(printed) {
    case .failure(let error): result = .wrongAnswer("Your output's \(error)")
    case .success(let parsed):
      parsedSteps = parsed.steps
      result = checker.check(expectedSteps: expected, actualSteps: parsed.steps)
    }
    grade.firstDifference = result.firstDifference
    if valueRight {
      grade.verdict = result.verdict == .accepted ? .accepted : .wrongAnswer
      grade.score = result.score
      grade.message = result.message
      if grade.verdict == .accepted {
        grade.stdout = ""
        return grade
      }
    } else {
      grade.score = 0
      grade.message =
        result.verdict == .accepted
        ? "The steps are right, but the value is not: " + valueGrade.message
        : result.message + " The value is wrong too: " + valueGrade.message
    }
    var lastMatchingStep: JSONValue?
    if let number = result.firstDifference?.step, number > 1, parsedSteps.count >= number - 1 {
      lastMatchingStep = parsedSteps[number - 2].projected(on: checker.fields)
    }
    grade.details = FailureDetails(test, output: grade.stdout, challenge: challenge, lastMatchingStep: lastMatchingStep)
    return grade
  }

  static func cut(_ text: String) -> String { text.count <= 300 ? text : String(text.prefix(300)) + "..." }
}
