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

/// Runs `request` live: stdin streamed in from fd 0, output to fds 1 and 2 as it comes (kept for
/// the result too; `--json` prints only the result).
func runLive(_ request: ExecuteRequest, executor: Executor, options: RunOptions) throws(ExecuteError)
  -> ExecuteResult
{
  var liveOptions = LiveOptions()
  let atTerminal = isatty(0) != 0
  // In the background (`dsa-run ... &`) reading or setting up the terminal would stop dsa-run
  // (SIGTTIN, SIGTTOU): the program gets no input then, as before live runs.
  let inForeground = atTerminal && tcgetpgrp(0) == getpgrp()
  liveOptions.tty = inForeground && !options.noTerminal
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
  let printsOutput = !options.json
  // A sequence the program left unfinished is shown once it has ended.
  defer { if printsOutput { ProgramOutput.endStreams() } }
  return try executor.executeLive(request, options: liveOptions, input: input) { event in
    guard printsOutput else { return }
    switch event {
    case .stdout(let bytes): ProgramOutput.write(bytes, to: 1)
    case .stderr(let bytes): ProgramOutput.write(bytes, to: 2)
    default: break
    }
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
