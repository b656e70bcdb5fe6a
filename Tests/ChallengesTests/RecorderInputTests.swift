import Foundation
import Grading
import Testing
import Wire

@testable import Challenges

@Suite struct RecorderInputTests {
  @Test func sortsReadCountThenItems() throws {
    let steps = try RecorderInput.record(RecorderSpec(name: "insertion-sort"), stdin: "3\n5 2\t4\r\n")
    #expect(steps == InsertionSortRecorder.record([5, 2, 4]))
    for name in ["selection-sort", "bubble-sort", "merge-sort", "quick-sort"] {
      let recorded = try RecorderInput.record(RecorderSpec(name: name), stdin: "4 3 1 2 0")
      #expect(recorded.last?.fields["array"] == JSONValue([0, 1, 2, 3]), "\(name)")
    }
  }

  @Test func binarySearchReadsTheTargetLast() throws {
    let steps = try RecorderInput.record(RecorderSpec(name: "binary-search"), stdin: "5\n1 3 5 7 9\n7\n")
    #expect(steps == (try BinarySearchRecorder.record([1, 3, 5, 7, 9], target: 7)))
  }

  @Test func graphsReadEdgesAndDirection() throws {
    let input = "4 3 0\n0 1\n0 2\n2 3\n"
    let undirected = try RecorderInput.record(RecorderSpec(name: "bfs"), stdin: input)
    #expect(
      undirected
        == (try BFSRecorder.record(Graph(nodeCount: 4, edges: [.init(0, 1), .init(0, 2), .init(2, 3)]), source: 0)))
    let directed = try RecorderInput.record(RecorderSpec(name: "dfs", directed: true), stdin: "3 1 1\n0 1\n")
    #expect(directed.count == 1, "node 1 reaches nothing when edges are directed")
    let dijkstra = try RecorderInput.record(RecorderSpec(name: "dijkstra"), stdin: "3 2 0\n0 1 4\n1 2 1\n")
    #expect(dijkstra.last?.fields["dist"] == .array([0, 4, 5]))
  }

  @Test(arguments: [
    ("insertion-sort", "3\n1 2", "ends before item 3 of 3"),
    ("insertion-sort", "2\n1 x", "item 2 of 2 (token 3) must be an integer"),
    ("insertion-sort", "2\n1 2 3", "goes on after the last integer"),
    ("insertion-sort", "101\n", "from 0 to 100"),
    ("insertion-sort", "-1", "from 0 to 100"),
    ("insertion-sort", "", "ends before the item count n"),
    ("insertion-sort", "1 99999999999999999999", "must be an integer"),
    ("binary-search", "3 1 2 3", "ends before the target"),
    ("binary-search", "3 3 2 1 2", "not sorted at index 1"),
    ("bfs", "3 1 0\n0 5\n", "outside 0..<3"),
    ("bfs", "3 1 7\n0 1\n", "start node 7"),
    ("dfs", "201 0 0", "node count n must be from 0 to 200"),
    ("dfs", "2 2001 0", "edge count m must be from 0 to 2000"),
    ("dijkstra", "2 1 0\n0 1\n", "ends before edge 1's weight"),
    ("dijkstra", "2 1 0\n0 1 -3\n", "negative weight"),
    ("heap-sort", "1 1", "unknown recorder \"heap-sort\""),
  ])
  func badInputsSayWhatIsWrong(recorder: String, stdin: String, words: String) {
    #expect {
      _ = try RecorderInput.record(RecorderSpec(name: recorder), stdin: stdin)
    } throws: { error in
      "\(error)".contains(words)
    }
  }
}
