import Foundation
import SandboxTesting
import Testing

@testable import Runners
@testable import Sandbox

// The shape recorders (linked list, binary tree, heap, stack/queue/deque, hash map, DP table,
// string matching, union-find): each language's program in Tests/Fixtures/recorder/shapes/ makes
// the calls of shapes.md in a real box with the shipped runner, and writes exactly shapes.steps,
// byte for byte (key order, numbers and escapes alike in every language).

enum RecorderShapesFixture {
  static let directory = RecorderFixture.directory + "/shapes"
  static let programs = [
    "python": "main.py", "javascript": "main.js", "cpp": "main.cpp", "c": "main.c", "java": "Main.java",
    "kotlin": "main.kt", "go": "main.go", "dart": "main.dart",
  ]

  static func contents(_ path: String) throws -> String {
    String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
  }
}

@Suite struct RecorderShapesTests {
  @Test(arguments: RecorderFixture.languages)
  func theShapesScenarioWritesTheSharedStepsByteForByte(language: String) throws {
    try #require(installed(language), "needs \(language): scripts/install-toolchains \(language)")
    let program = try #require(RecorderShapesFixture.programs[language])
    let path = RecorderShapesFixture.directory + "/" + program
    try #require(FileManager.default.fileExists(atPath: path), "no shapes program for \(language) yet")
    let result = try execute(language, try RecorderShapesFixture.contents(path))
    #expect(result.run?.status == .ok, "\(result.compileMessages) \(result.stderr)")
    let expected = try RecorderShapesFixture.contents(RecorderFixture.directory + "/shapes.steps")
    let wanted = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let written = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(written.count == wanted.count, "\(result.stdout)")
    for (index, (line, want)) in zip(written, wanted).enumerated() where line != want {
      Issue.record("\(language) line \(index + 1):\n  wrote \(line)\n  wants \(want)")
    }
  }
}

