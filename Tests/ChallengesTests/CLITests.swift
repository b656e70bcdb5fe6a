import API
import Foundation
import SandboxTesting
import SystemCore
import Testing

@testable import Challenges

// `dsa-run --challenge` and `dsa-run challenges`, through the built binary.

let dsaRunBinary: String = {
  let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  var directory = testBinary.deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = directory.appendingPathComponent("dsa-run").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    directory.deleteLastPathComponent()
  }
  return repositoryRoot + "/.build/debug/dsa-run"
}()

struct CLIResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Runs dsa-run with DSA_RUN_DATA at `data` (runners/ and policies/ linked from the repository).
func runCLI(_ arguments: [String], data: String) throws -> CLIResult {
  let process = ChildProcess()
  process.executableURL = URL(fileURLWithPath: dsaRunBinary)
  process.arguments = arguments
  process.environment = ["DSA_RUN_DATA": data, "PATH": "/usr/bin:/bin"]
  let output = ProcessLaunch.pipe()
  let errors = ProcessLaunch.pipe()
  process.standardOutput = output
  process.standardError = errors
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let stdoutData = output.fileHandleForReading.readToEndRetryingInterrupts()
  let stderrData = errors.fileHandleForReading.readToEndRetryingInterrupts()
  process.waitUntilExit()
  return CLIResult(
    status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
    stderr: String(decoding: stderrData, as: UTF8.self))
}

/// A data folder: runners/ and policies/ from the repository, challenges/ with the fixtures, and
/// the learner's programs.
struct CLIData {
  let directory: TemporaryDirectory
  var path: String { directory.path }
  var cache: String { directory.path + "/cache" }

  init() throws {
    directory = try TemporaryDirectory()
    for name in ["runners", "policies"] {
      try FileManager.default.createSymbolicLink(
        atPath: directory.path + "/" + name, withDestinationPath: repositoryRoot + "/" + name)
    }
    try stepsOnly().write(under: directory.path + "/challenges")
    try ChallengeFixture.sum().write(under: directory.path + "/challenges")
    try Data(insertionSortPython.utf8).write(to: URL(fileURLWithPath: directory.path + "/good.py"))
    try Data(wrongInsertionSortPython.utf8).write(to: URL(fileURLWithPath: directory.path + "/wrong.py"))
  }

  func grade(_ program: String, _ challenge: String, _ extra: [String] = []) throws -> CLIResult {
    try runCLI(
      ["--lang", "python", path + "/" + program, "--challenge", challenge, "--cache-dir", cache] + extra, data: path)
  }
}

