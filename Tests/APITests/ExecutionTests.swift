import Dispatch
import Foundation
import HTTP
import Runners
import Sandbox
import Synchronization
import Testing

@testable import API

/// Real executions through the router and the real executor (warm boxes).
@Suite struct ExecutionTests {
  @Test func pythonHello() throws {
    let logs = LogCollector()
    let router = makeRouter { $0.logSink = logs.sink }
    let response = router.handle(
      executeRequest(
        #"{"language": "python", "source": "import sys\nprint('hello', sys.stdin.read())\nprint('@step {\"action\": \"swap\", \"active\": [0, 1]}')", "stdin": "there"}"#
      ))
    #expect(response.status == .ok, "\(response.text)")
    #expect(response.headers["Content-Type"] == "application/json")
    let object = response.object
    #expect(Set(object.keys) == ResultEncoder.executeKeys)
    #expect(object["language"] as? String == "python")
    #expect((object["version"] as? String)?.hasPrefix("3.") == true)
    #expect(object["compile"] is NSNull)
    let run = try #require(object["run"] as? [String: Any])
    #expect(run["status"] as? String == "ok")
    #expect((run["stdout"] as? String)?.hasPrefix("hello there\n") == true)
    #expect(run["exit_code"] as? Int == 0)
    #expect(run["signal"] is NSNull)
    let steps = try #require(object["steps"] as? [[String: Any]])
    #expect(steps.count == 1)
    #expect(steps.first?["action"] as? String == "swap")
    #expect(logs.all.first?.runStatus == "ok")
    #expect(logs.all.first?.language == "python")
    #expect(logs.all.first?.runMilliseconds != nil)
    #expect(!(logs.all.first?.line.contains("hello") ?? true))
    let metrics = router.handle(request("GET", "/metrics")).text
    #expect(metrics.contains("dsa_run_runs_total{language=\"python\",status=\"ok\"} 1\n"))
    #expect(metrics.contains("dsa_run_run_duration_seconds_count 1\n"))
    #expect(metrics.contains("dsa_run_http_requests_total{route=\"/v1/execute\",code=\"200\"} 1\n"))
  }

  @Test func requestedLimitsReachTheBox() throws {
    let router = makeRouter()
    let response = router.handle(
      executeRequest(#"{"language": "python", "source": "while True: pass", "limits": {"cpu_ms": 300}}"#))
    let run = try #require(response.object["run"] as? [String: Any])
    #expect(run["status"] as? String == "time_limit")
    #expect(run["time_limit_kind"] as? String == "cpu")
  }

  @Test(.enabled(if: APIFixture.isInstalled("cpp")))
  func cppCompileError() throws {
    let router = makeRouter()
    let response = router.handle(
      executeRequest(
        #"{"language": "cpp", "files": [{"name": "sort.cpp", "content": "int main() { return missing; }\n"}]}"#))
    #expect(response.status == .ok, "\(response.text)")
    let object = response.object
    #expect(object["run"] is NSNull)
    #expect(object["compile_cache"] as? String == "miss")
    let compile = try #require(object["compile"] as? [String: Any])
    #expect(compile["status"] as? String == "compile_error")
    #expect(Set(compile.keys) == ResultEncoder.outcomeKeys)
    let messages = (compile["stdout"] as? String ?? "") + (compile["stderr"] as? String ?? "")
    #expect(messages.contains("missing"))
    let metrics = router.handle(request("GET", "/metrics")).text
    #expect(metrics.contains("dsa_run_runs_total{language=\"cpp\",status=\"compile_error\"} 1\n"))
  }

  @Test func unknownLanguageNeverReachesTheQueue() {
    let router = makeRouter(slots: 1, maximumQueued: 0)
    #expect(router.service.queue.acquire(timeout: .zero) == .admitted)
    defer { router.service.queue.release() }
    // A full queue does not hide the caller's own mistake.
    let response = router.handle(executeRequest(#"{"language": "brainfork", "source": "+"}"#))
    #expect(response.status.code == 400)
    #expect(response.error?.code == "unknown_language")
  }

  /// Deliverable 5 of the submissions issue: twenty hello-worlds at once behind two slots all run.
  /// A fixed line of twice the slots (the old default) answered six of them 503.
  @Test func twentyConcurrentHelloWorldsOnTwoSlotsAllFinish() {
    let router = makeRouter(slots: 2)
    let statuses = Mutex<[Int]>([])
    let group = DispatchGroup()
    // Threads of their own, as the HTTP server gives each connection.
    for _ in 0..<20 {
      group.enter()
      Thread.detachNewThread {
        let response = router.handle(executeRequest(#"{"language": "python", "source": "print('hello')"}"#))
        statuses.withLock { $0.append(response.status.code) }
        group.leave()
      }
    }
    group.wait()
    let all = statuses.withLock { $0 }
    #expect(all.count == 20)
    #expect(all.allSatisfy { $0 == 200 }, "statuses: \(all)")
  }
}
