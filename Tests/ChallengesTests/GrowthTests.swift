import Foundation
import Grading
import Runners
import Testing

@testable import Challenges

/// A sorting challenge checked by its output, whose growth section asks for n log n compare steps
/// on random input.
func growthFixture(budgetMilliseconds: Int = 30_000, limits: [String: Any]? = nil) -> ChallengeFixture {
  var growth: [String: Any] = [
    "sizes": [16, 32, 64, 128, 256, 512, 1024],
    "count": ["actions": ["compare"]],
    "budget_ms": budgetMilliseconds,
    "limits": ["output_kb": 16384],
    "cases": [["name": "random", "input": ["shape": "random", "seed": 3], "expect": ["n log n"]]],
  ]
  if let limits { growth["limits"] = limits }
  return ChallengeFixture(
    id: "sort-growth",
    description: [
      "title": "Sort, growing like n log n",
      "statement": "statement.md",
      "limits": ["cpu_ms": 5000, "wall_ms": 10000],
      "checker": ["name": "lines"],
      "tests": [["name": "sample", "stdin": "tests/sample.in", "expected_stdout": "tests/sample.out"]],
      "growth": growth,
    ],
    files: [
      "statement.md": Data("Sort, printing a compare step per comparison.\n".utf8),
      "tests/sample.in": Data("5\n5 2 4 1 3\n".utf8),
      "tests/sample.out": Data("1 2 3 4 5\n".utf8),
    ])
}

/// Merge sort that prints one compare step per comparison.
let mergeSortCounting = """
  import sys
  def merge_sort(a):
      if len(a) < 2:
          return a
      left, right = merge_sort(a[:len(a) // 2]), merge_sort(a[len(a) // 2:])
      out = []
      i = j = 0
      while i < len(left) and j < len(right):
          print('@step {"action": "compare"}')
          if left[i] <= right[j]:
              out.append(left[i]); i += 1
          else:
              out.append(right[j]); j += 1
      return out + left[i:] + right[j:]
  data = sys.stdin.read().split()
  print(*merge_sort([int(x) for x in data[1:1 + int(data[0])]]))

  """

/// Selection sort: right answers, n² compares.
let selectionSortCounting = """
  import sys
  data = sys.stdin.read().split()
  a = [int(x) for x in data[1:1 + int(data[0])]]
  lines = []
  for i in range(len(a)):
      best = i
      for j in range(i + 1, len(a)):
          lines.append('@step {"action": "compare"}')
          if a[j] < a[best]:
              best = j
      a[i], a[best] = a[best], a[i]
  print("\\n".join(lines))
  print(*a)

  """

func growthGrade(_ fixture: ChallengeFixture, _ source: String) throws -> GradeResult {
  try grade(fixture, "python", source)
}

@Suite struct GrowthLoaderTests {
  @Test func aGrowthSectionLoads() throws {
    var fixture = growthFixture()
    var growth = fixture["growth"] as! [String: Any]
    growth["cases"] = [
      ["name": "random", "input": ["shape": "random"], "expect": ["n log n", "n"]],
      ["name": "few", "input": ["shape": "few_distinct", "distinct": 3, "seed": 9], "expect": ["n^2"]],
      ["name": "graph", "input": ["shape": "graph", "edges_per_node": 3], "expect": ["n + m"]],
      ["name": "made", "input": ["program": ["language": "python", "source": "gen.py"]], "expect": ["n + m"]],
    ]
    growth["points"] = 3
    growth["slow_solution"] = ["case": "random", "class": "n^2"]
    fixture["growth"] = growth
    fixture.files["gen.py"] = Data("import sys\nprint(sys.argv[1])\n".utf8)
    fixture.files["solutions/slow/main.py"] = Data(selectionSortCounting.utf8)
    let challenge = try fixture.load().get()
    let section = try #require(challenge.growth)
    #expect(section.sizes == [16, 32, 64, 128, 256, 512, 1024])
    #expect(section.count == .actions(["compare"]))
    #expect(section.budgetMilliseconds == 30_000 && section.points == 3)
    #expect(section.limits.outputKilobytes == 16384)
    #expect(section.cases.map(\.name) == ["random", "few", "graph", "made"])
    #expect(section.cases[0].allowed == [.linearithmic, .linear] && section.cases[0].seed == 1)
    #expect(section.cases[1].seed == 9)
    guard case .shape(.fewDistinct(distinct: 3)) = section.cases[1].input else {
      Issue.record("few_distinct was read as \(section.cases[1].input)")
      return
    }
    #expect(section.cases[2].classes.contains(.nodesPlusEdges))
    #expect(!section.cases[0].classes.contains(.nodesPlusEdges))
    guard case .program(let generator) = section.cases[3].input else {
      Issue.record("the generator program was not read")
      return
    }
    #expect(generator.source.name == "gen.py" && generator.language == "python")
    #expect(section.slowSolution == SlowSolutionExpectation(caseName: "random", growthClass: .quadratic))
    #expect(challenge.solutions.map(\.kind) == [.slow])
  }

