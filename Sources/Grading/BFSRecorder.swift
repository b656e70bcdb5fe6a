import Wire

/// Breadth-first search from `source`; a node is marked visited when it joins the queue.
///
/// Step protocol (graph steps `{visited, frontier, current}`):
/// - First: `current: null`, `visited: [source]`, `frontier: [source]`.
/// - Then one step per node taken from the front of the queue: `current` is that node; its
///   unvisited neighbours, in ascending order, are marked visited and queued; the step shows
///   `visited` (every visited node, in the order visited) and `frontier` (the queue, front first)
///   after that.
/// So a search that reaches k nodes has k + 1 steps, and the last step's `visited` is the BFS order.
public enum BFSRecorder {
  public static func record(_ graph: Graph, source: Int) throws(RecorderInputError) -> [Step] {
    let adjacency = try graph.adjacency()
    try graph.checkSource(source)
    var seen = [Bool](repeating: false, count: graph.nodeCount)
    seen[source] = true
    var visited = [source]
    var queue = [source]
    var head = 0
    var steps = [
      step(
        current: nil, visited: visited, frontier: queue,
        caption: "Start at \(source): mark it visited and put it in the queue.", kind: "the start",
        generic: "Start at the start node: mark it visited and put it in the queue.")
    ]
    while head < queue.count {
      let node = queue[head]
      head += 1
      var added: [Int] = []
      for edge in adjacency[node] where !seen[edge.to] {
        seen[edge.to] = true
        visited.append(edge.to)
        queue.append(edge.to)
        added.append(edge.to)
      }
      let caption =
        added.isEmpty
        ? "Take \(node) from the front of the queue: it has no unvisited neighbours."
        : "Take \(node) from the front of the queue and queue its unvisited neighbours \(listText(added))."
      steps.append(
        step(
          current: node, visited: visited, frontier: Array(queue[head...]), caption: caption,
          kind: "taking a node from the queue",
          generic: "Take the node at the front of the queue and queue its unvisited neighbours in ascending order."))
    }
    return steps
  }

  private static func step(
    current: Int?, visited: [Int], frontier: [Int], caption: String, kind: String, generic: String
  ) -> Step {
    Step(
      ["current": JSONValue(current), "visited": JSONValue(visited), "frontier": JSONValue(frontier)], caption: caption,
      kind: kind, genericCaption: generic)
  }
}
