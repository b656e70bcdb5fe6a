import Foundation
import SandboxTesting
import Testing

@testable import Runners

/// Judge0's `redirect_stderr_to_stdout`: one pipe for both streams, in the order the program wrote
/// them, in warm boxes (the daemon's) and one-shot boxes (the CLI's) alike.
@Suite struct MergedStreamsTests {
  static let oneShot = TestExecutors.oneShot(workRoot: "/run/dsa-run-merge-tests", name: "merge")

  /// Alternates the two streams, flushing each line, so only one shared pipe keeps the order.
  static let alternating = """
    import sys
    for n in range(5):
        sys.stdout.write(f"out {n}\\n"); sys.stdout.flush()
        sys.stderr.write(f"err {n}\\n"); sys.stderr.flush()

    """

  func run(_ executor: Executor, _ source: String, merged: Bool, language: String = "python") throws -> ExecuteResult {
    var request = ExecuteRequest(language: language, files: [SourceFile(name: "", contents: Data(source.utf8))])
    request.mergesStderrIntoStdout = merged
    return try executor.execute(request)
  }

  @Test(arguments: ["warm", "one-shot"])
  func bothStreamsArriveInOrderOnStdout(boxes: String) throws {
    let executor = boxes == "warm" ? RunnersFixture.executor : Self.oneShot
    let merged = try run(executor, Self.alternating, merged: true)
    let expected = (0..<5).map { "out \($0)\nerr \($0)\n" }.joined()
    #expect(merged.stdout == expected)
    #expect(merged.stderr.isEmpty)
    #expect(merged.run?.status == .ok)
    let apart = try run(executor, Self.alternating, merged: false)
    #expect(apart.stdout == (0..<5).map { "out \($0)\n" }.joined())
    #expect(apart.stderr == (0..<5).map { "err \($0)\n" }.joined())
  }

  @Test func aTracebackInStdoutNamesTheLearnersFileAndMemoryErrorsAreStillMemoryLimit() throws {
    let crash = try run(RunnersFixture.executor, "print('before')\nraise ValueError('boom')\n", merged: true)
    #expect(crash.run?.status == .runtimeError)
    #expect(crash.stdout.hasPrefix("before\nTraceback"), "\(crash.stdout)")
    #expect(crash.stdout.contains("ValueError: boom"))
    #expect(!crash.stdout.contains("/box/"), "\(crash.stdout)")
    var request = ExecuteRequest(
      language: "python", files: [SourceFile(name: "", contents: Data("x = bytearray(1 << 40)\n".utf8))])
    request.mergesStderrIntoStdout = true
    let memory = try RunnersFixture.executor.execute(request)
    #expect(memory.run?.status == .memoryLimit, "\(memory.stdout)")
  }
}
