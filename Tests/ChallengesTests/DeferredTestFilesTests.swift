import Foundation
import Grading
import Runners
import Testing

@testable import Challenges

/// A daemon's catalogue lets its function tests' file values go once checked, and a grade reads
/// them again: the same values as an eager load, or none when a file changed meanwhile.
@Suite struct DeferredTestFilesTests {
  /// A copy of the shipped edit-distance challenge (two tests from files) under a root of its own.
  private func copiedRoot() throws -> TemporaryDirectory {
    let root = try TemporaryDirectory()
    try FileManager.default.copyItem(
      atPath: repositoryRoot + "/challenges/edit-distance", toPath: root.path + "/edit-distance")
    return root
  }

  private func deferredCatalogue(_ root: TemporaryDirectory) throws -> Challenge {
    let catalogue = ChallengeCatalog.load(root: root.path, deferringTestFiles: true)
    #expect(catalogue.problems.isEmpty, "\(catalogue.problems)")
    return try #require(catalogue.challenges["edit-distance"])
  }

  @Test func aGradeReadsTheFilesAgainIntoTheValuesAnEagerLoadHas() throws {
    let root = try copiedRoot()
    defer { root.remove() }
    let eager = try ChallengeLoader.load(id: "edit-distance", root: root.path).get()
    let deferred = try deferredCatalogue(root)

    let fromFiles = deferred.tests.filter { $0.name.hasPrefix("large-") }
    #expect(fromFiles.count == 2)
    for test in fromFiles {
      #expect(test.deferredFiles != nil && test.arguments == nil && test.expected == nil, "\(test.name)")
      #expect(test.stdin.isEmpty && test.expectedStdout == nil, "\(test.name)")
    }
    // Inline tests are small and stay as they are.
    #expect(deferred.tests[0].deferredFiles == nil && deferred.tests[0].arguments != nil)

    let loaded = try deferred.loadingTestValues().get()
    #expect(loaded.tests.count == eager.tests.count)
    for (test, wanted) in zip(loaded.tests, eager.tests) {
      #expect(test.name == wanted.name)
      #expect(test.deferredFiles == nil)
      #expect(test.stdin == wanted.stdin, "\(test.name)")
      #expect(test.expectedStdout == wanted.expectedStdout, "\(test.name)")
      #expect(test.arguments == wanted.arguments, "\(test.name)")
      #expect(test.expected == wanted.expected, "\(test.name)")
    }
    let large = try #require(eager.tests.first { $0.name == "large-random" })
    #expect(large.stdin.count > 1000, "the file's arguments are really there")
  }

  @Test func aFileChangedSinceTheLoadIsNotGradedWith() throws {
    let root = try copiedRoot()
    defer { root.remove() }
    let deferred = try deferredCatalogue(root)
    let expectedFile = root.path + "/edit-distance/tests/large-random.expected.json"
    let original = try Data(contentsOf: URL(fileURLWithPath: expectedFile))
    // Still valid JSON of the right type, so only the digest tells it apart.
    let distance = try #require(Int(String(decoding: original, as: UTF8.self).trimmingCharacters(in: .whitespaces)))
    try Data("\(distance + 1)\n".utf8).write(to: URL(fileURLWithPath: expectedFile))
    guard case .failure(let failure) = deferred.loadingTestValues() else {
      Issue.record("a changed expected file was taken")
      return
    }
    #expect(failure.message.contains("changed since the daemon loaded them"), "\(failure)")
    #expect(failure.detail.contains("large-random.expected.json"), "\(failure)")

    // The whole grade says so: every test an internal error, nothing graded against the new file.
    guard GradingFixture.isInstalled("python") else { return }
    let solution = try String(
      contentsOfFile: repositoryRoot + "/challenges/edit-distance/solutions/correct/solution.py", encoding: .utf8)
    let result = try GradingFixture.grader.grade(
      deferred, language: "python", files: [SourceFile(name: "solution.py", contents: Data(solution.utf8))])
    #expect(result.verdict == .internalError, "\(result.verdict)")
    #expect(result.tests.count == deferred.tests.count)
    #expect(result.tests.allSatisfy { $0.verdict == .internalError }, "\(result.tests.map(\.verdict))")
    #expect(result.tests.first?.message.contains("changed since the daemon loaded them") == true, "\(result.tests)")
  }

  @Test func aChallengeDirectoryReplacedByALinkIsNotFollowed() throws {
    let root = try copiedRoot()
    defer { root.remove() }
    let deferred = try deferredCatalogue(root)
    let moved = root.path + "/elsewhere"
    try FileManager.default.moveItem(atPath: root.path + "/edit-distance", toPath: moved)
    try FileManager.default.createSymbolicLink(atPath: root.path + "/edit-distance", withDestinationPath: moved)
    guard case .failure(let failure) = deferred.loadingTestValues() else {
      Issue.record("the values were read through a symbolic link")
      return
    }
    #expect(failure.detail.contains("symbolic link"), "\(failure)")
  }
}
