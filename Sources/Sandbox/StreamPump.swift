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
    try systemCall("pipe2") { dsa_pipe_cloexec(&fds) }
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

  init() throws(SandboxError) {
    // Pipes made before a failing one close themselves as this init gives up.
    stdin = try .makePipe()
    stdout = try .makePipe()
    stderr = try .makePipe()
    report = try .makePipe()
    go = try .makePipe()
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
  }

  func closeAll() {
    for pair in [stdin, stdout, stderr, report, go] {
      pair.read.close()
      pair.write.close()
    }
  }
}

struct StreamPump {
  let input: Data
  private var inputOffset = 0
  // The parent's ends of the program's stdio, closed here as each stream ends.
  private let stdinPipe: OwnedDescriptor
  private let stdoutPipe: OwnedDescriptor
  private let stderrPipe: OwnedDescriptor
  /// The init's reports: a pipe of this run (closed here at its end), or a warm box's control
  /// socket (the box's own, only no longer watched).
  private let reportChannel: OwnedDescriptor
  private var reportsOpen = true
  private var stdinFD: Int32 { stdinPipe.rawValue }
  private var stdoutFD: Int32 { stdoutPipe.rawValue }
  private var stderrFD: Int32 { stderrPipe.rawValue }
  private var reportFD: Int32 { reportsOpen ? reportChannel.rawValue : -1 }
  let outputLimit: Int

  private(set) var stdout = Data()
  private(set) var stderr = Data()
  private(set) var stdoutTruncated = false
  private(set) var stderrTruncated = false
  private(set) var outputLimitExceeded = false
  private(set) var reports: [dsa_report] = []
  private var reportBytes = Data()
  /// Warm boxes: reports come as messages on the control socket, which
  /// stays open; the run ends with its report, not with the init.
  let warm: Bool
  /// Warm boxes: the init died (the box is broken).
  private(set) var initDied = false

  struct Watch {
    var wallTimeExceeded = false
    var cpuTimeExceeded = false
    var killedByUs = false
  }

  init(
    input: Data, stdin: OwnedDescriptor, stdout: OwnedDescriptor, stderr: OwnedDescriptor,
    report: OwnedDescriptor, outputLimit: Int, warm: Bool = false
  ) {
    self.warm = warm
    self.input = input
    self.stdinPipe = stdin
    self.stdoutPipe = stdout
    self.stderrPipe = stderr
    self.reportChannel = report
    self.outputLimit = outputLimit
  }

  /// Whether the run's end was reported: the program ended, or the init
  /// refused the command (then no program was started).
  private var runReported: Bool {
    reports.contains { report in
      let kind = UInt32(bitPattern: report.kind)
      let step = UInt32(bitPattern: report.step)
      return kind == DSA_REPORT_PROGRAM_ENDED.rawValue
        || (kind == DSA_REPORT_SETUP_FAILED.rawValue
          && [DSA_STEP_COMMAND.rawValue, DSA_STEP_RESET_SCRATCH.rawValue, DSA_STEP_FORK_PROGRAM.rawValue].contains(step))
    }
  }

  /// Runs until every pipe reached EOF and the run ended: the init exited
  /// (one-shot boxes) or reported the program's end (warm boxes).
  mutating func run(
    process: BoxProcess, started: UInt64, limits: BoxLimits, cpuMicroseconds: () -> UInt64?, kill: () -> Void
  ) -> Watch {
    var watch = Watch()
    let wallDeadline = started + limits.wallTimeMilliseconds
    let cpuLimitMicroseconds = limits.cpuTimeMilliseconds * 1000
    let processors = UInt64(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    var nextCPUCheck = started + 5
    var initExited = false
    if input.isEmpty { closeStdin() }
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 65_536, alignment: 16)
    defer { buffer.deallocate() }

    func killBox() {
      if !watch.killedByUs {
        watch.killedByUs = true
        kill()
      }
    }

    while true {
      var fds: [pollfd] = []
      if !initExited { fds.append(pollfd(fd: process.pidfd, events: Int16(POLLIN), revents: 0)) }
      if stdoutFD >= 0 { fds.append(pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)) }
      if stderrFD >= 0 { fds.append(pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)) }
      if reportFD >= 0 { fds.append(pollfd(fd: reportFD, events: Int16(POLLIN), revents: 0)) }
      if stdinFD >= 0 { fds.append(pollfd(fd: stdinFD, events: Int16(POLLOUT), revents: 0)) }
      if fds.isEmpty { break }

