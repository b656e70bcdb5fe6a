import Foundation
import Glibc
import HTTP
import Runners
import Testing

@testable import API

/// `POST /v1/grade` within the server's limits: an inline challenge's limits against the configured
/// maxima, the whole grade within its wall budget, and checkers with bounded memory.
@Suite(.serialized) struct GradeLimitTests {
  private func grade(_ router: APIRouter, _ object: [String: Any]) throws -> HTTPResponse {
    let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    return router.handle(request("POST", "/v1/grade", body: body, headers: [("Content-Type", "application/json")]))
  }

  private func sum(limits: [String: Any], tests: Int = 1) -> [String: Any] {
    [
      "title": "Sum", "statement": "Add.", "checker": ["name": "tokens"], "limits": limits,
      "tests": (1...tests).map { ["stdin": "1 \($0)\n", "expected_stdout": "\($0 + 1)\n"] },
    ]
  }

  @Test func inlineLimitsAboveAMaximumAreRefusedNamingIt() throws {
    let router = makeRouter()
    let source = "print(sum(map(int, input().split())))\n"
    let memory = try grade(
      router, ["language": "python", "source": source, "challenge": sum(limits: ["memory_mb": 2048])])
    #expect(memory.status.code == 400, "\(memory.text)")
    #expect(memory.error?.code == "bad_request")
    #expect(memory.error?.message == "challenge.limits.memory_mb is 2048; the maximum is 1024")
    let wall = try grade(
      router, ["language": "python", "source": source, "challenge": sum(limits: ["wall_ms": 20_001])])
    #expect(wall.error?.message == "challenge.limits.wall_ms is 20001; the maximum is 20000")
    let output = try grade(
      router, ["language": "python", "source": source, "challenge": sum(limits: ["output_kb": 65536])])
    #expect(output.error?.message == "challenge.limits.output_kb is 65536; the maximum is 4096")
    #expect(router.service.queue.inFlight == 0)
    // Within the maxima it grades.
    let fine = try grade(
      router, ["language": "python", "source": source, "challenge": sum(limits: ["memory_mb": 1024])])
    #expect(fine.status == .ok, "\(fine.text)")
    #expect(fine.object["verdict"] as? String == "accepted")
  }

  @Test func theGradeBudgetDefaultsToTheExecuteWallMaximum() {
    var configuration = APIConfiguration(slots: 1)
    #expect(configuration.resolvedGradeWallMilliseconds == 20_000)
    configuration.maxima.wallMilliseconds = 7000
    #expect(configuration.resolvedGradeWallMilliseconds == 7000)
    configuration.gradeWallMilliseconds = 1200
    #expect(configuration.resolvedGradeWallMilliseconds == 1200)
  }

  @Test func aSleepingProgramsGradeEndsWithinTheBudget() throws {
    let router = makeRouter { $0.gradeWallMilliseconds = 1500 }
    let response = try grade(
      router,
      [
        "language": "python", "source": "import time\ntime.sleep(60)\n",
        "challenge": sum(limits: ["wall_ms": 8000], tests: 7),
      ])
    #expect(response.status == .ok, "\(response.text)")
    let tests = try #require(response.object["tests"] as? [[String: Any]])
    #expect(tests.count == 7)
    #expect(tests.allSatisfy { $0["verdict"] as? String == "skipped" }, "\(tests)")
    #expect(response.object["verdict"] as? String == "time_limit")
    // Generous against the budget (1.5 s); without it the grade took 7 x 8 s.
    let wall = try #require(response.object["wall_ms"] as? Int)
    #expect(wall < 6000, "\(wall) ms")
  }

  /// 60 MiB of one-byte tokens through the tokens checker. Before the checkers read lazily, this
  /// took the process from 77 MB to 1.5 GB; now what grows is a few copies of the output.
  @Test func aHugeOutputGradeKeepsMemoryBounded() throws {
    let router = makeRouter { $0.maxima.outputKilobytes = 65536 }
    let challenge: [String: Any] = [
      "title": "Flood", "statement": "Flood.", "checker": ["name": "tokens"],
      "limits": ["output_kb": 65536, "memory_mb": 512],
      "tests": [["stdin": "", "expected_stdout": "a\n"]],
    ]
    let source = "import sys\nsys.stdout.write('a ' * (30 << 20))\n"
    resetPeakResidentSet()
    let before = peakResidentKilobytes()
    let response = try grade(router, ["language": "python", "source": source, "challenge": challenge])
    let growth = peakResidentKilobytes() - before
    print("GradeLimitTests: peak RSS grew by \(growth >> 10) MiB")
    #expect(response.status == .ok, "\(response.text.prefix(500))")
    let tests = try #require(response.object["tests"] as? [[String: Any]])
    #expect(tests.first?["verdict"] as? String == "wrong_answer")
    #expect(tests.first?["message"] as? String == "expected 1 word, got 31457280: extra \"a\" on line 1")
    // The output is 60 MiB; its bytes, one string of it and the step-free copy are about 180 MiB.
    #expect(growth < 400 << 10, "peak RSS grew by \(growth >> 10) MiB")
  }
}

/// Resets the process's peak RSS (VmHWM) to its current RSS (proc(5), clear_refs "5").
func resetPeakResidentSet() {
  let fd = open("/proc/self/clear_refs", O_WRONLY)
  guard fd >= 0 else { return }
  _ = write(fd, "5", 1)
  close(fd)
}

/// The process's peak RSS since the last reset, KiB.
func peakResidentKilobytes() -> Int {
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
  return 0
}
