import Foundation
import HTTP
import Runners
import Synchronization
import Testing

@testable import API
@testable import Sandbox

let repositoryRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return url.path
}()

/// One executor for the whole run, built as the CLI's `makeExecutor` builds it but with warm boxes
/// (as the daemon runs them) and a private work root.
enum APIFixture {
  static let executor: Executor = {
    do {
      let host = try SandboxHost(configuration: SandboxConfiguration(workRoot: "/run/dsa-run-api-tests"))
      let policies = try SeccompCompiler.loadDirectory(repositoryRoot + "/policies")
      let catalog = try RunnerCatalog.load(directory: repositoryRoot + "/runners")
      let cache = try CompileCache(directory: NSTemporaryDirectory() + "dsa-run-api-tests-cache-\(getpid())")
      let pool = BoxPool(host: host)
      atexit { APIFixture.executor.pool?.drain() }
      return Executor(host: host, catalog: catalog, policies: policies, cache: cache, pool: pool)
    } catch {
      fatalError("cannot set up the API tests: \(error)")
    }
  }()

  static func isInstalled(_ language: String) -> Bool {
    executor.catalog.language(named: language)?.contains(where: \.isAvailable) == true
  }
}

/// A router over the shared executor.
func makeRouter(
  slots: Int = 2, maximumQueued: Int? = nil, configure: (inout APIConfiguration) -> Void = { _ in }
) -> APIRouter {
  var configuration = APIConfiguration(slots: slots, maximumQueued: maximumQueued)
  configure(&configuration)
  return APIRouter(executor: APIFixture.executor, configuration: configuration)
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
