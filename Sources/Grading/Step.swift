import Wire

/// One step of an algorithm (DESIGN §6): a JSON object of fields, plus, for expected steps, a
/// caption that explains it to a learner.
public struct Step: Sendable, Hashable {
  /// The step's fields (`action`, `active`, `array`...), without `caption`.
  public var fields: [String: JSONValue]
  /// What the step means ("5 is larger than 2, so shift it right."); nil for a learner's step.
  public var caption: String?

  public init(_ fields: [String: JSONValue], caption: String? = nil) {
    self.fields = fields
    self.caption = caption
  }

  /// The step as a JSON object, caption included when there is one.
  public var object: JSONValue {
    var all = fields
    if let caption { all["caption"] = .string(caption) }
    return .object(all)
  }

  /// The step as a step line, `@step {...}`, the form learners print and expected-step files hold.
  public var line: String { StepParser.prefix + object.json }

  /// Only the named fields (a field absent from the step is left out).
  public func projected(on names: [String]) -> JSONValue {
    var kept: [String: JSONValue] = [:]
    for name in names { kept[name] = fields[name] }
    return .object(kept)
  }
}
