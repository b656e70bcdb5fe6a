import Wire

/// A recorder's input that cannot be recorded (a challenge's data error: `internal_error`).
public struct RecorderInputError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

/// A graph for the graph recorders: nodes `0..<nodeCount`, edges with weights (1 when unweighted).
/// Neighbours are always visited in ascending node order (ties by ascending weight), so every
/// recorder is deterministic and learners can reproduce it by sorting their adjacency lists.
public struct Graph: Sendable, Hashable {
  public struct Edge: Sendable, Hashable {
    public var from: Int
    public var to: Int
    public var weight: Int

    public init(_ from: Int, _ to: Int, weight: Int = 1) {
      self.from = from
      self.to = to
      self.weight = weight
    }
  }

  public var nodeCount: Int
  public var edges: [Edge]
  /// Undirected graphs add each edge in both directions.
  public var directed: Bool

  public init(nodeCount: Int, edges: [Edge], directed: Bool = false) {
    self.nodeCount = nodeCount
    self.edges = edges
    self.directed = directed
  }

  /// Neighbours of each node, sorted by (node, weight); throws on a node out of range.
  func adjacency() throws(RecorderInputError) -> [[Edge]] {
    guard nodeCount >= 0 else { throw RecorderInputError("the node count is negative") }
    var lists = [[Edge]](repeating: [], count: nodeCount)
    for edge in edges {
      guard (0..<nodeCount).contains(edge.from), (0..<nodeCount).contains(edge.to) else {
        throw RecorderInputError("edge \(edge.from)-\(edge.to) names a node outside 0..<\(nodeCount)")
      }
      lists[edge.from].append(edge)
      if !directed, edge.from != edge.to { lists[edge.to].append(Edge(edge.to, edge.from, weight: edge.weight)) }
    }
    return lists.map { $0.sorted { ($0.to, $0.weight) < ($1.to, $1.weight) } }
  }

  func checkSource(_ source: Int) throws(RecorderInputError) {
    guard (0..<nodeCount).contains(source) else {
      throw RecorderInputError("the start node \(source) is outside 0..<\(nodeCount)")
    }
  }
}

/// Builds array steps: `{action, active, array, sorted}`. `generic` is the caption without data: it
/// must depend only on the recorder and the action, never on the input.
func arrayStep(_ action: String, active: [Int], array: [Int], sorted: [Int], caption: String, generic: String)
  -> Step
{
  Step(
    ["action": .string(action), "active": JSONValue(active), "array": JSONValue(array), "sorted": JSONValue(sorted)],
    caption: caption, kind: StepKind(action: .string(action)).phrase, genericCaption: generic)
}

/// The final step every sort records: `{action: "done", active: [], array, sorted: all indices}`.
func doneStep(_ array: [Int]) -> Step {
  let caption =
    array.count < 2
    ? "An array of \(array.count) item\(array.count == 1 ? "" : "s") is already sorted."
    : "Done: the array is sorted."
  return arrayStep(
    "done", active: [], array: array, sorted: Array(array.indices), caption: caption,
    generic: "Done: the array is sorted.")
}

/// "[5, 2, 4]"
func listText(_ values: some Sequence<Int>) -> String {
  "[" + values.map(String.init).joined(separator: ", ") + "]"
}