/// The page's hand-written steps files (Tests/page/steps/, played by `scripts/test-page
/// StepShapeTests`) are what the shape recorders write: the Python forms, given the files' captions,
/// write them byte for byte. (The others were written by hand in another field order, or leave out
/// a field the recorders write as null: avl-tree, dp-table, hash-map, kmp, rabin-karp.)
private let pageStepsPrograms: [String: String] = [
  "linked-list.steps": #"""
  from dsa import ListRecorder

  linked = ListRecorder([1, 2, 3])
  linked.point("prev", None)
  linked.point("curr", 0)
  linked.step("start", caption="Reverse 1 -> 2 -> 3: prev is null, curr is the head.")
  prev, curr = None, linked.head
  while curr is not None:
      after = linked.next(curr)
      linked.link(curr, prev)
      shown = "null" if prev is None else linked.value(prev)
      linked.step("relink", [curr], caption=f"Point {linked.value(curr)} back at prev ({shown}).")
      prev, curr = curr, after
      linked.point("prev", prev)
      linked.point("curr", curr)
      if curr is None:
          linked.step("advance", caption=f"Move prev to {linked.value(prev)}; curr is null, so the loop ends.")
      else:
          linked.step("advance", caption=f"Move prev to {linked.value(prev)} and curr to {linked.value(curr)}.")
  linked.set_head(prev)
  linked.step("done", caption="The head is prev: 3 -> 2 -> 1.")

  """#,
  "segment-tree.steps": #"""
  from dsa import TreeRecorder

  tree = TreeRecorder()
  # Level order, as the page's file numbers them: sums over [0,3], [0,1], [2,3], then the leaves.
  for value, low, high in [(10, 0, 3), (3, 0, 1), (7, 2, 3), (1, 0, 0), (2, 1, 1), (3, 2, 2), (4, 3, 3)]:
      tree.set_range(tree.add(value), low, high)
  for parent in range(3):
      tree.set_left(parent, 2 * parent + 1)
      tree.set_right(parent, 2 * parent + 2)
  tree.step("build", caption="Sums of 1 2 3 4 over ranges.")
  tree.step("query", [4, 2], caption="The sum over [1,3] is 2 + 7 = 9.")

  """#,
  "union-find.steps": #"""
  from dsa import UnionFindRecorder

  sets = UnionFindRecorder(5)
  sets.step("start", caption="Five sets of one element each.")
  sets.union(0, 1, caption="Union 0 and 1: 1's root now points at 0.")
  sets.union(2, 3, caption="Union 2 and 3: 3 points at 2.")
  sets.union(1, 3, caption="Union 1 and 3: the roots 0 and 2 have equal ranks, so 2 goes under 0.")
  sets.find(3, caption="Find 3 with path compression: 3 now points at the root 0 itself.")

  """#,
  "stack.steps": #"""
  from dsa import StackRecorder

  stack = StackRecorder()
  stack.push(4, caption="Push 4.")
  stack.push(7, caption="Push 7 on top.")
  stack.pop(caption="Pop 7 from the top.")
  stack.push(9, caption="Push 9 on top.")

  """#,
  "queue.steps": #"""
  from dsa import StackRecorder

  queue = StackRecorder("queue")
  queue.enqueue(5, caption="Enqueue 5.")
  queue.enqueue(8, caption="Enqueue 8 at the back.")
  queue.dequeue(caption="Dequeue 5 from the front.")

  """#,
  "deque.steps": #"""
  from dsa import StackRecorder

  deque = StackRecorder("deque")
  deque.push_back(1, caption="Push 1 at the back.")
  deque.push_front(2, caption="Push 2 at the front.")
  deque.pop_back(caption="Pop 1 from the back.")

  """#,
  "heap.steps": #"""
  from dsa import HeapRecorder

  heap = HeapRecorder([1, 3, 5, 7])
  heap.push(2, caption="Push 2 at the end of the heap.")
  heap.compare(1, 4, caption="Compare 2 with its parent 3.")
  heap.swap(1, 4, caption="2 is smaller: swap it with its parent.")
  heap.compare(0, 1, caption="Compare 2 with its parent 1: not smaller, so it stays.")

  """#,
]

@Suite struct RecorderPageStepsTests {
  @Test(arguments: pageStepsPrograms.keys.sorted())
  func thePythonShapeRecordersWriteThePagesStepsFile(file: String) throws {
    try #require(installed("python"), "needs python: scripts/install-toolchains python")
    let result = try execute("python", try #require(pageStepsPrograms[file]))
    #expect(result.run?.status == .ok, "\(result.stderr)")
    let wanted = try RecorderShapesFixture.contents(TestExecutors.repositoryRoot + "/Tests/page/steps/" + file)
    #expect(result.stdout == wanted, "\(file):\n\(result.stdout)")
  }
}

/// A node id the recorder never gave (or took back) is refused at the call, in every language, with
/// the same message: a wrong id would otherwise draw an arrow to nothing.
private let unknownIDProbes: [String: String] = [
  "python": "from dsa import ListRecorder\nListRecorder([1]).link(0, 5)\n",
  "javascript": "const { ListRecorder } = require('dsa');\nnew ListRecorder([1]).link(0, 5);\n",
  "cpp": "#include <dsa/recorder.hpp>\nint main() { dsa::ListRecorder<long long>{1}.link(0, 5); }\n",
  "c": """
  #include <dsa/recorder.h>
  int main(void) {
    long long one[] = {1};
    dsa_list list;
    dsa_list_init(&list, one, 1);
    dsa_list_link(&list, 0, 5);
    return 0;
  }

  """,
  "java": """
  import dsa.ListRecorder;

  public class Main {
      public static void main(String[] args) { new ListRecorder(new int[] {1}).link(0, 5); }
  }

  """,
  "kotlin": "import dsa.ListRecorder\n\nfun main() { ListRecorder(intArrayOf(1)).link(0, 5) }\n",
  "go": "package main\n\nimport \"dsa\"\n\nfunc main() { dsa.NewListRecorder([]int{1}).Link(0, 5) }\n",
  "dart": "import 'package:dsa/dsa.dart';\n\nvoid main() => ListRecorder([1]).link(0, 5);\n",
]

extension RecorderShapesTests {
  @Test(arguments: RecorderFixture.languages)
  func aNodeIDTheRecorderNeverGaveIsRefusedWithAClearMessage(language: String) throws {
    try #require(installed(language), "needs \(language): scripts/install-toolchains \(language)")
    let result = try execute(language, try #require(unknownIDProbes[language]))
    #expect(result.run?.status == .runtimeError, "\(result.compileMessages) \(result.stderr)")
    #expect(result.stderr.contains("no node 5: ids are the ones the recorder gave"), "\(result.stderr)")
    #expect(result.stdout.isEmpty, "\(result.stdout)")
  }
}
