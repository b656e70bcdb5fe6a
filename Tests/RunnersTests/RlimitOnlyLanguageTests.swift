import Foundation
import Testing

@testable import Runners
@testable import Sandbox

// Every language on a host with no cgroup (rlimit-only mode), where RLIMIT_DATA is the memory
// bound. It counts writable mappings whole, touched or not: Node maps 512 MiB of code range and
// a thread stack as large as RLIMIT_STACK (64 MiB) per worker before the first line runs (VmData
// 842 MiB for a hello), the JVM its code cache, class space and thread stacks (VmData 810 MiB at
// -Xmx192m). Under the 256 MiB default, Node's fourth thread failed to start and Node waited for
// it until the wall limit, and the JVM stopped at start with "os::commit_memory failed". The
// runners' `reserve_mb` lifts the bound by what the runtime maps; a program that really
// allocates is still stopped.

enum RlimitOnlyFixture {
  static let executor: Executor = {
    do {
      let host = try SandboxHost(
        configuration: SandboxConfiguration(workRoot: "/run/dsa-run-runner-tests-rlimit", cgroupMode: .rlimitOnly))
      let policies = try SeccompCompiler.loadDirectory(repositoryRoot + "/policies")
      let catalog = try RunnerCatalog.load(directory: repositoryRoot + "/runners")
      let cache = try CompileCache(directory: NSTemporaryDirectory() + "dsa-run-rlimit-tests-cache-\(getpid())")
      // One-shot boxes, as the CLI runs them.
      return Executor(environments: OneShotBoxes(host: host), catalog: catalog, policies: policies, cache: cache)
    } catch {
      fatalError("cannot set up the rlimit-only runner tests: \(error)")
    }
  }()

  static let languages = ["cpp", "dart", "go", "java", "javascript", "kotlin", "python"]
}

@Suite struct RlimitOnlyLanguageTests {
  @Test(arguments: RlimitOnlyFixture.languages)
  func selfTestRunsWithRlimitsAlone(_ language: String) throws {
    let available = RlimitOnlyFixture.executor.catalog.language(named: language)?.first { $0.isAvailable }
    let runner = try #require(available, "\(language) is not installed: scripts/install-toolchains \(language)")
    var request = ExecuteRequest(
      language: language, files: [SourceFile(name: "", contents: Data(runner.selfTest.source.utf8))])
    request.stdin = Data(runner.selfTest.stdin.utf8)
    request.version = runner.version
    let result = try RlimitOnlyFixture.executor.execute(request)
    let stderr = result.run.map { String(decoding: $0.stderr.prefix(400), as: UTF8.self) } ?? ""
    #expect(
      result.run?.status == .ok, "\(language): \(result.run?.status as Any) \(result.run?.message ?? "") \(stderr)")
    #expect(result.run.map { String(decoding: $0.stdout, as: UTF8.self) } == runner.selfTest.stdout)
    #expect(result.run?.accounting == "rlimit")
  }

  @Test(arguments: RlimitOnlyFixture.languages)
  func twoGibibytesAreStillRefused(_ language: String) throws {
    let program = try #require(programs.first { $0.language == language }, "no probe programs for \(language)")
    var request = ExecuteRequest(
      language: language, files: [SourceFile(name: "", contents: Data(program.allocate.utf8))])
    request.runLimits.memoryMegabytes = 256
    let result = try RlimitOnlyFixture.executor.execute(request)
    let stderr = result.run.map { String(decoding: $0.stderr.prefix(400), as: UTF8.self) } ?? ""
    let stdout = result.run.map { String(decoding: $0.stdout, as: UTF8.self) } ?? ""
    // C's malloc returns NULL here where a cgroup would have killed the program: the C++ probe
    // says so itself and exits 1.
    let refused = result.run?.status == .memoryLimit || (result.run?.status == .runtimeError && stdout == "no memory\n")
    #expect(refused, "\(language): \(result.run?.status as Any) \(stdout.prefix(100)) \(stderr)")
  }
}
