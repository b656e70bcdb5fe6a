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