  static let broken: [(String, @Sendable (inout [String: Any]) -> Void)] = [
    ("growth.sizes: must be 3 to 20 strictly increasing whole numbers", { $0["sizes"] = [16, 8, 32] }),
    ("growth.sizes: must be 3 to 20", { $0["sizes"] = [16, 32] }),
    ("growth.sizes: is required", { $0["sizes"] = nil }),
    ("growth.count: must be \"steps\", \"count_line\" or {\"actions\"", { $0["count"] = "everything" }),
    ("growth.count.actions: must be an array of 1 to 16 action names", { $0["count"] = ["actions": []] }),
    ("growth.count.colour: unknown key", { $0["count"] = ["actions": ["compare"], "colour": 1] }),
    ("growth.budget_ms: must be a whole number of milliseconds from 1000 to 120000", { $0["budget_ms"] = 500_000 }),
    (
      "growth.limits.output_kb: 0 is out of range: expected a whole number from 1 to 999999999999",
      { $0["limits"] = ["output_kb": 0] }
    ),
    ("growth.points: must be a positive number", { $0["points"] = 0 }),
    ("growth.colour: unknown key; known keys: sizes, count", { $0["colour"] = "red" }),
    ("growth.cases: must be an array of 1 to 8 cases", { $0["cases"] = [] }),
    (
      "growth.cases[0].expect[0]: unknown class \"n^4\"; known classes: \"1\", \"log n\"",
      { $0["cases"] = [["name": "a", "input": ["shape": "random"], "expect": ["n^4"]]] }
    ),
    (
      "growth.cases[0].expect: \"n + m\" is only for graph inputs",
      { $0["cases"] = [["name": "a", "input": ["shape": "sorted"], "expect": ["n + m"]]] }
    ),
    (
      "growth.cases[0].input.shape: unknown shape \"zigzag\"; known shapes: random, sorted",
      { $0["cases"] = [["name": "a", "input": ["shape": "zigzag"], "expect": ["n"]]] }
    ),
    (
      "growth.cases[0].input.distinct: is not an option of shape \"sorted\"",
      { $0["cases"] = [["name": "a", "input": ["shape": "sorted", "distinct": 2], "expect": ["n"]]] }
    ),
    (
      "growth.cases[0].input.target: must be \"present\" or \"absent\"",
      { $0["cases"] = [["name": "a", "input": ["shape": "search", "target": "maybe"], "expect": ["log n"]]] }
    ),
    (
      "growth.cases[0].input.edges: must be one whole number of edges per size (7 of them)",
      { $0["cases"] = [["name": "a", "input": ["shape": "graph", "edges": [1, 2]], "expect": ["n + m"]]] }
    ),
    (
      "growth.cases[1].name: another case is named \"a\"",
      {
        $0["cases"] = [
          ["name": "a", "input": ["shape": "random"], "expect": ["n"]],
          ["name": "a", "input": ["shape": "sorted"], "expect": ["n"]],
        ]
      }
    ),
    (
      "growth.cases[0].input.program.source: gen.cpp: no such file",
      {
        $0["cases"] = [
          ["name": "a", "input": ["program": ["language": "cpp", "source": "gen.cpp"]], "expect": ["n"]]
        ]
      }
    ),
    (
      "growth.slow_solution.class: \"n log n\" is allowed by case random",
      { $0["slow_solution"] = ["case": "random", "class": "n log n"] }
    ),
    (
      "growth.slow_solution.case: must name one of the growth cases",
      { $0["slow_solution"] = ["case": "x", "class": "n"] }
    ),
  ]

  @Test(arguments: broken.indices)
  func aBrokenSectionNamesItsField(_ index: Int) throws {
    let (problem, breakIt) = Self.broken[index]
    var fixture = growthFixture()
    var growth = fixture["growth"] as! [String: Any]
    breakIt(&growth)
    fixture["growth"] = growth
    let problems = try fixture.load().problems
    #expect(problems.contains { $0.contains("challenge sort-growth: " + problem) }, "\(problems)")
  }

  @Test func slowSolutionsNeedAnExpectation() throws {
    var fixture = growthFixture()
    fixture.files["solutions/slow/main.py"] = Data(selectionSortCounting.utf8)
    #expect(try fixture.load().problems.contains { $0.contains("growth.slow_solution: is required") })
  }

