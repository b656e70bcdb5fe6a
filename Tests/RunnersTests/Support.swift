import Foundation
import Glibc
import SandboxTesting
import Testing

@testable import Runners
@testable import Sandbox

/// One executor for the whole run: the shipped runners and policies, a
/// private work root and compile cache.
enum RunnersFixture {
  // Warm boxes, as the daemon runs them; the CLI tests cover one-shot boxes.
  static let executor = TestExecutors.warm(workRoot: "/run/dsa-run-runner-tests", name: "runner")

  /// Languages whose newest toolchain is installed here.
  static func isInstalled(_ language: String) -> Bool {
    executor.catalog.language(named: language)?.contains(where: \.isAvailable) == true
  }
}

func execute(
  _ language: String, _ source: String, stdin: String = "", arguments: [String] = [],
  configure: (inout ExecuteRequest) -> Void = { _ in }
) throws -> ExecuteResult {
  var request = ExecuteRequest(language: language, files: [SourceFile(name: "", contents: Data(source.utf8))])
  request.stdin = Data(stdin.utf8)
  request.arguments = arguments
  configure(&request)
  return try RunnersFixture.executor.execute(request)
}

extension ExecuteResult {
  var stdout: String { run.map { String(decoding: $0.stdout, as: UTF8.self) } ?? "" }
  var stderr: String { run.map { String(decoding: $0.stderr, as: UTF8.self) } ?? "" }
  var compileMessages: String {
    compile.map { String(decoding: $0.stdout + $0.stderr, as: UTF8.self) } ?? ""
  }
}
