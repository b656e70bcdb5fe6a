internal import CSandbox
import Foundation
import Glibc
import Synchronization
import SystemCore

// A live run's streams, the host side: stdin fed while the program runs (`BoxLiveInput`, a pipe
// whose write end callers write to from any thread) and output handed to a callback as the pump
// reads it (`BoxLive.output`). The pump (StreamPump.swift) runs everything else of a live run on
// its own thread: kill requests, the idle bound and, with a terminal, the copy from the input
// pipe to the pty master (the master is made per run, so input sent before it exists waits in
// the pipe). The pump never waits on whoever takes the output: the callback must not block, and a
// consumer that cannot keep up pauses the reading (`BoxLiveInput.pauseOutput`), which leaves the
// program blocked on its full pipe while every limit is still enforced.

/// Which stream of the program a chunk of live output came from.
public enum BoxStream: Sendable {
  case stdout
  case stderr
}

/// What a command runs with when it runs live (`BoxCommand.live`).
public struct BoxLive: Sendable {
  public var input: BoxLiveInput
  /// A pty inside the box (on the box's own devpts instance) as the program's stdin, stdout and
  /// stderr; everything it prints then arrives as `.stdout`.
  public var terminal: Bool
  /// Ends the run when for this long the program took no input and no output was read from it.
  /// Taken input is what left the input pipe (its unread count, `FIONREAD`, against what was
  /// written into it), or with a terminal what the pump typed into the pty (whose input queue is
  /// small and bounded); bytes merely sent and waiting in the pipe are not activity, nor is time
  /// spent with the output paused.
  public var idleLimitMilliseconds: UInt64?
  /// Called on the pump's thread with each chunk as it is read, in order, at most what the output
  /// cap keeps of each stream. It must not block: while it runs the pump looks at no limit. A
  /// consumer that cannot take more calls `input.pauseOutput()` (from here or any thread); the
  /// chunk being handed over still arrives, and after the program's end the rest of its output
  /// (what its pipes hold, within the cap) arrives paused or not.
  public var output: @Sendable (BoxStream, [UInt8]) -> Void
  /// Called on the pump's thread when a look at the program found nothing to do (no output, no
  /// input, no request) for a whole poll period: the program's output has stopped for now, e.g.
  /// at a prompt. A consumer that holds back the end of a chunk until the next one tells what it
  /// is (`LearnerNameStream`) gives it out here. It must not block either.
  public var outputRests: (@Sendable () -> Void)?
  /// Called on the pump's thread once the program's stdout reaches its end: the program (and every
  /// process it started) closed it, which may be before the program ends. An interactive test
  /// gives the interactor its end of input then (`InteractorRun`). It must not block.
  public var stdoutEnded: (@Sendable () -> Void)?

  public init(
    input: BoxLiveInput, terminal: Bool = false, idleLimitMilliseconds: UInt64? = nil,
    output: @escaping @Sendable (BoxStream, [UInt8]) -> Void, outputRests: (@Sendable () -> Void)? = nil,
    stdoutEnded: (@Sendable () -> Void)? = nil
  ) {
    self.input = input
    self.terminal = terminal
    self.idleLimitMilliseconds = idleLimitMilliseconds
    self.output = output
    self.outputRests = outputRests
    self.stdoutEnded = stdoutEnded
  }
}

/// The caller's end of a live run's stdin: a pipe (its capacity is the bound: `send` waits while it
/// is full, which is the backpressure towards whoever types), a kill request, signal requests, the
/// output's flow control (`pauseOutput`, `resumeOutput`), and how many bytes were written into the
/// pipe (the idle bound: what the program took is that less what the pipe still holds). Without a
/// terminal the pipe's read end is the program's stdin itself; with one the pump copies from it to
/// the pty. Thread-safe; one run uses it, after which (`endRun`) every `send` returns false.
public final class BoxLiveInput: @unchecked Sendable {
  private struct State {
    var writeEnd: Int32
    var readEnd: Int32
    var writers = 0
    var finishRequested = false
    var ended = false
  }

  private let state: Mutex<State>
  /// One sender at a time, so one `send`'s bytes are never interleaved with another's.
  private let sendLock = NSLock()
  private let killRequestedFlag = Atomic<Bool>(false)
  /// Signals asked for and not yet handed to the box's init, oldest first.
  private let requestedSignals = Mutex<[Int32]>([])
  /// More pending than this and a request is refused: a client cannot queue without bound.
  static let maximumPendingSignals = 64
  /// Bytes written into the pipe so far; the pump compares it with the pipe's unread count.
  private let writtenBytes = Atomic<UInt64>(0)
  private let outputPausedFlag = Atomic<Bool>(false)
  /// The box's CPU time as the pump last read it (its cgroup's), or `UInt64.max` before the first
  /// reading and when the box has no cgroup to read.
  private let cpuSeen = Atomic<UInt64>(UInt64.max)
  /// Written at each request (kill, signal, pause, resume), so the pump's poll wakes at once.
  private let wake: OwnedPair

