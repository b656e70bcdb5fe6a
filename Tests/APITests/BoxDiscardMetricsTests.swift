import Foundation
import HTTP
import Testing

@testable import API

/// `/metrics` counts the warm boxes whose end-of-run reset could not prove them fresh.
@Suite struct BoxDiscardMetricsTests {
  private func discards(_ router: APIRouter, reason: String) -> Int {
    let text = router.handle(request("GET", "/metrics")).text
    let prefix = "dsa_run_box_discards_total{reason=\"\(reason)\"} "
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return 0 }
    return Int(line.dropFirst(prefix.count)) ?? -1
  }

  @Test func aBoxLeftTooDeepToEmptyIsDiscardedAndCounted() throws {
    let router = makeRouter()
    #expect(router.handle(request("GET", "/metrics")).text.contains("# TYPE dsa_run_box_discards_total counter\n"))
    let before = discards(router, reason: "files")
    let deep =
      #"{"language": "python", "source": "import os\nos.makedirs('/box/' + '/'.join(['d'] * 100))\nprint('made')"}"#
    let response = router.handle(executeRequest(deep))
    #expect(response.status == .ok, "\(response.text)")
    #expect(discards(router, reason: "files") == before + 1)
    // The next learner gets a box of its own, fresh.
    let next = router.handle(
      executeRequest(#"{"language": "python", "source": "import os\nprint(os.listdir('/box'))"}"#))
    let run = try #require(next.object["run"] as? [String: Any])
    #expect(run["status"] as? String == "ok")
    #expect((run["stdout"] as? String)?.contains("'d'") == false)
  }
}