  @Test func inlineGeneratorsAreContents() throws {
    var description = growthFixture().description
    description["statement"] = "Sort."
    description["tests"] = [["name": "sample", "stdin": "2\n2 1\n", "expected_stdout": "1 2\n"]]
    var growth = description["growth"] as! [String: Any]
    growth["cases"] = [
      ["name": "made", "input": ["program": ["language": "python", "source": "print(3)\n"]], "expect": ["n"]]
    ]
    description["growth"] = growth
    let data = try JSONSerialization.data(withJSONObject: description)
    let challenge = try ChallengeLoader.decodeInline(data).get()
    guard case .program(let generator)? = challenge.growth?.cases.first?.input else {
      Issue.record("no generator")
      return
    }
    #expect(String(decoding: generator.source.contents, as: UTF8.self) == "print(3)\n")
  }
}

@Suite(.serialized, .enabled(if: GradingFixture.isInstalled("python"), "needs the python toolchain"))
struct GrowthGraderTests {
  @Test func anNLogNSortIsAccepted() throws {
    let result = try growthGrade(growthFixture(), mergeSortCounting)
    #expect(result.verdict == .accepted, "\(result.message)")
    let growth = try #require(result.growth)
    #expect(growth.verdict == .accepted && growth.score == 1)
    let random = try #require(growth.cases.first)
    #expect(random.growthClass == .linearithmic, "\(random.message)")
    #expect(random.points.map(\.n) == [16, 32, 64, 128, 256, 512, 1024])
    #expect(random.points.allSatisfy { $0.verdict == .accepted && ($0.count ?? 0) > 0 })
    #expect(result.score == 1)
  }