@Suite struct ChallengeCLITests {
  @Test func acceptedByIdExitsZeroWithOneLinePerTest() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    let result = try data.grade("good.py", "sample")
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first?.hasPrefix("test") == true)
    #expect(
      lines.contains { $0.hasPrefix("sample") && $0.contains("accepted") && $0.contains(" ms") && $0.hasSuffix("1/1") })
    #expect(lines.contains { $0.hasPrefix("reversed") && $0.contains("accepted") && $0.hasSuffix("2/2") })
    #expect(lines.last == "sample: accepted, 3 of 3 points (score 1.00)")
  }

  @Test func wrongAnswerByDirectoryExplainsTheFirstDifference() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    let result = try data.grade("wrong.py", data.path + "/challenges/sample")
    #expect(result.status == 120)
    #expect(result.stdout.contains("Test reversed: your steps first differ from the expected ones at step 6."))
    #expect(result.stdout.contains("  action: expected \"swap\", yours \"compare\""))
    #expect(result.stdout.contains("what step 6 should do: 3 is larger than 2, so shift it right."))
    #expect(result.stdout.contains("sample: wrong_answer"))
  }

  /// The CLI shows a hidden test as the API does: in text and in --json, the step's kind and its
  /// data-free caption, its time and memory in buckets.
  @Test func hiddenTestsShowNoDataInTextOrJSON() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    var hidden = stepsOnly()
    hidden.id = "hidden"
    hidden.setTest(1, "hidden", true)
    try hidden.write(under: data.path + "/challenges")
    let text = try data.grade("wrong.py", "hidden")
    #expect(text.status == 120)
    #expect(
      text.stdout.contains(
        "Test reversed, wrong_answer: Wrong answer on a hidden test: your steps first differ from the expected ones "
          + "at a swap"), "\(text.stdout)")
    #expect(text.stdout.contains("Expected step: The item before the one being inserted is larger, so shift it right."))
    let json = try data.grade("wrong.py", "hidden", ["--json"])
    for output in [text.stdout, json.stdout] {
      for secret in [
        "\"swap\"", "compare", "[3, 2, 4, 1]", "[3,2,4,1]", "[4, 3, 2, 1]", "4 3 2 1", "step 6", "3 is larger",
      ] {
        #expect(!output.contains(secret), "\(output)")
      }
    }
    let row = try #require(text.stdout.split(separator: "\n").first { $0.hasPrefix("reversed") })
    #expect(row.contains("under ") && row.contains(" MiB") && !row.contains(" ms"), "\(row)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let tests = try #require(object["tests"] as? [[String: Any]])
    #expect(tests.map { $0["hidden"] as? Bool } == [false, true])
    #expect(tests[1]["time"] is String && tests[1]["cpu_ms"] == nil)
  }

  /// An author's caption that names a hidden test's input ("compare 7319041 with 6024173") is shown
  /// nowhere: not in the text (the explanation and the table), not in --json.
  @Test func aHiddenTestsCaptionNamingItsInputIsShownNowhere() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    try HiddenTestTests.captionedPairs().write(under: data.path + "/challenges")
    // Right on the small sample, so the hidden test is the failure the text explains.
    let wrongOnLargeNumbers = HiddenTestTests.wrongPair.replacingOccurrences(
      of: "print('@step {\"action\": \"compare\", \"pair\": [%d, %d]}' % (b, a))",
      with: "print('@step {\"action\": \"%s\", \"pair\": [%d, %d]}' % (\"swap\" if a < 1000 else \"compare\", b, a))")
    #expect(wrongOnLargeNumbers != HiddenTestTests.wrongPair)
    try Data(wrongOnLargeNumbers.utf8).write(to: URL(fileURLWithPath: data.path + "/pair.py"))
    let text = try data.grade("pair.py", "pairs")
    #expect(text.status == 120, "\(text.stderr)")
    #expect(
      text.stdout.contains(
        "Test secret, wrong_answer: Wrong answer on a hidden test: your steps first differ from the expected ones at "
          + "a swap (its action differs). Expected step: Swap two items."), "\(text.stdout)")
    let json = try data.grade("pair.py", "pairs", ["--json"])
    for output in [text.stdout, text.stderr, json.stdout] {
      for secret in ["7319041", "6024173"] { #expect(!output.contains(secret), "\(output)") }
    }
  }

  @Test func jsonIsTheGradeObject() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    let result = try data.grade("wrong.py", "sample", ["--json"])
    #expect(result.status == 120)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(Set(object.keys) == GradeEncoder.gradeKeys)
    #expect(object["verdict"] as? String == "wrong_answer")
    let tests = try #require(object["tests"] as? [[String: Any]])
    // `transcript` is only on an interactive test's grade.
    #expect(tests.allSatisfy { Set($0.keys) == GradeEncoder.visibleTestKeys.subtracting(["transcript"]) })
    let difference = try #require(tests[1]["first_difference"] as? [String: Any])
    #expect(difference["step"] as? Int == 6)
    #expect((difference["expected"] as? [String: Any])?["array"] as? [Int] == [2, 3, 4, 1])
    #expect(tests[0]["first_difference"] is NSNull)
  }

  @Test func badChallengeReferencesAreUsageErrors() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    let unknown = try data.grade("good.py", "nope")
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("no challenge \"nope\""))
    let limited = try data.grade("good.py", "sample", ["--time-limit", "1"])
    #expect(limited.status == 2)
    #expect(limited.stderr.contains("the challenge sets the limits"))
    try Data("{}".utf8).write(to: URL(fileURLWithPath: data.path + "/challenges/sum/challenge.json"))
    let broken = try data.grade("good.py", "sum")
    #expect(broken.status == 2)
    #expect(broken.stderr.contains("challenge sum: title: is required"))
  }

  @Test func challengesListsAndChecks() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    let listed = try runCLI(["challenges"], data: data.path)
    #expect(listed.status == 0)
    #expect(listed.stdout.contains("sample  Insertion sort  (2 tests)  [sorting, steps]"), "\(listed.stdout)")
    let json = try runCLI(["challenges", "--json"], data: data.path)
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(rows.map { $0["id"] as? String } == ["sample", "sum"])
    #expect(rows[1]["tests"] as? Int == 3)
    let valid = try runCLI(["challenges", "--check"], data: data.path)
    #expect(valid.status == 0)
    #expect(valid.stdout.contains("2 challenge(s), all valid"))
    try FileManager.default.removeItem(atPath: data.path + "/challenges/sum/tests/2.in")
    let broken = try runCLI(["challenges", "--check", data.path + "/challenges/sum"], data: data.path)
    #expect(broken.status == 1)
    #expect(broken.stdout.contains("challenge sum: tests[1].stdin: tests/2.in: no such file"))
  }
}
