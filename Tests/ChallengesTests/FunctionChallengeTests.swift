import Foundation
import Grading
import Runners
import Testing
import Wire

@testable import Challenges

/// An inline function challenge from its JSON text.
private func functionChallenge(_ json: String) throws -> Challenge {
  switch ChallengeLoader.decodeInline(Data(json.utf8), id: "function-test") {
  case .success(let challenge): return challenge
  case .failure(let error): throw error
  }
}

private func problems(_ json: String) -> [String] {
  ChallengeLoader.decodeInline(Data(json.utf8), id: "function-test").problems
}

private func gradeFunction(_ challenge: Challenge, _ language: String, _ source: String) throws -> GradeResult {
  try GradingFixture.grader.grade(
    challenge, language: language, files: [SourceFile(name: "", contents: Data(source.utf8))])
}

/// `echo_grid(grid: T[][], scalar: T, row: T[]) -> T[][]`, returning `[row, [scalar], *grid]`: every
/// value goes into the language and back out, through the decoders of T, T[] and T[][] and the
/// encoder of T[][] (which encodes T[] and T).
private func echoChallenge(_ type: String, tests: [(grid: String, scalar: String, row: String)]) throws -> Challenge {
  let listed = tests.enumerated().map { index, test in
    """
    {"name": "t\(index)", "args": {"grid": \(test.grid), "scalar": \(test.scalar), "row": \(test.row)},
     "expected": [\(test.row), [\(test.scalar)]\(test.grid == "[]" ? "" : ", " + test.grid.dropFirst().dropLast())]}
    """
  }.joined(separator: ",\n")
  return try functionChallenge(
    """
    {"title": "echo", "statement": "Echo.",
     "function": {"name": "echo_grid", "params": [{"name": "grid", "type": "\(type)[][]"},
       {"name": "scalar", "type": "\(type)"}, {"name": "row", "type": "\(type)[]"}], "returns": "\(type)[][]"},
     "tests": [\(listed)]}
    """)
}

private let echoSolutions = [
  "python": "def echo_grid(grid, scalar, row):\n    return [row, [scalar]] + grid\n",
  "javascript": "function echoGrid(grid, scalar, row) {\n  return [row, [scalar], ...grid];\n}\n",
  "cpp": """
  #include <bits/stdc++.h>
  using namespace std;

  template <class T> vector<vector<T>> echoGrid(vector<vector<T>> grid, T scalar, vector<T> row) {
      vector<vector<T>> out{row, vector<T>{scalar}};
      out.insert(out.end(), grid.begin(), grid.end());
      return out;
  }

  """,
  "java": #"""
  import java.util.*;

  class Solution {
      static <A> A[] join(A[] grid, A row, A single) {
          A[] out = Arrays.copyOf(grid, grid.length + 2);
          System.arraycopy(grid, 0, out, 2, grid.length);
          out[0] = row;
          out[1] = single;
          return out;
      }
      public static long[][] echoGrid(long[][] grid, long scalar, long[] row) { return join(grid, row, new long[] {scalar}); }
      public static double[][] echoGrid(double[][] grid, double scalar, double[] row) { return join(grid, row, new double[] {scalar}); }
      public static boolean[][] echoGrid(boolean[][] grid, boolean scalar, boolean[] row) { return join(grid, row, new boolean[] {scalar}); }
      public static String[][] echoGrid(String[][] grid, String scalar, String[] row) { return join(grid, row, new String[] {scalar}); }
  }

  """#,
  "kotlin": """
  class Solution {
      fun echoGrid(grid: Array<LongArray>, scalar: Long, row: LongArray) = arrayOf(row, longArrayOf(scalar), *grid)
      fun echoGrid(grid: Array<DoubleArray>, scalar: Double, row: DoubleArray) = arrayOf(row, doubleArrayOf(scalar), *grid)
      fun echoGrid(grid: Array<BooleanArray>, scalar: Boolean, row: BooleanArray) =
          arrayOf(row, booleanArrayOf(scalar), *grid)
      fun echoGrid(grid: Array<Array<String>>, scalar: String, row: Array<String>) = arrayOf(row, arrayOf(scalar), *grid)
  }

  """,
  "dart": """
  List<List<T>> echoGrid<T>(List<List<T>> grid, T scalar, List<T> row) => [row, [scalar], ...grid];

  """,
  "go": """
  package main

  func EchoGrid[T any](grid [][]T, scalar T, row []T) [][]T {
  	return append([][]T{row, {scalar}}, grid...)
  }

  """,
]

/// C has no generics: one `echoGrid` per element type, in LeetCode's C form (sizes beside arrays).
private func cEchoSolution(_ type: String) -> String {
  let cell = ["int": "long long", "float": "double", "bool": "bool", "string": "char *"][type]!
  return """
    #include <stdbool.h>
    #include <stdlib.h>

    \(cell) **echoGrid(\(cell) **grid, int gridSize, int *gridColSize, \(cell) scalar, \(cell) *row, int rowSize,
                      int *returnSize, int **returnColumnSizes) {
        \(cell) **out = malloc(sizeof *out * (size_t)(gridSize + 2));
        int *sizes = malloc(sizeof(int) * (size_t)(gridSize + 2));
        out[0] = row;
        sizes[0] = rowSize;
        out[1] = malloc(sizeof scalar);
        out[1][0] = scalar;
        sizes[1] = 1;
        for (int i = 0; i < gridSize; i++) {
            out[i + 2] = grid[i];
            sizes[i + 2] = gridColSize[i];
        }
        *returnSize = gridSize + 2;
        *returnColumnSizes = sizes;
        return out;
    }

    """
}

/// The values each type round-trips: extremes, empties, Unicode.
private let echoCases: [(type: String, tests: [(grid: String, scalar: String, row: String)])] = [
  (
    "int",
    [
      ("[[], [-1, 0, 9223372036854775807, -9223372036854775808, 9007199254740993]]", "-9223372036854775808", "[]"),
      ("[]", "42", "[-7]"),
    ]
  ),
  ("float", [("[[0.1, -2.5e-300, 1e300, -0.5], []]", "3.0", "[]"), ("[]", "-1.25", "[123456.789]")]),
  ("bool", [("[[true, false], []]", "false", "[true]"), ("[]", "true", "[]")]),
  (
    "string",
    [
      (#"[["héllo ✓", "", "quote \" back\\slash\nnewline\ttab", "emoji 🎉 𝄞"], []]"#, #""ü""#, #"["\u0001 control"]"#),
      ("[]", #""""#, "[]"),
    ]
  ),
]

