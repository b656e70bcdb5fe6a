import Wire

/// `steps`: the program's step lines must match the expected steps, field by declared field, step by
/// step (DESIGN §6). Other output lines (debug prints, the answer) are ignored here.
///
/// The expected answer is a steps file: one `@step {...}` line per step, each with a `caption`
/// (a reference recorder's `Step.line`s). Unusable expected steps are a configuration error.
///
/// Verdict: accepted only for a sequence of the same length whose declared fields are all equal.
/// Score: the matched prefix, `matched / max(expected count, actual count)`, which is
/// `matched / expected count` unless the program printed extra steps (so extra steps cost score).
/// A malformed step line, or too many or too long step lines, is a wrong answer naming the line.
///
/// Options:
/// - `fields` (array of strings, required, non-empty): the fields compared. A field absent from both
///   steps is equal; absent from one only is a difference. Numbers compare by value (`1` = `1.0`).
/// - `max_steps` (integer, default 10000, 1...1000000) and `max_line_bytes` (integer, default 65536,
///   64...16777216): the parser's bounds.
public struct StepChecker: Checker {
  public static let name = "steps"
  public let fields: [String]
  public let parser: StepParser

  public init(options: CheckerOptions) throws(CheckerConfigurationError) {
    let reader = OptionReader(options, checker: Self.name, keys: ["fields", "max_steps", "max_line_bytes"])
    guard let fields = try reader.strings("fields"), !fields.isEmpty else {
      throw reader.error("option fields (the step fields to compare, like [\"action\", \"array\"]) is required")
    }
    guard Set(fields).count == fields.count, !fields.contains("caption") else {
      throw reader.error("option fields must not repeat a field or name caption")
    }
    self.fields = fields
    var parser = StepParser()
    if let steps = try reader.integer("max_steps", in: 1...1_000_000) { parser.maximumSteps = steps }
    if let bytes = try reader.integer("max_line_bytes", in: 64...16 << 20) { parser.maximumLineBytes = bytes }
    self.parser = parser
    try reader.finish()
  }

  /// A step checker comparing `fields`, with the default bounds.
  public init(fields: [String]) throws(CheckerConfigurationError) {
    try self.init(options: ["fields": .array(fields.map { .string($0) })])
  }

  public func check(input: String, expected: String, output: String) throws(CheckerConfigurationError)
    -> CheckResult
  {
    let unbounded = StepParser(
      maximumSteps: 1_000_000, maximumLineBytes: 16 << 20, maximumDepth: 64, maximumTotalBytes: Int.max)
    switch unbounded.parse(expected) {
    case .failure(let error):
      throw CheckerConfigurationError(checker: Self.name, message: "expected steps, \(error)")
    case .success(let parsed):
      return check(expectedSteps: parsed.steps, output: output)
    }
  }

  /// Checks a program's output against expected steps (from a recorder or a file).
  public func check(expectedSteps: [Step], output: String) -> CheckResult {
    switch parser.parse(output) {
    case .failure(let error):
      return .wrongAnswer("output \(error)")
    case .success(let parsed):
      return check(expectedSteps: expectedSteps, actualSteps: parsed.steps)
    }
  }

  /// Compares two step sequences on the declared fields.
  public func check(expectedSteps: [Step], actualSteps: [Step]) -> CheckResult {
    let total = max(expectedSteps.count, actualSteps.count)
    var matched = 0
    while matched < min(expectedSteps.count, actualSteps.count),
      differingFields(expectedSteps[matched], actualSteps[matched]).isEmpty
    {
      matched += 1
    }
    if matched == total { return .accepted }
    let score = Double(matched) / Double(total)
    let number = matched + 1
    let difference: StepDifference
    let message: String
    if matched < expectedSteps.count, matched < actualSteps.count {
      let want = expectedSteps[matched]
      let got = actualSteps[matched]
      let parts = differingFields(want, got).map { name in
        "expected \(name) \(describe(want.fields[name])), got \(describe(got.fields[name]))"
      }
      difference = StepDifference(
        step: number, expected: want.projected(on: fields), actual: got.projected(on: fields),
        caption: want.caption ?? "", kind: want.dataFreeKind, genericCaption: want.dataFreeCaption, problem: .differs,
        differingFields: differingFields(want, got))
      message = "step \(number) differs: " + parts.joined(separator: "; ")
    } else if matched < expectedSteps.count {
      let want = expectedSteps[matched]
      difference = StepDifference(
        step: number, expected: want.projected(on: fields), actual: nil, caption: want.caption ?? "",
        kind: want.dataFreeKind, genericCaption: want.dataFreeCaption, problem: .missing)
      message =
        "expected \(Text.plural(expectedSteps.count, "step")), got \(actualSteps.count): step \(number) is missing"
    } else {
      difference = StepDifference(
        step: number, expected: nil, actual: actualSteps[matched].projected(on: fields),
        caption: "The algorithm had already finished after \(Text.plural(expectedSteps.count, "step")).",
        kind: "an extra step", genericCaption: "The algorithm had already finished.", problem: .extra)
      message =
        "expected \(Text.plural(expectedSteps.count, "step")), got \(actualSteps.count): step \(number) is extra"
    }
    var explained = message
    if !difference.caption.isEmpty { explained += ". Expected step: \(difference.caption)" }
    return CheckResult(verdict: .wrongAnswer, score: score, message: explained, firstDifference: difference)
  }

  private func differingFields(_ expected: Step, _ actual: Step) -> [String] {
    fields.filter { expected.fields[$0] != actual.fields[$0] }
  }

  private func describe(_ value: JSONValue?) -> String {
    guard let value else { return "nothing (the field is missing)" }
    let json = value.json
    return json.count <= 80 ? json : String(json.prefix(80)) + "..."
  }
}