      let now = monotonicMilliseconds()
      var timeout: UInt64 = 1_000
      if !watch.killedByUs {
        timeout = wallDeadline > now ? wallDeadline - now : 0
        timeout = min(timeout, nextCPUCheck > now ? nextCPUCheck - now : 0)
      }
      let ready = poll(&fds, nfds_t(fds.count), Int32(min(timeout, 1_000)))
      if ready < 0 && errno != EINTR { break }

      for entry in fds where entry.revents != 0 {
        switch entry.fd {
        case process.pidfd:
          initExited = true
        case stdoutFD:
          drain(isStdout: true, buffer: buffer)
        case stderrFD:
          drain(isStdout: false, buffer: buffer)
        case reportFD:
          readReports(buffer: buffer)
        case stdinFD:
          feed()
        default:
          break
        }
      }
      if outputLimitExceeded { killBox() }
      if warm {
        if initExited { initDied = true }
        if initExited || (runReported && stdoutFD < 0 && stderrFD < 0) {
          closeStdin()
          break
        }
      }
      if initExited {
        closeStdin()
        continue
      }
      if watch.killedByUs { continue }

      let after = monotonicMilliseconds()
      if after >= wallDeadline {
        watch.wallTimeExceeded = true
        killBox()
        continue
      }
      if after >= nextCPUCheck {
        if let used = cpuMicroseconds() {
          if used > cpuLimitMicroseconds {
            watch.cpuTimeExceeded = true
            killBox()
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
    return watch
  }

  private func closeStdin() {
    stdinPipe.close()
  }

  private mutating func feed() {
    // A program that exits without reading its input closes the pipe, and a write then raises
    // SIGPIPE, whose default kills the whole process (the CLI exits 141, a test run dies). Blocked
    // on this thread, it leaves the write its EPIPE; a SIGPIPE left pending by it is taken back.
    var sigpipe = sigset_t()
    sigemptyset(&sigpipe)
    sigaddset(&sigpipe, SIGPIPE)
    var previousMask = sigset_t()
    pthread_sigmask(SIG_BLOCK, &sigpipe, &previousMask)
    defer {
      var pending = sigset_t()
      sigpending(&pending)
      if sigismember(&pending, SIGPIPE) == 1, sigismember(&previousMask, SIGPIPE) == 0 {
        var now = timespec()
        _ = sigtimedwait(&sigpipe, nil, &now)
      }
      pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }
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
      let count = Glibc.read(fd, buffer, 65_536)
      if count > 0 {
        let kept = isStdout ? stdout.count : stderr.count
        let room = outputLimit - kept
        if room > 0 {
          let bytes = UnsafeRawBufferPointer(start: buffer, count: min(room, count))
          if isStdout { stdout.append(contentsOf: bytes) } else { stderr.append(contentsOf: bytes) }
        }
        if count > room {
          if isStdout { stdoutTruncated = true } else { stderrTruncated = true }
          outputLimitExceeded = true
        }
        continue
      }
      if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
      (isStdout ? stdoutPipe : stderrPipe).close()
      return
    }
  }

  private mutating func readReports(buffer: UnsafeMutableRawPointer) {
    while true {
      let count = warm ? recv(reportFD, buffer, 4096, Int32(MSG_DONTWAIT)) : Glibc.read(reportFD, buffer, 4096)
      if count > 0 {
        reportBytes.append(buffer.assumingMemoryBound(to: UInt8.self), count: count)
        continue
      }
      if count < 0 && (errno == EAGAIN || errno == EINTR) { break }
      if warm {
        initDied = true
      } else {
        reportChannel.close()
      }
      reportsOpen = false
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
