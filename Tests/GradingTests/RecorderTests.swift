import Foundation
import Testing
import Wire

@testable import Grading

@Suite struct RecorderTests {
  typealias Sorter = @Sendable ([Int]) -> [Step]

  static let sorters: [(String, Sorter)] = [
    ("insertion", InsertionSortRecorder.record), ("selection", SelectionSortRecorder.record),
    ("bubble", BubbleSortRecorder.record), ("merge", MergeSortRecorder.record), ("quick", QuickSortRecorder.record),
  ]

  static let inputs: [[Int]] = [
    [], [1], [2, 1], [5, 2, 4, 6, 1, 3], [3, 3, 1, 3], [1, 2, 3, 4], [9, 7, 5, 3, 1], [-1, 0, -5],
  ]

  @Test(arguments: sorters.map(\.0))
  func sortsEndSortedWithCaptionsAndAreDeterministic(_ name: String) throws {
    let record = try #require(Self.sorters.first { $0.0 == name }).1
    for input in Self.inputs {
      let steps = record(input)
      let last = try #require(steps.last)
      #expect(last.fields["action"] == "done")
      #expect(last.fields["array"] == JSONValue(input.sorted()))
      #expect(last.fields["sorted"] == JSONValue(Array(input.indices)))
      for step in steps {
        #expect(!(step.caption ?? "").isEmpty)
        #expect(Set(step.fields.keys) == ["action", "active", "array", "sorted"])
        if case .array(let active) = step.fields["active"] {
          for case .number(let index) in active { #expect(input.indices.contains(Int(index))) }
        }
      }
      #expect(record(input) == steps)
    }
  }

  func actions(_ steps: [Step]) -> [String] {
    steps.compactMap { if case .string(let action) = $0.fields["action"] { action } else { nil } }
  }

  @Test func insertionSortSteps() {
    let steps = InsertionSortRecorder.record([5, 2, 4, 6, 1, 3])
    // 9 swaps (the inversions) and 9 + 5 - 4 compares (each pass compares once more unless it
    // reaches index 0: passes for 2 and 1 do).
    #expect(actions(steps).filter { $0 == "swap" }.count == 9)
    #expect(actions(steps).filter { $0 == "compare" }.count == 12)
    #expect(steps.count == 22)
    #expect(steps[0].fields["active"] == [0, 1])
    #expect(steps[1].caption == "5 is larger than 2, so shift it right.")
    #expect(steps[1].fields["array"] == [2, 5, 4, 6, 1, 3])
  }

  @Test func selectionAndBubbleSortSteps() {
    let selection = SelectionSortRecorder.record([3, 1, 2])
    #expect(actions(selection) == ["compare", "compare", "swap", "compare", "swap", "done"])
    let bubble = BubbleSortRecorder.record([1, 2, 3])
    #expect(actions(bubble) == ["compare", "compare", "done"])
    let reversed = BubbleSortRecorder.record([3, 2, 1])
    #expect(actions(reversed) == ["compare", "swap", "compare", "swap", "compare", "swap", "done"])
  }

  @Test func mergeSortHasOneMergePerInnerNode() {
    let steps = MergeSortRecorder.record([5, 2, 4, 6, 1, 3])
    #expect(steps.count == 6)
    // mid = 3: [5, 2, 4] splits into [5] and [2, 4] first.
    #expect(steps[0].fields["active"] == [1, 2])
    #expect(steps[0].caption == "Merge [2] and [4] into [2, 4].")
    #expect(steps[1].fields["array"] == [2, 4, 5, 6, 1, 3])
    #expect(steps[1].caption == "Merge [5] and [2, 4] into [2, 4, 5].")
    #expect(steps[4].fields["active"] == [0, 1, 2, 3, 4, 5])
  }

  @Test func quickSortLomutoPartition() {
    let steps = QuickSortRecorder.record([2, 8, 7, 1, 3, 5, 6, 4])
    // CLRS figure 7.1: the first partition around 4 places it at index 3.
    let firstPlace = steps.first { $0.fields["action"] == "place" }
    #expect(firstPlace?.fields["active"] == [3])
    #expect(firstPlace?.fields["array"] == [2, 1, 3, 4, 7, 5, 6, 8])
    #expect(
      actions(Array(steps.prefix(10))) == [
        "pivot", "compare", "compare", "compare", "compare", "swap", "compare", "swap", "compare", "compare",
      ])
  }