  @Test func aQuadraticSortFailsNamingBothClassesAndTwoPoints() throws {
    let result = try growthGrade(growthFixture(), selectionSortCounting)
    #expect(result.tests.map(\.verdict) == [.accepted])
    #expect(result.verdict == .wrongAnswer)
    let random = try #require(result.growth?.cases.first)
    #expect(random.growthClass == .quadratic)
    // Selection sort makes n(n-1)/2 compares whatever the input.
    #expect(
      result.message
        == "Growth: Your program made 130,816 compare steps for n = 512 and 523,776 for n = 1024: "
        + "that grows like O(n^2), and this challenge asks for O(n log n).")
    #expect(result.score == 0.5, "the test's point, not the growth's")
  }

  @Test func aSortTooSlowToFinishTheLargestSizesIsStillNamed() throws {
    // 4 MiB holds the compare steps up to n = 512 but not n = 1024's 523,776 lines.
    let result = try growthGrade(growthFixture(limits: ["output_kb": 4096]), selectionSortCounting)
    let random = try #require(result.growth?.cases.first)
    #expect(random.points.last?.verdict == .outputLimit)
    #expect(random.verdict == .wrongAnswer)
    #expect(random.growthClass == .quadratic)
    #expect(
      random.message.hasPrefix(
        "Your program made 32,640 compare steps for n = 256 and 130,816 for n = 512: that grows like O(n^2)"),
      "\(random.message)")
    #expect(
      random.message.hasSuffix(
        "At n = 1024: Stopped after printing more than 4 MiB on one stream: is there an endless loop around a print?"))
  }

  @Test func countLinesAreCountedAndHiddenFromTheChecker() throws {
    var fixture = growthFixture()
    var growth = fixture["growth"] as! [String: Any]
    growth["count"] = "count_line"
    growth["cases"] = [["name": "sorted", "input": ["shape": "sorted"], "expect": ["n"]]]
    fixture["growth"] = growth
    let linear = """
      import sys
      data = sys.stdin.read().split()
      a = sorted(int(x) for x in data[1:1 + int(data[0])])
      print("@count", 3 * len(a) + 2)
      print(*a)

      """
    let result = try growthGrade(fixture, linear)
    #expect(result.verdict == .accepted, "\(result.message)")
    #expect(result.growth?.cases.first?.points.first?.count == 50)
    #expect(result.growth?.cases.first?.growthClass == .linear)
  }

  @Test func aMillionStepLinesEndWithAClearVerdictWithinTheBudget() throws {
    let flood = """
      import sys
      sys.stdout.write('@step {"action": "compare"}\\n' * 1000000)
      data = sys.stdin.read().split()
      print(*sorted(int(x) for x in data[1:1 + int(data[0])]))

      """
    let result = try growthGrade(growthFixture(budgetMilliseconds: 10_000), flood)
    let growth = try #require(result.growth)
    #expect(result.verdict == .outputLimit, "\(result.message)")
    #expect(growth.verdict == .outputLimit)
    #expect(growth.message.hasPrefix("Growth: At n = 16: Stopped after printing more than 16 MiB"), "\(growth.message)")
    #expect(growth.cases.first?.points.allSatisfy { $0.verdict == .outputLimit } == true)
    #expect(growth.wallMilliseconds < 10_000 + 5_000, "the budget bounds the growth runs")
  }

  @Test func aProgramThatHangsAtTheLargestSizeEndsWithinTheBudget() throws {
    let hangs = mergeSortCounting.replacingOccurrences(
      of: "data = sys.stdin.read().split()\n",
      with: "data = sys.stdin.read().split()\nif data[0] == '1024':\n    import time; time.sleep(600)\n")
    let fixture = growthFixture(budgetMilliseconds: 12_000, limits: ["output_kb": 4096, "wall_ms": 60_000])
    let result = try growthGrade(fixture, hangs)
    let growth = try #require(result.growth)
    #expect(result.verdict == .timeLimit)
    #expect(
      result.message == "Growth: At n = 1024 the program was still running when the growth budget of 12 s ran out.")
    let points = try #require(growth.cases.first?.points)
    #expect(points.dropLast().allSatisfy { $0.verdict == .accepted }, "the smaller sizes were still counted")
    #expect(growth.cases.first?.growthClass == .linearithmic, "fitted on the sizes that ran")
    #expect(growth.wallMilliseconds < 12_000 + 5_000, "the budget bounds the growth runs")
  }

  @Test func aGeneratorProgramMakesTheInputs() throws {
    var fixture = growthFixture()
    var growth = fixture["growth"] as! [String: Any]
    growth["sizes"] = [16, 64, 256]
    growth["cases"] = [
      ["name": "made", "input": ["program": ["language": "python", "source": "gen.py"], "seed": 5], "expect": ["n"]]
    ]
    growth["count"] = "steps"
    fixture["growth"] = growth
    // Reversed input, made from the arguments `N SEED`.
    fixture.files["gen.py"] = Data("import sys\nn = int(sys.argv[1])\nprint(n, *range(n, 0, -1))\n".utf8)
    let linear = """
      import sys
      data = sys.stdin.read().split()
      a = [int(x) for x in data[1:1 + int(data[0])]]
      for _ in a: print("@step {}")
      print(*sorted(a))

      """
    let result = try growthGrade(fixture, linear)
    #expect(result.verdict == .accepted, "\(result.message)")
    #expect(result.growth?.cases.first?.points.compactMap(\.count) == [16, 64, 256])
  }

  @Test func aSlowSolutionIsVerifiedByItsGrowth() throws {
    var fixture = growthFixture()
    var growth = fixture["growth"] as! [String: Any]
    growth["slow_solution"] = ["case": "random", "class": "n^2"]
    fixture["growth"] = growth
    fixture.files["solutions/slow/main.py"] = Data(selectionSortCounting.utf8)
    fixture.files["solutions/correct/main.py"] = Data(mergeSortCounting.utf8)
    let challenge = try fixture.load().get()
    for solution in challenge.solutions {
      let verification = try GradingFixture.grader.verify(solution, of: challenge)
      #expect(verification.problem == nil, "\(solution.kind): \(verification.problem ?? "")")
    }
    // The merge sort as a slow solution is caught.
    let impostor = ChallengeSolution(
      kind: .slow, language: "python", file: SourceFile(name: "main.py", contents: Data(mergeSortCounting.utf8)))
    let caught = try GradingFixture.grader.verify(impostor, of: challenge)
    #expect(caught.problem?.hasPrefix("expected wrong_answer growing like n^2 on case random, got accepted") == true)
  }

  /// A sort whose counts are checked against the box's CPU time: at 2048 and 6144 a Python program's
  /// quadratic work takes about 0.1 and 0.8 s, well above the 50 ms floor, and the last size triples,
  /// so n^2 grows x9 where n grows x3 (doubling, x4 against x2, is nearer the x1.5 margin than a test
  /// on a shared machine should be).
  func timedFixture(expect: [String], count: Any) -> ChallengeFixture {
    var fixture = growthFixture(budgetMilliseconds: 90_000)
    var growth = fixture["growth"] as! [String: Any]
    growth["sizes"] = [64, 128, 256, 512, 1024, 2048, 6144]
    growth["count"] = count
    growth["cases"] = [["name": "random", "input": ["shape": "random", "seed": 3], "expect": expect]]
    fixture["growth"] = growth
    return fixture
  }

  /// Selection sort, which compares n(n-1)/2 times whatever the input; it reports `perItem` once per
  /// item and, with `countLine`, its real count on an @count line.
  func selectionSort(perItem counted: String, countLine: Bool) -> String {
    """
    import sys
    data = sys.stdin.read().split()
    a = [int(x) for x in data[1:1 + int(data[0])]]
    compares = 0
    for i in range(len(a)):
        \(counted)
        best = i
        for j in range(i + 1, len(a)):
            compares += 1
            if a[j] < a[best]:
                best = j
        a[i], a[best] = a[best], a[i]
    print(*a)
    \(countLine ? "print('@count', compares)" : "")

    """
  }

  /// An O(n^2) sort that prints one compare step per item (n of them) passes the count fit as O(n); its
  /// CPU time gives it away.
  @Test func aSortThatCountsNButWorksNSquaredFailsOnItsCPUTime() throws {
    let forged = selectionSort(perItem: #"print('@step {"action": "compare"}')"#, countLine: false)
    let result = try growthGrade(timedFixture(expect: ["n"], count: ["actions": ["compare"]]), forged)
    #expect(result.tests.map(\.verdict) == [.accepted])
    let random = try #require(result.growth?.cases.first)
    #expect(random.points.map(\.count) == [64, 128, 256, 512, 1024, 2048, 6144])
    // The counts fit O(n); the verdict is the CPU time's.
    #expect(random.growthClass == .linear)
    #expect(random.verdict == .wrongAnswer, "\(random.message)")
    // The class the CPU time is named by is measured: a loaded machine can squeeze x9 down to a class
    // between; any class above the counts' is the finding.
    let named = ["O(n^2)", "O(n log n)"].map {
      "Your program's compare steps grow like O(n), but the CPU time it took grew like \($0) between n = 2048 "
        + "and n = 6144: from "
    }
    #expect(named.contains { random.message.hasPrefix($0) }, "\(random.message)")
    #expect(random.message.hasSuffix("It does work that its counts do not show."))
    #expect(result.verdict == .wrongAnswer && result.message == "Growth: " + random.message)
    // The CPU times it was judged on are in the grade.
    #expect(random.points.allSatisfy { $0.cpuMilliseconds > 0 })
    let object = GrowthEncoder.growthObject(try #require(result.growth))
    #expect((object["points"] as? [[String: Any]])?.last?["cpu_ms"] as? UInt64 == random.points.last?.cpuMilliseconds)
  }

  /// The same sort reporting its real count, n(n-1)/2 on its @count line: its time grows as its
  /// counts do, and O(n^2) is accepted where it is asked for.
  @Test func anHonestQuadraticSortWithMeasurableTimeIsAccepted() throws {
    let honest = selectionSort(perItem: "pass", countLine: true)
    let result = try growthGrade(timedFixture(expect: ["n^2"], count: "count_line"), honest)
    let random = try #require(result.growth?.cases.first)
    #expect(random.verdict == .accepted, "\(random.message)")
    #expect(random.growthClass == .quadratic)
    #expect(random.message.hasSuffix("that grows like O(n^2)."), "\(random.message)")
    // Judged, not left out: the work at n = 2048 is above the floor.
    let work = random.points[5].cpuMilliseconds - random.points[0].cpuMilliseconds
    #expect(Double(work) >= GrowthTimeCheck.floorMilliseconds, "\(random.points.map(\.cpuMilliseconds))")
  }

  /// Merge sort counting its compares on its @count line, at sizes where its time is measurable.
  @Test func anHonestNLogNSortWithMeasurableTimeIsAccepted() throws {
    var fixture = timedFixture(expect: ["n log n"], count: "count_line")
    var growth = fixture["growth"] as! [String: Any]
    growth["sizes"] = [256, 1024, 4096, 16384, 65536, 131072]
    fixture["growth"] = growth
    let counting =
      mergeSortCounting.replacingOccurrences(
        of: #"print('@step {"action": "compare"}')"#, with: "counted[0] += 1"
      ).replacingOccurrences(
        of: "data = sys.stdin.read().split()", with: "counted = [0]\ndata = sys.stdin.read().split()")
      + "print('@count', counted[0])\n"
    #expect(counting.contains("counted[0] += 1") && counting.contains("@count"))
    let result = try growthGrade(fixture, counting)
    let random = try #require(result.growth?.cases.first)
    #expect(random.verdict == .accepted, "\(random.message)")
    #expect(random.growthClass == .linearithmic)
    let work = random.points[4].cpuMilliseconds - random.points[0].cpuMilliseconds
    #expect(Double(work) >= GrowthTimeCheck.floorMilliseconds, "\(random.points.map(\.cpuMilliseconds))")
  }
}
