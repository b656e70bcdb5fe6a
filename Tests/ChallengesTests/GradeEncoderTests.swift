import API
import Foundation
import Grading
import Runners
import Testing

@testable import Challenges
@testable import Sandbox

@Suite struct GradeEncoderTests {
  private func sampleResult() -> GradeResult {
    var failed = TestGrade(name: "reversed", verdict: .wrongAnswer, score: 0.5, points: 2, message: "step 2 differs")
    failed.cpuMilliseconds = 12
    failed.firstDifference = StepDifference(
      step: 2, expected: ["array": [1, 2], "found": true], actual: nil, caption: "Swap them.")
    let passed = TestGrade(name: "sample", verdict: .accepted, score: 1, points: 1, message: "")
    return GradeResult(
      challenge: "insertion-sort", language: "python", version: "3.11.2", verdict: .wrongAnswer, score: 2.0 / 3,
      message: "Test reversed: step 2 differs", compile: nil, compileCacheHit: false, tests: [passed, failed],
      wallMilliseconds: 40)
  }

  @Test func gradeObjectHasTheDesignShape() throws {
    let object = GradeEncoder.gradeObject(sampleResult())
    #expect(Set(object.keys) == GradeEncoder.gradeKeys)
    let text = String(decoding: ResultEncoder.data(object), as: UTF8.self)
    #expect(text.contains("\"compile\":null"))
    #expect(text.contains("\"compile_cache\":\"none\""))
    #expect(text.contains("\"verdict\":\"wrong_answer\""))
    #expect(
      text.contains(
        "\"first_difference\":{\"actual\":null,\"caption\":\"Swap them.\",\"expected\":{\"array\":[1,2],\"found\":true},\"step\":2}"
      ), "\(text)")
    #expect(text.contains("\"points\":2,"), "integral numbers print without a fraction")
    let tests = try #require(object["tests"] as? [[String: Any]])
    // `transcript` is only on an interactive test's grade.
    #expect(tests.allSatisfy { Set($0.keys) == GradeEncoder.visibleTestKeys.subtracting(["transcript"]) })
    #expect(tests[0]["first_difference"] is NSNull)
  }

  /// A hidden test's object: buckets for the figures, the step's kind and data-free caption only.
  @Test func aHiddenTestHasBucketsAndADataFreeDifference() throws {
    var failed = TestGrade(name: "reversed", verdict: .wrongAnswer, score: 0.6, points: 2, message: "step 2 differs")
    failed.cpuMilliseconds = 80
    failed.wallMilliseconds = 1200
    failed.memoryKilobytes = 70_000
    failed.firstDifference = StepDifference(
      step: 2, expected: ["array": [9, 4]], actual: ["array": [4, 9]], caption: "Swap 9 and 4.", kind: "a swap",
      genericCaption: "Swap two items.", problem: .differs, differingFields: ["array"])
    let hidden = failed.redactedForHiddenTest()
    let text = String(decoding: ResultEncoder.data(GradeEncoder.testObject(hidden)), as: UTF8.self)
    #expect(
      text
        == #"{"first_difference":{"caption":"Swap two items.","kind":"a swap"},"hidden":true,"memory":"under 256 MiB","#
        + #""message":"Wrong answer on a hidden test: your steps first differ from the expected ones at a swap (its "#
        + #"array differs). Expected step: Swap two items.","name":"reversed","points":2,"score":0.5,"stderr":"","#
        + #""time":"under 10 s","verdict":"wrong_answer"}"#)
  }

  /// The buckets' edges: each figure falls in the first bucket whose bound is above it.
  @Test func bucketsHaveFixedEdges() {
    let times: [(UInt64, String)] = [
      (0, "under 0.1 s"), (99, "under 0.1 s"), (100, "under 1 s"), (999, "under 1 s"), (1000, "under 10 s"),
      (9999, "under 10 s"), (10_000, "10 s or more"),
    ]
    for (milliseconds, name) in times { #expect(CoarseFigures.time(milliseconds: milliseconds) == name) }
    let memories: [(UInt64, String)] = [
      (0, "under 16 MiB"), (16383, "under 16 MiB"), (16384, "under 64 MiB"), (65536, "under 256 MiB"),
      (262_144, "under 1 GiB"), (1_048_575, "under 1 GiB"), (1_048_576, "1 GiB or more"),
    ]
    for (kilobytes, name) in memories { #expect(CoarseFigures.memory(kilobytes: kilobytes) == name) }
    // The larger of CPU and wall time.
    #expect(CoarseFigures(cpuMilliseconds: 50, wallMilliseconds: 150, memoryKilobytes: 0).time == "under 1 s")
  }

  @Test func compileOutcomeUsesTheExecuteShape() throws {
    var result = sampleResult()
    result.verdict = .compileError
    result.compile = Outcome(
      status: .compileError, message: "The code did not compile.", exitCode: 1, signal: nil, stdout: Data(),
      stderr: Data("main.cpp:1: error".utf8), stdoutTruncated: false, stderrTruncated: false, cpuMilliseconds: 5,
      wallMicroseconds: 9000, memoryKilobytes: 100, timeLimitKind: nil, accounting: "cgroup-v1")
    let object = GradeEncoder.gradeObject(result)
    let compile = try #require(object["compile"] as? [String: Any])
    #expect(Set(compile.keys) == ResultEncoder.outcomeKeys)
    #expect(compile["stderr"] as? String == "main.cpp:1: error")
    #expect(object["compile_cache"] as? String == "miss")
  }

  @Test func challengeObjectShowsWhatALearnerNeeds() throws {
    var fixture = ChallengeFixture.insertionSort()
    fixture.files["starter/main.py"] = Data("def step(**fields): ...\n".utf8)
    fixture["limits"] = ["cpu_ms": 1000]
    let challenge = try fixture.load().get()
    let object = GradeEncoder.challengeObject(challenge)
    #expect(object["statement"] as? String == "Sort the array by insertion, printing each step.\n")
    #expect((object["starters"] as? [String: String])?["python"] == "def step(**fields): ...\n")
    let limits = try #require(object["limits"] as? [String: Any])
    #expect(limits["cpu_ms"] as? UInt64 == 1000 && limits["wall_ms"] is NSNull)
    let tests = try #require(object["tests"] as? [[String: Any]])
    #expect(tests.map { $0["name"] as? String } == ["sample", "reversed"])
    #expect(tests.allSatisfy { $0["stdin"] == nil }, "test data is not shown")
    let summary = GradeEncoder.summaryObject(challenge)
    #expect(summary["tests"] as? Int == 2 && summary["languages"] as? [String] == ["python"])
  }
}
