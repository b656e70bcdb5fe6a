import Foundation
import Glibc
import Runners
import Sandbox
import SandboxTesting
import Synchronization
import Testing

/// One executor on warm boxes for the suite, as the daemon runs them.
enum LiveFixture {
  static let executor = TestExecutors.warm(workRoot: "/run/dsa-run-live-tests", name: "live")
  /// One-shot boxes, as the CLI runs live: their init takes commands on a pair of its own.
  static let oneShotExecutor = TestExecutors.oneShot(workRoot: "/run/dsa-run-live-tests-once", name: "live-once")

  static func isInstalled(_ language: String) -> Bool {
    executor.catalog.language(named: language)?.contains(where: \.isAvailable) == true
  }
}

/// What a live run reported so far, for a test thread to wait on while the run goes on.
final class EventRecorder: Sendable {
  private let events = Mutex<[LiveEvent]>([])
  /// Held by the events closure for this long per event (a slow client).
  let delayMicroseconds: UInt32

  init(delayMicroseconds: UInt32 = 0) { self.delayMicroseconds = delayMicroseconds }

  func record(_ event: LiveEvent) {
    events.withLock { $0.append(event) }
    if delayMicroseconds > 0 { usleep(delayMicroseconds) }
  }

  var all: [LiveEvent] { events.withLock { $0 } }

  /// The stdout chunks so far, joined.
  var stdout: String {
    String(
      decoding: all.flatMap { event -> [UInt8] in
        if case .stdout(let bytes) = event { return bytes }
        return []
      }, as: UTF8.self)
  }

  var stdoutByteCount: Int {
    events.withLock { events in
      events.reduce(0) { total, event in
        if case .stdout(let bytes) = event { return total + bytes.count }
        return total
      }
    }
  }

  /// Waits up to `seconds` for `condition` to hold; whether it did.
  func wait(seconds: Double = 60, until condition: (EventRecorder) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition(self) { return true }
      usleep(2_000)
    }
    return condition(self)
  }
}

/// A live run on its own thread; `result` waits for it to end.
final class LiveRunThread: @unchecked Sendable {
  let input = LiveInput()
  let recorder: EventRecorder
  private let done = DispatchSemaphore(value: 0)
  private let outcome = Mutex<Result<ExecuteResult, ExecuteError>?>(nil)

  init(
    _ language: String, _ source: String, options: LiveOptions = LiveOptions(),
    recorder: EventRecorder = EventRecorder(), executor: Executor = LiveFixture.executor,
    configure: (inout ExecuteRequest) -> Void = { _ in }
  ) {
    self.recorder = recorder
    var request = ExecuteRequest(language: language, files: [SourceFile(name: "", contents: Data(source.utf8))])
    configure(&request)
    let input = self.input
    let recorder = self.recorder
    let thread = Thread { [request] in
      let result: Result<ExecuteResult, ExecuteError>
      do throws(ExecuteError) {
        result = .success(
          try executor.executeLive(request, options: options, input: input) { recorder.record($0) })
      } catch {
        result = .failure(error)
      }
      self.outcome.withLock { $0 = result }
      self.done.signal()
    }
    thread.stackSize = 4 << 20
    thread.start()
  }

  /// The run's result, waiting up to `seconds` for it.
  func result(seconds: Int = 120) throws -> ExecuteResult {
    guard done.wait(timeout: .now() + .seconds(seconds)) == .success else {
      input.kill()
      _ = done.wait(timeout: .now() + .seconds(30))
      throw LiveTestFailure(text: "the live run did not end within \(seconds) s")
    }
    done.signal()
    return try outcome.withLock { $0! }.get()
  }
}

struct LiveTestFailure: Error, CustomStringConvertible {
  var text: String
  var description: String { text }
}

extension ExecuteResult {
  var stdout: String { run.map { String(decoding: $0.stdout, as: UTF8.self) } ?? "" }
  var messages: String {
    (compile.map { String(decoding: $0.stdout + $0.stderr, as: UTF8.self) } ?? "")
      + (run.map { String(decoding: $0.stderr, as: UTF8.self) + " " + $0.message } ?? "")
  }
}
