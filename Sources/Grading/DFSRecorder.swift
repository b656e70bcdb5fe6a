import Wire

/// Depth-first search from `source`, recursive, neighbours in ascending order.
///
/// Step protocol (graph steps `{visited, frontier, current}`): one step each time a node is
/// entered (so a search that reaches k nodes has k steps): `current` is the node, `visited` every
/// visited node in the order visited (the last step's is the DFS order), `frontier` the path of
/// nodes being explored, from `source` to `current`. Returning from a node records no step.
public enum DFSRecorder {
  public static func record(_ graph: Graph, source: Int) throws(RecorderInputError) -> [Step] {
    let adjacency = try graph.adjacency()
    try graph.checkSource(source)
    var seen = [Bool](repeating: false, count: graph.nodeCount)
    var visited: [Int] = []
    var path: [Int] = []
    var steps: [Step] = []
    func visit(_ node: Int, from parent: Int?) {
      seen[node] = true
      visited.append(node)
      path.append(node)
      let caption =
        parent.map { "Go from \($0) to \(node), its smallest unvisited neighbour." }
        ?? "Start at \(node) and mark it visited."
      steps.append(
        Step(
          ["current": JSONValue(node), "visited": JSONValue(visited), "frontier": JSONValue(path)], caption: caption,
          kind: parent == nil ? "the start" : "a visit to a node",
          genericCaption: parent == nil
            ? "Start at the start node and mark it visited."
            : "Go to the smallest unvisited neighbour of the deepest node on the path that has one."))
      for edge in adjacency[node] where !seen[edge.to] {
        visit(edge.to, from: node)
      }
      path.removeLast()
    }
    visit(source, from: nil)
    return steps
  }
}
