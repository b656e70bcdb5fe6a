import Foundation
import Wire

/// A parameter's or a result's type in a function challenge (docs/challenges.md, "Function
/// challenges"): `int` (64-bit), `float`, `bool`, `string`, arrays and 2-D arrays of those
/// (`int[]`, `string[][]`), and the structures `linked_list` (of ints, JSON `[1, 2, 3]`), `tree`
/// (a binary tree of ints in LeetCode's level order, JSON `[1, null, 2]`) and `graph` (an argument
/// only: JSON `{"n": 3, "edges": [[0, 1]], "directed": false}`, an adjacency list in the language).
public indirect enum FunctionType: Sendable, Hashable, CustomStringConvertible {
  case int
  case float
  case bool
  case string
  case array(FunctionType)
  case linkedList
  case tree
  case graph

  /// Parses the grammar: a base name followed by at most two `[]`.
  public static func parse(_ text: String) -> Result<FunctionType, FunctionTypeProblem> {
    var base = Substring(text)
    var depth = 0
    while base.hasSuffix("[]") {
      base = base.dropLast(2)
      depth += 1
    }
    var type: FunctionType
    switch base {
    case "int": type = .int
    case "float": type = .float
    case "bool": type = .bool
    case "string": type = .string
    case "linked_list", "tree", "graph":
      guard depth == 0 else {
        return .failure(
          FunctionTypeProblem("\"\(text)\": arrays of \(base) are not available; only of int, float, bool and string"))
      }
      return .success(base == "tree" ? .tree : base == "graph" ? .graph : .linkedList)
    default:
      return .failure(
        FunctionTypeProblem(
          "\"\(text)\" is not a type: write int, float, bool or string, optionally followed by [] or [][], "
            + "or linked_list, tree or graph"))
    }
    guard depth <= 2 else {
      return .failure(FunctionTypeProblem("\"\(text)\": arrays nest at most two deep (T[][])"))
    }
    for _ in 0..<depth { type = .array(type) }
    return .success(type)
  }

  /// The type as the grammar writes it (`int[][]`).
  public var description: String {
    switch self {
    case .int: return "int"
    case .float: return "float"
    case .bool: return "bool"
    case .string: return "string"
    case .array(let element): return element.description + "[]"
    case .linkedList: return "linked_list"
    case .tree: return "tree"
    case .graph: return "graph"
    }
  }

  /// What a value of this type is, for a sentence ("an array of whole numbers").
  public var phrase: String {
    switch self {
    case .int: return "a whole number"
    case .float: return "a number"
    case .bool: return "true or false"
    case .string: return "a string"
    case .array(.array(let element)): return "an array of arrays of \(element.pluralPhrase)"
    case .array(let element): return "an array of \(element.pluralPhrase)"
    case .linkedList: return "a linked list of whole numbers"
    case .tree: return "a binary tree of whole numbers"
    case .graph: return "a graph"
    }
  }

  private var pluralPhrase: String {
    switch self {
    case .int: return "whole numbers"
    case .float: return "numbers"
    case .bool: return "booleans"
    case .string: return "strings"
    case .array(let element): return "arrays of \(element.pluralPhrase)"
    case .linkedList: return "linked lists"
    case .tree: return "trees"
    case .graph: return "graphs"
    }
  }
}

/// Why a type text is not a type.
public struct FunctionTypeProblem: Error, Sendable, Hashable {
  public var message: String
  public init(_ message: String) { self.message = message }
}

/// A value of a `FunctionType`: a test's argument or expected result, or what the learner's function
/// returned. Whole numbers are exact 64-bit integers (a `JSONValue` would hold them as Doubles).
public enum FunctionValue: Sendable, Hashable {
  case int(Int64)
  case float(Double)
  case bool(Bool)
  case string(String)
  case array([FunctionValue])
  /// A missing child in a tree's level order.
  case null
  /// A graph argument: nodes `0..<nodes`, each edge `[u, v]`.
  case graph(nodes: Int64, edges: [[Int64]], directed: Bool)

  /// The most nodes of a graph, and of a list or a tree.
  public static let maximumNodes: Int64 = 1_000_000

  /// Reads `json` as a value of `type`; nil with every problem reported to `reader` at its path
  /// (`tests[0].args.intervals[1][0]`). Long whole numbers are read from the text the reader kept,
  /// so 2^63 - 1 arrives exactly; `lenientFloats` takes the strings "NaN", "Infinity" and
  /// "-Infinity" as floats (a driver's report can hold them, a challenge file cannot).
  public static func read(
    _ json: JSONValue, as type: FunctionType, at path: String, reader: StrictReader, lenientFloats: Bool = false
  ) -> FunctionValue? {
    read(json, as: type, path: { path }, reader: reader, lenientFloats: lenientFloats)
  }

