internal import CSandbox
import Foundation
import Glibc
import SystemCore

/// What a pre-warmed program was started as: its spec, less what only the request knows (the
/// program's own name and arguments go through its stdin at handover). Two specs with the same
/// key start the same runtime in the same box under the same limits.
public struct PrewarmKey: Sendable, Hashable {
  let layout: BoxLayout
  let command: [String]
  let environment: [String]
  let workingDirectory: String
  let limits: String
  let policy: String
  let outOfMemoryTexts: [String]
  let mergesStderrIntoStdout: Bool

  public init(_ spec: BoxSpec) {
    layout = BoxLayout(spec)
    command = spec.command
    environment = spec.environment
    workingDirectory = spec.workingDirectory
    limits = String(describing: spec.limits)
    policy = spec.policy.name
    outOfMemoryTexts = spec.outOfMemoryTexts
    mergesStderrIntoStdout = spec.mergesStderrIntoStdout
  }
}

/// A first stage of a pre-warmed program: it compiles the learner's source, then writes `marker`
/// on its stderr (never the learner's: nothing of theirs has run yet) and runs it. Until the
/// marker the compile step's time limits hold; the marker ends the compile's figures and starts
/// the run's (its CPU and wall time count from there), and is not part of the output.
public struct PrewarmStage: Sendable {
  public let marker: Data
  public let cpuTimeMilliseconds: UInt64
  public let wallTimeMilliseconds: UInt64

  public init(marker: Data, cpuTimeMilliseconds: UInt64, wallTimeMilliseconds: UInt64) {
    self.marker = marker
    self.cpuTimeMilliseconds = cpuTimeMilliseconds
    self.wallTimeMilliseconds = wallTimeMilliseconds
  }
}

/// A box whose program started before anyone asked for it and now waits, blocked on its stdin,
/// for one learner's program: a warm box that serves exactly one run and is then destroyed, so a
/// pre-warmed process never holds two learners' code.
///
/// The box is a `WarmBox` like any other (namespaces, seccomp filter, rlimits, cgroup limits);
/// only the program starts early. It announces that its warm-up is over by writing `readyMarker`
/// on its stderr, which the host reads away, so the learner's program finds both output pipes
/// empty. At `handOver` the host removes the launcher's own files from /box, writes the
/// program's, restarts the cgroup's CPU count (the warm-up is not the learner's), and sends the
/// handover message and then the run's stdin on the program's stdin: its wall time counts from
/// there. Its memory is the same cgroup, so what the warm-up keeps resident counts against the
/// run's memory limit, as a cold start's own would.
public final class PrewarmedBox: @unchecked Sendable {
  public let key: PrewarmKey
  let box: WarmBox
  private var program: WarmBox.StartedProgram?
  private let launcherFiles: [String]
  /// Milliseconds from the box's creation to its program's ready marker.
  public let warmUpMilliseconds: UInt64
  private var destroyed = false

  /// Extra CPU seconds the RLIMIT_CPU backstop allows for the warm-up: the limit itself is
  /// enforced from the handover on the cgroup's figure, but the rlimit counts the whole process.
  static let warmUpCPUAllowanceMilliseconds: UInt64 = 5_000
  /// What the group held at the ready marker when the box was given a memory allowance: the
  /// group's limit is the run's plus this, and the run's reported peak is what it used above it.
  public private(set) var residentAtReadyBytes: UInt64 = 0

