import Foundation
import Testing

@testable import Grading

@Suite struct GrowthInputTests {
  static func text(_ shape: GrowthShape, n: Int, seed: UInt64 = 1) -> String {
    String(decoding: shape.input(n: n, index: 0, seed: seed).stdin, as: UTF8.self)
  }

  static func integers(_ text: String) -> [Int] { text.split(whereSeparator: \.isWhitespace).map { Int($0)! } }

  @Test func arraysHaveTheRecordersFormat() {
    #expect(Self.text(.sorted, n: 5) == "5\n1 2 3 4 5\n")
    #expect(Self.text(.reversed, n: 4) == "4\n4 3 2 1\n")
    let random = Self.integers(Self.text(.random, n: 50))
    #expect(random[0] == 50)
    #expect(random.dropFirst().sorted() == Array(1...50))
    #expect(random.dropFirst().map { $0 } != Array(1...50))
    let few = Self.integers(Self.text(.fewDistinct(distinct: 3), n: 200))
    #expect(few.count == 201)
    #expect(Set(few.dropFirst()) == [1, 2, 3])
  }

  @Test func searchesEndWithATargetPresentOrAbsent() {
    let present = Self.integers(Self.text(.search(present: true), n: 100))
    #expect(present[0] == 100)
    #expect(Array(present[1...100]) == (0..<100).map { 2 * $0 })
    #expect(present[1...100].contains(present[101]))
    let absent = Self.integers(Self.text(.search(present: false), n: 100))
    #expect(absent.count == 102)
    #expect(!absent[1...100].contains(absent[101]))
    #expect(absent[101] == 197, "just below the last item")
  }

  @Test(arguments: [1, 2, 10, 100, 1000])
  func graphsAreSimpleConnectedAndOfTheAskedSize(_ n: Int) {
    let input = GrowthShape.graph(edgesPerNode: 2, edges: nil).input(n: n, index: 0, seed: 7)
    let numbers = Self.integers(String(decoding: input.stdin, as: UTF8.self))
    let m = min(2 * n, n * (n - 1) / 2)
    #expect(Array(numbers.prefix(3)) == [n, m, 0])
    #expect(input.edges == m)
    var pairs: Set<[Int]> = []
    var neighbours = [[Int]](repeating: [], count: n)
    for index in 0..<m {
      let (u, v) = (numbers[3 + 2 * index], numbers[4 + 2 * index])
      #expect(u != v && (0..<n).contains(u) && (0..<n).contains(v))
      #expect(pairs.insert([min(u, v), max(u, v)]).inserted)
      neighbours[u].append(v)
      neighbours[v].append(u)
    }
    #expect(numbers.count == 3 + 2 * m)
    var seen: Set<Int> = [0]
    var queue = [0]
    while let node = queue.popLast() {
      for next in neighbours[node] where seen.insert(next).inserted { queue.append(next) }
    }
    #expect(seen.count == n, "a search from 0 reaches every node")
  }

  @Test func givenEdgeCountsFollowTheSizes() {
    let shape = GrowthShape.graph(edgesPerNode: 2, edges: [10, 50, 400])
    #expect(shape.input(n: 20, index: 1, seed: 1).edges == 50)
    #expect(shape.input(n: 20, index: 2, seed: 1).edges == 190, "at most every pair")
  }

  @Test func inputsDependOnTheSeedOnly() {
    for shape in [
      GrowthShape.random, .fewDistinct(distinct: 4), .search(present: true), .graph(edgesPerNode: 3, edges: nil),
    ] {
      #expect(Self.text(shape, n: 64, seed: 9) == Self.text(shape, n: 64, seed: 9))
      #expect(Self.text(shape, n: 64, seed: 9) != Self.text(shape, n: 64, seed: 10))
    }
    // Fixed forever: a challenge's counts must not change when the toolchain does.
    var generator = SplitMix64(seed: 0)
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
  }

  static let output = Data(
    """
    @step {"action": "compare", "active": [0, 1]}
    @step {"active": [0, 1], "action":"swap"}
    hello "compare"
    @step {"action": "compare", "note": "swap"}
    @step not json but "compare"
    @step {"action": "compared"}
    @count 12
    @count 40\r
    done
    """.utf8)

  @Test func countsStepsActionsOrTheCountLine() {
    #expect(GrowthCount.steps.count(Self.output) == .success(5), "malformed step lines count as steps too")
    #expect(GrowthCount.actions(["compare"]).count(Self.output) == .success(2))
    #expect(GrowthCount.actions(["compare", "swap"]).count(Self.output) == .success(3))
    #expect(GrowthCount.countLine.count(Self.output) == .success(40))
  }

  /// A step whose action is written with an escape goes to the decoder; nested past the bound it
  /// never does (Foundation's decoder traps on 513 open brackets: the daemon would die grading it).
  @Test func aDeeplyNestedEscapedStepIsNotDecodedAndCountsNothing() {
    // "compare" in another field lets the line past the quick test; the action itself is escaped.
    let head = "@step {\"note\": \"compare\", \"action\": \"comp\\u0061re\", \"x\": "
    let deep = head + String(repeating: "[", count: 513) + "\n"
    let shallow = head + "[[1]]}\n"
    #expect(GrowthCount.actions(["compare"]).count(Data((deep + shallow).utf8)) == .success(1))
  }

  @Test func aBadOrMissingCountLineIsExplained() {
    let bad = GrowthCount.countLine.count(Data("x\n@count twelve\n".utf8))
    #expect(
      bad
        == .failure(
          GrowthCountError(message: "line 2: \"@count \" must be followed by one whole number, like @count 42")))
    #expect(
      GrowthCount.countLine.count(Data("@step {}\n".utf8))
        == .failure(GrowthCountError(message: "the program printed no \"@count N\" line")))
    #expect(GrowthCount.countLine.count(Data("@count -3\n".utf8)).isFailure)
  }
}

extension Result {
  var isFailure: Bool {
    if case .failure = self { return true }
    return false
  }
}
