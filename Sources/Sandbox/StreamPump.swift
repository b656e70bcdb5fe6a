internal import CSandbox
import Foundation
import Glibc
import SystemCore

// The parent's side of a run: one poll loop that feeds stdin, drains stdout
// and stderr with a cap each, collects the init's reports, and enforces the
// wall-clock and box-wide CPU limits. Feeding and draining happen in the same
// loop, so a program that writes before it reads can never deadlock us.

/// A pipe's two ends, each closing itself.
typealias PipePair = OwnedPair

extension OwnedPair {
  static func makePipe() throws(SandboxError) -> OwnedPair {
    var fds: [Int32] = [-1, -1]
    try SandboxError.systemCall("pipe2") { dsa_pipe_cloexec(&fds) }
    return OwnedPair(fds)
  }

  /// A box's go pair: `read` is the init's end, `write` the parent's. A socket pair, not a pipe, so
  /// the parent can send the init descriptors on it (`dsa_send_cgroup_join`).
  static func makeGoPair() throws(SandboxError) -> OwnedPair {
    var fds: [Int32] = [-1, -1]
    try SandboxError.systemCall("socketpair for the box's go messages") { dsa_seqpacket_pair(&fds) }
    return OwnedPair(fds)
  }
}

/// The five pipes of a run. All are O_CLOEXEC: the init closes what it does
/// not own, and the program's stdio are dup2'ed (which clears the flag).
/// The parent ends go on to the `StreamPump`, which closes each as its stream ends.
struct PipeSet {
  var stdin: PipePair
  var stdout: PipePair
  var stderr: PipePair
  var report: PipePair
  var go: PipePair
  /// A one-shot box's terminal socket pair (`dsa_spawn_plan.terminal_fd`); closed ends when none.
  var terminal = PipePair(read: OwnedDescriptor(-1), write: OwnedDescriptor(-1))
  /// A one-shot live run's command socket pair (`dsa_spawn_plan.command_fd`): `read` is ours,
  /// `write` the init's. Closed ends when none.
  var commands = PipePair(read: OwnedDescriptor(-1), write: OwnedDescriptor(-1))

  init() throws(SandboxError) {
    // Pipes made before a failing one close themselves as this init gives up.
    stdin = try .makePipe()
    stdout = try .makePipe()
    stderr = try .makePipe()
    report = try .makePipe()
    go = try .makeGoPair()
    for fd in [stdin.write, stdout.read, stderr.read, report.read] {
      _ = fcntl(fd.rawValue, F_SETFL, fcntl(fd.rawValue, F_GETFL) | O_NONBLOCK)
    }
  }

  func closeChildEnds() {
    stdin.read.close()
    stdout.write.close()
    stderr.write.close()
    report.write.close()
    go.read.close()
    terminal.write.close()
    commands.write.close()
  }

  func closeAll() {
    for pair in [stdin, stdout, stderr, report, go, terminal, commands] {
      pair.read.close()
      pair.write.close()
    }
  }
}

