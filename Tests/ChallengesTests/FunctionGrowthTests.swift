import Foundation
import Grading
import Runners
import Testing

@testable import Challenges

private func functionGrowthChallenge(_ json: String) throws -> Challenge {
  switch ChallengeLoader.decodeInline(Data(json.utf8), id: "function-growth") {
  case .success(let challenge): return challenge
  case .failure(let error): throw error
  }
}

private func grade(_ challenge: Challenge, _ language: String, _ source: String) throws -> GradeResult {
  try GradingFixture.grader.grade(
    challenge, language: language, files: [SourceFile(name: "", contents: Data(source.utf8))])
}

/// `sort(items: int[]) -> int[]` whose growth section wants n log n compare steps on random items.
private let sortChallenge = """
  {"title": "sort", "statement": "Sort, recording each comparison.",
   "limits": {"cpu_ms": 5000, "wall_ms": 10000},
   "function": {"name": "sort_items", "params": [{"name": "items", "type": "int[]"}], "returns": "int[]"},
   "tests": [{"name": "sample", "args": {"items": [3, 1, 2]}, "expected": [1, 2, 3]}],
   "growth": {"sizes": [16, 32, 64, 128, 256, 512, 1024], "count": {"actions": ["compare"]},
     "limits": {"output_kb": 16384}, "points": 2,
     "cases": [{"name": "random", "input": {"shape": "random", "seed": 3}, "expect": ["n log n"]}]}}
  """

/// Merge sort with the recorder, one compare step per comparison.
private let pythonMergeSort = """
  from dsa import Recorder

  def sort_items(items):
      rec = Recorder(items)
      def merge_sort(a):
          if len(a) < 2:
              return a
          left, right = merge_sort(a[:len(a) // 2]), merge_sort(a[len(a) // 2:])
          out = []
          i = j = 0
          while i < len(left) and j < len(right):
              rec.step("compare")
              if left[i] <= right[j]:
                  out.append(left[i]); i += 1
              else:
                  out.append(right[j]); j += 1
          return out + left[i:] + right[j:]
      return merge_sort(items)

  """

/// Insertion sort: right answers, about n²/4 compares on random items.
private let pythonInsertionSort = """
  from dsa import Recorder

  def sort_items(items):
      rec = Recorder(items)
      a = list(items)
      for i in range(1, len(a)):
          j = i
          while j > 0:
              rec.step("compare")
              if a[j - 1] <= a[j]:
                  break
              a[j - 1], a[j] = a[j], a[j - 1]
              j -= 1
      return a

  """

@Suite struct FunctionGrowthLoaderTests {
  @Test func aFunctionChallengeTakesAGrowthSection() throws {
    let challenge = try functionGrowthChallenge(sortChallenge)
    let section = try #require(challenge.growth)
    #expect(section.sizes.count == 7 && section.points == 2)
  }

  /// A built-in shape fills only the parameters it has values for; anything else needs a generator.
  @Test func aShapeThatCannotFillTheParametersIsRefusedNamingBoth() {
    let json = sortChallenge.replacingOccurrences(
      of: #"[{"name": "items", "type": "int[]"}]"#,
      with: #"[{"name": "items", "type": "int[]"}, {"name": "k", "type": "int"}]"#
    ).replacingOccurrences(of: #""args": {"items": [3, 1, 2]}"#, with: #""args": {"items": [3, 1, 2], "k": 1}"#)
    let problems = ChallengeLoader.decodeInline(Data(json.utf8), id: "function-growth").problems
    #expect(
      problems.contains {
        $0.contains("growth.cases[0].input") && $0.contains("one parameter of type int[]")
          && $0.contains("sort_items takes (items: int[], k: int)") && $0.contains("generator program")
      }, "\(problems)")
  }

  @Test func slowSolutionsNeedTheirExpectation() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fgrowth-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("solutions/slow"), withIntermediateDirectories: true)
    try Data(sortChallenge.utf8).write(to: directory.appendingPathComponent("challenge.json"))
    try Data(pythonInsertionSort.utf8).write(to: directory.appendingPathComponent("solutions/slow/solution.py"))
    let problems = ChallengeLoader.load(directory: directory.path).problems
    #expect(problems.contains { $0.contains("growth.slow_solution") && $0.contains("is required") }, "\(problems)")
  }
}