@Suite struct FunctionChallengeTests {
  // MARK: - Loading

  @Test func theLoaderRefusesBadTypesAndArgumentsWithClearProblems() {
    func challenge(params: String, returns: String = "int", tests: String, extra: String = "") -> String {
      """
      {"title": "t", "statement": "s", "function": {"name": "solve", "params": \(params), "returns": "\(returns)"},
       "tests": \(tests)\(extra)}
      """
    }
    let one = #"[{"name": "xs", "type": "int[]"}]"#
    #expect(
      problems(challenge(params: #"[{"name": "xs", "type": "int[][][]"}]"#, tests: "[]"))
        .contains { $0.contains("function.params[0].type: \"int[][][]\": arrays nest at most two deep") })
    #expect(
      problems(challenge(params: #"[{"name": "xs", "type": "map"}]"#, tests: "[]"))
        .contains { $0.contains("\"map\" is not a type") })
    #expect(
      problems(challenge(params: #"[{"name": "g", "type": "tree[]"}]"#, tests: "[]"))
        .contains { $0.contains("arrays of tree are not available") })
    #expect(
      problems(challenge(params: #"[{"name": "Bad-Name", "type": "int"}]"#, tests: "[]"))
        .contains { $0.contains("function.params[0].name: must be snake_case") })
    let wrongValue = problems(challenge(params: one, tests: #"[{"args": {"xs": [1, "2"]}, "expected": 3}]"#))
    #expect(wrongValue.contains("challenge function-test: tests[0].args.xs[1]: expected a whole number, got a string"))
    let missing = problems(challenge(params: one, tests: #"[{"args": {}, "expected": 3}]"#))
    #expect(missing.contains("challenge function-test: tests[0].args.xs: is required"))
    let unknown = problems(challenge(params: one, tests: #"[{"args": {"xs": [], "ys": 1}, "expected": 3}]"#))
    #expect(unknown.contains { $0.contains("tests[0].args.ys: unknown key") })
    let tooLarge = problems(
      challenge(params: one, tests: #"[{"args": {"xs": [18446744073709551616]}, "expected": 3}]"#))
    #expect(tooLarge.contains { $0.contains("tests[0].args.xs[0]: 18446744073709551616 is out of range") })
    let badExpected = problems(challenge(params: one, tests: #"[{"args": {"xs": []}, "expected": 1.5}]"#))
    #expect(badExpected.contains { $0.contains("tests[0].expected: expected a whole number, got 1.5") })
    let unordered = problems(
      challenge(params: one, tests: #"[{"args": {"xs": []}, "expected": 1}]"#, extra: #", "compare": "unordered""#))
    #expect(unordered.contains { $0.contains("compare: \"unordered\" needs an array result") })
    let orphan = problems(
      challenge(
        params: #"[{"name": "root", "type": "tree"}]"#, tests: #"[{"args": {"root": [null, 1]}, "expected": 1}]"#))
    #expect(orphan.contains { $0.contains("tests[0].args.root: item 1 has no parent") })
    #expect(
      problems(challenge(params: one, returns: "graph", tests: "[]"))
        .contains { $0.contains("function.returns: a graph is an argument type only") })
    let edge = problems(
      challenge(
        params: #"[{"name": "g", "type": "graph"}]"#,
        tests: #"[{"args": {"g": {"n": 2, "edges": [[0, 2]]}}, "expected": 1}]"#))
    #expect(edge.contains { $0.contains("tests[0].args.g.edges[0][1]: 2 is out of range") })
    let checker = problems(
      challenge(
        params: one, tests: #"[{"args": {"xs": []}, "expected": 1}]"#, extra: #", "checker": {"name": "lines"}"#))
    #expect(
      checker.contains {
        $0.contains("checker: a function challenge's values are compared by compare; its only checker is steps")
      })
    let stdin = problems(challenge(params: one, tests: #"[{"stdin": "1", "args": {"xs": []}, "expected": 1}]"#))
    #expect(stdin.contains { $0.contains("tests[0].stdin: unknown key") })
    // `double` is Java's and Dart's type: a function so named would not compile there.
    let reserved = problems(
      #"{"title": "t", "statement": "s", "function": {"name": "double", "params": [], "returns": "int"}, "tests": []}"#)
    #expect(reserved.contains { $0.contains("function.name: \"double\" is a keyword or a type") }, "\(reserved)")
  }

  @Test func testsKeepSixtyFourBitNumbersExactly() throws {
    let challenge = try functionChallenge(
      """
      {"title": "t", "statement": "s", "function": {"name": "solve", "params": [{"name": "n", "type": "int"}],
       "returns": "int"}, "tests": [{"args": {"n": -9223372036854775808}, "expected": 9223372036854775807}]}
      """)
    #expect(challenge.tests[0].arguments == [.int(.min)])
    #expect(challenge.tests[0].expected == .int(.max))
    #expect(challenge.starters.keys.sorted() == ["c", "cpp", "dart", "go", "java", "javascript", "kotlin", "python"])
  }

  @Test func startersHaveEachLanguagesSignature() throws {
    let challenge = try functionChallenge(
      """
      {"title": "t", "statement": "s", "function": {"name": "merge_intervals",
       "params": [{"name": "intervals", "type": "int[][]"}, {"name": "min_gap", "type": "float"}],
       "returns": "string[]"}, "tests": [{"args": {"intervals": [], "min_gap": 0.5}, "expected": []}]}
      """)
    let python = String(decoding: challenge.starters["python"]!.contents, as: UTF8.self)
    #expect(python.hasPrefix("def merge_intervals(intervals: list[list[int]], min_gap: float) -> list[str]:"))
    let javascript = String(decoding: challenge.starters["javascript"]!.contents, as: UTF8.self)
    #expect(javascript.contains("function mergeIntervals(intervals, minGap) {"))
    #expect(javascript.contains(" * @param {number[][]} intervals"))
    let cpp = String(decoding: challenge.starters["cpp"]!.contents, as: UTF8.self)
    #expect(cpp.contains("vector<string> mergeIntervals(vector<vector<long long>> intervals, double minGap) {"))
    let java = String(decoding: challenge.starters["java"]!.contents, as: UTF8.self)
    #expect(
      java.contains("class Solution {\n    public static String[] mergeIntervals(long[][] intervals, double minGap) {"))
    let kotlin = String(decoding: challenge.starters["kotlin"]!.contents, as: UTF8.self)
    #expect(
      kotlin.hasPrefix(
        "class Solution {\n    fun mergeIntervals(intervals: Array<LongArray>, minGap: Double): Array<String> {"))
    let dart = String(decoding: challenge.starters["dart"]!.contents, as: UTF8.self)
    #expect(dart.hasPrefix("List<String> mergeIntervals(List<List<int>> intervals, double minGap) {"))
    let go = String(decoding: challenge.starters["go"]!.contents, as: UTF8.self)
    #expect(go.hasPrefix("package main\n\nfunc MergeIntervals(intervals [][]int, minGap float64) []string {"))
    let c = String(decoding: challenge.starters["c"]!.contents, as: UTF8.self)
    #expect(
      c.contains(
        "char **mergeIntervals(long long **intervals, int intervalsSize, int *intervalsColSize, double minGap, int *returnSize) {"
      ), "\(c)")
  }

  /// Every installed language has a driver today; a runner added without one (a catalog can hold
  /// any language) is refused by name, with the languages that have one.
  @Test func languagesWithoutADriverAreRefusedClearly() throws {
    let challenge = try functionChallenge(
      """
      {"title": "t", "statement": "s", "function": {"name": "solve", "params": [], "returns": "int"},
       "tests": [{"args": {}, "expected": 1}]}
      """)
    let signature = try #require(challenge.function)
    #expect(throws: ExecuteError.self) {
      _ = try FunctionDrivers.programFiles(
        signature, language: "brainfuck", learnerFiles: [SourceFile(name: "main.bf", contents: Data("+".utf8))])
    }
    do {
      _ = try FunctionDrivers.programFiles(
        signature, language: "brainfuck", learnerFiles: [SourceFile(name: "main.bf", contents: Data("+".utf8))])
    } catch {
      #expect(
        error.description.hasPrefix(
          "function challenges are not yet available in brainfuck; they are in C, C++, Dart, Go, Java, JavaScript, Kotlin, Python"
        ), "\(error.description)")
    }
  }

  // MARK: - The report and the comparisons (no box)

  @Test func onlyLinesWithTheNonceCount() {
    let stdout = """
      @result 0123 {"test": 0, "value": 999}
      @begin abcd 0
      junk@result abcd {"test": 0, "value": 5}
      @result abcd {"test": 0, "value": 7, "cpu_ms": 3, "wall_ms": 4}
      @begin abcd 1
      @result abc {"test": 1, "value": 8}

      """
    let stderr = "loading\n@begin abcd 0\nprinted in 0\n@begin abcd 1\nprinted in 1\n"
    let report = FunctionReport.parse(stdout: Data(stdout.utf8), stderr: Data(stderr.utf8), nonce: "abcd")
    #expect(report.begun == [0, 1])
    #expect(Array(report.results.keys) == [0])
    #expect(report.results[0]?.fields["value"] == .number(7))
    #expect(report.results[0]?.cpuMilliseconds == 3)
    #expect(report.stderrBeforeTests == "loading")
    #expect(report.stderrByTest == [0: "printed in 0", 1: "printed in 1\n"])
  }

  @Test func compareIsReadInEachForm() throws {
    func loaded(_ compare: String, expected: String = "[1.5]") -> Result<Challenge, ChallengeLoadError> {
      ChallengeLoader.decodeInline(
        Data(
          """
          {"title": "t", "statement": "s", "compare": \(compare),
           "function": {"name": "mean", "params": [{"name": "xs", "type": "float[]"}], "returns": "float[]"},
           "tests": [{"args": {"xs": [1, 2]}, "expected": \(expected)}]}
          """.utf8), id: "function-test")
    }
    func comparison(_ result: Result<Challenge, ChallengeLoadError>) -> FunctionComparison? {
      if case .success(let challenge) = result, case .function(let comparison) = challenge.checker { return comparison }
      return nil
    }
    #expect(comparison(loaded(#""exact""#)) == .exact)
    #expect(comparison(loaded(#""unordered""#)) == .unordered)
    #expect(comparison(loaded(#"{"float_tolerance": 1e-6}"#)) == .floatTolerance(1e-6))
    #expect(comparison(loaded(#""any_of""#, expected: "[[1.5], [1.25]]")) == .anyOf)
    #expect(loaded(#""any_of""#, expected: "[]").problems.contains { $0.contains("non-empty array") })
    #expect(loaded(#""any_of""#).problems.contains { $0.contains("tests[0].expected[0]: expected an array") })
    #expect(loaded(#"{"float_tolerance": 2}"#).problems.contains { $0.contains("must be at least 0 and below 1") })
    #expect(loaded(#""close""#).problems.contains { $0.contains("compare: must be \"exact\"") })
  }

  @Test func comparisons() {
    let pairs = FunctionValue.array([.array([.int(1), .int(2)]), .array([.int(3), .int(4)])])
    let swapped = FunctionValue.array([.array([.int(3), .int(4)]), .array([.int(1), .int(2)])])
    #expect(!FunctionComparison.exact.accepts(swapped, expected: pairs))
    #expect(FunctionComparison.unordered.accepts(swapped, expected: pairs))
    #expect(!FunctionComparison.unordered.accepts(.array([.array([.int(1), .int(2)])]), expected: pairs))
    #expect(FunctionComparison.floatTolerance(1e-6).accepts(.float(1.0000001), expected: .float(1)))
    #expect(!FunctionComparison.floatTolerance(1e-9).accepts(.float(1.0000001), expected: .float(1)))
    #expect(FunctionComparison.anyOf.accepts(.int(2), expected: .array([.int(1), .int(2)])))
    #expect(!FunctionComparison.anyOf.accepts(.int(3), expected: .array([.int(1), .int(2)])))
  }

  // MARK: - Drivers in boxes

  @Test(arguments: ["python", "javascript", "cpp", "java", "go", "kotlin", "dart", "c"])
  func everyTypeRoundTrips(language: String) throws {
    try #require(GradingFixture.isInstalled(language))
    for echo in echoCases {
      let challenge = try echoChallenge(echo.type, tests: echo.tests)
      let source = language == "c" ? cEchoSolution(echo.type) : echoSolutions[language]!
      let result = try gradeFunction(challenge, language, source)
      #expect(
        result.verdict == .accepted,
        "\(language) \(echo.type): \(result.message) \(result.tests.map(\.stderr)) \(result.compile?.message ?? "")")
    }
  }

  /// Linked lists and graphs go in (`walk` returns the list's values, then the adjacency list) and
  /// trees go in and out (`same_tree` returns its argument), through each language's node classes.
  @Test(arguments: ["python", "javascript", "cpp", "java", "go", "kotlin", "dart", "c"])
  func structuresRoundTrip(language: String) throws {
    try #require(GradingFixture.isInstalled(language))
    let walk = try functionChallenge(
      """
      {"title": "walk", "statement": "Walk.",
       "function": {"name": "walk", "params": [{"name": "head", "type": "linked_list"},
         {"name": "graph", "type": "graph"}], "returns": "int[][]"},
       "tests": [
         {"args": {"head": [1, -2, 9223372036854775807], "graph": {"n": 3, "edges": [[0, 1], [1, 2]]}},
          "expected": [[1, -2, 9223372036854775807], [1], [0, 2], [1]]},
         {"args": {"head": [], "graph": {"n": 3, "edges": [[0, 1], [2, 1], [2, 2]], "directed": true}},
          "expected": [[], [1], [], [1, 2]]},
         {"args": {"head": [7], "graph": {"n": 0, "edges": []}}, "expected": [[7]]}]}
      """)
    let walkSources = [
      "python": """
      def walk(head, graph):
          values = []
          while head:
              values.append(head.val)
              head = head.next
          return [values] + graph

      """,
      "javascript": """
      function walk(head, graph) {
        const values = [];
        for (; head; head = head.next) values.push(head.val);
        return [values, ...graph];
      }

      """,
      "cpp": """
      #include <bits/stdc++.h>
      using namespace std;

      vector<vector<long long>> walk(ListNode* head, vector<vector<int>> graph) {
          vector<vector<long long>> out(1);
          for (; head; head = head->next) out[0].push_back(head->val);
          for (auto& row : graph) out.emplace_back(row.begin(), row.end());
          return out;
      }

      """,
      "java": """
      import java.util.*;

      class Solution {
          public static long[][] walk(ListNode head, List<List<Integer>> graph) {
              List<long[]> out = new ArrayList<>();
              List<Long> values = new ArrayList<>();
              for (; head != null; head = head.next) values.add(head.val);
              out.add(values.stream().mapToLong(Long::longValue).toArray());
              for (List<Integer> row : graph) out.add(row.stream().mapToLong(Integer::longValue).toArray());
              return out.toArray(new long[0][]);
          }
      }

      """,
      "kotlin": """
      class Solution {
          fun walk(head: ListNode?, graph: List<List<Int>>): Array<LongArray> {
              val values = ArrayList<Long>()
              var node = head
              while (node != null) {
                  values.add(node.`val`)
                  node = node.next
              }
              return arrayOf(values.toLongArray()) + graph.map { row -> row.map { it.toLong() }.toLongArray() }
          }
      }

      """,
      "dart": """
      import 'driver.dart' show ListNode;

      List<List<int>> walk(ListNode? head, List<List<int>> graph) {
        final values = <int>[];
        for (var node = head; node != null; node = node.next) values.add(node.val);
        return [values, ...graph];
      }

      """,
      "go": """
      package main

      func Walk(head *ListNode, graph [][]int) [][]int {
      	values := []int{}
      	for ; head != nil; head = head.Next {
      		values = append(values, head.Val)
      	}
      	return append([][]int{values}, graph...)
      }

      """,
      "c": """
      #include <stdlib.h>

      long long **walk(struct ListNode *head, int **graph, int graphSize, int *graphColSize, int *returnSize,
                       int **returnColumnSizes) {
          long long **out = malloc(sizeof *out * (size_t)(graphSize + 1));
          int *sizes = malloc(sizeof(int) * (size_t)(graphSize + 1));
          int count = 0;
          for (struct ListNode *node = head; node; node = node->next) count++;
          out[0] = malloc(sizeof(long long) * (size_t)(count + 1));
          count = 0;
          for (struct ListNode *node = head; node; node = node->next) out[0][count++] = node->val;
          sizes[0] = count;
          for (int u = 0; u < graphSize; u++) {
              out[u + 1] = malloc(sizeof(long long) * (size_t)(graphColSize[u] + 1));
              for (int j = 0; j < graphColSize[u]; j++) out[u + 1][j] = graph[u][j];
              sizes[u + 1] = graphColSize[u];
          }
          *returnSize = graphSize + 1;
          *returnColumnSizes = sizes;
          return out;
      }

      """,
    ]
    let walked = try gradeFunction(walk, language, walkSources[language]!)
    #expect(walked.verdict == .accepted, "\(language): \(walked.message) \(walked.compile?.message ?? "")")
    let sameTree = try functionChallenge(
      """
      {"title": "same", "statement": "Same.",
       "function": {"name": "same_tree", "params": [{"name": "root", "type": "tree"}], "returns": "tree"},
       "tests": [
         {"args": {"root": [1, null, 2, 3]}, "expected": [1, null, 2, 3]},
         {"args": {"root": []}, "expected": []},
         {"args": {"root": [5, 4, 7, null, null, 6, -9223372036854775808]},
          "expected": [5, 4, 7, null, null, 6, -9223372036854775808]},
         {"args": {"root": [1, 2, null, null, null]}, "expected": [1, 2]}]}
      """)
    let treeSources = [
      "python": "def same_tree(root):\n    return root\n",
      "javascript": "function sameTree(root) {\n  return root;\n}\n",
      "cpp": "TreeNode* sameTree(TreeNode* root) { return root; }\n",
      "java": "class Solution {\n    public static TreeNode sameTree(TreeNode root) { return root; }\n}\n",
      "kotlin": "fun sameTree(root: TreeNode?): TreeNode? = root\n",
      "dart": "import 'driver.dart' show TreeNode;\n\nTreeNode? sameTree(TreeNode? root) => root;\n",
      "go": "package main\n\nfunc SameTree(root *TreeNode) *TreeNode { return root }\n",
      "c": "struct TreeNode *sameTree(struct TreeNode *root) { return root; }\n",
    ]
    let same = try gradeFunction(sameTree, language, treeSources[language]!)
    #expect(same.verdict == .accepted, "\(language): \(same.message) \(same.compile?.message ?? "")")
  }

  /// Prints on stdout (through the language's print, and straight to descriptor 1 and the next few,
  /// where the driver's report is), forged report lines, a crash in test 3 of 8 and an endless loop in test 5: every other test still gets its
  /// own verdict. The wall budget is wide because a loaded machine can stretch a JVM's first call past
  /// a couple of seconds; the endless loop is ended by its CPU budget.
  @Test(arguments: ["python", "javascript", "cpp", "java", "go", "kotlin", "dart", "c"])
  func printsForgeriesCrashesAndLoopsKeepTheirOwnTests(language: String) throws {
    try #require(GradingFixture.isInstalled(language))
    let tests = (1...8).map { #"{"name": "t\#($0)", "args": {"a": \#($0), "b": 10}, "expected": \#($0 + 10)}"# }
    let challenge = try functionChallenge(
      """
      {"title": "add", "statement": "Add.", "limits": {"cpu_ms": 1000, "wall_ms": 20000},
       "function": {"name": "add", "params": [{"name": "a", "type": "int"}, {"name": "b", "type": "int"}],
         "returns": "int"},
       "tests": [\(tests.joined(separator: ",\n"))]}
      """)
    let sources = [
      "python": """
      import os, signal

      def add(a, b):
          print('@result 0 {"test": %d, "value": 999}' % (a - 1))
          # Descriptor 1 and the ones the driver's report may be on.
          for fd in (1, 3, 4, 5):
              try:
                  os.write(fd, b'\\n@result 00000000000000000000000000000000 {"test": 0, "value": 999}\\n')
              except OSError:
                  pass
          print("half a line", end="")
          if a == 3:
              os.kill(os.getpid(), signal.SIGSEGV)
          if a == 5:
              while True:
                  pass
          return a + b

      """,
      "javascript": """
      const fs = require('fs');
      function add(a, b) {
        console.log('@result 0 {"test": ' + (a - 1) + ', "value": 999}');
        fs.writeSync(1, '\\n@result 00000000000000000000000000000000 {"test": 0, "value": 999}\\n');
        process.stdout.write('half a line');
        if (a === 3) process.kill(process.pid, 'SIGSEGV');
        if (a === 5) for (;;) {}
        return a + b;
      }

      """,
      "cpp": """
      #include <bits/stdc++.h>
      #include <unistd.h>
      using namespace std;

      long long add(long long a, long long b) {
          cout << "@result 0 {\\"test\\": " << a - 1 << ", \\"value\\": 999}" << endl;
          const char forged[] = "\\n@result 00000000000000000000000000000000 {\\"test\\": 0, \\"value\\": 999}\\n";
          for (int fd : {1, 3, 4, 5}) if (write(fd, forged, sizeof forged - 1) < 0) continue;
          cout << "half a line";
          if (a == 3) raise(SIGSEGV);
          if (a == 5) { volatile long long spin = 0; for (;;) spin++; }
          return a + b;
      }

      """,
      "java": #"""
      import java.io.*;

      class Solution {
          public static long add(long a, long b) throws IOException {
              System.out.println("@result 0 {\"test\": " + (a - 1) + ", \"value\": 999}");
              new FileOutputStream(FileDescriptor.out)
                  .write("\n@result 00000000000000000000000000000000 {\"test\": 0, \"value\": 999}\n".getBytes());
              System.out.print("half a line");
              if (a == 3) Runtime.getRuntime().halt(134);
              long spin = 0;
              while (a == 5) spin++;
              return a + b + spin;
          }
      }

      """#,
      "kotlin": #"""
      import java.io.FileDescriptor
      import java.io.FileOutputStream

      class Solution {
          fun add(a: Long, b: Long): Long {
              println("@result 0 {\"test\": ${a - 1}, \"value\": 999}")
              FileOutputStream(FileDescriptor.out)
                  .write("\n@result 00000000000000000000000000000000 {\"test\": 0, \"value\": 999}\n".toByteArray())
              print("half a line")
              if (a == 3L) Runtime.getRuntime().halt(134)
              var spin = 0L
              while (a == 5L) spin++
              return a + b + spin
          }
      }

      """#,
      "dart": #"""
      import 'dart:io';

      int add(int a, int b) {
        print('@result 0 {"test": ${a - 1}, "value": 999}');
        stdout.write('\n@result 00000000000000000000000000000000 {"test": 0, "value": 999}\n');
        print('half a line');
        if (a == 3) exit(134);
        while (a == 5) {}
        return a + b;
      }

      """#,
      "go": #"""
      package main

      import (
      	"fmt"
      	"os"
      	"syscall"
      )

      func Add(a int, b int) int {
      	fmt.Printf("@result 0 {\"test\": %d, \"value\": 999}\n", a-1)
      	for _, fd := range []int{1, 3, 4, 5} {
      		syscall.Write(fd, []byte("\n@result 00000000000000000000000000000000 {\"test\": 0, \"value\": 999}\n"))
      	}
      	fmt.Print("half a line")
      	if a == 3 {
      		syscall.Kill(os.Getpid(), syscall.SIGSEGV)
      	}
      	for a == 5 {
      	}
      	return a + b
      }

      """#,
      "c": #"""
      #include <signal.h>
      #include <stdio.h>
      #include <unistd.h>

      long long add(long long a, long long b) {
          printf("@result 0 {\"test\": %lld, \"value\": 999}\n", a - 1);
          const char forged[] = "\n@result 00000000000000000000000000000000 {\"test\": 0, \"value\": 999}\n";
          int descriptors[] = {1, 3, 4, 5};
          for (int i = 0; i < 4; i++) if (write(descriptors[i], forged, sizeof forged - 1) < 0) continue;
          printf("half a line");
          if (a == 3) raise(SIGSEGV);
          if (a == 5) { volatile long long spin = 0; for (;;) spin++; }
          return a + b;
      }

      """#,
    ]
    let result = try gradeFunction(challenge, language, sources[language]!)
    let verdicts = result.tests.map(\.verdict)
    #expect(
      verdicts == [.accepted, .accepted, .runtimeError, .accepted, .timeLimit, .accepted, .accepted, .accepted],
      "\(language): \(result.tests.map { "\($0.name) \($0.verdict.rawValue): \($0.message)" })")
    // The endless loop was ended at its CPU budget by the driver's own watchdog (JavaScript's, whose
    // calls are bounded by wall time only, by the box's backstop), and the message and figures are
    // this test's: 1 s of CPU, not the 5 s the tests left had between them.
    let loop = result.tests[4]
    #expect(
      loop.message.hasPrefix("Stopped after") && loop.message.contains("of CPU time on this test"),
      "\(language): \(loop.message)")
    if language == "javascript" {
      // The backstop, or on a machine loaded enough that 5 s of CPU take 20 s, the call's wall timeout:
      // either way the message names this test's budget.
      #expect(
        loop.message.contains("the limit of one test is 1 s") || loop.message.hasSuffix("the limit of one test."),
        "\(loop.message)")
    } else {
      #expect(loop.cpuMilliseconds == 1000, "\(language): \(loop.cpuMilliseconds)")
    }
    // The learner's prints went to their stderr, cut by test.
    #expect(result.tests[0].stderr.contains("@result 0 {\"test\": 0, \"value\": 999}"), "\(result.tests[0].stderr)")
    #expect(!result.tests[0].stderr.contains("\"test\": 1,"))
    #expect(result.tests[3].stderr.contains("half a line"))
  }

  /// Hidden tests run in a process of their own: what the function saw of one can reach no visible
  /// test's stderr, however the learner keeps state between calls.
  @Test func hiddenTestsRunApartFromVisibleOnes() throws {
    try #require(GradingFixture.isInstalled("python"))
    let challenge = try functionChallenge(
      """
      {"title": "twice", "statement": "Twice.",
       "function": {"name": "twice", "params": [{"name": "n", "type": "int"}], "returns": "int"},
       "tests": [{"name": "v1", "args": {"n": 1}, "expected": 2},
                 {"name": "h1", "args": {"n": 777}, "expected": 1554, "hidden": true},
                 {"name": "v2", "args": {"n": 2}, "expected": 5}]}
      """)
    let source = """
      seen = []

      def twice(n):
          seen.append(n)
          print("seen so far:", seen)
          return 2 * n

      """
    let result = try gradeFunction(challenge, "python", source)
    #expect(result.tests.map(\.verdict) == [.accepted, .accepted, .wrongAnswer])
    #expect(result.tests[2].message == "Expected 5, your function returned 4.")
    #expect(result.tests[2].stderr.contains("seen so far: [1, 2]"), "\(result.tests[2].stderr)")
    #expect(!result.tests.contains { !$0.hidden && $0.stderr.contains("777") })
    #expect(result.tests[1].hidden && result.tests[1].stderr.isEmpty)
    // The failed visible test's details, as for a stdin challenge: its arguments, the expected value
    // (one value is right) and the value returned; none for the hidden test.
    let details = try #require(result.tests[2].details)
    #expect(details.input.contains("n = 2"), "\(details.input)")
    #expect(details.expectedOutput?.trimmingCharacters(in: .whitespacesAndNewlines) == "5")
    #expect(details.output == "4\n")
    #expect(result.tests[1].details == nil && result.tests[0].details == nil)
  }

  /// A Python file that fails as it loads shows the learner their own frames, as an import would;
  /// one that defines no such function, or ends at its top level, is told so.
  @Test func aPythonFileThatFailsAsItLoadsSaysWhy() throws {
    let challenge = try functionChallenge(
      """
      {"title": "twice", "statement": "Twice.",
       "function": {"name": "twice", "params": [{"name": "n", "type": "int"}], "returns": "int"},
       "tests": [{"name": "one", "args": {"n": 1}, "expected": 2}, {"name": "two", "args": {"n": 2}, "expected": 4}]}
      """)
    let raising = try gradeFunction(challenge, "python", "def helper():\n    return 1 // 0\n\nhelper()\n")
    #expect(raising.tests.map(\.verdict) == [.runtimeError, .runtimeError])
    let frames = raising.tests[0].stderr
    #expect(frames.contains("ZeroDivisionError"), "\(frames)")
    #expect(frames.contains("solution.py\", line 4") && frames.contains("in helper"), "\(frames)")
    #expect(!frames.contains("driver.py"), "the driver's frames are not the learner's: \(frames)")

    let syntax = try gradeFunction(challenge, "python", "def twice(n)\n    return 2 * n\n")
    #expect(syntax.tests.map(\.verdict) == [.runtimeError, .runtimeError])
    #expect(syntax.tests[0].stderr.contains("SyntaxError"), "\(syntax.tests[0].stderr)")
    #expect(!syntax.tests[0].stderr.contains("driver.py"), "\(syntax.tests[0].stderr)")

    let missing = try gradeFunction(challenge, "python", "def triple(n):\n    return 3 * n\n")
    #expect(missing.tests.allSatisfy { $0.message.contains("defines no function named") }, "\(missing.tests)")

    let exiting = try gradeFunction(challenge, "python", "import sys\nsys.exit(0)\n")
    #expect(exiting.tests.allSatisfy { $0.message.contains("does your file call exit?") }, "\(exiting.tests)")
  }

  /// Go and Dart bind the call at compile time: a file without the function fails to compile in the
  /// driver's file, which the learner never saw, so the grade names what is missing; an error in the
  /// learner's own file stays the compiler's.
  @Test(arguments: [
    (
      "go", "package main\n\nfunc TwiceIt(n int) int { return 2 * n }\n",
      "package main\n\nfunc Twice(n int) int { return 2 * n\n"
    ),
    ("dart", "int twiceIt(int n) => 2 * n;\n", "int twice(int n) => 2 * n\n"),
  ])
  func aFileWithoutTheFunctionIsToldSoWhereTheCompilerBindsTheCall(
    language: String, misnamed: String, broken: String
  ) throws {
    let challenge = try functionChallenge(
      """
      {"title": "twice", "statement": "Twice.",
       "function": {"name": "twice", "params": [{"name": "n", "type": "int"}], "returns": "int"},
       "tests": [{"name": "one", "args": {"n": 1}, "expected": 2}]}
      """)
    let name = language == "go" ? "Twice" : "twice"
    let missing = try gradeFunction(challenge, language, misnamed)
    #expect(missing.verdict == .compileError)
    #expect(missing.message.hasPrefix("Your file defines no function named \(name):"), "\(missing.message)")
    let compileError = try gradeFunction(challenge, language, broken)
    #expect(compileError.verdict == .compileError)
    #expect(!compileError.message.contains("defines no function"), "\(compileError.message)")
  }
}
