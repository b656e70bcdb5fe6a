import Foundation
import Grading
import Testing
import Wire

/// challenges/bfs-order became a function challenge whose expected steps are recorded from its
/// reference (the step recorder's graph form) instead of the built-in BFS recorder: the search they
/// describe must be the same.
@Suite struct BFSOrderSampleTests {
  /// The recorder writes a `discover` step for the start, then for each node taken a `visit` step and
  /// a `discover` step for each node it queues. The built-in recorder wrote the start and then one
  /// step per node taken, after its neighbours were queued: the recorder's state just before each
  /// `visit` that follows the first, and at the end.
  @Test func theRecordedStepsAreTheBuiltInRecordersAtTheEndOfEachNode() throws {
    let directory = repositoryRoot + "/challenges/bfs-order"
    let description = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/challenge.json")))
        as? [String: Any])
    let tests = try #require(description["tests"] as? [[String: Any]])
    #expect(tests.count == 7)
    for test in tests {
      let name = try #require(test["name"] as? String)
      let arguments = try #require(test["args"] as? [String: Any])
      let graph = try #require(arguments["graph"] as? [String: Any])
      let edges = try #require(graph["edges"] as? [[Int]]).map { Graph.Edge($0[0], $0[1]) }
      let builtIn = try BFSRecorder.record(
        Graph(nodeCount: try #require(graph["n"] as? Int), edges: edges),
        source: try #require(arguments["source"] as? Int))
      let text = try String(contentsOfFile: directory + "/expected/\(name).steps", encoding: .utf8)
      let recorded = try StepParser().parse(text).get().steps
      #expect(recorded.first?.fields["action"] == .string("discover"), "\(name)")
      let nodeEnds = recorded.indices.filter { index in
        index == recorded.count - 1 || recorded[index + 1].fields["action"] == .string("visit")
      }
      func state(_ step: Step) -> [JSONValue?] { ["current", "visited", "frontier"].map { step.fields[$0] } }
      #expect(nodeEnds.map { state(recorded[$0]) } == builtIn.map(state), "\(name)")
      // Each node taken is one visit, as the built-in recorder's one step per node.
      #expect(recorded.filter { $0.fields["action"] == .string("visit") }.count == builtIn.count - 1, "\(name)")
    }
  }
}