  /// Starts `spec` in a new box with `files` in /box and waits up to `timeoutMilliseconds` for its
  /// ready marker. Needs a cgroup: without one, a run's CPU time could not be counted from the
  /// handover.
  ///
  /// `warmUpMemoryBytes` above the run's memory limit lets a runtime hold what the learner's cold
  /// run would not have (Dart's compiler beside its VM): the warm-up runs under the run's limit plus
  /// that much; at the ready marker the limit becomes the run's plus what the group holds then
  /// (`residentAtReadyBytes`), so the learner's program has the room a cold run has.
  public init(
    host: SandboxHost, spec: BoxSpec, files: [BoxFile], readyMarker: Data, warmUpMemoryBytes: UInt64 = 0,
    timeoutMilliseconds: UInt64 = 30_000
  ) throws(SandboxError) {
    guard host.cgroups.mode != .rlimitOnly else {
      throw SandboxError(
        step: "a pre-warmed box needs a cgroup (its CPU time is counted from the handover)", errorNumber: ENOTSUP)
    }
    let began = monotonicMilliseconds()
    key = PrewarmKey(spec)
    launcherFiles = files.map(\.name)
    box = try WarmBox(host: host, layout: BoxLayout(spec))
    do throws(SandboxError) {
      try box.prepare(limits: spec.limits)
      for file in files { try box.writeFile(file.name, contents: file.contents, executable: file.executable) }
      var started = spec
      started.limits.cpuTimeMilliseconds = min(
        BoxLimits.ceilings.cpuTimeMilliseconds, spec.limits.cpuTimeMilliseconds + Self.warmUpCPUAllowanceMilliseconds)
      let memoryCeiling = BoxLimits.ceilings.memoryBytes
      started.limits.memoryBytes = min(memoryCeiling, spec.limits.memoryBytes + warmUpMemoryBytes)
      let program = try box.startProgram(started, live: nil)
      self.program = program
      try Self.awaitReady(program, process: box, marker: readyMarker, timeoutMilliseconds: timeoutMilliseconds)
      if warmUpMemoryBytes > 0 {
        guard let cgroup = box.lease.cgroup, let resident = cgroup.memoryCurrentBytes() else {
          throw SandboxError(step: "read a pre-warmed box's memory at its ready marker", errorNumber: EIO)
        }
        var run = started.limits
        run.memoryBytes = min(memoryCeiling, spec.limits.memoryBytes + resident)
        try cgroup.changeLimits(run)
        residentAtReadyBytes = run.memoryBytes - spec.limits.memoryBytes
      }
    } catch {
      box.destroy()
      throw error
    }
    warmUpMilliseconds = monotonicMilliseconds() - began
  }

  deinit { destroy() }

  /// Whether the program still waits: the box is alive and neither output pipe has anything to
  /// read (no output, no end of file).
  public var isWaiting: Bool {
    guard !destroyed, let program, box.isAlive else { return false }
    var fds = [
      pollfd(fd: program.stdout.rawValue, events: Int16(POLLIN), revents: 0),
      pollfd(fd: program.stderr.rawValue, events: Int16(POLLIN), revents: 0),
    ]
    return poll(&fds, 2, 0) == 0
  }

