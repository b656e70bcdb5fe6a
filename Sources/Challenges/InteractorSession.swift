import Foundation
import Grading
import Runners
import Sandbox
import Synchronization

/// One interactive test: the learner's program and the interactor, each in its own box with its own
/// limits, run at once (`Executor.runTogether`), each one's stdout relayed to the other's stdin.
///
/// **A bounded relay, not a pipe between the boxes.** Each box's stdio are pipes the box's pump
/// owns (and a warm box's run command carries them to a long-lived init), so a pipe shared by two
/// boxes would need a new path through both kinds of box; the live-run streams (`BoxLive`) already
/// give each program a stdin pipe the host writes and hand over its output as it is read. The host
/// copies each way on a thread of its own, holding at most `InteractionRelay.bound` bytes: past
/// that it stops reading the writer (`pauseOutput`), which then blocks on its full pipe exactly as
/// with a direct pipe. The copy also keeps the transcript.
///
/// **Deadlocks.** While both programs run, a monitor looks every 100 ms at the bytes relayed and
/// each box's CPU time (its cgroup's, as the pump reads it). When for
/// `InteractorRunner.deadlockWindowMilliseconds` no byte moved either way and neither box used more
/// than `idleCPUShare` of that time, both are waiting on each other (a missing flush, most often):
/// both are killed and the test is `time_limit` with `InteractorRunner.deadlockMessage`. A box whose
/// CPU time cannot be read (rlimit-only mode) counts as waiting only once the window plus the
/// program's CPU limit passed without a byte moved.
final class InteractorSession: Sendable {
  let learnerInput: BoxLiveInput
  let interactorInput: BoxLiveInput
  /// The program's stdout to the interactor's stdin, and back.
  let toInteractor: InteractionRelay
  let toLearner: InteractionRelay
  let transcript = SharedTranscript()
  private let state = Mutex(State())
  private let monitorStopped = DispatchSemaphore(value: 0)

  private struct State {
    var learnerEnded = false
    var interactorEnded = false
    /// Whether the interactor ended before its stdin reached its end, taken once, when its stdout
    /// ended (its process exited, most often) or else its run did: before the program can read
    /// the end of its own input. True: it decided while the program still talked, so what the
    /// program did after (reading the end of its input, crashing on it) is a consequence, not a
    /// verdict.
    var interactorDecidedFirst: Bool?
    var deadlocked = false
  }

  init() throws(SandboxError) {
    learnerInput = try BoxLiveInput()
    interactorInput = try BoxLiveInput()
    let transcript = self.transcript
    toInteractor = InteractionRelay(source: learnerInput, target: interactorInput) { bytes in
      transcript.append(bytes, from: .program)
    }
    toLearner = InteractionRelay(source: interactorInput, target: learnerInput) { bytes in
      transcript.append(bytes, from: .interactor)
    }
  }

  struct Ended {
    var learner: Result<Outcome, ExecuteError>
    var interactor: Result<Outcome, ExecuteError>
    var interactorDecidedFirst: Bool
    var deadlocked: Bool
  }