  /// As `read(_:as:at:reader:lenientFloats:)`, with the path made only when it is needed (a
  /// problem, or a long number's literal): a catalogue holds millions of array items, and making
  /// each one's path was most of a daemon's start.
  private static func read(
    _ json: JSONValue, as type: FunctionType, path: () -> String, reader: StrictReader, lenientFloats: Bool
  ) -> FunctionValue? {
    switch type {
    case .int:
      // Below 2^53 a whole double is the literal's value exactly; longer literals are kept by path.
      if case .number(let number) = json, number == number.rounded(), abs(number) < 0x1p53 {
        return .int(Int64(number))
      }
      return StrictObject.integer(json, at: path(), as: Int64.self, reader: reader).map { .int($0) }
    case .float:
      if case .number(let number) = json { return .float(number) }
      if lenientFloats, case .string(let text) = json {
        switch text {
        case "NaN": return .float(.nan)
        case "Infinity": return .float(.infinity)
        case "-Infinity": return .float(-.infinity)
        default: break
        }
      }
      reader.report(path(), "expected a number, got \(json.kind)", kind: .wrongType)
      return nil
    case .bool:
      if case .bool(let flag) = json { return .bool(flag) }
      reader.report(path(), "expected true or false, got \(json.kind)", kind: .wrongType)
      return nil
    case .string:
      if case .string(let text) = json { return .string(text) }
      reader.report(path(), "expected a string, got \(json.kind)", kind: .wrongType)
      return nil
    case .array(let element):
      guard case .array(let items) = json else {
        reader.report(path(), "expected \(type.phrase) (\(type)), got \(json.kind)", kind: .wrongType)
        return nil
      }
      var values: [FunctionValue] = []
      values.reserveCapacity(items.count)
      var complete = true
      for (index, item) in items.enumerated() {
        if let value = read(
          item, as: element, path: { "\(path())[\(index)]" }, reader: reader, lenientFloats: lenientFloats)
        {
          values.append(value)
        } else {
          complete = false
        }
      }
      return complete ? .array(values) : nil
    case .linkedList:
      return read(json, as: .array(.int), path: path, reader: reader, lenientFloats: false)
    case .tree:
      return readTree(json, at: path(), reader: reader)
    case .graph:
      return readGraph(json, at: path(), reader: reader)
    }
  }

  /// LeetCode's level order: the root, then each node's two children in turn, `null` for none and
  /// nothing under a null; trailing nulls are dropped (`[1, null, 2, null, null]` is `[1, null, 2]`).
  private static func readTree(_ json: JSONValue, at path: String, reader: StrictReader) -> FunctionValue? {
    guard case .array(let items) = json else {
      reader.report(
        path, "expected a binary tree in level order (an array of whole numbers and nulls), got \(json.kind)",
        kind: .wrongType)
      return nil
    }
    var values: [FunctionValue] = []
    var complete = true
    for (index, item) in items.enumerated() {
      if case .null = item {
        values.append(.null)
      } else if let value = StrictObject.integer(item, at: "\(path)[\(index)]", as: Int64.self, reader: reader) {
        values.append(.int(value))
      } else {
        complete = false
      }
    }
    guard complete else { return nil }
    while values.last == .null { values.removeLast() }
    // Each node present offers two child places; the array may not list more values than places.
    var places = values.isEmpty ? 0 : 1
    for (index, value) in values.enumerated() {
      guard index < places else {
        reader.report(path, "item \(index) has no parent: a level-order tree lists children of present nodes only")
        return nil
      }
      if value != .null { places += 2 }
    }
    if values.count > Int(maximumNodes) {
      reader.report(path, "more than \(maximumNodes) nodes")
      return nil
    }
    return .array(values)
  }

  private static func readGraph(_ json: JSONValue, at path: String, reader: StrictReader) -> FunctionValue? {
    guard let fields = reader.object(json, at: path, keys: ["n", "edges", "directed"]) else { return nil }
    let before = reader.problems.count
    let nodes = fields.integer("n", as: Int64.self, in: 0...maximumNodes, required: true)
    let directed = fields.bool("directed") ?? false
    var edges: [[Int64]] = []
    if let items = fields.array("edges", required: true) {
      for (index, item) in items.enumerated() {
        let edgePath = fields.path("edges") + "[\(index)]"
        guard case .array(let ends) = item, ends.count == 2 else {
          reader.report(edgePath, "expected an edge [u, v]", kind: .wrongType)
          continue
        }
        let range: ClosedRange<Int64> = 0...max(0, (nodes ?? 1) - 1)
        let u = StrictObject.integer(ends[0], at: edgePath + "[0]", as: Int64.self, in: range, reader: reader)
        let v = StrictObject.integer(ends[1], at: edgePath + "[1]", as: Int64.self, in: range, reader: reader)
        if let u, let v { edges.append([u, v]) }
      }
    }
    guard reader.problems.count == before, let nodes else { return nil }
    if nodes == 0, !edges.isEmpty {
      reader.report(fields.path("edges"), "a graph of no nodes has no edges")
      return nil
    }
    return .graph(nodes: nodes, edges: edges, directed: directed)
  }

  /// The value as compact JSON, the form the drivers read: whole numbers exactly, floats in
  /// Swift's shortest round-tripping form, strings escaped as JSON requires (non-ASCII text as UTF-8).
  public var json: String {
    var out = ""
    write(to: &out)
    return out
  }