/// Where a box's init reports (`dsa_report` records: setup failures, the program's end) and when
/// a run is over on it: a one-shot box's report pipe (`InitReportPipe`, Box.swift), a warm box's
/// control socket (`ControlSocketReports`, WarmBox.swift).
protocol InitReportChannel {
  /// Polled for reports; -1 once the init hung up.
  var fd: Int32 { get }
  /// Reads what is ready without waiting: the byte count, 0 at hang-up, or -1 with errno set.
  func receive(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int
  /// The init hung up its end.
  mutating func hangUp()
  /// Whether `hangUp()` was called.
  var hungUp: Bool { get }
  /// Whether the run is over, from what the pump saw so far.
  func runIsOver(initExited: Bool, outputClosed: Bool, reports: [dsa_report]) -> Bool
}

/// Not generic over its channel: the one-shot box's `StreamPump<InitReportPipe>` had its metadata
/// built at run time, with a scan of every protocol conformance in the binary to check the
/// requirement, on every CLI start.
struct StreamPump {
  /// Processors online, read once: sysconf reads /sys at every call, and a warm run is short.
  private static let processors = UInt64(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  let input: Data
  private var inputOffset = 0
  // The parent's ends of the program's stdio, closed here as each stream ends.
  private let stdinPipe: OwnedDescriptor
  private let stdoutPipe: OwnedDescriptor
  private let stderrPipe: OwnedDescriptor
  private var stdinFD: Int32 { stdinPipe.rawValue }
  private var stdoutFD: Int32 { stdoutPipe.rawValue }
  private var stderrFD: Int32 { stderrPipe.rawValue }
  private(set) var channel: any InitReportChannel
  let outputLimit: Int
  /// A live run's input, output callback and idle bound; nil for a run with all its stdin given.
  let live: BoxLive?
  /// When the program last took input or had output read (the idle bound).
  private var lastActivity: UInt64 = 0
  /// The most input the program was seen to have taken from the live pipe (without a terminal).
  private var inputTaken: UInt64 = 0
  /// With a terminal: a copy of the pty master that input is written to (stdout reads the master),
  /// the input read from the live pipe and not written yet, and whether the pipe is still open.
  private let terminalInput: OwnedDescriptor
  private var pendingInput: [UInt8] = []
  private var liveInputOpen = true
  private var lastInputByte: UInt8 = 0x0a

  private(set) var output = CapturedOutput()
  private(set) var outputLimitExceeded = false
  private(set) var reports: [dsa_report] = []
  private var reportBytes = Data()
  /// The init exited (its pidfd became readable) during the run.
  private(set) var initExited = false
  private(set) var watch = Watch()
  /// A program that compiles before it runs (`PrewarmStage`): its marker is still awaited at the
  /// start of stderr while this is set.
  private var awaitedStage: PrewarmStage?
  /// Set when the stage's marker was read, until the run loop has ended the stage.
  private var stageMarkerRead = false
  /// What the stage before the marker used: its CPU time (from the cgroup) and wall time. Nil when
  /// no marker came (no stage, or the program ended before it: a failed compile).
  private(set) var stageUsage: (cpuMicroseconds: UInt64, wallMicroseconds: UInt64)?

  struct Watch {
    var wallTimeExceeded = false
    var cpuTimeExceeded = false
    var killedByUs = false
    var killedOnRequest = false
    var killedForIdle = false
  }

  init(
    input: Data, stdin: OwnedDescriptor, stdout: OwnedDescriptor, stderr: OwnedDescriptor,
    reports: any InitReportChannel,
    outputLimit: Int, live: BoxLive? = nil, terminal: Bool = false
  ) {
    self.live = live
    terminalInput = OwnedDescriptor(terminal && live != nil ? fcntl(stdout.rawValue, F_DUPFD_CLOEXEC, 0) : -1)
    if terminal { _ = fcntl(stdout.rawValue, F_SETFL, fcntl(stdout.rawValue, F_GETFL) | O_NONBLOCK) }
    self.input = input
    self.stdinPipe = stdin
    self.stdoutPipe = stdout
    self.stderrPipe = stderr
    self.channel = reports
    self.outputLimit = outputLimit
  }

  /// Runs the program's first stage (a compile) under `stage`'s time limits; the run's own limits
  /// and counts start when its marker arrives, and the marker is not output.
  mutating func expect(_ stage: PrewarmStage) { awaitedStage = stage }

  /// The first report of this kind, if the init sent one.
  func report(_ kind: dsa_report_kind) -> dsa_report? {
    reports.first { UInt32(bitPattern: $0.kind) == kind.rawValue }
  }

  /// What the pump enforced, as the classifier's facts (the box adds what it measured).
  func ending(spec: BoxSpec, wallMicroseconds: UInt64) -> BoxEnding {
    var ending = BoxEnding(limits: spec.limits)
    ending.killedForWallTime = watch.wallTimeExceeded
    ending.killedForCPUTime = watch.cpuTimeExceeded
    ending.killedForOutput = outputLimitExceeded
    ending.wallMicroseconds = wallMicroseconds
    ending.outOfMemoryTexts = spec.outOfMemoryTexts
    ending.stderrIsInStdout = spec.mergesStderrIntoStdout && !spec.terminal
    ending.killedOnRequest = watch.killedOnRequest
    ending.killedForIdle = watch.killedForIdle
    ending.idleLimitMilliseconds = live?.idleLimitMilliseconds ?? 0
    return ending
  }

  /// Runs until the channel says the run is over: every pipe reached EOF and the init exited
  /// (one-shot boxes), or the init reported the program's end (warm boxes). `signal` hands a live
  /// run's signal requests to the init, which alone knows whether the program is still there.
  mutating func run(
    process: BoxProcess, started: UInt64, limits: BoxLimits, cpuMicroseconds: () -> UInt64?, kill: () -> Void,
    signal: (Int32) -> Void = { _ in }, restartCPUCount: () -> Void = {}
  ) {
    watch = Watch()
    let startedMicroseconds = monotonicMicroseconds()
    var wallDeadline = started + (awaitedStage?.wallTimeMilliseconds ?? limits.wallTimeMilliseconds)
    var cpuLimitMicroseconds = (awaitedStage?.cpuTimeMilliseconds ?? limits.cpuTimeMilliseconds) * 1000
    let processors = Self.processors
    var nextCPUCheck = started + 5
    lastActivity = started
    inputTaken = 0
    if input.isEmpty { closeStdin() }
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 65_536, alignment: 16)
    defer { buffer.deallocate() }

    func killBox(_ watch: inout Watch) {
      if !watch.killedByUs {
        watch.killedByUs = true
        kill()
      }
    }

    while true {
      var fds: [pollfd] = []
      let reading = readsOutput()
      if !initExited { fds.append(pollfd(fd: process.pidfd, events: Int16(POLLIN), revents: 0)) }
      if reading && stdoutFD >= 0 { fds.append(pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)) }
      if reading && stderrFD >= 0 { fds.append(pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)) }
      if channel.fd >= 0 { fds.append(pollfd(fd: channel.fd, events: Int16(POLLIN), revents: 0)) }
      if stdinFD >= 0 { fds.append(pollfd(fd: stdinFD, events: Int16(POLLOUT), revents: 0)) }
      if fds.isEmpty { break }
      if let live, !watch.killedByUs {
        fds.append(pollfd(fd: live.input.wakeFD, events: Int16(POLLIN), revents: 0))
        if terminalInput.isOpen && stdoutFD >= 0 {
          if !pendingInput.isEmpty {
            fds.append(pollfd(fd: terminalInput.rawValue, events: Int16(POLLOUT), revents: 0))
          } else if liveInputOpen, live.input.readEnd >= 0 {
            fds.append(pollfd(fd: live.input.readEnd, events: Int16(POLLIN), revents: 0))
          }
        }
      }

