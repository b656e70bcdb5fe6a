import Foundation
import HTTP
import Runners
import Testing

@testable import API

/// Step lines in an execute result are read within bounds; the compile cache tells nobody but an
/// operator who allowed it whether someone else compiled the same source.
@Suite struct StepsAndCacheTests {
  private func execute(_ router: APIRouter, _ object: [String: Any]) throws -> HTTPResponse {
    router.handle(executeRequest(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)))
  }

  /// 4 MiB of malformed step lines after three good ones: the good ones are shown, reading stops at
  /// the bound of 10000 step lines with a message naming the line, instead of a decode per line.
  @Test func megabytesOfMalformedStepLinesAreReadWithinTheBound() throws {
    let router = makeRouter()
    let source = """
      import sys
      for i in range(3):
          print('@step {"i": %d}' % i)
      sys.stdout.write('@step {"i": \\n' * (((4 << 20) - 100) // 13))

      """
    let response = try execute(
      router, ["language": "python", "source": source, "limits": ["output_kb": 4096]])
    #expect(response.status == .ok, "\(response.text.prefix(300))")
    let steps = try #require(response.object["steps"] as? [[String: Any]])
    #expect(steps.compactMap { $0["i"] as? Int } == [0, 1, 2])
    let message = try #require(response.object["steps_message"] as? String)
    #expect(
      message
        == "Stopped reading steps at line 10001: the output has more than 10000 step lines (well-formed or not); the steps before it are shown."
    )
    let run = try #require(response.object["run"] as? [String: Any])
    #expect(run["status"] as? String == "ok")
    #expect(run["stdout_truncated"] as? Bool == false)
  }

  @Test func aNormalRunHasAnEmptyStepsMessage() throws {
    let response = try execute(makeRouter(), ["language": "python", "source": "print('@step {\"i\": 1}')"])
    #expect(response.object["steps_message"] as? String == "")
    #expect((response.object["steps"] as? [Any])?.count == 1)
  }

  @Test(.enabled(if: APIFixture.isInstalled("cpp")))
  func compileCacheHitsAreNotToldToOrdinaryClients() throws {
    // A source nobody compiled before in this process's cache.
    let source = "#include <cstdio>\nint main() { std::puts(\"\(UUID().uuidString)\"); }\n"
    let body: [String: Any] = ["language": "cpp", "source": source]
    let ordinary = makeRouter()
    let first = try execute(ordinary, body)
    let second = try execute(ordinary, body)
    for response in [first, second] {
      #expect(response.status == .ok, "\(response.text)")
      #expect(response.object["compile_cache"] as? String == "none")
      #expect(response.object["compile"] is NSNull)
      #expect((response.object["run"] as? [String: Any])?["status"] as? String == "ok")
    }
    // The cache did answer the second time; only a server that exposes it says so.
    let exposing = makeRouter { $0.exposeCompileCache = true }
    let third = try execute(exposing, body)
    #expect(third.object["compile_cache"] as? String == "hit")
    // A failed compile is never cached, so it looks the same to everyone and is shown.
    let broken = try execute(ordinary, ["language": "cpp", "source": "int main() { return missing; }\n"])
    #expect(broken.object["compile_cache"] as? String == "miss")
    #expect((broken.object["compile"] as? [String: Any])?["status"] as? String == "compile_error")
  }
}
