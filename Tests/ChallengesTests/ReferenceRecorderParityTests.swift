import Foundation
import Grading
import Testing
import Wire

@testable import Challenges

/// bubble-sort, quick-sort-partition, binary-search and dijkstra-relaxations took their expected
/// steps from the built-in recorders while they were stdin challenges; as function challenges they
/// take them from a Python reference (`expected/`). Learners know the recorders' steps, so the
/// recorded ones must be those: the same number, and at each step the same fields and caption,
/// but for the field the step recorder library adds to its own forms (the array form's `ids`, the
/// search form's `action`), which no checker of these challenges compares. The quick sort and
/// Dijkstra references write every field themselves (`step`), so theirs are the recorders' exactly.
@Suite struct ReferenceRecorderParityTests {
  private func load(_ id: String) throws -> Challenge {
    try ChallengeLoader.load(directory: repositoryRoot + "/challenges/" + id).get()
  }

  private func integers(_ value: FunctionValue?) throws -> [Int] {
    guard case .array(let items) = value else { throw ParityError("not an array: \(String(describing: value))") }
    return try items.map { try integer($0) }
  }

  private func integer(_ value: FunctionValue?) throws -> Int {
    guard case .int(let number) = value else { throw ParityError("not an int: \(String(describing: value))") }
    return Int(number)
  }

  /// Every test's recorded steps against the built-in recorder's on the same arguments.
  private func expectParity(
    _ id: String, libraryField: String? = nil, builtIn: ([FunctionValue]) throws -> [Step]
  ) throws {
    let challenge = try load(id)
    #expect(challenge.tests.count >= 7)
    for test in challenge.tests {
      let recorded = try #require(test.expectedSteps, "\(id) \(test.name): no recorded steps")
      let expected = try builtIn(try #require(test.arguments))
      #expect(recorded.count == expected.count, "\(id) \(test.name)")
      for (index, (step, reference)) in zip(recorded, expected).enumerated() {
        var fields = step.fields
        if let libraryField {
          #expect(fields.removeValue(forKey: libraryField) != nil, "\(id) \(test.name) step \(index + 1)")
        }
        #expect(fields == reference.fields, "\(id) \(test.name) step \(index + 1)")
        #expect(step.caption == reference.caption, "\(id) \(test.name) step \(index + 1)")
      }
    }
  }

  @Test func bubbleSortRecordsTheBuiltInRecordersSteps() throws {
    try expectParity("bubble-sort", libraryField: "ids") { BubbleSortRecorder.record(try integers($0[0])) }
  }

  @Test func quickSortRecordsTheBuiltInRecordersSteps() throws {
    try expectParity("quick-sort-partition") { QuickSortRecorder.record(try integers($0[0])) }
  }

  @Test func binarySearchRecordsTheBuiltInRecordersSteps() throws {
    try expectParity("binary-search", libraryField: "action") { arguments in
      try BinarySearchRecorder.record(try integers(arguments[0]), target: try integer(arguments[1]))
    }
  }

  @Test func dijkstraRecordsTheBuiltInRecordersSteps() throws {
    try expectParity("dijkstra-relaxations") { arguments in
      guard case .array(let edges) = arguments[1] else { throw ParityError("edges: not an array") }
      let graph = Graph(
        nodeCount: try integer(arguments[0]),
        edges: try edges.map { edge in
          let ends = try integers(edge)
          return Graph.Edge(ends[0], ends[1], weight: ends[2])
        }, directed: true)
      return try DijkstraRecorder.record(graph, source: try integer(arguments[2]))
    }
  }
}

private struct ParityError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
