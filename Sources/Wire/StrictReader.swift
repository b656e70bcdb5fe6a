import Foundation

/// One thing wrong with a JSON document, at its path.
public struct JSONProblem: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of mistake it is, so an edge can answer each in its own way (the API's
  /// `unknown_field` code, say) without reading the message.
  public enum Kind: String, Sendable, Hashable {
    /// The bytes are not JSON.
    case invalidJSON
    /// An object holds a key twice.
    case duplicateKey
    /// A key the format does not have.
    case unknownKey
    /// A value of the wrong JSON type (a string where a number belongs, 1.5 for a whole number).
    case wrongType
    /// A number outside what the field allows.
    case outOfRange
    /// A null where nulls are refused.
    case null
    /// A required key left out.
    case missing
    /// A value of the right type that the format still refuses, reported by the reader's caller.
    case invalid
  }

  /// Where: `limits.cpu_ms`, `files[1].name`; "" for the document itself.
  public var path: String
  /// What, written for whoever wrote the document: `expected a whole number, got 1.5`.
  public var message: String
  /// What kind of mistake.
  public var kind: Kind

  /// A problem from its parts.
  public init(path: String, message: String, kind: Kind = .invalid) {
    self.path = path
    self.message = message
    self.kind = kind
  }

  /// `path: message`, or the message alone for the document itself.
  public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// The one strict reader of JSON documents: request bodies, runner files, policies, challenges, the
/// daemon's config and checker options all read through it, so "unknown keys are errors" means the
/// same everywhere.
///
/// It does not stop at the first problem: every unknown key, wrong type, out-of-range number,
/// duplicate key and refused null is collected with its path, so one answer (or one `--check`)
/// shows all of them. Readers ask for typed values (`string`, `integer(in:)`, `object(keys:)`); a
/// value that is absent, null or wrong comes back nil, the problem recorded.
public final class StrictReader {
  /// What a null means.
  public enum Nulls: Sendable {
    /// A null is a mistake (request bodies: no field is nullable, and `decodeIfPresent` would
    /// quietly read it as "left out").
    case refused
    /// A null is the same as leaving the key out (data files written by an operator).
    case absent
  }

  /// What a null means in this document.
  public let nulls: Nulls
  /// Whether keys starting with "//" are comments, skipped (the daemon's config file).
  public let allowsComments: Bool
  /// Every problem found so far, in the order found.
  public private(set) var problems: [JSONProblem] = []
  /// The literal text of the parsed document's long whole numbers, by path (`DuplicateKeys.scan`).
  private(set) var longWholeNumbers: [String: String] = [:]

  /// A reader with no problems yet.
  public init(nulls: Nulls = .refused, allowsComments: Bool = false) {
    self.nulls = nulls
    self.allowsComments = allowsComments
  }

  /// Records a problem the caller found (a value of the right type the format still refuses).
  /// A problem already recorded is not recorded again: a reader that looks at a refused null twice
  /// reports it once.
  public func report(_ path: String, _ message: String, kind: JSONProblem.Kind = .invalid) {
    let problem = JSONProblem(path: path, message: message, kind: kind)
    if !problems.contains(problem) { problems.append(problem) }
  }

  /// Whether nothing is wrong so far.
  public var isClean: Bool { problems.isEmpty }

  /// Parses `data` as one JSON value; nil, with the problem recorded, when it is not JSON or an
  /// object in it holds a key twice (Foundation's decoder would silently keep one of the two).
  public func parse(_ data: Data) -> JSONValue? {
    // The byte parser reads what it is sure of; the rest (a syntax error above all) goes to
    // Foundation's decoder, whose message names the mistake.
    var parsed = data.withUnsafeBytes { JSONBytes.parse($0.bindMemory(to: UInt8.self)) }
    if parsed == nil {
      switch JSONBytes.parseWithFoundation(data) {
      case .success(let read): parsed = read
      case .failure(let notJSON):
        report("", "not valid JSON: \(notJSON.explanation)", kind: .invalidJSON)
        return nil
      }
    }
    guard let parsed else { return nil }
    if let key = parsed.duplicate {
      report(key, "is given twice; give each field once", kind: .duplicateKey)
      return nil
    }
    longWholeNumbers = parsed.longWholeNumbers
    return parsed.value
  }

  /// `value` as an object that may hold only `keys`; each other key is a problem. Nil, with the
  /// problem recorded, when `value` is not an object.
  public func object(_ value: JSONValue, at path: String, keys: [String]) -> StrictObject? {
    guard case .object(let fields) = value else {
      report(
        path,
        path.isEmpty ? "expected a JSON object at the top, got \(value.kind)" : "expected an object, got \(value.kind)",
        kind: .wrongType)
      return nil
    }
    for key in fields.keys.sorted() where !keys.contains(key) && !(allowsComments && key.hasPrefix("//")) {
      report(
        Self.join(path, key), "unknown key; known keys: " + keys.joined(separator: ", "), kind: .unknownKey)
    }
    return StrictObject(path: path, fields: fields, reader: self)
  }

  /// `path.key`, or `key` at the top.
  public static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

  /// Foundation's decoding error in one line.
  public static func explain(_ error: any Error) -> String {
    if case DecodingError.dataCorrupted(let context) = error {
      let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
      return underlying ?? context.debugDescription
    }
    return "\(error)"
  }
}

/// One object of a document being read by a `StrictReader`; its unknown keys are already reported.
public struct StrictObject {
  /// The object's own path ("" at the top).
  public let path: String
  /// Its fields as they are.
  public let fields: [String: JSONValue]
  /// The reader that collects the problems.
  public let reader: StrictReader

  /// The path of one of its keys.
  public func path(_ key: String) -> String { StrictReader.join(path, key) }

  /// Whether `key` is there and not null.
  public func has(_ key: String) -> Bool {
    guard let value = fields[key] else { return false }
    if case .null = value { return false }
    return true
  }

  /// Whether `key` is there and null.
  public func isNull(_ key: String) -> Bool {
    if case .null? = fields[key] { return true }
    return false
  }

  /// The value of `key`: nil when absent or null (a problem when required, or a refused null).
  public func value(_ key: String, required: Bool = false) -> JSONValue? {
    switch fields[key] {
    case nil:
      if required { reader.report(path(key), "is required", kind: .missing) }
      return nil
    case .null?:
      if reader.nulls == .refused {
        reader.report(path(key), "must not be null; leave the field out instead", kind: .null)
      } else if required {
        reader.report(path(key), "is required", kind: .missing)
      }
      return nil
    case let value?:
      return value
    }
  }

  /// A value converted by `extract`; nil from it is a wrong type, reported as `expected \(expected)`.
  public func typed<T>(_ key: String, _ expected: String, required: Bool = false, _ extract: (JSONValue) -> T?) -> T? {
    guard let value = value(key, required: required) else { return nil }
    guard let result = extract(value) else {
      reader.report(path(key), "expected \(expected), got \(value.kind)", kind: .wrongType)
      return nil
    }
    return result
  }

  /// A string; with `nonEmpty`, "" is a problem too.
  public func string(_ key: String, required: Bool = false, nonEmpty: Bool = false) -> String? {
    let text = typed(key, "a string", required: required) {
      if case .string(let text) = $0 { return text }
      return nil
    }
    if nonEmpty, text == "" {
      reader.report(path(key), "must not be empty")
      return nil
    }
    return text
  }

  /// true or false.
  public func bool(_ key: String, required: Bool = false) -> Bool? {
    typed(key, "true or false", required: required) {
      if case .bool(let flag) = $0 { return flag }
      return nil
    }
  }

  /// Any number.
  public func number(_ key: String, required: Bool = false) -> Double? {
    typed(key, "a number", required: required) {
      if case .number(let number) = $0 { return number }
      return nil
    }
  }

  /// A whole number that fits `T` and, when given, `range`.
  public func integer<T: FixedWidthInteger>(
    _ key: String, as type: T.Type, in range: ClosedRange<T>? = nil, required: Bool = false
  ) -> T? {
    guard let value = value(key, required: required) else { return nil }
    return StrictObject.integer(value, at: path(key), as: type, in: range, reader: reader)
  }

  /// `value` as a whole number that fits `T` and, when given, `range`; nil with the problem recorded.
  public static func integer<T: FixedWidthInteger>(
    _ value: JSONValue, at path: String, as type: T.Type, in range: ClosedRange<T>? = nil,
    reader: StrictReader
  ) -> T? {
    guard case .number(let number) = value else {
      reader.report(path, "expected a whole number, got \(value.kind)", kind: .wrongType)
      return nil
    }
    if let literal = reader.longWholeNumbers[path] {
      guard let whole = T(literal) else {
        reader.report(
          path, "\(literal) is out of range: expected \(describe(range ?? T.min...T.max))", kind: .outOfRange)
        return nil
      }
      if let range, !range.contains(whole) {
        reader.report(path, "\(whole) is out of range: expected \(describe(range))", kind: .outOfRange)
        return nil
      }
      return whole
    }
    guard number == number.rounded(), number.isFinite else {
      reader.report(path, "expected a whole number, got \(JSONValue.format(number))", kind: .wrongType)
      return nil
    }
    // Doubles hold every whole number only up to 2^53; past it, 2^63 would round into Int64's range.
    let lowest = max(Double(T.min), -0x1p53)
    let highest = min(Double(T.max), 0x1p53)
    guard number >= lowest, number <= highest, let whole = T(exactly: number) else {
      let bounds = range ?? (T(lowest)...T(highest))
      reader.report(
        path, "\(JSONValue.format(number)) is out of range: expected \(describe(bounds))", kind: .outOfRange)
      return nil
    }
    if let range, !range.contains(whole) {
      reader.report(path, "\(whole) is out of range: expected \(describe(range))", kind: .outOfRange)
      return nil
    }
    return whole
  }

  private static func describe<T: FixedWidthInteger>(_ range: ClosedRange<T>) -> String {
    "a whole number from \(range.lowerBound) to \(range.upperBound)"
  }

  /// An array of strings.
  public func strings(_ key: String, required: Bool = false) -> [String]? {
    guard let items = array(key, required: required) else { return nil }
    var strings: [String] = []
    var valid = true
    for (index, item) in items.enumerated() {
      if case .string(let text) = item {
        strings.append(text)
      } else {
        reader.report("\(path(key))[\(index)]", "expected a string, got \(item.kind)", kind: .wrongType)
        valid = false
      }
    }
    return valid ? strings : nil
  }

  /// An array of any values.
  public func array(_ key: String, required: Bool = false) -> [JSONValue]? {
    typed(key, "an array", required: required) {
      if case .array(let items) = $0 { return items }
      return nil
    }
  }

  /// A nested object that may hold only `keys`.
  public func object(_ key: String, keys: [String], required: Bool = false) -> StrictObject? {
    guard let value = value(key, required: required) else { return nil }
    return reader.object(value, at: path(key), keys: keys)
  }

  /// An array of objects that may hold only `keys`; nil when it is not an array or any element is
  /// not an object.
  public func objects(_ key: String, keys: [String], required: Bool = false) -> [StrictObject]? {
    guard let items = array(key, required: required) else { return nil }
    var objects: [StrictObject] = []
    for (index, item) in items.enumerated() {
      if let object = reader.object(item, at: "\(path(key))[\(index)]", keys: keys) { objects.append(object) }
    }
    return objects.count == items.count ? objects : nil
  }
}

/// Every problem of a document that was refused.
public struct JSONProblems: Error, Sendable, Equatable, CustomStringConvertible {
  /// The problems, in the order found; never empty.
  public var problems: [JSONProblem]

  /// A refusal from its problems.
  public init(_ problems: [JSONProblem]) { self.problems = problems }

  /// The problems joined by "; ".
  public var description: String { problems.map(\.description).joined(separator: "; ") }
}

extension StrictReader {
  /// Reads a whole document: parses `data`, checks the top-level object's `keys`, and hands it to
  /// `build`; the value only when nothing at all was wrong.
  public static func read<Value>(
    _ data: Data, keys: [String], nulls: Nulls = .refused, allowsComments: Bool = false,
    _ build: (StrictObject) -> Value?
  ) -> Result<Value, JSONProblems> {
    let reader = StrictReader(nulls: nulls, allowsComments: allowsComments)
    guard let value = reader.parse(data) else { return .failure(JSONProblems(reader.problems)) }
    return read(value, keys: keys, reader: reader, build)
  }

  /// `read` of a value already parsed.
  public static func read<Value>(
    _ value: JSONValue, keys: [String], reader: StrictReader = StrictReader(), _ build: (StrictObject) -> Value?
  ) -> Result<Value, JSONProblems> {
    let built = reader.object(value, at: "", keys: keys).flatMap(build)
    guard let built, reader.isClean else {
      let problems = reader.problems
      return .failure(JSONProblems(problems.isEmpty ? [JSONProblem(path: "", message: "not readable")] : problems))
    }
    return .success(built)
  }
}
