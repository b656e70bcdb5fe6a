import Foundation
import Wire

/// The built-in input shapes of a growth section (docs/challenges.md, "Growth"), each writing stdin
/// in the format the recorders read: `n` then n integers for arrays; `n`, n ascending integers and
/// a target for searches; `n m s` then m lines `u v` for graphs.
public enum GrowthShape: Sendable, Hashable {
  /// A shuffle of 1...n.
  case random
  /// 1...n.
  case sorted
  /// n down to 1.
  case reversed
  /// n values drawn from 1...distinct.
  case fewDistinct(distinct: Int)
  /// The even numbers 0, 2, ..., 2(n-1) and a target: present (an item at random) or absent (the
  /// odd number just below the last item).
  case search(present: Bool)
  /// A connected random simple graph from node 0: a random tree, then random further edges up to
  /// `edgesPerNode · n` (at most every pair), or the given edge count at each size.
  case graph(edgesPerNode: Double, edges: [Int]?)

  /// The shape names a challenge file uses.
  public static let names = ["random", "sorted", "reversed", "few_distinct", "search", "graph"]

  public var isGraph: Bool {
    if case .graph = self { return true }
    return false
  }
}

/// One generated input: its stdin and, for graphs, its edge count.
public struct GrowthInput: Sendable, Hashable {
  public var stdin: Data
  public var edges: Int?
}

/// A shape's input at one size as values: what a stdin program reads (`GrowthShape.input`) and what
/// a function challenge's arguments are made of.
public enum GrowthValues: Sendable {
  case list([Int])
  case search(items: [Int], target: Int)
  case graph(nodes: Int, edges: [(Int, Int)])
}

extension GrowthShape {
  /// The input at size n (the `index`-th size), the same for the same seed on every machine.
  public func input(n: Int, index: Int, seed: UInt64) -> GrowthInput {
    func list(_ values: [Int]) -> String {
      "\(values.count)\n" + values.map(String.init).joined(separator: " ") + "\n"
    }
    switch values(n: n, index: index, seed: seed) {
    case .list(let items): return GrowthInput(stdin: Data(list(items).utf8), edges: nil)
    case .search(let items, let target): return GrowthInput(stdin: Data((list(items) + "\(target)\n").utf8), edges: nil)
    case .graph(let nodes, let edges):
      let text = "\(nodes) \(edges.count) 0\n" + edges.map { "\($0.0) \($0.1)\n" }.joined()
      return GrowthInput(stdin: Data(text.utf8), edges: edges.count)
    }
  }

  /// The values at size n (the `index`-th size), the same for the same seed on every machine.
  public func values(n: Int, index: Int, seed: UInt64) -> GrowthValues {
    var random = SplitMix64(seed: seed &+ UInt64(n) &* 0x9E37_79B9_7F4A_7C15)
    switch self {
    case .random:
      var values = n > 0 ? Array(1...n) : []
      random.shuffle(&values)
      return .list(values)
    case .sorted: return .list(n > 0 ? Array(1...n) : [])
    case .reversed: return .list(n > 0 ? Array((1...n).reversed()) : [])
    case .fewDistinct(let distinct): return .list((0..<n).map { _ in 1 + random.below(distinct) })
    case .search(let present):
      let items = (0..<n).map { 2 * $0 }
      // An absent target sits just below the last item, so a scan from the start always probes
      // all n items and a search's count does not depend on luck.
      let target = present && n > 0 ? 2 * random.below(n) : max(2 * n - 3, -1)
      return .search(items: items, target: target)
    case .graph(let perNode, let given):
      let most = n * (n - 1) / 2
      let wanted = given.map { $0[min(index, $0.count - 1)] } ?? Int((perNode * Double(n)).rounded())
      return .graph(nodes: n, edges: Self.randomGraph(nodes: n, edges: min(max(wanted, 0), most), random: &random))
    }
  }