@Suite struct FunctionGrowthGraderTests {
  @Test func anNLogNFunctionIsAcceptedAndAQuadraticOneIsNot() throws {
    try #require(GradingFixture.isInstalled("python"))
    let challenge = try functionGrowthChallenge(sortChallenge)
    let good = try grade(challenge, "python", pythonMergeSort)
    #expect(good.verdict == .accepted, "\(good.message)")
    let fast = try #require(good.growth?.cases.first)
    #expect(fast.growthClass == .linearithmic, "\(fast.message)")
    #expect(fast.points.map(\.n) == [16, 32, 64, 128, 256, 512, 1024])
    // Merge sort makes at most n log2 n comparisons: the counts are the recorder's steps of one call.
    #expect(fast.points.allSatisfy { ($0.count ?? 0) > 0 && $0.count! <= Double($0.n) * log2(Double($0.n)) })
    #expect(good.score == 1)

    let slow = try grade(challenge, "python", pythonInsertionSort)
    #expect(slow.tests.map(\.verdict) == [.accepted])
    let quadratic = try #require(slow.growth?.cases.first)
    #expect(quadratic.growthClass == .quadratic, "\(quadratic.message)")
    #expect(slow.verdict == .wrongAnswer && slow.message.hasPrefix("Growth: "), "\(slow.message)")
    // The tests' points earned, the growth section's (weight 2) not.
    #expect(abs(slow.score - 1.0 / 3.0) < 1e-9)
  }

  /// The same counts in a compiled language whose driver runs the call in a JVM: the JVM's start is
  /// not the function's CPU time, so the time check does not mistake it for hidden work.
  @Test func aJavaFunctionIsCountedFromItsCallAlone() throws {
    try #require(GradingFixture.isInstalled("java"))
    let challenge = try functionGrowthChallenge(sortChallenge)
    let source = """
      import dsa.Recorder;

      class Solution {
          static Recorder rec;
          public static long[] sortItems(long[] items) {
              rec = new Recorder(items);
              long[] a = items.clone();
              mergeSort(a, new long[a.length], 0, a.length);
              return a;
          }
          static void mergeSort(long[] a, long[] tmp, int lo, int hi) {
              if (hi - lo < 2) return;
              int mid = (lo + hi) / 2;
              mergeSort(a, tmp, lo, mid);
              mergeSort(a, tmp, mid, hi);
              int i = lo, j = mid, k = lo;
              while (i < mid && j < hi) {
                  rec.step("compare");
                  tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
              }
              while (i < mid) tmp[k++] = a[i++];
              while (j < hi) tmp[k++] = a[j++];
              System.arraycopy(tmp, lo, a, lo, hi - lo);
          }
      }

      """
    let result = try grade(challenge, "java", source)
    #expect(result.verdict == .accepted, "\(result.message) \(result.compile?.message ?? "")")
    let growth = try #require(result.growth?.cases.first)
    #expect(growth.growthClass == .linearithmic, "\(growth.message)")
  }

  /// A search shape fills (items, target); a graph shape fills (graph, source); both counted per call.
  @Test func searchAndGraphShapesFillTheirParameters() throws {
    try #require(GradingFixture.isInstalled("python"))
    let search = try functionGrowthChallenge(
      """
      {"title": "search", "statement": "Binary search.",
       "function": {"name": "find", "params": [{"name": "items", "type": "int[]"}, {"name": "target", "type": "int"}],
         "returns": "int"},
       "tests": [{"name": "sample", "args": {"items": [0, 2, 4], "target": 4}, "expected": 2}],
       "growth": {"sizes": [16, 64, 256, 1024, 4096, 16384], "count": {"actions": ["probe"]},
         "cases": [{"name": "absent", "input": {"shape": "search", "target": "absent"}, "expect": ["log n"]}]}}
      """)
    let binary = """
      def find(items, target):
          low, high = 0, len(items) - 1
          while low <= high:
              mid = (low + high) // 2
              print('@step {"action": "probe"}')
              if items[mid] == target:
                  return mid
              if items[mid] < target:
                  low = mid + 1
              else:
                  high = mid - 1
          return -1

      """
    let found = try grade(search, "python", binary)
    #expect(found.verdict == .accepted, "\(found.message)")
    #expect(found.growth?.cases.first?.growthClass == .logarithmic)

    let graph = try functionGrowthChallenge(
      """
      {"title": "bfs", "statement": "Visit every node.",
       "function": {"name": "reach", "params": [{"name": "graph", "type": "graph"}, {"name": "source", "type": "int"}],
         "returns": "int"},
       "tests": [{"name": "sample", "args": {"graph": {"n": 3, "edges": [[0, 1], [1, 2]]}, "source": 0}, "expected": 3}],
       "growth": {"sizes": [16, 32, 64, 128, 256, 512], "count": "steps",
         "cases": [{"name": "sparse", "input": {"shape": "graph", "edges_per_node": 2}, "expect": ["n + m"]}]}}
      """)
    let bfs = """
      from collections import deque

      def reach(graph, source):
          seen = {source}
          queue = deque([source])
          while queue:
              node = queue.popleft()
              for other in graph[node]:
                  print('@step {"action": "edge"}')
                  if other not in seen:
                      seen.add(other)
                      queue.append(other)
          return len(seen)

      """
    let reached = try grade(graph, "python", bfs)
    #expect(reached.verdict == .accepted, "\(reached.message)")
    let sparse = try #require(reached.growth?.cases.first)
    #expect(sparse.growthClass == .nodesPlusEdges, "\(sparse.message)")
    // m is the generated graph's edge count, 2n at every size.
    #expect(sparse.points.allSatisfy { $0.m == 2 * $0.n }, "\(sparse.points.map { ($0.n, $0.m) })")
  }

