import Foundation
import Sandbox
import Synchronization

/// What the fake environment answers to one command: the facts of a run as a box would have
/// measured them, and the files the run leaves in /box. The real classifier makes the `Outcome`
/// from them, so statuses and messages are those of a real box.
public struct FakeRun: Sendable {
  public var exitCode: Int32 = 0
  /// A signal that ended the program (then `exitCode` is ignored).
  public var signal: Int32?
  public var stdout = Data()
  public var stderr = Data()
  public var cpuMilliseconds: UInt64 = 1
  public var wallMilliseconds: UInt64 = 2
  public var memoryKilobytes: UInt64 = 1024
  public var killedForWallTime = false
  public var killedForCPUTime = false
  public var memoryLimitHit = false
  /// Files the run leaves in /box beside the command's own (a compiler's artifacts).
  public var leaves: [String: Data] = [:]

  public init(
    exitCode: Int32 = 0, signal: Int32? = nil, stdout: String = "", stderr: String = "", leaves: [String: Data] = [:]
  ) {
    self.exitCode = exitCode
    self.signal = signal
    self.stdout = Data(stdout.utf8)
    self.stderr = Data(stderr.utf8)
    self.leaves = leaves
  }
}

/// One command the fake ran, as it was given.
public struct FakeRecord: Sendable {
  public var command: BoxCommand
  public var layout: BoxLayout
  /// The limits the environment was got for.
  public var limits: BoxLimits
  public var argv: [String] { command.spec.command }
  public var files: [String: Data] {
    Dictionary(command.files.map { ($0.name, $0.contents) }, uniquingKeysWith: { _, last in last })
  }
  public var stdin: Data { command.stdin }
}

/// A box environment pool with no kernel behind it: every command is recorded and answered by a
/// script (`respond`), which may also throw a `SandboxError` to play a sandbox failure. Tests of
/// the router, the grader, the queue and the result formats run on it without root.
public final class FakeEnvironmentPool: BoxEnvironmentPool {
  public typealias Respond = @Sendable (BoxCommand) throws(SandboxError) -> FakeRun

  public let parallelism: Int
  private let respond: Respond
  private let state = Mutex(State())

  private struct State {
    var records: [FakeRecord] = []
    var out = 0
    var discards: [BoxDiscardReason: UInt64] = [:]
  }

  /// A pool whose commands `respond` answers; by default each exits 0 printing nothing.
  public init(parallelism: Int = 2, respond: @escaping Respond = { _ in FakeRun() }) {
    self.parallelism = parallelism
    self.respond = respond
  }

  /// Every command run so far, in order.
  public var records: [FakeRecord] { state.withLock { $0.records } }

  /// Environments got and not put back yet.
  public var environmentsOut: Int { state.withLock { $0.out } }

  public var discardCounts: [BoxDiscardReason: UInt64] { state.withLock { $0.discards } }

  /// Counts a discard, as a warm box pool would on a failed reset (metrics tests).
  public func countDiscard(_ reason: BoxDiscardReason) {
    state.withLock { $0.discards[reason, default: 0] += 1 }
  }

  public func get(layout: BoxLayout, limits: BoxLimits) throws(SandboxError) -> FakeEnvironment {
    // As a box: a live command's wall time may be longer, and the run is not known yet.
    if let problem = limits.violation(of: .liveCeilings) {
      throw SandboxError(step: "limits: \(problem)", errorNumber: EINVAL)
    }
    state.withLock { $0.out += 1 }
    return FakeEnvironment(pool: self, layout: layout, limits: limits)
  }

  public func put(_ environment: FakeEnvironment) {
    state.withLock { $0.out -= 1 }
  }

  public func drain() {}

  fileprivate func run(_ command: BoxCommand, layout: BoxLayout, limits: BoxLimits) throws(SandboxError) -> FakeRun {
    state.withLock { $0.records.append(FakeRecord(command: command, layout: layout, limits: limits)) }
    return try respond(command)
  }
}

/// One environment of a `FakeEnvironmentPool`: it runs one command like a box (the command must
/// fit the layout and limits it was got for) and keeps what the run left in /box for reading.
public final class FakeEnvironment: BoxEnvironment, @unchecked Sendable {
  private let pool: FakeEnvironmentPool
  public let layout: BoxLayout
  public let limits: BoxLimits
  private var files: [String: Data] = [:]

  init(pool: FakeEnvironmentPool, layout: BoxLayout, limits: BoxLimits) {
    self.pool = pool
    self.layout = layout
    self.limits = limits
  }

  public func run(_ command: BoxCommand) throws(SandboxError) -> Outcome {
    guard BoxLayout(command.spec) == layout, command.spec.limits == limits else {
      throw SandboxError(step: "run: the spec's mounts or limits differ from this box's", errorNumber: EINVAL)
    }
    for file in command.files {
      if let problem = BoxDirectory.validate(name: file.name) {
        throw SandboxError(step: "write \(file.name): \(problem)", errorNumber: EINVAL)
      }
      files[file.name] = file.contents
    }
    let run = try pool.run(command, layout: layout, limits: limits)
    files.merge(run.leaves) { _, left in left }
    var ending = BoxEnding(limits: limits)
    ending.waitStatus = run.signal ?? (run.exitCode & 0xff) << 8
    ending.killedForWallTime = run.killedForWallTime
    ending.killedForCPUTime = run.killedForCPUTime
    ending.cpuMilliseconds = run.cpuMilliseconds
    ending.wallMicroseconds = run.wallMilliseconds * 1000
    ending.memoryKilobytes = run.memoryKilobytes
    ending.memoryLimitHit = run.memoryLimitHit
    ending.outOfMemoryTexts = command.spec.outOfMemoryTexts
    let cap = Int(limits.outputBytesPerStream)
    ending.killedForOutput = run.stdout.count > cap || run.stderr.count > cap
    let output = CapturedOutput(
      stdout: run.stdout.prefix(cap), stderr: run.stderr.prefix(cap), stdoutTruncated: run.stdout.count > cap,
      stderrTruncated: run.stderr.count > cap)
    if let live = command.live {
      // Played as a box's pump would hand it over: what the cap keeps, stdout first.
      if !output.stdout.isEmpty { live.output(.stdout, [UInt8](output.stdout)) }
      if !output.stderr.isEmpty { live.output(.stderr, [UInt8](output.stderr)) }
      ending.killedOnRequest = live.input.killRequested
      live.input.endRun()
    }
    return Outcome(ending, output: output, accounting: "fake")
  }

  public func readFile(_ name: String, limit: Int) throws(SandboxError) -> Data {
    guard let data = files[name] else { throw SandboxError(step: "open \(name)", errorNumber: ENOENT) }
    guard data.count <= limit else { throw SandboxError(step: "read \(name): over \(limit) bytes", errorNumber: EFBIG) }
    return data
  }

  public func readTree(_ name: String, limit: Int) throws(SandboxError) -> [(String, Data)] {
    let tree = files.filter { $0.key.hasPrefix(name + "/") }.sorted { $0.key < $1.key }
    guard !tree.isEmpty else { throw SandboxError(step: "open \(name)", errorNumber: ENOENT) }
    guard tree.reduce(0, { $0 + $1.value.count }) <= limit else {
      throw SandboxError(step: "read \(name): over \(limit) bytes", errorNumber: EFBIG)
    }
    return tree.map { ($0.key, $0.value) }
  }
}
