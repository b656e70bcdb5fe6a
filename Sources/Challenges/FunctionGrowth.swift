import Foundation
import Grading
import Runners
import Sandbox
import Wire

/// Growth for a function challenge (docs/challenges.md, "Growth of a function"): each size's input
/// becomes the function's arguments, the driver calls the function once, and what the function
/// printed during that call is counted, as a stdin program's output is.
enum FunctionGrowth {
  /// The parameter lists a built-in shape fills, by shape, in the words of an error message.
  static func parameterRule(_ shape: GrowthShape) -> String {
    switch shape {
    case .random, .sorted, .reversed, .fewDistinct: return "one parameter of type int[] (the items)"
    case .search: return "an int[] (the sorted items) then an int (the target)"
    case .graph:
      return "a graph, or a graph then an int (the source, node 0), or an int (n) then an int[][] (the edges) "
        + "with an optional int (the source, node 0)"
    }
  }

  /// Whether a built-in shape can fill these parameters.
  static func shapeFits(_ shape: GrowthShape, _ signature: FunctionSignature) -> Bool {
    let types = signature.parameters.map(\.type)
    switch shape {
    case .random, .sorted, .reversed, .fewDistinct: return types == [.array(.int)]
    case .search: return types == [.array(.int), .int]
    case .graph:
      return types == [.graph] || types == [.graph, .int] || types == [.int, .array(.array(.int))]
        || types == [.int, .array(.array(.int)), .int]
    }
  }

  /// The arguments a shape's values make for `signature` (which `shapeFits` accepted), and the edge
  /// count of a graph.
  static func arguments(_ values: GrowthValues, for signature: FunctionSignature) -> (
    arguments: [FunctionValue], edges: Int?
  ) {
    func ints(_ items: [Int]) -> FunctionValue { .array(items.map { .int(Int64($0)) }) }
    switch values {
    case .list(let items): return ([ints(items)], nil)
    case .search(let items, let target): return ([ints(items), .int(Int64(target))], nil)
    case .graph(let nodes, let edges):
      let pairs = edges.map { [Int64($0.0), Int64($0.1)] }
      var arguments: [FunctionValue]
      if signature.parameters.first?.type == .graph {
        arguments = [.graph(nodes: Int64(nodes), edges: pairs, directed: false)]
      } else {
        arguments = [.int(Int64(nodes)), .array(pairs.map { .array($0.map { .int($0) }) })]
      }
      if signature.parameters.count == arguments.count + 1 { arguments.append(.int(0)) }
      return (arguments, edges.count)
    }
  }

  /// A generator program's stdout read as one test's `args` object; the edge count is that of the
  /// first graph or 2-D array argument (for `n + m`).
  static func arguments(generated output: Data, for signature: FunctionSignature) -> Result<
    (arguments: [FunctionValue], edges: Int?), CheckerFailure
  > {
    let reader = StrictReader()
    guard let json = reader.parse(output) else {
      return .failure(
        CheckerFailure(
          "its output is not one JSON object of arguments: "
            + (reader.problems.first?.description ?? "not JSON")))
    }
    guard let arguments = FunctionSectionParser(reader: reader).arguments(generated: json, signature: signature) else {
      let first = reader.problems.first?.description ?? "not the function's arguments"
      return .failure(CheckerFailure("its output is not the function's arguments: \(first)"))
    }
    var edges: Int?
    for argument in arguments {
      if case .graph(_, let pairs, _) = argument {
        edges = pairs.count
        break
      }
      if case .array(let rows) = argument, case .array? = rows.first {
        edges = rows.count
        break
      }
    }
    return .success((arguments, edges))
  }
}

