import Foundation
import Grading
import Wire

/// Reads the parts of challenge.json that make a function challenge (docs/challenges.md,
/// "Function challenges"): `function`, `compare`, and each test's `args` and `expected`. Every
/// problem goes to the challenge's strict reader with its path, like the rest of the file.
struct FunctionSectionParser {
  let reader: StrictReader

  /// The keys of a function challenge's test.
  static let testKeys = ["name", "args", "args_file", "expected", "expected_file", "points", "hidden"]
  /// The sections of a stdin challenge that a function challenge has no use for.
  static let stdinOnlyKeys = ["output_checker", "recorder"]
  /// Parameters a function may take.
  static let maximumParameters = 8

  /// `{"name": "merge_intervals", "params": [{"name": "intervals", "type": "int[][]"}], "returns": "int[][]"}`.
  func signature(_ value: JSONValue) -> FunctionSignature? {
    guard let fields = reader.object(value, at: "function", keys: ["name", "params", "returns"]) else { return nil }
    let before = reader.problems.count
    let name = fields.string("name", required: true)
    if let name, !FunctionSignature.isSnakeCase(name) {
      reader.report(
        "function.name", "must be snake_case (lowercase letters, digits, single _; at most 64), got \"\(name)\"")
    } else if let name, Self.reservedNames.contains(name) {
      // A one-word name is the same in every language's case: `double` would not compile in Java or Dart.
      reader.report("function.name", "\"\(name)\" is a keyword or a type in one of the languages; choose another")
    }
    var parameters: [FunctionSignature.Parameter] = []
    if let items = fields.array("params", required: true) {
      if items.count > Self.maximumParameters {
        reader.report("function.params", "at most \(Self.maximumParameters) parameters")
      }
      var seen: Set<String> = []
      for (index, item) in items.enumerated() {
        let path = "function.params[\(index)]"
        guard let parameter = reader.object(item, at: path, keys: ["name", "type"]) else { continue }
        let parameterName = parameter.string("name", required: true)
        if let parameterName {
          if !FunctionSignature.isSnakeCase(parameterName) {
            reader.report(path + ".name", "must be snake_case, got \"\(parameterName)\"")
          } else if Self.reservedNames.contains(parameterName) {
            reader.report(path + ".name", "\"\(parameterName)\" is a keyword in one of the languages; choose another")
          } else if !seen.insert(parameterName).inserted {
            reader.report(path + ".name", "another parameter is already named \"\(parameterName)\"")
          }
        }
        let type = parameter.string("type", required: true).flatMap { self.type($0, at: path + ".type") }
        if let parameterName, let type { parameters.append(.init(name: parameterName, type: type)) }
      }
    }
    var returns = fields.string("returns", required: true).flatMap { type($0, at: "function.returns") }
    if returns == .graph {
      reader.report("function.returns", "a graph is an argument type only; return its parts (int[][], say)")
      returns = nil
    }
    guard reader.problems.count == before, let name, let returns else { return nil }
    return FunctionSignature(name: name, parameters: parameters, returns: returns)
  }

  /// Names that are keywords or the drivers' own in some language: a parameter so named would not compile.
  static let reservedNames: Set<String> = [
    "and", "as", "assert", "auto", "bool", "break", "case", "catch", "char", "class", "const", "continue", "default",
    "def", "del", "delete", "do", "double", "elif", "else", "enum", "except", "export", "extends", "false", "final",
    "finally", "float", "for", "from", "func", "function", "global", "go", "if", "import", "in", "int", "interface",
    "is", "lambda", "let", "long", "new", "none", "not", "null", "or", "package", "pass", "private", "protected",
    "public", "raise", "return", "short", "signed", "static", "string", "struct", "super", "switch", "this", "throw",
    "true", "try", "type", "typeof", "unsigned", "var", "void", "while", "with", "yield", "val", "fun", "object",
    "when", "map", "chan", "range", "select", "defer", "fallthrough", "goto", "template", "typename", "using",
    "namespace", "operator", "sizeof", "union", "volatile", "register", "extern", "friend", "inline", "virtual",
    "nonlocal", "async", "await", "late", "required", "dynamic", "main",
  ]

  private func type(_ text: String, at path: String) -> FunctionType? {
    switch FunctionType.parse(text) {
    case .success(let type): return type
    case .failure(let problem):
      reader.report(path, problem.message)
      return nil
    }
  }

  /// `"compare"`: `"exact"` (the default), `"unordered"`, `"any_of"` or `{"float_tolerance": 1e-6}`.
  func comparison(_ value: JSONValue?, returns: FunctionType?) -> FunctionComparison {
    guard let value else { return .exact }
    let known = "\"exact\", \"unordered\", \"any_of\" or {\"float_tolerance\": 1e-6}"
    switch value {
    case .string("exact"): return .exact
    case .string("any_of"): return .anyOf
    case .string("unordered"):
      if let returns, case .array = returns { return .unordered }
      if returns != nil {
        reader.report("compare", "\"unordered\" needs an array result; the function returns \(returns!)")
      }
      return .unordered
    case .object:
      guard let fields = reader.object(value, at: "compare", keys: ["float_tolerance"]) else { return .exact }
      guard let tolerance = fields.number("float_tolerance", required: true) else { return .exact }
      guard tolerance >= 0, tolerance < 1 else {
        reader.report("compare.float_tolerance", "must be at least 0 and below 1, got \(JSONValue.format(tolerance))")
        return .exact
      }
      return .floatTolerance(tolerance)
    default:
      reader.report("compare", "must be \(known)")
      return .exact
    }
  }