  /// A live input; throws only when the process is out of descriptors.
  public init() throws(SandboxError) {
    let pipe = try OwnedPair.makePipe()
    wake = try OwnedPair.makePipe()
    for fd in [pipe.write.rawValue, wake.read.rawValue, wake.write.rawValue] {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    state = Mutex(State(writeEnd: pipe.write.take(), readEnd: pipe.read.take()))
  }

  deinit {
    state.withLock { state in
      if state.writeEnd >= 0 { Glibc.close(state.writeEnd) }
      if state.readEnd >= 0 { Glibc.close(state.readEnd) }
    }
  }

  /// Writes all of `bytes` to the program's stdin, waiting while the pipe is full. False once the
  /// run has ended, the input was finished or killed, or the program closed its stdin (then part
  /// of `bytes` may have been written).
  @discardableResult
  public func send(_ bytes: [UInt8]) -> Bool {
    sendLock.lock()
    defer { sendLock.unlock() }
    let fd = state.withLock { state -> Int32 in
      guard !state.ended, !state.finishRequested, state.writeEnd >= 0 else { return -1 }
      state.writers += 1
      return state.writeEnd
    }
    guard fd >= 0 else { return false }
    var written = 0
    var failed = false
    withSIGPIPEBlocked {
      while written < bytes.count {
        if killRequested || state.withLock({ $0.ended }) {
          failed = true
          return
        }
        let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
        if count > 0 {
          written += count
          writtenBytes.add(UInt64(count), ordering: .sequentiallyConsistent)
          continue
        }
        if count < 0 && errno == EINTR { continue }
        if count < 0 && errno == EAGAIN {
          // Woken by room in the pipe; the timeout is for the end of the run, which wakes no one.
          var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          _ = poll(&entry, 1, 50)
          continue
        }
        // EPIPE: nobody reads the pipe any more.
        failed = true
        return
      }
    }
    state.withLock { state in
      state.writers -= 1
      if state.writers == 0, state.finishRequested || state.ended { closeWriteEnd(&state) }
    }
    return !failed
  }

  /// The end of input: EOF on the pipe (with a terminal, the pump types ^D). Later sends return false.
  public func finish() {
    state.withLock { state in
      state.finishRequested = true
      if state.writers == 0 { closeWriteEnd(&state) }
    }
  }

  /// Asks the pump to kill the program now (at once when the run is under way, as soon as it starts
  /// otherwise). Later sends return false.
  public func kill() {
    killRequestedFlag.store(true, ordering: .sequentiallyConsistent)
    wakePump(0x6b)
  }

  /// Asks the pump to stop reading the program's output: the program then blocks once its pipe
  /// (or its pty) is full, which is the backpressure towards a consumer that cannot keep up. The
  /// wall and CPU limits, the idle bound, kill and signal requests hold as ever while output is
  /// paused, and paused time is not activity for the idle bound. A chunk the pump is handing over
  /// as this is called still arrives; after the program's end its remaining output is read (within
  /// the cap) whether paused or not, so a paused run still ends. Callable from any thread,
  /// including from within the output callback, before the run starts too. Pausing is a state,
  /// not a count: one `resumeOutput` undoes any number of pauses.
  public func pauseOutput() {
    outputPausedFlag.store(true, ordering: .sequentiallyConsistent)
    wakePump(0x70)
  }

  /// Undoes `pauseOutput`: the pump reads the program's output again.
  public func resumeOutput() {
    outputPausedFlag.store(false, ordering: .sequentiallyConsistent)
    wakePump(0x72)
  }

  /// Whether output is paused (`pauseOutput` was called since the last `resumeOutput`).
  public var outputPaused: Bool { outputPausedFlag.load(ordering: .sequentiallyConsistent) }

  private func wakePump(_ byte: UInt8) {
    var byte = byte
    // A full wake pipe already means "look again"; losing this byte changes nothing.
    _ = Glibc.write(wake.write.rawValue, &byte, 1)
  }

  /// The box's CPU time in microseconds (all its processes) as the pump last read it, every 5 to
  /// 250 ms while the program runs; nil before the first reading and when the box has no cgroup
  /// (rlimit-only mode). An interactive test reads it to tell two programs waiting on each other
  /// from one that computes (`InteractorRun`).
  public var cpuMicrosecondsSeen: UInt64? {
    let seen = cpuSeen.load(ordering: .relaxed)
    return seen == UInt64.max ? nil : seen
  }

  func noteCPU(_ microseconds: UInt64) { cpuSeen.store(microseconds, ordering: .relaxed) }

  /// Whether `kill` was called.
  public var killRequested: Bool { killRequestedFlag.load(ordering: .sequentiallyConsistent) }

  /// Asks the pump to have the box's init send signal `number` (1-64) to the program's process
  /// group. The init sends it only while the program is unreaped, so a program that has ended (or
  /// whose pid was reused) is never signalled; a request made before the run starts is sent as it
  /// starts. False when the run is over, `number` is out of range, or too many are pending.
  @discardableResult
  public func signal(_ number: Int32) -> Bool {
    guard (1...64).contains(number), !killRequested, !state.withLock({ $0.ended }) else { return false }
    let queued = requestedSignals.withLock { pending in
      guard pending.count < Self.maximumPendingSignals else { return false }
      pending.append(number)
      return true
    }
    guard queued else { return false }
    wakePump(0x73)
    return true
  }

  /// The signals asked for since the last call, for the pump to send.
  func takeSignals() -> [Int32] {
    requestedSignals.withLock { pending in
      defer { pending = [] }
      return pending
    }
  }

  /// The run is over (or will not happen): nobody reads the input any more, so sends return false.
  public func endRun() {
    state.withLock { state in
      state.ended = true
      if state.readEnd >= 0 {
        Glibc.close(state.readEnd)
        state.readEnd = -1
      }
      if state.writers == 0 { closeWriteEnd(&state) }
    }
  }

  private func closeWriteEnd(_ state: inout State) {
    if state.writeEnd >= 0 {
      Glibc.close(state.writeEnd)
      state.writeEnd = -1
    }
  }

  // The box's and the pump's side.

  /// A copy of the pipe's read end for the box to give the program as its stdin.
  func programStdin() throws(SandboxError) -> OwnedDescriptor {
    let (fd, error) = state.withLock { state -> (Int32, Int32) in
      guard state.readEnd >= 0 else { return (-1, EBADF) }
      let fd = fcntl(state.readEnd, F_DUPFD_CLOEXEC, 0)
      return (fd, fd < 0 ? errno : 0)
    }
    guard fd >= 0 else { throw SandboxError(step: "live stdin: copy the input's pipe", errorNumber: error) }
    return OwnedDescriptor(fd)
  }

  /// The pipe's read end (the program's stdin without a terminal); -1 once the run ended.
  var readEnd: Int32 { state.withLock { $0.readEnd } }
  /// Readable when a kill, a signal, a pause or a resume was requested.
  var wakeFD: Int32 { wake.read.rawValue }

  /// How many bytes of input the program has taken from the pipe at least: what was written into
  /// it less what it still holds. The written count is read first, so a send racing this look can
  /// only make the figure too low (and the next look makes it right), never too high; nil once
  /// the run ended or when the pipe cannot be asked.
  func inputTakenAtLeast() -> UInt64? {
    let written = writtenBytes.load(ordering: .sequentiallyConsistent)
    return state.withLock { state -> UInt64? in
      guard state.readEnd >= 0 else { return nil }
      var unread: Int32 = 0
      guard ioctl(state.readEnd, UInt(FIONREAD), &unread) == 0, unread >= 0 else { return nil }
      return written - min(written, UInt64(unread))
    }
  }

  func drainWake() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while Glibc.read(wake.read.rawValue, &bytes, bytes.count) > 0 {}
  }
}