  /// Runs the two programs to their end.
  func run(
    executor: Executor, learner: PreparedProgram, learnerLimits: StepLimits, interactor: PreparedProgram,
    interactorLimits: StepLimits, files: [SourceFile], fallbackWindowMilliseconds: UInt64
  ) throws(ExecuteError) -> Ended {
    let toInteractor = self.toInteractor
    let toLearner = self.toLearner
    for relay in [toInteractor, toLearner] {
      let thread = Thread { relay.run() }
      thread.name = "dsa-run interaction relay"
      thread.start()
    }
    let learnerLive = BoxLive(
      input: learnerInput, output: { stream, bytes in if stream == .stdout { toInteractor.take(bytes) } },
      stdoutEnded: { toInteractor.sourceEnded() })
    let interactorLive = BoxLive(
      input: interactorInput, output: { stream, bytes in if stream == .stdout { toLearner.take(bytes) } },
      stdoutEnded: { [self] in
        noteInteractorDecision()
        toLearner.sourceEnded()
      })
    let monitor = Thread { [self] in
      watchForDeadlock(fallbackWindowMilliseconds: fallbackWindowMilliseconds)
      monitorStopped.signal()
    }
    monitor.name = "dsa-run interaction monitor"
    monitor.start()
    defer {
      // Whatever happened, both relays end (their targets' inputs are over, also when a box failed
      // before its run could end them, so no send waits on a pipe nobody reads) and the monitor stops.
      learnerInput.endRun()
      interactorInput.endRun()
      for relay in [toInteractor, toLearner] { relay.targetEnded() }
      state.withLock {
        $0.learnerEnded = true
        $0.interactorEnded = true
      }
      monitorStopped.wait()
    }
    let learnerRun = TogetherRun(
      program: learner, limits: learnerLimits, live: learnerLive,
      ended: { [self] _ in
        // The interactor's stdin ends once what the program wrote has reached it; the program's
        // stdin is no longer read by anyone.
        toInteractor.sourceEnded()
        toLearner.targetEnded()
        state.withLock { $0.learnerEnded = true }
      })
    let interactorRun = TogetherRun(
      program: interactor, arguments: InteractorRunner.fileNames, limits: interactorLimits, extraFiles: files,
      live: interactorLive,
      ended: { [self] _ in
        noteInteractorDecision()
        toLearner.sourceEnded()
        toInteractor.targetEnded()
        state.withLock { $0.interactorEnded = true }
      })
    let (learnerResult, interactorResult) = try executor.runTogether(learnerRun, interactorRun)
    let seen = state.withLock { $0 }
    return Ended(
      learner: learnerResult, interactor: interactorResult,
      interactorDecidedFirst: seen.interactorDecidedFirst ?? false,
      deadlocked: seen.deadlocked)
  }

  /// Takes `interactorDecidedFirst` the first time it is called.
  private func noteInteractorDecision() {
    let inputEnded = toInteractor.targetFinished
    state.withLock { state in
      if state.interactorDecidedFirst == nil { state.interactorDecidedFirst = !inputEnded }
    }
  }

  /// The monitor (see the type's comment); returns once either program ended or it ended both.
  private func watchForDeadlock(fallbackWindowMilliseconds: UInt64) {
    struct Look: Equatable {
      var moved: UInt64
      var learnerCPU: UInt64?
      var interactorCPU: UInt64?
    }
    func look() -> Look {
      Look(
        moved: toInteractor.bytesRead + toLearner.bytesRead + toInteractor.bytesWritten + toLearner.bytesWritten,
        learnerCPU: learnerInput.cpuMicrosecondsSeen, interactorCPU: interactorInput.cpuMicrosecondsSeen)
    }
    var reference = look()
    var since = DispatchTime.now().uptimeNanoseconds
    while true {
      Thread.sleep(forTimeInterval: 0.1)
      if state.withLock({ $0.learnerEnded || $0.interactorEnded }) { return }
      let now = look()
      let elapsedMicroseconds = (DispatchTime.now().uptimeNanoseconds - since) / 1000
      let allowance = UInt64(Double(elapsedMicroseconds) * InteractorRunner.idleCPUShare)
      func busy(_ before: UInt64?, _ after: UInt64?) -> Bool {
        guard let before, let after else { return before != nil || after != nil }
        return after > before + allowance
      }
      if now.moved != reference.moved || busy(reference.learnerCPU, now.learnerCPU)
        || busy(reference.interactorCPU, now.interactorCPU)
      {
        reference = now
        since = DispatchTime.now().uptimeNanoseconds
        continue
      }
      let measured = now.learnerCPU != nil && now.interactorCPU != nil
      let window = measured ? InteractorRunner.deadlockWindowMilliseconds : fallbackWindowMilliseconds
      guard elapsedMicroseconds >= window * 1000 else { continue }
      let stillRunning = state.withLock { state -> Bool in
        guard !state.learnerEnded, !state.interactorEnded else { return false }
        state.deadlocked = true
        return true
      }
      if stillRunning {
        learnerInput.kill()
        interactorInput.kill()
      }
      return
    }
  }
}

/// One direction of an interactive test's dialogue: what one program writes, on its way to the
/// other's stdin. The pump hands chunks over (`take`, which never blocks); a thread of its own
/// writes them to the target's stdin pipe (`run`), waiting while that pipe is full. At most `bound`
/// bytes wait here: past that the source's output is paused, so it blocks on its own full pipe.
final class InteractionRelay: Sendable {
  static let bound = 64 << 10

