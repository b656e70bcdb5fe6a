import API
import Foundation
import HTTP

/// Long-lived threads that run `POST /v1/execute` requests.
///
/// A box's init and program are started with `PR_SET_PDEATHSIG(SIGKILL)`, and Linux ties that to
/// the *thread* that created them, not the process. `HTTPServer` serves each connection on its own
/// thread, which ends with the connection; a warm box made there would be killed when its client
/// hangs up, and the next request to draw it from the pool would fail (EPIPE). So executions run
/// here, on threads that live as long as the daemon: the warm boxes they make live as long too, and
/// still die with the daemon (kill -9 included).
final class ExecutionThreads: @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [@Sendable () -> Void] = []
  private var idle = 0
  /// How many threads there are.
  let count: Int

  /// Starts `count` threads.
  init(count: Int) {
    self.count = count
    for index in 0..<count {
      let thread = Thread { self.serve() }
      thread.name = "dsa-rund-exec-\(index)"
      thread.start()
    }
  }

  /// Runs `body` on one of the threads and returns its value, or nil at once when every thread is
  /// taken (the caller answers 503, as for a full queue).
  func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value? {
    let done = DispatchSemaphore(value: 0)
    let slot = ResultSlot<Value>()
    condition.lock()
    guard idle > jobs.count else {
      condition.unlock()
      return nil
    }
    jobs.append {
      slot.value = body()
      done.signal()
    }
    condition.signal()
    condition.unlock()
    done.wait()
    return slot.value
  }

  private func serve() {
    while true {
      condition.lock()
      while jobs.isEmpty {
        idle += 1
        condition.wait()
        idle -= 1
      }
      let job = jobs.removeFirst()
      condition.unlock()
      job()
    }
  }
}

/// A value handed from an execution thread to the waiting connection thread (ordered by the semaphore).
private final class ResultSlot<Value>: @unchecked Sendable {
  var value: Value?
}

/// The server's handler: executions on `threads`, everything else on the connection's thread.
func daemonHandler(router: APIRouter, threads: ExecutionThreads) -> HTTPServer.Handler {
  { request in
    let path = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
    guard path == "/v1/execute", request.method == "POST" else { return router.handle(request) }
    if let response = threads.run({ router.handle(request) }) { return response }
    return APIError.busy(
      "all \(threads.count) execution threads are taken; try again shortly",
      retryAfterSeconds: router.configuration.retryAfterSeconds
    ).response
  }
}