  @Test func binarySearchSteps() throws {
    let found = try BinarySearchRecorder.record([1, 3, 5, 7, 9, 11], target: 7)
    #expect(
      found.map(\.fields) == [
        ["low": 0, "high": 5, "mid": 2, "found": false],
        ["low": 3, "high": 5, "mid": 4, "found": false],
        ["low": 3, "high": 3, "mid": 3, "found": true],
      ])
    let missing = try BinarySearchRecorder.record([1, 3, 5], target: 4)
    #expect(missing.last?.fields == ["low": 2, "high": 1, "mid": nil, "found": false])
    #expect(missing.count == 3)
    #expect(try BinarySearchRecorder.record([], target: 1).count == 1)
    #expect(throws: RecorderInputError.self) { try BinarySearchRecorder.record([2, 1], target: 1) }
    #expect(missing.allSatisfy { !($0.caption ?? "").isEmpty })
  }

  // 0 - 1, 0 - 2, 1 - 3, 2 - 3, 3 - 4; 5 unreachable.
  let graph = Graph(
    nodeCount: 6, edges: [Graph.Edge(0, 2), Graph.Edge(0, 1), Graph.Edge(1, 3), Graph.Edge(2, 3), Graph.Edge(3, 4)])

  @Test func bfsSteps() throws {
    let steps = try BFSRecorder.record(graph, source: 0)
    #expect(steps.count == 6)
    #expect(steps[0].fields == ["current": nil, "visited": [0], "frontier": [0]])
    #expect(steps[1].fields == ["current": 0, "visited": [0, 1, 2], "frontier": [1, 2]])
    #expect(steps.last?.fields["visited"] == [0, 1, 2, 3, 4])
    #expect(steps.last?.fields["frontier"] == [])
    #expect(steps.allSatisfy { !($0.caption ?? "").isEmpty })
    #expect(try BFSRecorder.record(graph, source: 0) == steps)
  }

  @Test func dfsSteps() throws {
    let steps = try DFSRecorder.record(graph, source: 0)
    #expect(steps.map { $0.fields["current"] } == [0, 1, 3, 2, 4])
    #expect(steps[3].fields["frontier"] == [0, 1, 3, 2])
    #expect(steps[4].fields["frontier"] == [0, 1, 3, 4])
    #expect(steps.last?.fields["visited"] == [0, 1, 3, 2, 4])
    #expect(throws: RecorderInputError.self) { try DFSRecorder.record(graph, source: 9) }
  }

  @Test func dijkstraSteps() throws {
    let weighted = Graph(
      nodeCount: 4,
      edges: [
        Graph.Edge(0, 1, weight: 4), Graph.Edge(0, 2, weight: 1), Graph.Edge(2, 1, weight: 2),
        Graph.Edge(1, 3, weight: 5),
      ],
      directed: true)
    let steps = try DijkstraRecorder.record(weighted, source: 0)
    #expect(actions(steps) == ["settle", "relax", "relax", "settle", "relax", "settle", "relax", "settle"])
    #expect(steps[1].fields["edge"] == [0, 1, 4])
    #expect(steps[4].fields["relaxed"] == true)
    #expect(steps[4].fields["dist"] == [0, 3, 1, nil])
    #expect(steps.last?.fields["dist"] == [0, 3, 1, 8])
    #expect(steps.last?.fields["visited"] == [0, 2, 1, 3])
    #expect(steps.allSatisfy { !($0.caption ?? "").isEmpty })
    let notRelaxed = try DijkstraRecorder.record(
      Graph(
        nodeCount: 3, edges: [Graph.Edge(0, 1, weight: 1), Graph.Edge(0, 2, weight: 5), Graph.Edge(1, 2, weight: 9)]),
      source: 0)
    #expect(notRelaxed.contains { $0.fields["relaxed"] == false })
    #expect(throws: RecorderInputError.self) {
      try DijkstraRecorder.record(Graph(nodeCount: 2, edges: [Graph.Edge(0, 1, weight: -1)]), source: 0)
    }
  }

  @Test func recordedStepsPassTheirOwnChecker() throws {
    let steps = InsertionSortRecorder.record([4, 3, 2, 1])
    let checker = try StepChecker(fields: ["action", "active", "array", "sorted"])
    let output = steps.map { Step($0.fields).line }.joined(separator: "\n")
    #expect(checker.check(expectedSteps: steps, output: output).verdict == .accepted)
  }

  /// A hidden test shows a step's kind and data-free caption: every recorded step has both, neither
  /// holds a digit, and each recorder's caption for a kind is the same whatever the input.
  @Test func everyRecordedStepHasADataFreeKindAndCaption() throws {
    var recordings: [String: [[Step]]] = [:]
    for (name, record) in Self.sorters { recordings[name] = Self.inputs.map(record) }
    recordings["binary search"] = try [(4, 7), (9, 1), (7, 2)].map {
      try BinarySearchRecorder.record([1, 3, 5, 7, 9], target: $0.0 + $0.1 - 4)
    }
    recordings["bfs"] = try [0, 3, 5].map { try BFSRecorder.record(graph, source: $0) }
    recordings["dfs"] = try [0, 3, 5].map { try DFSRecorder.record(graph, source: $0) }
    let weighted = Graph(
      nodeCount: 4, edges: [Graph.Edge(0, 1, weight: 4), Graph.Edge(0, 2, weight: 1), Graph.Edge(2, 1, weight: 2)])
    recordings["dijkstra"] = try [0, 1, 3].map { try DijkstraRecorder.record(weighted, source: $0) }
    for (name, runs) in recordings {
      var captions: [String: Set<String>] = [:]
      for step in runs.joined() {
        let kind = try #require(step.kind, "\(name)")
        let generic = try #require(step.genericCaption, "\(name)")
        #expect(!kind.contains(where: \.isNumber) && !generic.contains(where: \.isNumber), "\(name): \(generic)")
        captions[kind, default: []].insert(generic)
      }
      #expect(captions.values.allSatisfy { $0.count == 1 }, "\(name): \(captions)")
    }
    #expect(InsertionSortRecorder.record([2, 1]).map(\.kind) == ["a comparison", "a swap", "the final step"])
    // A step read from a file takes its kind from its action, from a fixed vocabulary only.
    #expect(Step(["action": "compare"], caption: "compare 42 with 17").dataFreeKind == "a comparison")
    #expect(Step(["action": "compare"], caption: "compare 42 with 17").dataFreeCaption == "Compare two items.")
    #expect(Step(["action": "move 42"], caption: "move 42").dataFreeKind == "a step")
    // The recorder's own actions and the step shapes' (docs/challenges.md) are in the vocabulary too.
    #expect(Step(["action": "overwrite"], caption: "Write 7 at index 2").dataFreeKind == "a write")
    #expect(
      Step(["action": "rotate"], caption: "Rotate 10 left").dataFreeCaption == "Rotate a subtree to restore balance.")
    #expect(Step(["action": "push_front"], caption: "push 3").dataFreeKind == "a push at the front")
    #expect(Step(["array": [4, 2]]).dataFreeCaption.contains("not shown"))
  }
}
