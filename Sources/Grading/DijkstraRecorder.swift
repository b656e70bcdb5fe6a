import Wire

/// Dijkstra's shortest paths from `source` (weights must not be negative).
///
/// Each round settles the unsettled node with the smallest known distance (ties: the smaller node);
/// nodes never reached are not settled. `dist` is every node's distance so far, `null` for one not
/// reached yet (JSON has no infinity); `visited` the settled nodes in the order settled.
///
/// Step protocol (`{action, current, dist, visited}`, relax steps add `edge` and `relaxed`):
/// - `"settle"`: `current` is the node just settled (it is already in `visited`).
/// - Then for each edge from it to an unsettled node, in ascending (node, weight) order:
///   `"relax"`, `edge: [from, to, weight]`, `relaxed` (whether `dist[from] + weight < dist[to]`
///   strictly), `dist` after the update.
/// Edges to settled nodes record no step.
public enum DijkstraRecorder {
  public static func record(_ graph: Graph, source: Int) throws(RecorderInputError) -> [Step] {
    let adjacency = try graph.adjacency()
    try graph.checkSource(source)
    if let edge = graph.edges.first(where: { $0.weight < 0 }) {
      throw RecorderInputError("edge \(edge.from)-\(edge.to) has a negative weight, which Dijkstra does not allow")
    }
    var dist = [Int?](repeating: nil, count: graph.nodeCount)
    var settled = [Bool](repeating: false, count: graph.nodeCount)
    var order: [Int] = []
    var steps: [Step] = []
    dist[source] = 0
    while true {
      var next: Int?
      for node in 0..<graph.nodeCount where !settled[node] {
        guard let distance = dist[node] else { continue }
        if next == nil || distance < dist[next!]! { next = node }
      }
      guard let node = next, let base = dist[node] else { break }
      settled[node] = true
      order.append(node)
      steps.append(
        step(
          "settle", current: node, dist: dist, visited: order,
          caption: node == source
            ? "Start at \(node), at distance 0."
            : "\(node) is the closest unsettled node, at distance \(base): its distance is final."))
      for edge in adjacency[node] where !settled[edge.to] {
        let through = base + edge.weight
        let old = dist[edge.to]
        let better = old.map { through < $0 } ?? true
        if better { dist[edge.to] = through }
        let caption: String
        if let old {
          caption =
            better
            ? "Going to \(edge.to) through \(node) costs \(base) + \(edge.weight) = \(through), less than \(old): update it."
            : "Going to \(edge.to) through \(node) costs \(base) + \(edge.weight) = \(through), not less than \(old): keep \(old)."
        } else {
          caption =
            "\(edge.to) is reached for the first time through \(node): distance \(base) + \(edge.weight) = \(through)."
        }
        var relax = step("relax", current: node, dist: dist, visited: order, caption: caption)
        relax.fields["edge"] = JSONValue([edge.from, edge.to, edge.weight])
        relax.fields["relaxed"] = .bool(better)
        steps.append(relax)
      }
    }
    return steps
  }

  private static func step(_ action: String, current: Int, dist: [Int?], visited: [Int], caption: String) -> Step {
    let kind = StepKind(action: .string(action))
    return Step(
      [
        "action": .string(action), "current": JSONValue(current), "dist": .array(dist.map { JSONValue($0) }),
        "visited": JSONValue(visited),
      ], caption: caption, kind: kind.phrase,
      genericCaption: kind == .settle
        ? "Settle the unsettled node with the smallest known distance: its distance is final."
        : "Try an edge from the node just settled: a shorter way to its end updates the end's distance.")
  }
}
