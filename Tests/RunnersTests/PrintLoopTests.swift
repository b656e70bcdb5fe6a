import Foundation
import Glibc
import Testing

@testable import Runners
@testable import Sandbox

/// A print loop is `output_limit` in every language, with the default limits and however fast its
/// output is read. Node writes to a pipe asynchronously: once its pipe was full (a reader that fell
/// behind for a moment) it queued every later write in its heap, which a loop that never yields
/// never drained, and the run ended `memory_limit` with half of the cap printed.
@Suite struct PrintLoopTests {
  static let languages = ["python", "javascript", "java", "cpp", "kotlin", "dart", "go"]

  static func loops(_ language: String) throws -> [String] {
    let program = try #require(programs.first { $0.language == language }, "no probe programs for \(language)")
    guard language == "javascript" else { return [program.endlessPrint] }
    return [
      program.endlessPrint, "while (true) console.log('spam spam spam');\n", "while (true) console.error('spam');\n",
    ]
  }

  @Test(arguments: languages)
  func printLoopEndsOutputLimit(_ language: String) throws {
    try #require(installed(language), "needs the \(language) toolchain")
    for source in try Self.loops(language) {
      let result = try execute(language, source)
      #expect(result.run?.status == .outputLimit, "\(source): \(result.run?.message ?? result.compileMessages)")
    }
  }

  /// The reader falls behind on purpose: the run starts with its output paused for half a second,
  /// so the program's pipe is full before anything is read.
  @Test(arguments: languages)
  func printLoopEndsOutputLimitWhenTheReaderFallsBehind(_ language: String) throws {
    try #require(installed(language), "needs the \(language) toolchain")
    for source in try Self.loops(language) {
      let input = LiveInput()
      input.finish()
      let request = ExecuteRequest(language: language, files: [SourceFile(name: "", contents: Data(source.utf8))])
      let result = try RunnersFixture.executor.executeLive(request, options: LiveOptions(), input: input) { event in
        guard case .stageStarted(.run) = event else { return }
        input.pauseOutput()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { input.resumeOutput() }
      }
      let run = try #require(result.run, "\(result.compileMessages)")
      #expect(run.status == .outputLimit, "\(source): \(run.message) (memory \(run.memoryKilobytes) KiB)")
    }
  }
}
