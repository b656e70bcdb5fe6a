import Foundation
import Glibc
import Runners
import Sandbox
import Synchronization

// The CLI's live run: dsa-run's stdin goes to the program as it arrives (typed or piped), and the
// program's output comes back as it is produced. At a terminal the program gets a pty in its box
// (`LiveOptions.tty`) and the user's terminal is put in a raw-ish mode: no echo and no line editing
// of its own (the box's pty does both, as the program's terminal), but ^C still raises SIGINT,
// which stops the program and cleans up as any interrupt does (Interrupts.swift).

/// The user's terminal settings before the run, put back at every exit.
private let savedTerminal = Mutex<termios?>(nil)

/// Puts the user's terminal back as it was (idempotent; the interrupt thread calls it too).
func restoreUserTerminal() {
  savedTerminal.withLock { saved in
    guard var settings = saved else { return }
    _ = tcsetattr(0, TCSADRAIN, &settings)
    saved = nil
  }
}

/// Bytes from the user's terminal pass through as typed: no echo, no canonical line editing, no
/// special characters but the signal ones (^C, ^\), so ^D reaches the box's pty as its EOF.
func enterRawishMode() {
  var settings = termios()
  guard tcgetattr(0, &settings) == 0 else { return }
  savedTerminal.withLock { $0 = settings }
  var raw = settings
  raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
  raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
  withUnsafeMutableBytes(of: &raw.c_cc) { characters in
    characters[Int(VMIN)] = 1
    characters[Int(VTIME)] = 0
  }
  _ = tcsetattr(0, TCSADRAIN, &raw)
}

/// How an interactive run (dsa-run's stdin a terminal, in the foreground: a person types the
/// input) is bounded: by its CPU limit, by an idle rule, and by a wall limit far longer than a
/// run's, since a person may take minutes to answer a prompt. Other runs keep their wall limit.
enum InteractiveLimits {
  /// The wall limit when neither `--live-wall-limit` nor `--wall-limit` is given: 10 minutes.
  static let wallMilliseconds: UInt64 = 600_000
  /// No input typed and no output for this long ends the run (`--idle-limit`): 2 minutes.
  static let idleMilliseconds: UInt64 = 120_000

  /// The wall limit and idle bound of an interactive run with these options.
  static func limits(_ options: RunOptions) -> (wall: UInt64, idle: UInt64) {
    (
      options.liveWallMilliseconds ?? options.limits.wallMilliseconds ?? wallMilliseconds,
      options.idleMilliseconds ?? idleMilliseconds
    )
  }
}

/// Runs `request` live: stdin streamed in from fd 0, output to fds 1 and 2 as it comes (kept for
/// the result too; `--json` prints only the result).
func runLive(_ request: ExecuteRequest, executor: Executor, options: RunOptions) throws(ExecuteError)
  -> ExecuteResult
{
  var request = request
  var liveOptions = LiveOptions()
  let atTerminal = isatty(0) != 0
  // In the background (`dsa-run ... &`) reading or setting up the terminal would stop dsa-run
  // (SIGTTIN, SIGTTOU): the program gets no input then, as before live runs.
  let inForeground = atTerminal && tcgetpgrp(0) == getpgrp()
  liveOptions.tty = inForeground && !options.noTerminal
  if inForeground {
    let (wall, idle) = InteractiveLimits.limits(options)
    request.runLimits.wallMilliseconds = wall
    liveOptions.idleLimitMs = Int(idle)
  }
  let input = LiveInput()
  if liveOptions.tty { enterRawishMode() }
  defer { restoreUserTerminal() }
  if atTerminal && !inForeground { input.finish() }
  let started = startDetachedThread {
    guard !atTerminal || inForeground else { return }
    // Not zeroed: read() fills what it returns, and an empty stdin touches none of it.
    let capacity = 65_536
    let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { chunk.deallocate() }
    while true {
      let count = Glibc.read(0, chunk, capacity)
      if count < 0 && errno == EINTR { continue }
      // EOF of a pipe or file (at a terminal in raw mode, ^D is a byte the box's pty reads as EOF).
      guard count > 0 else { break }
      guard input.send(Array(UnsafeBufferPointer(start: chunk, count: count))) else { return }
    }
    input.finish()
  }
  // Without a reader the program's stdin ends at once rather than never.
  if !started { input.finish() }
  guard !options.json else { return try executor.executeLive(request, options: liveOptions, input: input) { _ in } }
  // The events closure runs on the thread that enforces the run's limits and must not block, as a
  // write to a pipe into `less` would: the relay's thread writes, and holds the output back when
  // it falls behind.
  let relay = OutputRelay(input: input)
  defer {
    relay.finish()
    // A sequence the program left unfinished is shown once it has ended.
    ProgramOutput.endStreams()
  }
  return try executor.executeLive(request, options: liveOptions, input: input) { event in
    switch event {
    case .stdout(let bytes): relay.write(bytes, to: 1)
    case .stderr(let bytes): relay.write(bytes, to: 2)
    default: break
    }
  }
}

