import Foundation
import Grading
import Runners
import Sandbox
import SandboxTesting
import Synchronization
import Testing

// executeLive over the fake environment (no kernel): the events and the result a caller such as
// the daemon's /v1/connect sees, for a scripted run.

@Suite("Live runs on the fake environment")
struct FakeLiveTests {
  @Test("the fake plays its output as live events; the result is execute's")
  func fakeRunStreams() throws {
    let pool = FakeEnvironmentPool { _ in
      FakeRun(stdout: "hello\n@step {\"i\": 1}\nbye", stderr: "oops\n")
    }
    let executor = TestExecutors.fake(pool)
    let request = ExecuteRequest(language: "python", files: [SourceFile(name: "", contents: Data("print(1)".utf8))])
    let events = Mutex<[LiveEvent]>([])
    let live = try executor.executeLive(request, options: LiveOptions(), input: LiveInput()) { event in
      events.withLock { $0.append(event) }
    }
    let whole = try executor.execute(request)
    #expect(live.wire().json == whole.wire().json)
    let seen = events.withLock { $0 }
    let words = seen.map { event -> String in
      switch event {
      case .stageStarted(let stage): return "\(stage.rawValue) started"
      case .stageFinished(let stage, let status, _): return "\(stage.rawValue) \(status)"
      case .stdout(let bytes): return "stdout " + String(decoding: bytes, as: UTF8.self)
      case .stderr(let bytes): return "stderr " + String(decoding: bytes, as: UTF8.self)
      case .step(let step): return "step \(step.object)"
      }
    }
    #expect(words.first == "run started")
    #expect(words.last == "run ok")
    #expect(words.contains("stdout hello\n@step {\"i\": 1}\nbye"))
    #expect(words.contains("stderr oops\n"))
    #expect(seen.filter { if case .step = $0 { return true } else { return false } }.count == 1)
  }

  @Test("a live request with stdin given whole, or a non-positive idle limit, is refused before any box")
  func badRequests() throws {
    let pool = FakeEnvironmentPool()
    let executor = TestExecutors.fake(pool)
    var request = ExecuteRequest(language: "python", files: [SourceFile(name: "", contents: Data("print(1)".utf8))])
    request.stdin = Data("x".utf8)
    #expect(throws: ExecuteError.self) {
      try executor.executeLive(request, options: LiveOptions(), input: LiveInput()) { _ in }
    }
    request.stdin = Data()
    var options = LiveOptions()
    options.idleLimitMs = 0
    #expect(throws: ExecuteError.self) {
      try executor.executeLive(request, options: options, input: LiveInput()) { _ in }
    }
    #expect(pool.records.isEmpty)
  }
}
