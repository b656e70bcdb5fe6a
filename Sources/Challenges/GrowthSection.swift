import Foundation
import Grading
import Runners
import Sandbox
import Wire

/// A challenge's `growth` section (docs/challenges.md, "Growth"): the sizes to try, how each input
/// is made, what is counted, and the complexity classes each case allows.
public struct GrowthSection: Sendable {
  /// Strictly increasing, at least `minimumSizes`.
  public var sizes: [Int]
  public var count: GrowthCount
  /// The wall time all growth runs share, from the first run's start.
  public var budgetMilliseconds: UInt64
  /// Each growth run's limits, laid over the challenge's.
  public var limits: StepLimits
  /// The section's weight in the score, as a test's `points`.
  public var points: Double
  /// In file order, at least one.
  public var cases: [GrowthCase]
  /// What every solution in `solutions/slow/` must get.
  public var slowSolution: SlowSolutionExpectation?

  public static let keys = ["sizes", "count", "budget_ms", "limits", "points", "cases", "slow_solution"]
  public static let minimumSizes = 3
  public static let maximumSizes = 20
  public static let maximumSize = 1 << 20
  public static let maximumCases = 8
  public static let defaultBudgetMilliseconds: UInt64 = 30_000
  public static let maximumBudgetMilliseconds: UInt64 = 120_000
}

/// One series of inputs: a shape at every size, and the classes its counts may grow like.
public struct GrowthCase: Sendable {
  public var name: String
  public var input: GrowthInputSource
  public var seed: UInt64
  public var allowed: [GrowthClass]

  /// The classes the fit chooses from: `n + m` only for graphs (a program generator's input is a
  /// graph when the case allows `n + m`).
  public var classes: [GrowthClass] {
    let graph: Bool
    switch input {
    case .shape(let shape): graph = shape.isGraph
    case .program: graph = allowed.contains(.nodesPlusEdges)
    }
    return graph ? GrowthClass.allCases : GrowthClass.withoutEdges
  }
}

/// Where a growth case's inputs come from.
public enum GrowthInputSource: Sendable {
  case shape(GrowthShape)
  /// A generator program, compiled once and run in a box as `generator N SEED`; its stdout is the input.
  case program(CheckerProgram)
}

/// `growth.slow_solution`: the class a too-slow solution's counts must grow like on `case`.
public struct SlowSolutionExpectation: Sendable, Hashable {
  public var caseName: String
  public var growthClass: GrowthClass
}

/// Reads a `growth` section, collecting every problem with its field path.
struct GrowthSectionParser {
  /// nil for an inline challenge, whose generator source is its contents.
  let directory: ChallengeDirectory?
  /// The challenge's strict reader, which collects the section's problems with the rest.
  let reader: StrictReader

  init(directory: ChallengeDirectory?, reader: StrictReader) {
    self.directory = directory
    self.reader = reader
  }

  private var problemCount: Int { reader.problems.count }

  private var isInline: Bool { directory == nil }

  /// A file field: the file it names (bounded, inside the directory, no links), or the string itself.
  private mutating func contents(_ value: JSONValue?, _ field: String) -> Data? {
    switch ChallengeLoader.fileField(value, in: directory, limit: ChallengeLoader.maximumSourceBytes) {
    case .success(let data): return data
    case .failure(let failure):
      problem(field, failure.message)
      return nil
    }
  }

  func problem(_ field: String, _ message: String) { reader.report(field, message) }

  mutating func parse(_ value: JSONValue) -> GrowthSection? {
    let before = problemCount
    guard let fields = object(value, "growth", GrowthSection.keys) else { return nil }
    let sizes = parseSizes(fields.value("sizes"))
    let count = parseCount(fields.value("count"))
    var budget = GrowthSection.defaultBudgetMilliseconds
    if let value = fields.value("budget_ms") {
      if let number = whole(value), (1_000...GrowthSection.maximumBudgetMilliseconds).contains(number) {
        budget = number
      } else {
        problem(
          "growth.budget_ms",
          "must be a whole number of milliseconds from 1000 to \(GrowthSection.maximumBudgetMilliseconds)")
      }
    }
    let limits = parseLimits(fields.value("limits"))
    var points = 1.0
    if let value = fields.value("points") {
      if case .number(let number) = value, number > 0, number <= ChallengeLoader.maximumPoints {
        points = number
      } else {
        problem("growth.points", "must be a positive number of at most \(Int(ChallengeLoader.maximumPoints))")
      }
    }
    let cases = parseCases(fields.value("cases"), sizes: sizes ?? [])
    let slow = parseSlowSolution(fields.value("slow_solution"), cases: cases ?? [])
    guard problemCount == before, let sizes, let count, let cases else { return nil }
    return GrowthSection(
      sizes: sizes, count: count, budgetMilliseconds: budget, limits: limits, points: points, cases: cases,
      slowSolution: slow)
  }