extension GrowthGrader {
  /// One size of a function challenge's growth case: the driver runs one test whose arguments are
  /// the size's input, under the driver's own budgets (the run's limits), and the function's printed
  /// steps during it are counted.
  func measureFunction(
    _ growthCase: GrowthCase, signature: FunctionSignature, n: Int, sizeIndex: Int,
    generator: Result<PreparedProgram, CheckerFailure>?, deadline: UInt64
  ) -> GrowthPointGrade {
    var point = GrowthPointGrade(n: n, verdict: .internalError, message: "")
    let budget = budgetPhrase(deadline)
    guard Self.remaining(deadline) >= 100 else {
      point.verdict = .skipped
      point.message = "Not run at n = \(n): \(budget) ran out first."
      return point
    }
    let arguments: [FunctionValue]
    switch growthCase.input {
    case .shape(let shape):
      let made = FunctionGrowth.arguments(shape.values(n: n, index: sizeIndex, seed: growthCase.seed), for: signature)
      arguments = made.arguments
      point.m = made.edges
    case .program:
      let made = generate(n: n, seed: growthCase.seed, generator: generator, deadline: deadline).flatMap {
        FunctionGrowth.arguments(generated: $0, for: signature)
      }
      switch made {
      case .failure(let failure):
        point.message =
          "The challenge's input generator failed at n = \(n), which is not your fault: \(failure.message)"
        return point
      case .success(let made):
        arguments = made.arguments
        if growthCase.allowed.contains(.nodesPlusEdges) { point.m = made.edges }
      }
    }
    let perTest = program.runner.runLimits(runLimits)
    // The box's backstop is twice the call's budgets, as for a test (`FunctionTestWork`): the
    // runtime's start counts in the box's figures, and the driver's watchdog must end the call first.
    var backstop = runLimits
    let ceilings = BoxLimits.ceilings
    backstop.cpuMilliseconds = min(perTest.cpuTimeMilliseconds * 2, ceilings.cpuTimeMilliseconds)
    backstop.wallMilliseconds = min(perTest.wallTimeMilliseconds * 2, ceilings.wallTimeMilliseconds)
    let (limits, wasCut) = withinBudget(backstop, runner: program.runner, deadline: deadline)
    let nonce = FunctionTestWork.nonce()
    let stdin = FunctionTestWork.driverInput(
      nonce: nonce, cpuMilliseconds: perTest.cpuTimeMilliseconds, wallMilliseconds: perTest.wallTimeMilliseconds,
      tests: [(0, arguments)])
    guard let outcome = run(stdin, limits: limits, for: &point) else { return point }
    let report = FunctionReport.parse(stdout: outcome.stdout, stderr: outcome.stderr, nonce: nonce)
    point.wallMilliseconds = outcome.wallMilliseconds
    point.inputBytes = stdin.count
    guard let result = report.results[0] else {
      point.cpuMilliseconds = outcome.cpuMilliseconds
      if report.missingFunction {
        let name = FunctionDrivers.byLanguage[program.language]?.functionName(signature) ?? signature.name
        point.verdict = .runtimeError
        point.message = "At n = \(n): " + FunctionDrivers.missingFunctionMessage(name)
      } else if let limit = report.limit {
        point.verdict = .timeLimit
        let spent = limit.kind == "cpu" ? perTest.cpuTimeMilliseconds : perTest.wallTimeMilliseconds
        point.message =
          "At n = \(n): stopped after \(Grader.seconds(spent)) of \(limit.kind == "cpu" ? "CPU" : "wall") time, "
          + "the limit of one growth run."
      } else if wasCut, outcome.status == .timeLimit, outcome.timeLimitKind == .wall {
        point.verdict = .timeLimit
        point.message = "At n = \(n) the function was still running when \(budget) ran out."
      } else if outcome.status == .timeLimit, let kind = outcome.timeLimitKind {
        // The backstop ended a call the driver could not stop (JavaScript's calls are bounded by wall
        // time only): this call's figures and limit, not the box's.
        point.verdict = .timeLimit
        let used = kind == .cpu ? outcome.cpuMilliseconds : outcome.wallMilliseconds
        let budget = kind == .cpu ? perTest.cpuTimeMilliseconds : perTest.wallTimeMilliseconds
        point.message =
          "At n = \(n): stopped after \(Grader.seconds(used)) of \(kind == .cpu ? "CPU" : "wall") time; the limit of "
          + "one growth run is \(Grader.seconds(budget))."
      } else if let verdict = GradeVerdict(runStatus: outcome.status) {
        point.verdict = verdict
        point.message = "At n = \(n): \(outcome.message)"
      } else {
        point.verdict = .runtimeError
        point.message = "At n = \(n) the program ended before the function returned (does your file call exit?)."
      }
      return point
    }
    // The test's own CPU time, as the driver measured it: a JVM's start-up is not the function's work.
    point.cpuMilliseconds = result.cpuMilliseconds
    if case .string(let raised)? = result.fields["raised"] {
      point.verdict = .runtimeError
      point.message = "At n = \(n) your function raised an exception: \(raised)"
      return point
    }
    if let over = result.overBudget(perTest) {
      point.verdict = .timeLimit
      point.message =
        "At n = \(n) your function took \(Grader.seconds(over.used)) of \(over.clock) time; the limit of one growth "
        + "run is \(Grader.seconds(over.limit))."
      return point
    }
    guard let printed = report.printedDuring(0) else {
      point.verdict = .wrongAnswer
      point.message = "At n = \(n) the steps printed during the call cannot be told from forged ones."
      return point
    }
    let output = Data(printed.utf8)
    point.outputBytes = output.count
    count(output, into: &point)
    return point
  }
}
