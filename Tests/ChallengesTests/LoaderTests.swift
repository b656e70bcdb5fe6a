import Foundation
import Grading
import Testing
import Wire

@testable import Challenges

/// One broken challenge: how to break the valid insertion-sort fixture, and the problem expected.
struct BrokenCase: Sendable, CustomTestStringConvertible {
  var rule: String
  var breakIt: @Sendable (inout ChallengeFixture) -> Void
  /// A substring of one problem's description (`challenge sample: field: message`).
  var problem: String

  init(_ rule: String, _ problem: String, _ breakIt: @escaping @Sendable (inout ChallengeFixture) -> Void) {
    self.rule = rule
    self.problem = problem
    self.breakIt = breakIt
  }

  var testDescription: String { rule }
}

private let steps = "@step {\"action\": \"done\", \"active\": [], \"array\": [1], \"caption\": \"Done.\"}\n"

let brokenCases: [BrokenCase] = [
  BrokenCase("unknown top-level key", "challenge sample: limts: unknown key; known keys: title") { $0["limts"] = [:] },
  BrokenCase("unknown key in a test", "tests[1].stdout: unknown key") { $0.setTest(1, "stdout", "x") },
  BrokenCase("unknown limit", "limits.cpu: unknown key") { $0["limits"] = ["cpu": 1] },
  BrokenCase("bad id", "challenge Bad_Id: the directory name is not a valid challenge id") { $0.id = "Bad_Id" },
  BrokenCase("invalid JSON", "not valid JSON: ") { $0.rawDescription = Data("{\"title\": ".utf8) },
  BrokenCase("not an object", "expected a JSON object at the top, got an array") {
    $0.rawDescription = Data("[1]".utf8)
  },
  BrokenCase("missing title", "challenge sample: title: is required") { $0["title"] = nil },
  // The one strict reader: a key given twice is refused, where a decoder would keep one of the two.
  BrokenCase("duplicate key", "challenge sample: title: is given twice; give each field once") {
    $0.rawDescription = Data(#"{"title": "A", "title": "B", "tests": []}"#.utf8)
  },
  BrokenCase("null field", "challenge sample: tags: must not be null; leave the field out instead") {
    $0.rawDescription = Data(#"{"title": "A", "tags": null}"#.utf8)
  },
  BrokenCase("empty title", "title: must be a non-empty string") { $0["title"] = "" },
  BrokenCase("tags not strings", "tags[1]: must be a non-empty string") { $0["tags"] = ["a", 3] },
  // A topic is one of a fixed vocabulary: the page and the CLI group the catalogue under it.
  BrokenCase("unknown topic", #"topic: "Sorting algorithms" is not a topic. A topic is one of "Arrays and hashing""#) {
    $0["topic"] = "Sorting algorithms"
  },
  BrokenCase("topic in another case", #"topic: "sorting" is not a topic; did you mean "Sorting"?"#) {
    $0["topic"] = "sorting"
  },
  BrokenCase("Other is no topic", #"leave it out to list the challenge under "Other""#) { $0["topic"] = "Other" },
  BrokenCase("topic not a string", "topic: must be a non-empty string") { $0["topic"] = ["Sorting"] },
  BrokenCase("missing statement file", "statement: statement.md: no such file") { $0.files["statement.md"] = nil },
  BrokenCase("missing test file", "challenge sample: tests[1].stdin: tests/x.in: no such file") {
    $0.setTest(1, "stdin", "tests/x.in")
  },
  BrokenCase("path with ..", "tests[0].stdin: ../sample.in: the path may not contain \"..\"") {
    $0.setTest(0, "stdin", "../sample.in")
  },
  BrokenCase("absolute path", "tests[0].stdin: /etc/hostname: the path must be relative") {
    $0.setTest(0, "stdin", "/etc/hostname")
  },
  BrokenCase("symlinked file", "tests[0].stdin: tests/link.in: is a symbolic link") {
    $0.links["tests/link.in"] = "sample.in"
    $0.setTest(0, "stdin", "tests/link.in")
  },
  BrokenCase("symlinked folder", "tests[0].stdin: more: is a symbolic link") {
    $0.links["more"] = "tests"
    $0.setTest(0, "stdin", "more/sample.in")
  },
  BrokenCase("link out of the directory", "statement: statement.md: is a symbolic link") {
    $0.files["statement.md"] = nil
    $0.links["statement.md"] = "/etc/hostname"
  },
  BrokenCase("statement is a folder", "statement: statement.md: is not a regular file") {
    $0.files["statement.md"] = nil
    $0.files["statement.md/x"] = Data()
  },
  BrokenCase("statement not UTF-8", "statement: is not UTF-8 text") { $0.files["statement.md"] = Data([0xff, 0xfe]) },
  BrokenCase("oversized statement", "statement.md: is 65537 bytes, more than the 64 KiB allowed") {
    $0.files["statement.md"] = Data(count: 65537)
  },
  BrokenCase("oversized test file", "tests/sample.out: is 8388609 bytes, more than the 8 MiB allowed") {
    $0.files["tests/sample.out"] = Data(count: (8 << 20) + 1)
  },
  BrokenCase("oversized challenge.json", "challenge.json: is 70000 bytes, more than the 64 KiB allowed") {
    $0.rawDescription = Data(count: 70000)
  },
  BrokenCase("no checker", "checker: is required") { $0["checker"] = nil },
  BrokenCase("unknown checker", "checker.name: unknown checker \"regex\"; known checkers: exact") {
    $0["checker"] = ["name": "regex"]
  },
  BrokenCase(
    "unknown checker option",
    "checker.options: option colour: unknown key; known keys: fields, max_steps, max_line_bytes"
  ) {
    $0["checker"] = ["name": "steps", "options": ["fields": ["array"], "colour": "red"]]
  },
  BrokenCase("missing steps option", "checker.options: option fields") { $0["checker"] = ["name": "steps"] },
  BrokenCase("program checker, unknown language", "checker.options.language: unknown language \"cobol\"") {
    $0["checker"] = ["name": "program", "options": ["language": "cobol", "source": "statement.md"]]
  },
  BrokenCase("program checker, unknown option", "checker.options.timeout: unknown key") {
    $0["checker"] = ["name": "program", "options": ["language": "cpp", "source": "checker.cpp", "timeout": 1]]
    $0.files["checker.cpp"] = Data("int main() {}".utf8)
  },
  BrokenCase("program checker, wrong extension", "checker.cpp: the file's extension does not name the language python")
  {
    $0["checker"] = ["name": "program", "options": ["language": "python", "source": "checker.cpp"]]
    $0.files["checker.cpp"] = Data("int main() {}".utf8)
  },
  BrokenCase("output checker without steps", "output_checker: is only for the steps checker") {
    $0["checker"] = ["name": "lines"]
    $0["recorder"] = nil
  },
  BrokenCase("output checker is steps", "output_checker.name: must be one of exact") {
    $0["output_checker"] = ["name": "steps"]
  },
  BrokenCase("recorder without steps", "recorder: is only for the steps checker") {
    $0["checker"] = ["name": "lines"]
    $0["output_checker"] = nil
  },
  BrokenCase("unknown recorder", "recorder.name: unknown recorder \"heap-sort\"") {
    $0["recorder"] = ["name": "heap-sort"]
  },
  BrokenCase("directed sort", "recorder.directed: only the graph recorders") {
    $0["recorder"] = ["name": "insertion-sort", "directed": true]
  },
  BrokenCase("recorder cannot read stdin", "tests[1].stdin: the insertion-sort recorder cannot read it: the input ends")
  {
    $0.files["tests/reversed.in"] = Data("5\n1 2\n".utf8)
  },
  BrokenCase("recorder gives too many steps", "gives 9901 steps, more than the steps checker's max_steps (100)") {
    $0["checker"] = ["name": "steps", "options": ["fields": ["array"], "max_steps": 100]]
    $0.files["tests/reversed.in"] = Data(("100\n" + (1...100).reversed().map(String.init).joined(separator: " ")).utf8)
  },
  BrokenCase("field no step has", "checker.options.fields: the checker compares field \"arary\", which no step from") {
    $0["checker"] = ["name": "steps", "options": ["fields": ["arary"]]]
  },
  BrokenCase(
    "expected steps unparsable", "tests[0].expected_steps: line 2: \"@step \" must be followed by one JSON object"
  ) {
    $0.files["tests/sample.steps"] = Data((steps + "@step [1]\n").utf8)
    $0.setTest(0, "expected_steps", "tests/sample.steps")
  },
  BrokenCase("expected steps without caption", "tests[0].expected_steps: step 1 has no caption") {
    $0.files["tests/sample.steps"] = Data("@step {\"action\": \"done\", \"active\": [], \"array\": [1]}\n".utf8)
    $0.setTest(0, "expected_steps", "tests/sample.steps")
  },
  BrokenCase("expected steps with other lines", "line 2 is not a step line") {
    $0.files["tests/sample.steps"] = Data((steps + "hello\n").utf8)
    $0.setTest(0, "expected_steps", "tests/sample.steps")
  },
  BrokenCase("expected steps with a lines checker", "tests[0].expected_steps: is only for the steps checker") {
    $0["checker"] = ["name": "lines"]
    $0["output_checker"] = nil
    $0["recorder"] = nil
    $0.files["tests/sample.steps"] = Data(steps.utf8)
    $0.setTest(0, "expected_steps", "tests/sample.steps")
  },
  BrokenCase("steps without recorder or file", "tests[0]: expected_steps is required") { $0["recorder"] = nil },
  BrokenCase("expected_stdout missing", "tests[1]: expected_stdout is required: the output checker compares output") {
    $0.setTest(1, "expected_stdout", nil)
  },
  BrokenCase("expected_stdout unused", "tests[0].expected_stdout: is not used") { $0["output_checker"] = nil },
  BrokenCase("no tests", "tests: must be an array of 1 to 100 tests") { $0["tests"] = [] },
  BrokenCase("too many tests", "tests: must be an array of 1 to 100 tests") {
    $0["tests"] = Array(repeating: ["stdin": "tests/sample.in"], count: 101)
  },
  BrokenCase("duplicate test names", "tests[1].name: another test is already named \"sample\"") {
    $0.setTest(1, "name", "sample")
  },
  BrokenCase("bad test name", "tests[0].name: must be 1 to 64 letters, digits, - or _") {
    $0.setTest(0, "name", "a b")
  },
  BrokenCase("bad points", "tests[0].points: must be a positive number") { $0.setTest(0, "points", -1) },
  BrokenCase("bad limit value", "limits.cpu_ms: expected a whole number, got 0.5") { $0["limits"] = ["cpu_ms": 0.5] },
  BrokenCase("limit above the ceiling", "limits: ") { $0["limits"] = ["memory_mb": 1_000_000] },
  BrokenCase("wrong_solution names no test", "wrong_solution.test: no test is named \"big\"") {
    $0["wrong_solution"] = ["verdict": "wrong_answer", "test": "big", "step": 2]
  },
  BrokenCase("wrong_solution accepted", "wrong_solution.verdict: must be one of wrong_answer") {
    $0["wrong_solution"] = ["verdict": "accepted", "test": "sample"]
  },
  BrokenCase("wrong_solution required", "wrong_solution: is required when solutions/wrong/ holds solutions") {
    $0.files["solutions/wrong/main.py"] = Data("print(1)\n".utf8)
  },
  BrokenCase("solution in an unknown language", "solutions/correct/main.rb: the extension names no language") {
    $0.files["solutions/correct/main.rb"] = Data("puts 1\n".utf8)
  },
  BrokenCase("two starters in one language", "starter/other.py: starter/main.py is already the python file") {
    $0.files["starter/main.py"] = Data("print(1)\n".utf8)
    $0.files["starter/other.py"] = Data("print(2)\n".utf8)
  },
  BrokenCase("symlinked starter", "starter/main.py: is a symbolic link") {
    $0.links["starter/main.py"] = "../statement.md"
  },
  BrokenCase(
    "stray folder in solutions", "solutions/maybe: solutions/ holds only the folders correct/, wrong/ and slow/"
  ) {
    $0.files["solutions/maybe/main.py"] = Data()
  },
]

@Suite struct LoaderTests {
  @Test func validChallengeLoadsWithItsContents() throws {
    var fixture = ChallengeFixture.insertionSort()
    fixture.files["starter/main.py"] = Data("import json\n".utf8)
    fixture.files["solutions/correct/Main.java"] = Data("public class Main {}\n".utf8)
    fixture.files["solutions/wrong/main.cpp"] = Data("int main() {}\n".utf8)
    fixture["wrong_solution"] = ["verdict": "wrong_answer", "test": "reversed", "step": 6]
    fixture["limits"] = ["cpu_ms": 1500, "memory_mb": 128]
    let challenge = try fixture.load().get()
    #expect(challenge.id == "sample")
    #expect(challenge.title == "Insertion sort")
    #expect(challenge.statement.hasPrefix("Sort the array"))
    #expect(challenge.tags == ["sorting", "steps"])
    #expect(challenge.topic == nil, "no topic given: listed under Other")
    #expect(challenge.limits.cpuMilliseconds == 1500 && challenge.limits.memoryMegabytes == 128)
    #expect(challenge.checker.name == "steps")
    #expect(challenge.stepChecker?.fields == ["action", "active", "array"])
    guard case .steps(_, let outputChecker) = challenge.checker else {
      Issue.record("a steps challenge's checker is \(challenge.checker.name)")
      return
    }
    #expect(outputChecker.map { type(of: $0).name } == LinesChecker.name)
    #expect(challenge.recorder == RecorderSpec(name: "insertion-sort"))
    #expect(challenge.tests.map(\.name) == ["sample", "reversed"])
    #expect(challenge.tests.map(\.points) == [1, 2])
    #expect(challenge.totalPoints == 3)
    #expect(challenge.tests[0].stdin == Data("3\n5 2 4\n".utf8))
    #expect(challenge.tests[0].expectedStdout == "2 4 5\n")
    #expect(challenge.starters["python"]?.name == "main.py")
    #expect(
      challenge.solutions.map { "\($0.kind.rawValue)/\($0.language)/\($0.file.name)" } == [
        "correct/java/Main.java", "wrong/cpp/main.cpp",
      ])
    #expect(challenge.wrongSolution == WrongSolutionExpectation(verdict: .wrongAnswer, test: "reversed", step: 6))
  }

  @Test func expectedStepsFileIsParsed() throws {
    var fixture = ChallengeFixture.insertionSort()
    fixture.files["tests/sample.steps"] = Data(("\n" + steps + "\r\n").utf8)
    fixture.setTest(0, "expected_steps", "tests/sample.steps")
    let challenge = try fixture.load().get()
    #expect(challenge.tests[0].expectedSteps?.count == 1)
    #expect(challenge.tests[0].expectedSteps?.first?.caption == "Done.")
    #expect(challenge.tests[1].expectedSteps == nil, "the recorder gives the other test's steps when graded")
  }

  @Test func testNamesDefaultToTheirNumber() throws {
    let challenge = try ChallengeFixture.sum(tests: 2).load().get()
    #expect(challenge.tests.map(\.name) == ["1", "2"])
  }

  @Test(arguments: brokenCases)
  func brokenChallengeIsReported(broken: BrokenCase) throws {
    var fixture = ChallengeFixture.insertionSort()
    broken.breakIt(&fixture)
    let problems = try fixture.load().problems
    #expect(problems.contains { $0.contains(broken.problem) }, "\(problems)")
  }

  @Test func everyProblemIsReportedAtOnce() throws {
    var fixture = ChallengeFixture.insertionSort()
    fixture["title"] = nil
    fixture["colour"] = "red"
    fixture.setTest(0, "stdin", "tests/none.in")
    fixture.setTest(1, "points", 0)
    let problems = try fixture.load().problems
    #expect(problems.count == 4, "\(problems)")
  }

  @Test func inlineChallengeHoldsContents() throws {
    let json = """
      {"title": "Sum", "statement": "Add them up.", "checker": {"name": "tokens"},
       "tests": [{"name": "a", "stdin": "1 2", "expected_stdout": "3"},
                 {"stdin": "5", "expected_stdout": "5\\n", "points": 2}]}
      """
    let challenge = try ChallengeLoader.decodeInline(Data(json.utf8)).get()
    #expect(challenge.id == "inline")
    #expect(challenge.statement == "Add them up.")
    #expect(challenge.tests.map(\.name) == ["a", "2"])
    #expect(challenge.tests[1].expectedStdout == "5\n")
    #expect(challenge.starters.isEmpty && challenge.solutions.isEmpty)
  }

  @Test func anInlineChallengeMayNameItselfButACatalogOneMayNot() throws {
    let named = """
      {"id": "my-sum-2", "title": "Sum", "statement": "s", "checker": {"name": "tokens"},
       "tests": [{"stdin": "1 2", "expected_stdout": "3"}]}
      """
    #expect(try ChallengeLoader.decodeInline(Data(named.utf8)).get().id == "my-sum-2")
    let badID = named.replacingOccurrences(of: "my-sum-2", with: "../Up")
    #expect(
      ChallengeLoader.decodeInline(Data(badID.utf8)).problems == [
        "challenge inline: id: must be a challenge id: 1 to 64 lowercase letters, digits and -"
      ])
    let root = try TemporaryDirectory()
    defer { root.remove() }
    var fixture = ChallengeFixture.sum()
    fixture["id"] = "other"
    try fixture.write(under: root.path)
    let problems = ChallengeLoader.load(id: fixture.id, root: root.path).problems
    #expect(problems.count == 1 && problems[0].contains("id"), "\(problems)")
  }

  @Test func inlineStepsAndCheckerSourceAreContents() throws {
    let inline: JSONValue = [
      "title": "Steps", "statement": "s",
      "checker": ["name": "steps", "options": ["fields": ["array"]]],
      "tests": [["stdin": "1\n1\n", "expected_steps": .string(steps)]],
    ]
    let challenge = try ChallengeLoader.decodeInline(inline, id: "mine").get()
    #expect(challenge.id == "mine")
    #expect(challenge.tests[0].expectedSteps?.first?.caption == "Done.")
    let program: JSONValue = [
      "title": "P", "statement": "s",
      "checker": ["name": "program", "options": ["language": "cpp", "source": "int main(){}"]],
      "tests": [["stdin": "", "expected_stdout": ""]],
    ]
    guard case .program(let checker) = try ChallengeLoader.decodeInline(program).get().checker else {
      Issue.record("not a program checker")
      return
    }
    #expect(checker.language == "cpp")
    #expect(checker.source.contents == Data("int main(){}".utf8))
  }

  @Test func inlineProblemsNameTheirFields() {
    let problems = ChallengeLoader.decodeInline(Data("{\"title\": \"x\", \"statement\": 3, \"tests\": []}".utf8))
      .problems
    #expect(problems.contains("challenge inline: statement: must be a string (the contents)"), "\(problems)")
    #expect(problems.contains("challenge inline: checker: is required, e.g. {\"name\": \"lines\"}"), "\(problems)")
    #expect(problems.contains { $0.hasPrefix("challenge inline: tests: must be an array of 1 to 100") }, "\(problems)")
  }

  @Test func catalogKeepsBrokenChallengesOut() throws {
    let root = try TemporaryDirectory()
    defer { root.remove() }
    try ChallengeFixture.insertionSort().write(under: root.path)
    try ChallengeFixture.sum().write(under: root.path)
    var broken = ChallengeFixture.sum()
    broken.id = "broken"
    broken["checker"] = nil
    try broken.write(under: root.path)
    try Data("Challenges live here.\n".utf8).write(to: URL(fileURLWithPath: root.path + "/README.md"))
    try FileManager.default.createSymbolicLink(atPath: root.path + "/linked", withDestinationPath: root.path + "/sum")
    let catalog = ChallengeCatalog.load(root: root.path)
    #expect(catalog.ids == ["sample", "sum"])
    #expect(
      catalog.problems.map(\.description).contains("challenge broken: checker: is required, e.g. {\"name\": \"lines\"}")
    )
    #expect(catalog.problems.contains { $0.challenge == "linked" && $0.message.contains("symbolic link") })
    #expect(catalog.problems.count == 2, "\(catalog.problems)")
    #expect(ChallengeLoader.load(id: "linked", root: root.path).problems.first?.contains("symbolic link") == true)
    #expect((try? ChallengeLoader.load(id: "sum", root: root.path).get())?.tests.count == 3)
  }
}