  /// A test's arguments in the signature's order: from `args` (an object with one key per
  /// parameter) or from the JSON file `args_file` names (already read: `fileContents`).
  func arguments(
    _ fields: StrictObject, field: String, signature: FunctionSignature, fileContents: Data?
  ) -> [FunctionValue]? {
    let inline = fields.value("args")
    if inline != nil, fields.has("args_file") {
      reader.report(field, "give args or args_file, not both")
      return nil
    }
    if let inline { return arguments(inline, at: field + ".args", signature: signature, reader: reader) }
    guard fields.has("args_file") else {
      reader.report(field + ".args", "is required: an object with a value for each parameter", kind: .missing)
      return nil
    }
    guard let fileContents else { return nil }
    return arguments(file: fileContents, field: field + ".args_file", signature: signature)
  }

  /// A test's arguments from the contents of its `args_file`.
  func arguments(file contents: Data, field: String, signature: FunctionSignature) -> [FunctionValue]? {
    fromFile(contents, field: field) { value, fileReader in
      arguments(value, at: "[0]", signature: signature, reader: fileReader)
    }
  }

  /// A growth generator's output, an `args` object, in the signature's order.
  func arguments(generated value: JSONValue, signature: FunctionSignature) -> [FunctionValue]? {
    arguments(value, at: "args", signature: signature, reader: reader)
  }

  private func arguments(_ value: JSONValue, at path: String, signature: FunctionSignature, reader: StrictReader)
    -> [FunctionValue]?
  {
    guard let object = reader.object(value, at: path, keys: signature.parameters.map(\.name)) else { return nil }
    let before = reader.problems.count
    var values: [FunctionValue] = []
    for parameter in signature.parameters {
      guard let json = object.value(parameter.name, required: true) else { continue }
      if let read = FunctionValue.read(json, as: parameter.type, at: object.path(parameter.name), reader: reader) {
        values.append(read)
      }
    }
    return reader.problems.count == before ? values : nil
  }

  /// A test's expected result: `expected` or the JSON file `expected_file` names; under `any_of`,
  /// a non-empty array of acceptable results.
  func expected(
    _ fields: StrictObject, field: String, signature: FunctionSignature, comparison: FunctionComparison,
    fileContents: Data?
  ) -> FunctionValue? {
    let type = Self.expectedType(signature, comparison: comparison)
    let inline = fields.value("expected")
    if inline != nil, fields.has("expected_file") {
      reader.report(field, "give expected or expected_file, not both")
      return nil
    }
    let value: FunctionValue?
    if let inline {
      value = FunctionValue.read(inline, as: type, at: field + ".expected", reader: reader)
    } else if fields.has("expected_file") {
      guard let fileContents else { return nil }
      value = expected(file: fileContents, field: field + ".expected_file", type: type)
    } else {
      reader.report(field + ".expected", "is required: the value the function must return", kind: .missing)
      return nil
    }
    if comparison == .anyOf, case .array(let answers)? = value, answers.isEmpty {
      reader.report(field + ".expected", "under \"any_of\" must be a non-empty array of acceptable results")
      return nil
    }
    return value
  }

  /// The type of a test's `expected`: under `any_of`, an array of answers.
  static func expectedType(_ signature: FunctionSignature, comparison: FunctionComparison) -> FunctionType {
    comparison == .anyOf ? .array(signature.returns) : signature.returns
  }

  /// A test's expected value from the contents of its `expected_file`.
  func expected(file contents: Data, field: String, type: FunctionType) -> FunctionValue? {
    fromFile(contents, field: field) { json, fileReader in
      FunctionValue.read(json, as: type, at: "[0]", reader: fileReader)
    }
  }

  /// Reads a JSON file with a reader of its own (which keeps its long numbers' text), its problems
  /// reported as the field's. A file's top value may be a scalar, which the strict reader does not
  /// take at the top: it is read wrapped in an array.
  private func fromFile<Value>(
    _ contents: Data, field: String, read: (JSONValue, StrictReader) -> Value?
  ) -> Value? {
    let fileReader = StrictReader()
    var wrapped = Data("[".utf8)
    wrapped.append(contents)
    wrapped.append(Data("\n]".utf8))
    guard case .array(let items)? = fileReader.parse(wrapped), items.count == 1 else {
      let why = fileReader.problems.first.map { $0.message } ?? "holds more than one JSON value"
      reader.report(field, why)
      return nil
    }
    // The wrapper puts the file's value at [0] (where the reader keeps its long numbers' text); its
    // paths are reported as the file's own.
    let value = read(items[0], fileReader)
    for problem in fileReader.problems {
      var inner = problem.path.hasPrefix("[0]") ? problem.path.dropFirst(3) : Substring(problem.path)
      if inner.hasPrefix(".") { inner = inner.dropFirst() }
      reader.report(field, inner.isEmpty ? problem.message : "\(inner): \(problem.message)", kind: problem.kind)
    }
    return fileReader.problems.isEmpty ? value : nil
  }
}
