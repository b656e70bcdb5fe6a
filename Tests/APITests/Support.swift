import Foundation
import HTTP
import Runners
import SandboxTesting
import Synchronization
import Testing

@testable import API
@testable import Sandbox

let repositoryRoot = TestExecutors.repositoryRoot

/// One executor for the whole run on warm boxes (as the daemon runs them) and a private work root.
enum APIFixture {
  static let executor = TestExecutors.warm(workRoot: "/run/dsa-run-api-tests", name: "api")

  static func isInstalled(_ language: String) -> Bool {
    executor.catalog.language(named: language)?.contains(where: \.isAvailable) == true
  }
}

/// A router over the shared executor (real warm boxes), or over `executor`.
func makeRouter(
  slots: Int = 2, maximumQueued: Int? = nil, executor: Executor = APIFixture.executor,
  configure: (inout APIConfiguration) -> Void = { _ in }
) -> APIRouter {
  var configuration = APIConfiguration(slots: slots, maximumQueued: maximumQueued)
  configure(&configuration)
  return APIRouter(executor: executor, configuration: configuration)
}

/// A router whose boxes are `pool`'s fakes: no kernel, no root.
func makeFakeRouter(
  _ pool: FakeEnvironmentPool = FakeEnvironmentPool(), slots: Int = 2, maximumQueued: Int? = nil,
  configure: (inout APIConfiguration) -> Void = { _ in }
) -> APIRouter {
  makeRouter(slots: slots, maximumQueued: maximumQueued, executor: TestExecutors.fake(pool), configure: configure)
}

/// A request as the HTTP layer hands it over.
func request(
  _ method: String, _ target: String, body: String = "", headers: [(String, String)] = []
) -> HTTPRequest {
  HTTPRequest(
    head: HTTPRequestHead(
      method: method, target: target, version: .http11,
      headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }), keepAlive: true),
    body: Data(body.utf8))
}

/// `POST /v1/execute` with a JSON body.
func executeRequest(_ body: String, headers: [(String, String)] = []) -> HTTPRequest {
  request("POST", "/v1/execute", body: body, headers: [("Content-Type", "application/json")] + headers)
}

extension HTTPResponse {
  /// The body as a JSON object (empty when it is not one).
  var object: [String: Any] {
    (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
  }

  /// The error object's code, message and known list.
  var error: (code: String, message: String, known: [String]?)? {
    guard let inner = object["error"] as? [String: Any], let code = inner["code"] as? String,
      let message = inner["message"] as? String
    else { return nil }
    return (code, message, inner["known"] as? [String])
  }

  var text: String { String(decoding: body, as: UTF8.self) }
}

/// Collects log entries.
final class LogCollector: Sendable {
  private let entries = Mutex<[RequestLogEntry]>([])
  var sink: RequestLogSink { { entry in self.entries.withLock { $0.append(entry) } } }
  var all: [RequestLogEntry] { entries.withLock { $0 } }
}

/// Slots held the way a long run holds them, for filling a queue in tests: each hold is a job on a
/// slot's thread that waits for its gate.
extension WorkQueue {
  /// Takes a slot (waiting up to `timeout`) and keeps it until `release()`; the oldest hold is
  /// released first.
  func acquire(timeout: Duration) -> Admission {
    let settled = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let outcome = Mutex<Admission?>(nil)
    Thread.detachNewThread {
      let (admission, _) = self.withSlot(timeout: timeout) {
        settled.signal()
        gate.wait()
      }
      outcome.withLock { $0 = admission }
      if admission != .admitted { settled.signal() }
      finished.signal()
    }
    settled.wait()
    // Admitted as soon as the job started; a refusal settles after withSlot returned.
    let admission = outcome.withLock { $0 } ?? .admitted
    if admission == .admitted { SlotHolds.push(self, Hold(gate: gate, finished: finished)) }
    return admission
  }

  /// Ends the oldest hold and waits until its slot is free again.
  func release() {
    let hold = SlotHolds.popOldest(self)
    hold.gate.signal()
    hold.finished.wait()
  }
}

private struct Hold: Sendable {
  let gate: DispatchSemaphore
  let finished: DispatchSemaphore
}

/// Holds by queue, oldest first.
private enum SlotHolds {
  static let holds = Mutex<[ObjectIdentifier: [Hold]]>([:])

  static func push(_ queue: WorkQueue, _ hold: Hold) {
    holds.withLock { $0[ObjectIdentifier(queue), default: []].append(hold) }
  }

  static func popOldest(_ queue: WorkQueue) -> Hold {
    holds.withLock {
      guard var list = $0[ObjectIdentifier(queue)], !list.isEmpty else {
        preconditionFailure("WorkQueue.release without a hold")
      }
      let oldest = list.removeFirst()
      $0[ObjectIdentifier(queue)] = list
      return oldest
    }
  }
}