/// The program's output on its way to the user's stdout and stderr, written in order by a thread
/// of its own, so that `write` (called on the pump's thread) never waits. Past `highWater` bytes
/// queued the program's output is paused (`LiveInput.pauseOutput`: the program blocks on its full
/// pipe and every limit still holds) until the writer is down to `lowWater`. What a run holds is
/// then bounded by `highWater`, one chunk read as the pause was asked, and at the run's end what
/// its pipes still held (within the output cap).
final class OutputRelay: @unchecked Sendable {
  static let highWater = 256 << 10
  static let lowWater = 64 << 10

  private let input: LiveInput
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  // Guarded by `lock`.
  private var queue: [(fd: Int32, bytes: [UInt8])] = []
  private var queuedBytes = 0
  private var paused = false
  private var finished = false
  private var writer: pthread_t?

  init(input: LiveInput) {
    self.input = input
    pthread_mutex_init(lock, nil)
    pthread_cond_init(changed, nil)
    let context = Unmanaged.passRetained(self).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<OutputRelay>.fromOpaque(context!).takeRetainedValue().writeUntilFinished()
        return nil
      }, context)
    if created == 0 {
      writer = thread
    } else {
      Unmanaged<OutputRelay>.fromOpaque(context).release()
    }
  }

  deinit {
    pthread_cond_destroy(changed)
    pthread_mutex_destroy(lock)
    changed.deallocate()
    lock.deallocate()
  }

  /// Queues a chunk for `fd`; never waits. Without a writer thread it is written here.
  func write(_ bytes: [UInt8], to fd: Int32) {
    guard writer != nil else {
      ProgramOutput.write(bytes, to: fd)
      return
    }
    pthread_mutex_lock(lock)
    queue.append((fd, bytes))
    queuedBytes += bytes.count
    // Under the lock, so a pause and the writer's resume cannot pass each other.
    if !paused && queuedBytes > Self.highWater {
      paused = true
      input.pauseOutput()
    }
    pthread_cond_signal(changed)
    pthread_mutex_unlock(lock)
  }

  /// Writes what is queued and ends the writer (the run is over: this may wait on the user's
  /// stdout).
  func finish() {
    guard let writer else { return }
    pthread_mutex_lock(lock)
    finished = true
    pthread_cond_signal(changed)
    pthread_mutex_unlock(lock)
    pthread_join(writer, nil)
    self.writer = nil
  }

  private func writeUntilFinished() {
    pthread_mutex_lock(lock)
    while true {
      while queue.isEmpty && !finished { pthread_cond_wait(changed, lock) }
      guard !queue.isEmpty else { break }
      let batch = queue
      queue = []
      for (fd, bytes) in batch {
        pthread_mutex_unlock(lock)
        ProgramOutput.write(bytes, to: fd)
        pthread_mutex_lock(lock)
        queuedBytes -= bytes.count
        if paused && queuedBytes <= Self.lowWater {
          paused = false
          input.resumeOutput()
        }
      }
    }
    pthread_mutex_unlock(lock)
  }
}

/// A closure handed to a new POSIX thread.
private final class ThreadBody {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }
}

/// Runs `body` on a detached POSIX thread; false when no thread could be made. Not Foundation's
/// `Thread`: its NSThread object, name and start-up (and the zeroed 64 KB buffer this reader had)
/// were a tenth of a millisecond of every live run.
private func startDetachedThread(_ body: @escaping () -> Void) -> Bool {
  let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
  var thread = pthread_t()
  let created = pthread_create(
    &thread, nil,
    { context in
      Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
      return nil
    }, context)
  guard created == 0 else {
    Unmanaged<ThreadBody>.fromOpaque(context).release()
    return false
  }
  pthread_detach(thread)
  return true
}