  private mutating func parseSizes(_ value: JSONValue?) -> [Int]? {
    let rule =
      "must be \(GrowthSection.minimumSizes) to \(GrowthSection.maximumSizes) strictly increasing whole numbers "
      + "from 1 to \(GrowthSection.maximumSize), e.g. [16, 32, 64, 128, 256, 512, 1024]"
    guard case .array(let items)? = value else {
      problem("growth.sizes", value == nil ? "is required: it " + rule : rule)
      return nil
    }
    let sizes = items.compactMap { whole($0).map(Int.init) }
    guard sizes.count == items.count, (GrowthSection.minimumSizes...GrowthSection.maximumSizes).contains(sizes.count),
      sizes.allSatisfy({ (1...GrowthSection.maximumSize).contains($0) }), zip(sizes, sizes.dropFirst()).allSatisfy(<)
    else {
      problem("growth.sizes", rule)
      return nil
    }
    return sizes
  }

  private mutating func parseCount(_ value: JSONValue?) -> GrowthCount? {
    let rule = "must be \"steps\", \"count_line\" or {\"actions\": [\"compare\", ...]}"
    switch value {
    case nil:
      problem("growth.count", "is required: it " + rule)
    case .string("steps"): return .steps
    case .string("count_line"): return .countLine
    case .object?:
      guard let fields = object(value, "growth.count", ["actions"]) else { return nil }
      guard case .array(let items)? = fields.value("actions"), (1...16).contains(items.count) else {
        problem("growth.count.actions", "must be an array of 1 to 16 action names")
        return nil
      }
      var names: [String] = []
      for (index, item) in items.enumerated() {
        guard case .string(let name) = item, (1...64).contains(name.utf8.count) else {
          problem("growth.count.actions[\(index)]", "must be a non-empty string of at most 64 bytes")
          continue
        }
        if names.contains(name) { problem("growth.count.actions[\(index)]", "\"\(name)\" is already listed") }
        names.append(name)
      }
      return names.count == items.count ? .actions(names) : nil
    default: problem("growth.count", rule)
    }
    return nil
  }

  private func parseLimits(_ value: JSONValue?) -> StepLimits {
    ChallengeLoader.limits(value, at: "growth.limits", reader: reader)
  }

  private mutating func parseCases(_ value: JSONValue?, sizes: [Int]) -> [GrowthCase]? {
    guard case .array(let items)? = value, (1...GrowthSection.maximumCases).contains(items.count) else {
      problem("growth.cases", "must be an array of 1 to \(GrowthSection.maximumCases) cases")
      return nil
    }
    let before = problemCount
    var cases: [GrowthCase] = []
    for (index, item) in items.enumerated() {
      let field = "growth.cases[\(index)]"
      guard let fields = object(item, field, ["name", "input", "expect"]) else { continue }
      guard case .string(let name)? = fields.value("name"), (1...64).contains(name.utf8.count),
        name.utf8.allSatisfy({
          (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) || $0 == 45 || $0 == 95
        })
      else {
        problem(field + ".name", "is required: 1 to 64 letters, digits, - or _")
        continue
      }
      if cases.contains(where: { $0.name == name }) { problem(field + ".name", "another case is named \"\(name)\"") }
      let allowed = parseExpect(fields.value("expect"), field: field + ".expect")
      guard let (input, seed) = parseInput(fields.value("input"), field: field + ".input", sizes: sizes), let allowed
      else {
        continue
      }
      if case .shape(let shape) = input, !shape.isGraph, allowed.contains(.nodesPlusEdges) {
        problem(field + ".expect", "\"n + m\" is only for graph inputs (shape \"graph\" or a generator program)")
        continue
      }
      cases.append(GrowthCase(name: name, input: input, seed: seed, allowed: allowed))
    }
    return problemCount == before ? cases : nil
  }

  private mutating func parseExpect(_ value: JSONValue?, field: String) -> [GrowthClass]? {
    let known = GrowthClass.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    guard case .array(let items)? = value, (1...GrowthClass.allCases.count).contains(items.count) else {
      problem(field, "must be an array of the classes allowed, from \(known)")
      return nil
    }
    var classes: [GrowthClass] = []
    for (index, item) in items.enumerated() {
      guard case .string(let name) = item, let growthClass = GrowthClass(rawValue: name) else {
        problem("\(field)[\(index)]", "unknown class \(item.json); known classes: \(known)")
        return nil
      }
      if classes.contains(growthClass) { problem("\(field)[\(index)]", "\"\(name)\" is already listed") }
      classes.append(growthClass)
    }
    return classes
  }

