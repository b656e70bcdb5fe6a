import Foundation
import Testing

@testable import HTTP

// Not a test: a measurement, run on demand with DSA_RUN_WEBSOCKET_BENCH=1
//   swift test --skip-build --filter WebSocketRoundTripBenchmark
// Python's websockets client sends 1,000 text messages one at a time to an echo session over
// loopback and prints the p50 and p99 round trip; nothing is asserted about speed.

let webSocketBenchmarkRequested = ProcessInfo.processInfo.environment["DSA_RUN_WEBSOCKET_BENCH"] == "1"

@Suite(
  .enabled(if: webSocketBenchmarkRequested, "a measurement: set DSA_RUN_WEBSOCKET_BENCH=1 to run it"),
  .enabled(if: webSocketClientIsInstalled, "no websockets venv at \(webSocketPython)"))
struct WebSocketRoundTripBenchmark {
  @Test func echoRoundTrip() throws {
    let server = try webSocketServer { echoSession() }
    defer { server.shutDown() }
    let script = """
      import sys, time
      from websockets.sync.client import connect
      with connect('ws://127.0.0.1:' + sys.argv[1] + '/ws') as ws:
          for _ in range(50): ws.send('warm'); ws.recv()
          times = []
          for i in range(1000):
              start = time.perf_counter(); ws.send('line %d' % i); ws.recv(); times.append(time.perf_counter() - start)
          times.sort()
          print('websocket echo round trip over loopback, 1000 messages: p50 %.3f ms, p99 %.3f ms, max %.3f ms'
                % (times[499] * 1e3, times[989] * 1e3, times[-1] * 1e3))
      """
    let result = try runProcess(webSocketPython, ["-c", script, String(server.port)], timeout: .seconds(60))
    #expect(result.status == 0, "\(result.standardError)")
    print(result.standardOutput)
  }
}