  /// Reads the program's stderr until it wrote exactly `marker`; anything else on either pipe,
  /// the box's end or the timeout fails the warm-up.
  private static func awaitReady(
    _ program: WarmBox.StartedProgram, process box: WarmBox, marker: Data, timeoutMilliseconds: UInt64
  ) throws(SandboxError) {
    let deadline = monotonicMilliseconds() + timeoutMilliseconds
    var seen = Data()
    var byte: UInt8 = 0
    while seen.count < marker.count {
      let now = monotonicMilliseconds()
      guard now < deadline, box.isAlive else {
        throw SandboxError(step: "a pre-warmed program did not become ready", errorNumber: ETIMEDOUT)
      }
      var fds = [
        pollfd(fd: program.stdout.rawValue, events: Int16(POLLIN), revents: 0),
        pollfd(fd: program.stderr.rawValue, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, 2, Int32(min(100, deadline - now)))
      if ready < 0 && errno == EINTR { continue }
      if fds[0].revents != 0 {
        throw SandboxError(step: "a pre-warmed program wrote on stdout before its handover", errorNumber: EPROTO)
      }
      guard fds[1].revents != 0 else { continue }
      // One byte at a time: nothing past the marker may be taken from the learner's stderr.
      let count = read(program.stderr.rawValue, &byte, 1)
      if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard count == 1 else {
        throw SandboxError(step: "a pre-warmed program closed its stderr before it was ready", errorNumber: EPROTO)
      }
      seen.append(byte)
      guard marker.starts(with: seen) else {
        throw SandboxError(step: "a pre-warmed program wrote on stderr before its handover", errorNumber: EPROTO)
      }
    }
  }

  /// Runs one learner's program in this box: `files` written into /box (after the launcher's own
  /// were removed), `handover` and then `stdin` on its stdin, under `spec`'s limits (which must have
  /// this box's key). The box is destroyed after, so it serves no one else. Returns nil, with
  /// nothing of the learner's run, when the box is not waiting any more or its files could not be
  /// placed: the caller then runs cold. Throws only when the sandbox failed during the run.
  public func handOver(spec: BoxSpec, files: [BoxFile], handover: Data, stdin: Data) throws(SandboxError)
    -> Outcome?
  {
    try handOver(spec: spec, files: files, handover: handover, stdin: stdin) { outcome, _ in outcome }
  }

  /// `handOver`, letting `finish` read what the program left in /box (a compiler's output) before
  /// the box is destroyed.
  public func handOver<Result>(
    spec: BoxSpec, files: [BoxFile], handover: Data, stdin: Data,
    finish: (Outcome, any BoxEnvironment) throws(SandboxError) -> Result
  ) throws(SandboxError) -> Result? {
    // Destroyed after the caller has its answer: tearing a box down (its init, namespaces, mounts
    // and cgroup) took longer than a pre-warmed Python run itself.
    defer { Self.destroyer.async { self.destroy() } }
    guard let program = takeProgram(spec: spec, files: files) else { return nil }
    let outcome = try box.awaitProgram(
      program, spec: spec, stdin: handover + stdin, live: nil, stage: nil, memoryAllowanceBytes: residentAtReadyBytes
    ).outcome
    return try finish(outcome, box)
  }

  /// `handOver` for a program that compiles `files` itself before it runs them (`stage`): the
  /// run's outcome, and what the compile used when its marker came (nil: it did not, and the
  /// outcome is the compile's, all of it).
  public func handOver(
    spec: BoxSpec, files: [BoxFile], handover: Data, stdin: Data, stage: PrewarmStage
  ) throws(SandboxError) -> (outcome: Outcome, compile: (cpuMicroseconds: UInt64, wallMicroseconds: UInt64)?)? {
    defer { Self.destroyer.async { self.destroy() } }
    guard let program = takeProgram(spec: spec, files: files) else { return nil }
    let ran = try box.awaitProgram(
      program, spec: spec, stdin: handover + stdin, live: nil, stage: stage, memoryAllowanceBytes: residentAtReadyBytes)
    return (ran.outcome, ran.stageUsage)
  }

  /// The waiting program, taken for one handover with the learner's `files` in place of the
  /// launcher's and the CPU count restarted; nil, with nothing of the learner's in the box, when
  /// `spec` is not the one it started with, it stopped waiting, or the files could not be placed.
  private func takeProgram(spec: BoxSpec, files: [BoxFile]) -> WarmBox.StartedProgram? {
    guard PrewarmKey(spec) == key, isWaiting, let program else { return nil }
    self.program = nil
    do throws(SandboxError) {
      try removeLauncherFiles()
      for file in files { try box.writeFile(file.name, contents: file.contents, executable: file.executable) }
    } catch {
      return nil
    }
    box.lease.cgroup?.restartCPUCount()
    return program
  }

  /// Unlinks the launcher's files (never through a link), and the directories they leave empty
  /// that the program's files do not need.
  private func removeLauncherFiles() throws(SandboxError) {
    let root = open(box.directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
    guard root >= 0 else { throw SandboxError(step: "open the pre-warmed box's directory", errorNumber: errno) }
    defer { close(root) }
    for name in launcherFiles {
      let parts = name.split(separator: "/").map(String.init)
      var directory = root
      var opened: [Int32] = []
      defer { for fd in opened { close(fd) } }
      for part in parts.dropLast() {
        let next = openat(directory, part, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard next >= 0 else { throw SandboxError(step: "open \(part) in a pre-warmed box", errorNumber: errno) }
        opened.append(next)
        directory = next
      }
      if unlinkat(directory, parts.last!, 0) != 0 {
        throw SandboxError(step: "remove \(name) from a pre-warmed box", errorNumber: errno)
      }
    }
  }

  /// Where used boxes are destroyed, one after another, off the requests' path.
  private static let destroyer = DispatchQueue(label: "dsa-run prewarmed box destroyer")

  /// Returns once every box handed over so far is destroyed (a daemon's shutdown leaves none).
  public static func awaitDestroyed() { destroyer.sync {} }

  /// Ends the program and removes the box; idempotent.
  public func destroy() {
    if destroyed { return }
    destroyed = true
    program = nil
    box.destroy()
  }
}