/// Runs `body` with SIGPIPE blocked on this thread. A write to a pipe nobody reads raises SIGPIPE,
/// whose default kills the whole process (the CLI exits 141, a daemon dies); blocked, the write
/// gets EPIPE instead, and a SIGPIPE left pending by it is taken back.
func withSIGPIPEBlocked(_ body: () -> Void) {
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
  body()
}

/// Waits for a box's init to hand over the pty master of a run on a terminal (a "T" message on
/// `socket`, sent before the program starts). Returns the master, or the init's failure report
/// when it sent one instead, or neither when it hung up or took longer than `timeoutMilliseconds`.
func receiveTerminal(_ socket: Int32, timeoutMilliseconds: Int32 = 10_000) -> (
  master: OwnedDescriptor?, failure: dsa_report?
) {
  var record = dsa_report()
  var length = 0
  let fd = withUnsafeMutableBytes(of: &record) {
    dsa_receive_terminal(socket, timeoutMilliseconds, $0.baseAddress, $0.count, &length)
  }
  if fd >= 0 {
    // A terminal has a size from the start, as a terminal emulator's does; programs that lay out
    // text (or ask with TIOCGWINSZ) would otherwise see 0 columns.
    var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(fd, UInt(TIOCSWINSZ), &size)
    return (OwnedDescriptor(fd), nil)
  }
  let isReport =
    length == MemoryLayout<dsa_report>.size && UInt32(bitPattern: record.kind) == DSA_REPORT_SETUP_FAILED.rawValue
  return (nil, isReport ? record : nil)
}