  /// A random tree first (so a search from 0 reaches every node), then distinct random pairs.
  static func randomGraph(nodes: Int, edges: Int, random: inout SplitMix64) -> [(Int, Int)] {
    var chosen: [(Int, Int)] = []
    var seen: Set<Int> = []
    func add(_ a: Int, _ b: Int) {
      let key = min(a, b) * nodes + max(a, b)
      if a != b, seen.insert(key).inserted { chosen.append((a, b)) }
    }
    var order = Array(0..<nodes)
    if nodes > 1 { random.shuffle(&order[1...]) }
    for index in 1..<max(1, min(nodes, edges + 1)) { add(order[random.below(index)], order[index]) }
    while chosen.count < edges { add(random.below(nodes), random.below(nodes)) }
    random.shuffle(&chosen)
    return chosen
  }
}

/// A small, fast and fully specified generator (Steele, Lea and Flood's SplitMix64), so that an
/// input depends on the seed only, never on the platform's random source.
public struct SplitMix64: Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in 0..<bound (bound ≥ 1), without modulo bias worth the name at these sizes.
  public mutating func below(_ bound: Int) -> Int {
    guard bound > 1 else { return 0 }
    return Int((UInt128(next()) * UInt128(bound)) >> 64)
  }

  /// Fisher-Yates, with this generator (the standard library's shuffle may change its algorithm).
  public mutating func shuffle<C: MutableCollection & RandomAccessCollection>(_ items: inout C) where C.Index == Int {
    guard items.count > 1 else { return }
    for offset in stride(from: items.count - 1, to: 0, by: -1) {
      let other = below(offset + 1)
      items.swapAt(items.startIndex + offset, items.startIndex + other)
    }
  }
}

/// What a growth section counts in a run's stdout.
public enum GrowthCount: Sendable, Hashable {
  /// Every step line.
  case steps
  /// Step lines whose `action` is one of these.
  case actions([String])
  /// The number on the last `@count N` line.
  case countLine

  /// A `@count` line's prefix.
  public static let countPrefix = "@count "

  /// What is counted, for a learner's sentence ("compare steps").
  public var noun: String {
    switch self {
    case .steps: return "steps"
    case .actions(let names): return names.joined(separator: " or ") + " steps"
    case .countLine: return "counted operations (@count)"
    }
  }

  /// The count in a run's stdout, or what is wrong with it. Works on bytes, one line at a time, and
  /// decodes JSON only for step lines that mention an action counted, so a run's cost is bounded by
  /// its output limit.
  public func count(_ output: Data) -> Result<Double, GrowthCountError> {
    var total = 0.0
    var lastCount: Double?
    var lineNumber = 0
    let stepPrefix = Array(StepParser.prefix.utf8)
    let countPrefix = Array(Self.countPrefix.utf8)
    let decoder = JSONDecoder()
    let needles = actionNeedles
    // `{"action": "compare",`, `{"action":"compare"}` and the like.
    let fastForms = needles.flatMap { needle in
      ["{\"action\": ", "{\"action\":"].flatMap { head in
        [",", "}", " "].map { Array(head.utf8) + needle + Array($0.utf8) }
      }
    }
    var failure: GrowthCountError?
    output.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      let bytes = raw.bindMemory(to: UInt8.self)
      var start = 0
      while start < bytes.count, failure == nil {
        // memchr, memcmp and memmem: a million lines must cost little even in a debug build (CI's).
        let base = bytes.baseAddress!
        let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
        let end = newline.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? bytes.count
        lineNumber += 1
        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
        start = end + 1
        switch self {
        case .steps:
          if Self.hasPrefix(line, stepPrefix) { total += 1 }
        case .actions(let names):
          guard Self.hasPrefix(line, stepPrefix), needles.contains(where: { Self.contains(line, $0) }) else { continue }
          let body = UnsafeBufferPointer(rebasing: line[stepPrefix.count...])
          // The usual form, `{"action": "compare"...`, needs no scan.
          if fastForms.contains(where: { Self.hasPrefix(body, $0) }) {
            total += 1
            continue
          }
          switch Self.topLevelAction(body) {
          case .plain(let bytes):
            if needles.contains(where: { $0.dropFirst().dropLast().elementsEqual(bytes) }) { total += 1 }
          case .escaped:
            // Rare: let the decoder unescape the name.
            // Never a text deeper than the bound: Foundation's decoder can trap on one.
            if JSONNesting.depth(of: body) <= JSONNesting.maximumDepth,
              case .object(let fields)? = try? decoder.decode(JSONValue.self, from: Data(body)),
              case .string(let action)? = fields["action"], names.contains(action)
            {
              total += 1
            }
          case .none: break
          }
        case .countLine:
          guard Self.hasPrefix(line, countPrefix) else { continue }
          let text = String(decoding: line[countPrefix.count...], as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
          guard let value = UInt64(text), value <= 1 << 50 else {
            failure = GrowthCountError(
              message: "line \(lineNumber): \"@count \" must be followed by one whole number, like @count 42")
            return
          }
          lastCount = Double(value)
        }
      }
    }
    if let failure { return .failure(failure) }
    if case .countLine = self {
      guard let lastCount else {
        return .failure(GrowthCountError(message: "the program printed no \"@count N\" line"))
      }
      return .success(lastCount)
    }
    return .success(total)
  }