  private func write(to out: inout String) {
    switch self {
    case .int(let value): out += String(value)
    case .float(let value):
      if value.isNaN {
        out += "\"NaN\""
      } else if value.isInfinite {
        out += value > 0 ? "\"Infinity\"" : "\"-Infinity\""
      } else if value == value.rounded(), abs(value) < 1e15 {
        // "3.0", not "3": a float stays a float in the languages that tell them apart.
        out += String(Int64(value)) + ".0"
      } else {
        out += "\(value)"
      }
    case .bool(let flag): out += flag ? "true" : "false"
    case .string(let text): out += JSONValue.string(text).json
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += "," }
        item.write(to: &out)
      }
      out += "]"
    case .null: out += "null"
    case .graph(let nodes, let edges, let directed):
      out += "{\"n\":\(nodes),\"edges\":["
      out += edges.map { "[\($0[0]),\($0[1])]" }.joined(separator: ",")
      out += "],\"directed\":\(directed)}"
    }
  }

  /// `json`, cut to about `limit` characters with "..." for a message.
  public func excerpt(limit: Int = 300) -> String {
    let text = json
    return text.count <= limit ? text : String(text.prefix(limit)) + "..."
  }
}

/// How a function's result is compared with a test's expected value (`"compare"` in
/// challenge.json).
public enum FunctionComparison: Sendable, Hashable {
  /// The same value; floats equal exactly.
  case exact
  /// The same elements of the top-level array, in any order (each as many times).
  case unordered
  /// The same shape, every float within this absolute or relative error.
  case floatTolerance(Double)
  /// Any one of the values in the expected array.
  case anyOf

  /// The word challenge.json uses.
  public var name: String {
    switch self {
    case .exact: return "exact"
    case .unordered: return "unordered"
    case .floatTolerance: return "float_tolerance"
    case .anyOf: return "any_of"
    }
  }

  /// Whether `actual` is an acceptable result given `expected` (for `anyOf`, the array of answers).
  public func accepts(_ actual: FunctionValue, expected: FunctionValue) -> Bool {
    switch self {
    case .exact: return Self.equal(actual, expected, tolerance: nil)
    case .floatTolerance(let tolerance): return Self.equal(actual, expected, tolerance: tolerance)
    case .anyOf:
      guard case .array(let answers) = expected else { return false }
      return answers.contains { Self.equal(actual, $0, tolerance: nil) }
    case .unordered:
      guard case .array(let got) = actual, case .array(let wanted) = expected else {
        return Self.equal(actual, expected, tolerance: nil)
      }
      guard got.count == wanted.count else { return false }
      return got.map(\.json).sorted() == wanted.map(\.json).sorted()
    }
  }

  private static func equal(_ left: FunctionValue, _ right: FunctionValue, tolerance: Double?) -> Bool {
    switch (left, right) {
    case (.float(let a), .float(let b)):
      guard let tolerance else { return a == b }
      if a.isNaN || b.isNaN { return a.isNaN && b.isNaN }
      if a.isInfinite || b.isInfinite { return a == b }
      return abs(a - b) <= tolerance * max(1, abs(b)) + 1e-15
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, tolerance: tolerance) }
    default:
      return left == right
    }
  }
}

/// The function a function challenge declares: `{"name": "merge_intervals", "params": [...],
/// "returns": "int[][]"}`, with each language's idiomatic spelling of its names.
public struct FunctionSignature: Sendable, Hashable {
  public struct Parameter: Sendable, Hashable {
    /// snake_case, as challenge.json writes it.
    public var name: String
    public var type: FunctionType

    public init(name: String, type: FunctionType) {
      self.name = name
      self.type = type
    }
  }

  /// snake_case, as challenge.json writes it.
  public var name: String
  public var parameters: [Parameter]
  public var returns: FunctionType

  public init(name: String, parameters: [Parameter], returns: FunctionType) {
    self.name = name
    self.parameters = parameters
    self.returns = returns
  }

  /// Whether `name` is snake_case: a lowercase letter, then lowercase letters, digits and single
  /// underscores, at most 64 characters, not ending in `_`.
  public static func isSnakeCase(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard (1...64).contains(bytes.count), (97...122).contains(bytes[0]), bytes.last != 95 else { return false }
    for (index, byte) in bytes.enumerated() {
      let allowed = (97...122).contains(byte) || (48...57).contains(byte) || byte == 95
      if !allowed || (byte == 95 && index > 0 && bytes[index - 1] == 95) { return false }
    }
    return true
  }

  /// `merge_intervals` -> `mergeIntervals`.
  public static func camelCase(_ name: String) -> String {
    let words = name.split(separator: "_")
    return words.enumerated().map { index, word in
      index == 0 ? String(word) : word.prefix(1).uppercased() + word.dropFirst()
    }
    .joined()
  }

  /// `merge_intervals` -> `MergeIntervals`.
  public static func pascalCase(_ name: String) -> String {
    name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }
}