      let now = monotonicMilliseconds()
      var timeout: UInt64 = 1_000
      if !watch.killedByUs {
        timeout = wallDeadline > now ? wallDeadline - now : 0
        timeout = min(timeout, nextCPUCheck > now ? nextCPUCheck - now : 0)
        if let idleDeadline = idleDeadline() { timeout = min(timeout, idleDeadline > now ? idleDeadline - now : 0) }
        // Input taken is seen only by looking, so looks are frequent enough for the bound to be
        // overrun by a quarter at most.
        if let idle = live?.idleLimitMilliseconds { timeout = min(timeout, max(10, idle / 4)) }
      }
      let ready = poll(&fds, nfds_t(fds.count), Int32(min(timeout, 1_000)))
      if ready < 0 && errno != EINTR { break }
      // Not while the output is paused: the program may be in the middle of a line then.
      if ready == 0 && reading { live?.outputRests?() }

      for entry in fds where entry.revents != 0 {
        switch entry.fd {
        case process.pidfd:
          initExited = true
        // Looked at again for each: the callback may have paused the output while handing over the
        // other stream's chunk.
        case stdoutFD:
          if readsOutput() { drain(isStdout: true, buffer: buffer) }
        case stderrFD:
          if readsOutput() { drain(isStdout: false, buffer: buffer) }
        case channel.fd:
          readReports(buffer: buffer)
        case stdinFD:
          feed()
        case live?.input.wakeFD:
          live?.input.drainWake()
        case terminalInput.rawValue:
          typeIntoTerminal()
        case live?.input.readEnd:
          takeTerminalInput(buffer: buffer)
        default:
          break
        }
      }
      if outputLimitExceeded { killBox(&watch) }
      if let live, live.input.killRequested, !watch.killedByUs {
        watch.killedOnRequest = true
        killBox(&watch)
      }
      if let live, !watch.killedByUs, !initExited {
        for number in live.input.takeSignals() { signal(number) }
      }
      if stageMarkerRead {
        // The compile is over: what it used is its own, and the run's limits count from here.
        stageMarkerRead = false
        stageUsage = (cpuMicroseconds() ?? 0, monotonicMicroseconds() - startedMicroseconds)
        restartCPUCount()
        let now = monotonicMilliseconds()
        wallDeadline = now + limits.wallTimeMilliseconds
        cpuLimitMicroseconds = limits.cpuTimeMilliseconds * 1000
        nextCPUCheck = now + 5
      }
      if initExited { closeStdin() }
      if channel.runIsOver(initExited: initExited, outputClosed: stdoutFD < 0 && stderrFD < 0, reports: reports) {
        break
      }
      if initExited || watch.killedByUs { continue }

