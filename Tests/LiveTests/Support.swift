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

/// What a test's client does with each event beyond recording it (a type of its own, not a closure,
/// so `LiveRunThread`'s trailing closure stays `configure`).
struct LiveReaction: Sendable {
  let body: @Sendable (LiveInput, LiveEvent) -> Void
  init(_ body: @escaping @Sendable (LiveInput, LiveEvent) -> Void) { self.body = body }

  static let none = LiveReaction { _, _ in }
  /// Pauses the output at the first chunk of stdout and never resumes it.
  static let pauseAtFirstOutput = LiveReaction { input, event in
    if case .stdout = event { input.pauseOutput() }
  }
}

/// A live run on its own thread; `result` waits for it to end.
final class LiveRunThread: @unchecked Sendable {
  let input = LiveInput()
  let recorder: EventRecorder
  private let done = DispatchSemaphore(value: 0)
  private let outcome = Mutex<Result<ExecuteResult, ExecuteError>?>(nil)

  /// `react` sees each event after the recorder (a client's flow control: `pauseOutput`, say);
  /// `startPaused` pauses the output before the run starts.
  init(
    _ language: String, _ source: String, options: LiveOptions = LiveOptions(),
    recorder: EventRecorder = EventRecorder(), executor: Executor = LiveFixture.executor,
    startPaused: Bool = false, react: LiveReaction = .none,
    configure: (inout ExecuteRequest) -> Void = { _ in }
  ) {
    self.recorder = recorder
    var request = ExecuteRequest(language: language, files: [SourceFile(name: "", contents: Data(source.utf8))])
    configure(&request)
    let input = self.input
    let recorder = self.recorder
    if startPaused { input.pauseOutput() }
    let thread = Thread { [request] in
      let result: Result<ExecuteResult, ExecuteError>
      do throws(ExecuteError) {
        result = .success(
          try executor.executeLive(request, options: options, input: input) { event in
            recorder.record(event)
            react.body(input, event)
          })
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

/// A client that takes live output at its own pace, as the daemon's routes do: chunks wait in a
/// queue of its own, the output is paused while that queue holds more than `pauseAbove` bytes and
/// resumed once the taker (a thread of its own, `bytesPerTick` every `tickMicroseconds`) has
/// brought it under `resumeBelow`. The events closure never waits.
final class PacedConsumer: Sendable {
  struct Counts {
    var queued = 0
    var peakQueued = 0
    var received = 0
    var taken = 0
    var pauses = 0
  }

  let pauseAbove: Int
  let resumeBelow: Int
  private let counts = Mutex(Counts())
  private let stopped = Atomic<Bool>(false)

  init(pauseAbove: Int, resumeBelow: Int) {
    self.pauseAbove = pauseAbove
    self.resumeBelow = resumeBelow
  }

  var snapshot: Counts { counts.withLock { $0 } }

  /// For `LiveRunThread`'s `react`.
  func take(_ input: LiveInput, _ event: LiveEvent) {
    guard case .stdout(let bytes) = event else { return }
    let pause = counts.withLock { counts -> Bool in
      counts.queued += bytes.count
      counts.received += bytes.count
      counts.peakQueued = max(counts.peakQueued, counts.queued)
      guard counts.queued > pauseAbove, !input.isOutputPaused else { return false }
      counts.pauses += 1
      return true
    }
    if pause { input.pauseOutput() }
  }

  func startTaking(from input: LiveInput, bytesPerTick: Int, tickMicroseconds: UInt32) {
    let thread = Thread { [self] in
      while !stopped.load(ordering: .relaxed) {
        usleep(tickMicroseconds)
        let resume = counts.withLock { counts -> Bool in
          let taken = min(bytesPerTick, counts.queued)
          counts.queued -= taken
          counts.taken += taken
          return counts.queued < resumeBelow
        }
        if resume && input.isOutputPaused { input.resumeOutput() }
      }
    }
    thread.start()
  }

  func stop() { stopped.store(true, ordering: .relaxed) }
}