  /// The output without its `@count` lines: a count is for the growth grade, never part of an answer.
  public static func withoutCountLines(_ output: String) -> String {
    guard output.contains(countPrefix) else { return output }
    return output.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix(countPrefix) }
      .joined(separator: "\n")
  }

  /// The bytes a counted action's name appears as in JSON, to skip most lines without decoding.
  private var actionNeedles: [[UInt8]] {
    guard case .actions(let names) = self else { return [] }
    return names.map { Array(JSONValue.string($0).json.utf8) }
  }

  private enum ActionValue {
    case plain(UnsafeBufferPointer<UInt8>)
    case escaped
    case none
  }

  /// The string value of the top-level `action` key of a JSON object, found by one scan of its
  /// top level (a JSON decode per line costs too much on a million lines); nil when the text is
  /// not an object or has no such string.
  private static func topLevelAction(_ body: UnsafeBufferPointer<UInt8>) -> ActionValue {
    var index = 0
    func skipSpace() { while index < body.count, Text.isWhitespace(body[index]) { index += 1 } }
    /// Scans a string from its opening quote; the range of its contents and whether it has escapes.
    func string() -> (Range<Int>, Bool)? {
      guard index < body.count, body[index] == UInt8(ascii: "\"") else { return nil }
      let start = index + 1
      var escaped = false
      index += 1
      while index < body.count {
        if body[index] == UInt8(ascii: "\\") {
          escaped = true
          index += 2
          continue
        }
        if body[index] == UInt8(ascii: "\"") {
          index += 1
          return (start..<index - 1, escaped)
        }
        index += 1
      }
      return nil
    }
    skipSpace()
    guard index < body.count, body[index] == UInt8(ascii: "{") else { return .none }
    index += 1
    var depth = 1
    var expectingKey = true
    while index < body.count, depth > 0 {
      skipSpace()
      guard index < body.count else { break }
      let byte = body[index]
      if byte == UInt8(ascii: "\"") {
        guard let (range, escaped) = string() else { return .none }
        guard depth == 1, expectingKey else { continue }
        skipSpace()
        guard index < body.count, body[index] == UInt8(ascii: ":") else { return .none }
        index += 1
        expectingKey = false
        let isAction = !escaped && UnsafeBufferPointer(rebasing: body[range]).elementsEqual("action".utf8)
        guard isAction || escaped else { continue }
        skipSpace()
        guard let (value, valueEscaped) = string() else { continue }
        if escaped || valueEscaped { return .escaped }
        return .plain(UnsafeBufferPointer(rebasing: body[value]))
      }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
      case UInt8(ascii: ","): if depth == 1 { expectingKey = true }
      default: break
      }
      index += 1
    }
    return .none
  }

  private static func contains(_ line: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
    guard needle.count <= line.count, var position = line.baseAddress, let first = needle.first else {
      return needle.isEmpty
    }
    let end = position + line.count
    return needle.withUnsafeBytes { wanted in
      while end - position >= needle.count,
        let hit = memchr(position, Int32(first), end - position - needle.count + 1)
      {
        let found = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
        if memcmp(found, wanted.baseAddress!, needle.count) == 0 { return true }
        position = found + 1
      }
      return false
    }
  }

  private static func hasPrefix(_ line: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
    guard prefix.count <= line.count, let base = line.baseAddress else { return prefix.isEmpty }
    return prefix.withUnsafeBytes { memcmp(base, $0.baseAddress!, prefix.count) } == 0
  }
}

/// A run's output that cannot be counted.
public struct GrowthCountError: Error, Sendable, Hashable {
  public var message: String
}