  private struct State {
    var chunks: [[UInt8]] = []
    var pending = 0
    var paused = false
    var sourceEnded = false
    /// The target's run is over: what arrives is dropped, so the source never waits on it.
    var targetEnded = false
    var finished = false
  }

  private let source: BoxLiveInput
  private let target: BoxLiveInput
  private let record: @Sendable ([UInt8]) -> Void
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let read = Atomic<UInt64>(0)
  private let written = Atomic<UInt64>(0)

  init(source: BoxLiveInput, target: BoxLiveInput, record: @escaping @Sendable ([UInt8]) -> Void) {
    self.source = source
    self.target = target
    self.record = record
  }

  var bytesRead: UInt64 { read.load(ordering: .relaxed) }
  var bytesWritten: UInt64 { written.load(ordering: .relaxed) }
  /// Whether the target's stdin was given its end (everything the source wrote was delivered).
  var targetFinished: Bool { state.withLock { $0.finished } }

  /// A chunk the source wrote (on its pump's thread).
  func take(_ bytes: [UInt8]) {
    read.add(UInt64(bytes.count), ordering: .relaxed)
    record(bytes)
    let pause = state.withLock { state -> Bool in
      guard !state.targetEnded else { return false }
      state.chunks.append(bytes)
      state.pending += bytes.count
      guard state.pending >= Self.bound, !state.paused else { return false }
      state.paused = true
      return true
    }
    if pause { source.pauseOutput() }
    wake.signal()
  }

  /// The source's stdout ended (or its run did): once what it wrote is delivered, the target's
  /// stdin ends.
  func sourceEnded() {
    state.withLock { $0.sourceEnded = true }
    wake.signal()
  }

  /// The target's run is over: drop what waits and what comes, and never hold the source back.
  func targetEnded() {
    state.withLock { state in
      state.targetEnded = true
      state.chunks = []
      state.pending = 0
      state.paused = false
    }
    source.resumeOutput()
    wake.signal()
  }

  /// The copying thread's loop; returns once the target's stdin was ended.
  func run() {
    while true {
      let next = state.withLock { state -> [UInt8]?? in
        if !state.chunks.isEmpty { return .some(state.chunks.removeFirst()) }
        if state.sourceEnded || state.targetEnded { return .some(nil) }
        return nil
      }
      switch next {
      case nil:
        wake.wait()
      case .some(nil):
        state.withLock { $0.finished = true }
        target.finish()
        return
      case .some(let chunk?):
        let delivered = target.send(chunk)
        written.add(UInt64(chunk.count), ordering: .relaxed)
        let resume = state.withLock { state -> Bool in
          state.pending = max(0, state.pending - chunk.count)
          guard state.paused, state.pending < Self.bound / 2 else { return false }
          state.paused = false
          return true
        }
        if resume { source.resumeOutput() }
        if !delivered { targetEnded() }
      }
    }
  }
}

/// The transcript both relays add to.
final class SharedTranscript: Sendable {
  private let builder = Mutex(TranscriptBuilder())

  func append(_ chunk: [UInt8], from side: InteractionSide) { builder.withLock { $0.append(chunk, from: side) } }

  var value: InteractionTranscript { builder.withLock { $0.transcript } }
}

/// Builds a transcript as chunks arrive from either side.
struct TranscriptBuilder {
  private(set) var transcript = InteractionTranscript()
  private var bytes = 0

  mutating func append(_ chunk: [UInt8], from side: InteractionSide) {
    guard !transcript.truncated else { return }
    let room = InteractionTranscript.maximumBytes - bytes
    var kept = chunk
    if chunk.count > room {
      kept = Array(chunk.prefix(room))
      // Whole UTF-8 characters only: a continuation byte belongs to the character before it.
      while let last = kept.last, last & 0xC0 == 0x80 { kept.removeLast() }
      if let last = kept.last, last >= 0xC0 { kept.removeLast() }
      transcript.truncated = true
    }
    bytes += kept.count
    guard !kept.isEmpty else { return }
    let text = String(decoding: kept, as: UTF8.self)
    if let last = transcript.turns.last, last.from == side {
      transcript.turns[transcript.turns.count - 1].text += text
    } else {
      transcript.turns.append(InteractionTranscript.Turn(from: side, text: text))
    }
  }
}