  private mutating func parseInput(_ value: JSONValue?, field: String, sizes: [Int]) -> (GrowthInputSource, UInt64)? {
    let keys = ["shape", "seed", "distinct", "target", "edges_per_node", "edges", "program"]
    guard let fields = object(value, field, keys) else { return nil }
    var seed: UInt64 = 1
    if let value = fields.value("seed") {
      guard let number = whole(value) else {
        problem(field + ".seed", "must be a whole number from 0 to 999999999999")
        return nil
      }
      seed = number
    }
    func only(_ allowedKeys: [String], for what: String) -> Bool {
      for key in fields.fields.keys.sorted() where !allowedKeys.contains(key) && key != "seed" {
        problem(field + "." + key, "is not an option of \(what)")
        return false
      }
      return true
    }
    if let program = fields.value("program") {
      guard only(["program"], for: "a generator program"), let parsed = parseProgram(program, field: field + ".program")
      else { return nil }
      return (.program(parsed), seed)
    }
    guard case .string(let name)? = fields.value("shape") else {
      problem(field, "needs \"shape\" (one of \(GrowthShape.names.joined(separator: ", "))) or \"program\"")
      return nil
    }
    switch name {
    case "random", "sorted", "reversed":
      guard only(["shape"], for: "shape \"\(name)\"") else { return nil }
      let shape: GrowthShape = name == "random" ? .random : name == "sorted" ? .sorted : .reversed
      return (.shape(shape), seed)
    case "few_distinct":
      guard only(["shape", "distinct"], for: "shape \"few_distinct\"") else { return nil }
      var distinct = 4
      if let value = fields.value("distinct") {
        guard let number = whole(value), (1...1000).contains(number) else {
          problem(field + ".distinct", "must be a whole number from 1 to 1000")
          return nil
        }
        distinct = Int(number)
      }
      return (.shape(.fewDistinct(distinct: distinct)), seed)
    case "search":
      guard only(["shape", "target"], for: "shape \"search\"") else { return nil }
      var present = false
      switch fields.value("target") {
      case nil, .string("absent")?: break
      case .string("present")?: present = true
      default:
        problem(field + ".target", "must be \"present\" or \"absent\"")
        return nil
      }
      return (.shape(.search(present: present)), seed)
    case "graph":
      guard only(["shape", "edges_per_node", "edges"], for: "shape \"graph\"") else { return nil }
      var perNode = 2.0
      if let value = fields.value("edges_per_node") {
        guard case .number(let number) = value, number > 0, number <= 64 else {
          problem(field + ".edges_per_node", "must be a number above 0 and at most 64")
          return nil
        }
        perNode = number
      }
      var edges: [Int]?
      if let value = fields.value("edges") {
        if fields.value("edges_per_node") != nil {
          problem(field + ".edges", "give edges or edges_per_node, not both")
          return nil
        }
        guard case .array(let items) = value, items.count == sizes.count,
          let counts = Optional(items.compactMap { whole($0).map(Int.init) }), counts.count == items.count,
          counts.allSatisfy({ $0 <= 1 << 22 })
        else {
          problem(field + ".edges", "must be one whole number of edges per size (\(sizes.count) of them)")
          return nil
        }
        edges = counts
      }
      return (.shape(.graph(edgesPerNode: perNode, edges: edges)), seed)
    default:
      problem(field + ".shape", "unknown shape \"\(name)\"; known shapes: \(GrowthShape.names.joined(separator: ", "))")
      return nil
    }
  }

  private mutating func parseProgram(_ value: JSONValue, field: String) -> CheckerProgram? {
    guard let fields = object(value, field, ["language", "source"]) else { return nil }
    guard case .string(let language)? = fields.value("language"), ChallengeLanguages.names.contains(language) else {
      problem(field + ".language", "must be one of " + ChallengeLanguages.names.joined(separator: ", "))
      return nil
    }
    guard let source = contents(fields.value("source"), field + ".source") else { return nil }
    var name = ""
    if !isInline, case .string(let path)? = fields.value("source") {
      name = String(path.split(separator: "/").last ?? "")
      guard ChallengeLanguages.language(ofFile: name) == language else {
        problem(field + ".source", "\(path): the file's extension does not name the language \(language)")
        return nil
      }
    }
    return CheckerProgram(language: language, source: SourceFile(name: name, contents: source))
  }

  private mutating func parseSlowSolution(_ value: JSONValue?, cases: [GrowthCase]) -> SlowSolutionExpectation? {
    guard let value else { return nil }
    guard let fields = object(value, "growth.slow_solution", ["case", "class"]) else { return nil }
    guard case .string(let name)? = fields.value("case"), let growthCase = cases.first(where: { $0.name == name })
    else {
      problem("growth.slow_solution.case", "must name one of the growth cases")
      return nil
    }
    guard case .string(let word)? = fields.value("class"), let growthClass = GrowthClass(rawValue: word) else {
      problem(
        "growth.slow_solution.class",
        "must be one of " + GrowthClass.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
      return nil
    }
    if growthCase.allowed.contains(growthClass) {
      problem("growth.slow_solution.class", "\"\(word)\" is allowed by case \(name): a slow solution would pass")
      return nil
    }
    return SlowSolutionExpectation(caseName: name, growthClass: growthClass)
  }

  /// An object whose keys are all allowed (the strict reader reports the others).
  private func object(_ value: JSONValue?, _ field: String, _ allowed: [String]) -> StrictObject? {
    guard let value else {
      problem(field, "is required")
      return nil
    }
    return reader.object(value, at: field, keys: allowed)
  }

  private func whole(_ value: JSONValue) -> UInt64? {
    guard case .number(let number) = value, number >= 0, number == number.rounded(), number < 1e12 else { return nil }
    return UInt64(number)
  }
}