      noteInputTaken()
      let after = monotonicMilliseconds()
      if after >= wallDeadline {
        watch.wallTimeExceeded = true
        killBox(&watch)
        continue
      }
      if let idleDeadline = idleDeadline(), after >= idleDeadline {
        watch.killedForIdle = true
        killBox(&watch)
        continue
      }
      if after >= nextCPUCheck {
        if let used = cpuMicroseconds() {
          live?.input.noteCPU(used)
          if used > cpuLimitMicroseconds {
            watch.cpuTimeExceeded = true
            killBox(&watch)
            continue
          }
          // The box cannot burn CPU faster than all processors at once, so
          // the next look is due no sooner than that could reach the limit.
          let remaining = (cpuLimitMicroseconds - used) / 1000 / processors
          nextCPUCheck = after + max(5, min(remaining, 250))
        } else {
          // rlimit-only: RLIMIT_CPU per process is the enforcement.
          nextCPUCheck = UInt64.max
        }
      }
    }
    // A warm box's run can end with its init gone while a pipe is still
    // open; nothing more will come through it.
    closeStdin()
    stdoutPipe.close()
    stderrPipe.close()
    terminalInput.close()
  }

  /// Whether the program's output is read now: always, but for a live run whose consumer paused
  /// it while the program runs. Once the program is over (or being killed) what its pipes hold is
  /// read anyway, so a paused run still ends.
  private func readsOutput() -> Bool {
    guard let live, live.input.outputPaused else { return true }
    return watch.killedByUs || channel.runIsOver(initExited: initExited, outputClosed: true, reports: reports)
  }

  private func closeStdin() {
    stdinPipe.close()
  }

  /// Reads what was sent from the live pipe, to type it into the pty. Its end (`finish`) is a ^D,
  /// which the pty's line discipline reads as end of input at the start of a line; after a partial
  /// line a first ^D only sends the line, so two are typed.
  private mutating func takeTerminalInput(buffer: UnsafeMutableRawPointer) {
    guard let live else { return }
    let count = Glibc.read(live.input.readEnd, buffer, 4096)
    if count > 0 {
      pendingInput = Array(UnsafeRawBufferPointer(start: buffer, count: count))
      lastInputByte = pendingInput[count - 1]
    } else if count == 0 {
      liveInputOpen = false
      pendingInput = lastInputByte == 0x0a || lastInputByte == 0x0d ? [0x04] : [0x04, 0x04]
    }
  }

  private mutating func typeIntoTerminal() {
    let written = pendingInput.withUnsafeBytes { Glibc.write(terminalInput.rawValue, $0.baseAddress!, $0.count) }
    if written > 0 {
      pendingInput.removeFirst(written)
      // The pty's input queue is small (a few KiB), so typing counts as the program's taking input
      // only up to that bound when it does not read.
      lastActivity = monotonicMilliseconds()
    } else if written < 0 && errno != EAGAIN && errno != EINTR {
      // EIO: the program and its terminal are gone.
      pendingInput = []
      terminalInput.close()
    }
  }

  /// When a live run with an idle bound will have gone that long with no input taken by the
  /// program and no output read from it.
  private func idleDeadline() -> UInt64? {
    guard let live, let idle = live.idleLimitMilliseconds else { return nil }
    return lastActivity + idle
  }

  /// Without a terminal, input the program took from the live pipe since the last look is
  /// activity; bytes the client sent that wait in the pipe are not. (With a terminal the pump's
  /// own reads empty the pipe, and typing into the pty is counted instead.)
  private mutating func noteInputTaken() {
    guard let live, live.idleLimitMilliseconds != nil, !live.terminal else { return }
    guard let taken = live.input.inputTakenAtLeast(), taken > inputTaken else { return }
    inputTaken = taken
    lastActivity = monotonicMilliseconds()
  }

  private mutating func feed() {
    // A program that exits without reading its input closes the pipe; the write then gets EPIPE.
    withSIGPIPEBlocked { feedUntilFull() }
  }

  private mutating func feedUntilFull() {
    while inputOffset < input.count {
      let written = input.withUnsafeBytes { bytes in
        Glibc.write(stdinFD, bytes.baseAddress! + inputOffset, min(65_536, input.count - inputOffset))
      }
      if written > 0 {
        inputOffset += written
        continue
      }
      if written < 0 && (errno == EAGAIN || errno == EINTR) { return }
      // EPIPE: the program stopped reading; the rest of its input is moot.
      break
    }
    closeStdin()
  }

  private mutating func drain(isStdout: Bool, buffer: UnsafeMutableRawPointer) {
    let fd = isStdout ? stdoutFD : stderrFD
    while true {
      var count = Glibc.read(fd, buffer, 65_536)
      var start = buffer
      if count > 0, !isStdout, let stage = awaitedStage {
        // The marker is one write of a few bytes, so it comes whole in one read or not at all.
        awaitedStage = nil
        let marker = stage.marker
        if count >= marker.count, marker.elementsEqual(UnsafeRawBufferPointer(start: buffer, count: marker.count)) {
          stageMarkerRead = true
          start += marker.count
          count -= marker.count
          if count == 0 { continue }
        }
      }
      if count > 0 {
        let kept = isStdout ? output.stdout.count : output.stderr.count
        let room = outputLimit - kept
        if room > 0 {
          let bytes = UnsafeRawBufferPointer(start: start, count: min(room, count))
          output.append(bytes, from: isStdout ? .stdout : .stderr)
          if let live {
            lastActivity = monotonicMilliseconds()
            live.output(isStdout ? .stdout : .stderr, Array(bytes))
          }
        }
        if count > room {
          if isStdout { output.stdoutTruncated = true } else { output.stderrTruncated = true }
          outputLimitExceeded = true
        }
        // One chunk per poll when live: the callback may have paused the output, which must hold
        // before the next read, and a program writing as fast as we read would keep the pipe from
        // ever running dry, so the limits and kill requests would not be looked at.
        if live != nil { return }
        continue
      }
      if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
      (isStdout ? stdoutPipe : stderrPipe).close()
      if isStdout { live?.stdoutEnded?() }
      return
    }
  }

  private mutating func readReports(buffer: UnsafeMutableRawPointer) {
    while true {
      let count = channel.receive(into: buffer, capacity: 4096)
      if count > 0 {
        reportBytes.append(buffer.assumingMemoryBound(to: UInt8.self), count: count)
        continue
      }
      if count < 0 && (errno == EAGAIN || errno == EINTR) { break }
      channel.hangUp()
      break
    }
    let size = MemoryLayout<dsa_report>.size
    while reportBytes.count >= size {
      var record = dsa_report()
      _ = withUnsafeMutableBytes(of: &record) { target in
        reportBytes.prefix(size).copyBytes(to: target.bindMemory(to: UInt8.self))
      }
      reports.append(record)
      reportBytes = Data(reportBytes.dropFirst(size))
    }
  }
}