  /// A generator program prints the arguments as one JSON object; one that prints something else is
  /// the challenge's fault, not the learner's.
  @Test func aGeneratorPrintsTheArgumentsObject() throws {
    try #require(GradingFixture.isInstalled("python"))
    func challenge(_ generator: String) throws -> Challenge {
      try functionGrowthChallenge(
        """
        {"title": "sum", "statement": "Sum the k largest.",
         "function": {"name": "top_sum", "params": [{"name": "items", "type": "int[]"}, {"name": "k", "type": "int"}],
           "returns": "int"},
         "tests": [{"name": "sample", "args": {"items": [5, 1, 3], "k": 2}, "expected": 8}],
         "growth": {"sizes": [32, 64, 128, 256, 512, 1024], "count": "steps",
           "cases": [{"name": "half", "input": {"program": {"language": "python", "source": \(generator)}},
                      "expect": ["n log n"]}]}}
        """)
    }
    let good = try challenge(
      #""import json, sys\nn, seed = int(sys.argv[1]), int(sys.argv[2])\nprint(json.dumps({'items': list(range(n)), 'k': n // 2}))\n""#
    )
    let sorting = """
      def top_sum(items, k):
          steps = [0]
          def merge_sort(a):
              if len(a) < 2:
                  return a
              left, right = merge_sort(a[:len(a) // 2]), merge_sort(a[len(a) // 2:])
              out = []
              while left and right:
                  print('@step {"action": "compare"}')
                  out.append(left.pop(0) if left[0] >= right[0] else right.pop(0))
              return out + left + right
          return sum(merge_sort(items)[:k])

      """
    let result = try grade(good, "python", sorting)
    #expect(result.verdict == .accepted, "\(result.message)")
    #expect(result.growth?.cases.first?.points.count == 6)

    let broken = try challenge(#""print('[1, 2, 3]')\n""#)
    let failed = try grade(broken, "python", sorting)
    let point = try #require(failed.growth?.cases.first?.points.first)
    #expect(point.verdict == .internalError, "\(point.message)")
    #expect(point.message.contains("input generator failed") && point.message.contains("not your fault"))
  }

  /// A call that never returns at one size is that size's time limit, stopped by the driver's budget.
  @Test func aCallThatLoopsAtALargeSizeIsATimeLimit() throws {
    try #require(GradingFixture.isInstalled("python"))
    let json = sortChallenge.replacingOccurrences(
      of: #""limits": {"output_kb": 16384}"#, with: #""limits": {"output_kb": 16384, "cpu_ms": 500, "wall_ms": 3000}"#)
    let challenge = try functionGrowthChallenge(json)
    let looping = """
      def sort_items(items):
          if len(items) > 500:
              while True:
                  pass
          for i in range(len(items)):
              print('@step {"action": "compare"}')
          return sorted(items)

      """
    let result = try grade(challenge, "python", looping)
    let growth = try #require(result.growth?.cases.first)
    let last = try #require(growth.points.last)
    #expect(last.verdict == .timeLimit, "\(last.message)")
    #expect(last.message.hasPrefix("At n = 1024: stopped after 0.5 s of CPU time"), "\(last.message)")
    #expect(result.verdict != .accepted)
  }
}

/// `compare: {"checker": ...}`: a program judges each returned value (testlib's exit codes), for
/// results with many right answers.
@Suite struct FunctionValueCheckerTests {
  /// Any topological order of the graph is right; the checker reads the arguments, the value and the
  /// (absent) expected value, each one line of JSON.
  private let orderChallenge = """
    {"title": "order", "statement": "Any topological order.",
     "function": {"name": "order", "params": [{"name": "n", "type": "int"}, {"name": "edges", "type": "int[][]"}],
       "returns": "int[]"},
     "compare": {"checker": {"language": "python", "source": "import json, sys\\nargs = json.loads(open(sys.argv[1]).read())\\nvalue = json.loads(open(sys.argv[2]).read())\\nexpected = json.loads(open(sys.argv[3]).read())\\nassert expected is None\\nn = args['n']\\nif sorted(value) != list(range(n)):\\n    print('not every node once', file=sys.stderr)\\n    sys.exit(1)\\nplace = {v: i for i, v in enumerate(value)}\\nfor u, v in args['edges']:\\n    if place[u] > place[v]:\\n        print(f'{u} must come before {v}', file=sys.stderr)\\n        sys.exit(1)\\n"}},
     "tests": [
       {"name": "chain", "args": {"n": 3, "edges": [[0, 1], [1, 2]]}},
       {"name": "fork", "args": {"n": 4, "edges": [[0, 1], [0, 2], [1, 3], [2, 3]]}},
       {"name": "hidden", "args": {"n": 2, "edges": []}, "hidden": true}]}
    """

  @Test func aCheckerProgramJudgesEachValue() throws {
    try #require(GradingFixture.isInstalled("python"))
    let challenge = try functionGrowthChallenge(orderChallenge)
    #expect(challenge.plannedRuns == 6)
    #expect(!challenge.hasOneRightOutput)
    // Two different right orders of the fork are both accepted.
    let kahn = """
      def order(n, edges):
          indegree = [0] * n
          out = [[] for _ in range(n)]
          for u, v in edges:
              out[u].append(v)
              indegree[v] += 1
          ready = [v for v in range(n) if indegree[v] == 0][::-1]
          result = []
          while ready:
              u = ready.pop()
              result.append(u)
              for v in reversed(out[u]):
                  indegree[v] -= 1
                  if indegree[v] == 0:
                      ready.append(v)
          return result

      """
    let accepted = try grade(challenge, "python", kahn)
    #expect(accepted.verdict == .accepted, "\(accepted.message)")
    let other = try grade(challenge, "python", kahn.replacingOccurrences(of: "[::-1]", with: ""))
    #expect(other.verdict == .accepted, "\(other.message)")

    let wrong = try grade(challenge, "python", "def order(n, edges):\n    return list(range(n))[::-1]\n")
    #expect(wrong.tests.map(\.verdict) == [.wrongAnswer, .wrongAnswer, .accepted])
    #expect(
      wrong.tests[0].message == "Your function returned [2,1,0]: 0 must come before 1", "\(wrong.tests[0].message)")
    // Many answers are right: no expected value is shown against the learner's.
    #expect(wrong.tests[0].details?.expectedOutput == nil)
  }

  @Test func aBrokenCheckerIsTheChallengesFault() throws {
    try #require(GradingFixture.isInstalled("python"))
    let broken = orderChallenge.replacingOccurrences(of: #"assert expected is None\n"#, with: #"sys.exit(3)\n"#)
    let challenge = try functionGrowthChallenge(broken)
    let result = try grade(challenge, "python", "def order(n, edges):\n    return list(range(n))\n")
    #expect(result.tests.map(\.verdict) == [.internalError, .internalError, .internalError])
    #expect(result.tests[0].message.hasPrefix("The challenge's checker failed on this test, which is not your fault"))
  }

  @Test func theCheckerIsTheWholeRule() {
    let problems = ChallengeLoader.decodeInline(
      Data(
        orderChallenge.replacingOccurrences(
          of: #""compare": {"checker""#, with: #""compare": {"float_tolerance": 0.1, "checker""#
        ).utf8),
      id: "x"
    ).problems
    #expect(problems.contains { $0.contains("a checker program is the whole rule") }, "\(problems)")
    // Without a checker, a test needs its expected value.
    let withoutChecker = orderChallenge.split(separator: "\n").filter { !$0.contains("\"compare\"") }.joined(
      separator: "\n")
    let missing = ChallengeLoader.decodeInline(Data(withoutChecker.utf8), id: "x").problems
    #expect(missing.contains { $0.contains("tests[0].expected") && $0.contains("is required") }, "\(missing)")
  }
}
