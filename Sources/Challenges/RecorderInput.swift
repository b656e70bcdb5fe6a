import Foundation
import Grading

/// Reads a test's stdin for a recorder (the table in docs/challenges.md) and records the expected
/// steps. Integers are separated by any whitespace; anything left over is an error, so a test whose
/// stdin does not say what the recorder read is caught when the challenge is loaded.
///
/// Sizes are bounded so that recording stays small (every step holds the whole array or graph
/// state): sorts at most `maximumSortItems` items, binary search `maximumSearchItems`, graphs
/// `maximumGraphNodes` nodes and `maximumGraphEdges` edges.
public enum RecorderInput {
  /// Every recorder name, in the table's order.
  public static let names = [
    "insertion-sort", "selection-sort", "bubble-sort", "merge-sort", "quick-sort", "binary-search", "bfs", "dfs",
    "dijkstra",
  ]
  /// The recorders that take `"directed"`.
  public static let graphNames: Set<String> = ["bfs", "dfs", "dijkstra"]

  public static let maximumSortItems = 100
  public static let maximumSearchItems = 100_000
  public static let maximumGraphNodes = 200
  public static let maximumGraphEdges = 2_000

  /// The expected steps for this stdin; a `RecorderInputError` says what in the stdin is wrong.
  public static func record(_ recorder: RecorderSpec, stdin: String) throws(RecorderInputError) -> [Step] {
    var reader = IntegerReader(stdin)
    let steps: [Step]
    switch recorder.name {
    case "insertion-sort", "selection-sort", "bubble-sort", "merge-sort", "quick-sort":
      let items = try reader.list(maximum: maximumSortItems)
      try reader.finish()
      switch recorder.name {
      case "insertion-sort": steps = InsertionSortRecorder.record(items)
      case "selection-sort": steps = SelectionSortRecorder.record(items)
      case "bubble-sort": steps = BubbleSortRecorder.record(items)
      case "merge-sort": steps = MergeSortRecorder.record(items)
      default: steps = QuickSortRecorder.record(items)
      }
    case "binary-search":
      let items = try reader.list(maximum: maximumSearchItems)
      let target = try reader.next("the target")
      try reader.finish()
      steps = try BinarySearchRecorder.record(items, target: target)
    case "bfs", "dfs", "dijkstra":
      let weighted = recorder.name == "dijkstra"
      let nodes = try reader.count("the node count n", maximum: maximumGraphNodes)
      let edgeCount = try reader.count("the edge count m", maximum: maximumGraphEdges)
      let source = try reader.next("the start node s")
      var edges: [Graph.Edge] = []
      for index in 1..<edgeCount + 1 {
        let from = try reader.next("edge \(index)'s first node")
        let to = try reader.next("edge \(index)'s second node")
        let weight = weighted ? try reader.next("edge \(index)'s weight") : 1
        edges.append(Graph.Edge(from, to, weight: weight))
      }
      try reader.finish()
      let graph = Graph(nodeCount: nodes, edges: edges, directed: recorder.directed)
      switch recorder.name {
      case "bfs": steps = try BFSRecorder.record(graph, source: source)
      case "dfs": steps = try DFSRecorder.record(graph, source: source)
      default: steps = try DijkstraRecorder.record(graph, source: source)
      }
    default:
      throw RecorderInputError(
        "unknown recorder \"\(recorder.name)\"; known recorders: " + names.joined(separator: ", "))
    }
    return steps
  }
}

/// Whitespace-separated integers, with errors that say which one is wrong and where.
private struct IntegerReader {
  private let tokens: [Substring]
  private var index = 0

  init(_ text: String) {
    tokens = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\r\n" })
  }

  mutating func next(_ what: String) throws(RecorderInputError) -> Int {
    guard index < tokens.count else {
      throw RecorderInputError("the input ends before \(what) (after \(index) integers)")
    }
    let token = tokens[index]
    guard let value = Int(token), abs(value) <= 1_000_000_000_000 else {
      let shown = token.count > 20 ? token.prefix(20) + "..." : token
      throw RecorderInputError("\(what) (token \(index + 1)) must be an integer of at most 13 digits, got \"\(shown)\"")
    }
    index += 1
    return value
  }

  mutating func count(_ what: String, maximum: Int) throws(RecorderInputError) -> Int {
    let value = try next(what)
    guard (0...maximum).contains(value) else {
      throw RecorderInputError("\(what) must be from 0 to \(maximum), got \(value)")
    }
    return value
  }

  /// `n`, then `n` integers.
  mutating func list(maximum: Int) throws(RecorderInputError) -> [Int] {
    let count = try count("the item count n", maximum: maximum)
    var items: [Int] = []
    items.reserveCapacity(count)
    for number in 0..<count { items.append(try next("item \(number + 1) of \(count)")) }
    return items
  }

  func finish() throws(RecorderInputError) {
    guard index == tokens.count else {
      throw RecorderInputError(
        "the input goes on after the last integer the recorder reads (token \(index + 1) of \(tokens.count))")
    }
  }
}
