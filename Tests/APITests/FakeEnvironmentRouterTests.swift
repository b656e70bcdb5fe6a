import Foundation
import Glibc
import HTTP
import Runners
import Sandbox
import SandboxTesting
import Testing

@testable import API

/// The router and executor over the fake environment: what reaches a box, and how what comes
/// back is classified and answered. No kernel, no root (README, "Tests").
@Suite struct FakeEnvironmentRouterTests {
  @Test func anExecuteIsOneCommandWithTheFilesStdinAndLayeredLimits() throws {
    let pool = FakeEnvironmentPool { command in
      FakeRun(stdout: "got " + String(decoding: command.stdin, as: UTF8.self))
    }
    let router = makeFakeRouter(pool)
    let response = router.handle(
      executeRequest(
        #"{"language": "py", "source": "print(input())", "stdin": "there", "args": ["-v"], "limits": {"cpu_ms": 300, "memory_mb": 64}}"#
      ))
    #expect(response.status == .ok, "\(response.text)")
    let run = try #require(response.object["run"] as? [String: Any])
    #expect(run["status"] as? String == "ok")
    #expect(run["stdout"] as? String == "got there")
    #expect(response.object["language"] as? String == "python")

    let records = pool.records
    try #require(records.count == 1)
    let record = records[0]
    #expect(record.argv == ["/usr/bin/python3.11", "-S", "-X", "utf8", "main.py", "-v"])
    #expect(record.files == ["main.py": Data("print(input())".utf8)])
    #expect(record.stdin == Data("there".utf8))
    // The caller's limits over the runner's over the sandbox's defaults, laid once.
    var expected = BoxLimits()
    expected.cpuTimeMilliseconds = 300
    expected.memoryBytes = 64 << 20
    #expect(record.limits == expected)
    #expect(record.command.spec.limits == expected)
    #expect(record.command.spec.outOfMemoryTexts == ["MemoryError"])
    #expect(pool.environmentsOut == 0)
  }

  @Test func aRunnerResolvedByTheCallerIsUsedAsGiven() throws {
    let pool = FakeEnvironmentPool()
    let executor = TestExecutors.fake(pool)
    var runner = try executor.runner(language: "python", version: nil)
    runner.run.argv = ["/usr/bin/python3.11", "-I", "{source}"]
    var request = ExecuteRequest(language: "python", files: [SourceFile(name: "", contents: Data("1".utf8))])
    request.runner = runner
    let result = try executor.execute(request)
    #expect(result.run?.status == .ok)
    #expect(pool.records.map(\.argv) == [["/usr/bin/python3.11", "-I", "main.py"]])
  }

  @Test func runnerDefaultsAboveTheMaximaReachTheBoxLowered() throws {
    let pool = FakeEnvironmentPool()
    let router = makeFakeRouter(pool) { $0.maxima.wallMilliseconds = 1500 }
    let response = router.handle(executeRequest(#"{"language": "python", "source": "print(1)"}"#))
    #expect(response.status == .ok, "\(response.text)")
    #expect(pool.records.first?.limits.wallTimeMilliseconds == 1500)
  }

  @Test func aRuntimesOwnOutOfMemoryReportIsMemoryLimit() throws {
    let pool = FakeEnvironmentPool { _ in FakeRun(exitCode: 1, stderr: "Traceback\nMemoryError\n") }
    let response = makeFakeRouter(pool).handle(executeRequest(#"{"language": "python", "source": "x"}"#))
    let run = try #require(response.object["run"] as? [String: Any])
    #expect(run["status"] as? String == "memory_limit")
    #expect(
      run["message"] as? String
        == "Ran out of memory: the limit is 256 MiB and the program asked for more than its runtime could give it.")
    // Without the runtime's words, the same exit is the program's own error.
    let plain = FakeEnvironmentPool { _ in FakeRun(exitCode: 1, stderr: "Traceback\nValueError\n") }
    let other = makeFakeRouter(plain).handle(executeRequest(#"{"language": "python", "source": "x"}"#))
    #expect((other.object["run"] as? [String: Any])?["status"] as? String == "runtime_error")
  }

  @Test(.enabled(if: isAvailable("cpp")))
  func aCompilerThatFailsIsACompileErrorAndNothingRuns() throws {
    let pool = FakeEnvironmentPool { command in
      command.spec.command.first == "/usr/bin/g++-12"
        ? FakeRun(exitCode: 1, stderr: "\(command.files[0].name):1: error: 'missing' was not declared") : FakeRun()
    }
    let response = makeFakeRouter(pool).handle(
      executeRequest(#"{"language": "cpp", "files": [{"name": "a.cpp", "content": "int main() { return missing; }"}]}"#)
    )
    #expect(response.status == .ok, "\(response.text)")
    let compile = try #require(response.object["compile"] as? [String: Any])
    #expect(compile["status"] as? String == "compile_error")
    #expect(compile["message"] as? String == "The code did not compile: see the compiler's messages.")
    #expect((compile["stderr"] as? String)?.hasPrefix("a.cpp:1: error") == true)
    #expect(response.object["run"] is NSNull)
    #expect(pool.records.count == 1)
  }

  @Test(.enabled(if: isAvailable("cpp")))
  func aCompilesArtifactsAreWhatTheRunFinds() throws {
    let binary = Data("not really an ELF".utf8)
    let pool = FakeEnvironmentPool { command in
      command.spec.command.first == "/usr/bin/g++-12" ? FakeRun(leaves: ["main": binary]) : FakeRun(stdout: "ran")
    }
    let response = makeFakeRouter(pool).handle(
      executeRequest(#"{"language": "cpp", "source": "int main() {}"}"#))
    #expect((response.object["run"] as? [String: Any])?["stdout"] as? String == "ran", "\(response.text)")
    let records = pool.records
    try #require(records.count == 2)
    #expect(records[1].argv == ["/box/main"])
    #expect(records[1].files == ["main": binary])
    #expect(records[1].command.files.first?.executable == true)
  }

  @Test func aSandboxFailureIs500AndCountedWithoutHostDetails() throws {
    let pool = FakeEnvironmentPool { _ throws(SandboxError) in
      throw SandboxError(step: "pivot_root", errorNumber: EPERM, hint: "see /etc/dsa-run/secret.json")
    }
    let logs = LogCollector()
    let router = makeFakeRouter(pool) { $0.logSink = logs.sink }
    let response = router.handle(executeRequest(#"{"language": "python", "source": "print(1)"}"#))
    #expect(response.status.code == 500)
    #expect(response.error?.code == "internal_error")
    #expect(!response.text.contains("/etc") && !response.text.contains("pivot_root"))
    #expect(logs.all.first?.detail?.contains("/etc/dsa-run/secret.json") == true)
    #expect(logs.all.first?.runStatus == "internal_error")
    #expect(
      router.metrics.render(queueDepth: 0, boxesInFlight: 0, cacheHits: 0, cacheMisses: 0)
        .contains("dsa_run_runs_total{language=\"python\",status=\"internal_error\"} 1"))
    #expect(pool.environmentsOut == 0)
  }

  @Test func theEnvironmentsDiscardsAreTheMetricsDiscards() {
    let pool = FakeEnvironmentPool()
    pool.countDiscard(.files)
    pool.countDiscard(.files)
    let text = makeFakeRouter(pool).handle(request("GET", "/metrics")).text
    #expect(text.contains("files\"} 2"), "\(text)")
  }

  @Test func aGradeRunsEveryTestAsACommandWithItsStdin() throws {
    let pool = FakeEnvironmentPool { command in
      let numbers = String(decoding: command.stdin, as: UTF8.self).split(separator: " ").compactMap { Int($0) }
      return FakeRun(stdout: "\(numbers.reduce(0, +))\n")
    }
    let challenge =
      #"{"title": "Sum", "statement": "Add.", "checker": {"name": "tokens"}, "limits": {"cpu_ms": 700}, "tests": [{"stdin": "1 2", "expected_stdout": "3"}, {"stdin": "4 5 6", "expected_stdout": "15"}]}"#
    let response = makeFakeRouter(pool).handle(
      request(
        "POST", "/v1/grade",
        body: #"{"language": "python", "source": "print(sum(map(int, input().split())))", "challenge": \#(challenge)}"#,
        headers: [("Content-Type", "application/json")]))
    #expect(response.status == .ok, "\(response.text)")
    #expect(response.object["verdict"] as? String == "accepted")
    let records = pool.records
    #expect(records.map { String(decoding: $0.stdin, as: UTF8.self) } == ["1 2", "4 5 6"])
    #expect(records.allSatisfy { $0.limits.cpuTimeMilliseconds == 700 })
  }
}

/// Whether the newest toolchain of a language is installed (the fake still needs its runner).
func isAvailable(_ language: String) -> Bool {
  (try? RunnerCatalog.load(directory: repositoryRoot + "/runners"))?.language(named: language)?.first?.isAvailable
    == true
}
