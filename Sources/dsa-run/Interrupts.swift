import Foundation
import Glibc
import Sandbox
import Synchronization

// Ctrl-C, kill and a closed terminal: the program is stopped at once, every box is cleaned up
// (work directory, mounts, cgroups), and dsa-run exits 128+N like a shell would.
//
// The three signals are blocked in every thread (the mask is set before any other thread exists, and
// new threads inherit it; box programs start with an empty mask, see CSandbox's signals.c and
// program.c) and taken by one thread with sigwait, so no handler ever runs at an awkward moment.

/// The signal that interrupted dsa-run, or 0.
let interruptingSignal = Atomic<Int32>(0)

var wasInterrupted: Bool { interruptingSignal.load(ordering: .acquiring) != 0 }

/// How long the interrupt waits for the boxes to be destroyed before it exits anyway (a stale box is
/// swept by the next dsa-run start).
let interruptCleanupMilliseconds: UInt64 = 5_000

private func interruptSignals() -> sigset_t {
  var signals = sigset_t()
  sigemptyset(&signals)
  for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, number) }
  return signals
}

/// Must run first in main, before any thread is started.
func installInterruptHandling() {
  var signals = interruptSignals()
  pthread_sigmask(SIG_BLOCK, &signals, nil)
  // A plain pthread: Foundation's Thread (its NSThread object, name and dictionary) was a twentieth
  // of a `dsa-run --help`.
  var thread = pthread_t()
  let created = pthread_create(
    &thread, nil,
    { _ in
      var waited = interruptSignals()
      var number: Int32 = 0
      while sigwait(&waited, &number) != 0 {}
      interruptingSignal.store(number, ordering: .releasing)
      BoxInterruption.stopAll()
      _ = BoxInterruption.waitUntilBoxesAreGone(timeoutMilliseconds: interruptCleanupMilliseconds)
      restoreUserTerminal()
      // The shell's prompt goes on a line of its own, not after a prompt of the program's.
      ProgramOutput.startOwnLine()
      fflush(nil)
      _exit(128 + number)
    }, nil)
  // Without it Ctrl-C would be ignored, and a box could outlive the CLI.
  guard created == 0 else { fail("internal_error: cannot start the signal thread: error \(created)", code: 3) }
  pthread_detach(thread)
}

/// Every exit of dsa-run: after an interrupt, the interrupt thread gives the exit code (128+N) once
/// the boxes are gone, and nothing more is printed.
func finish(_ code: Int32) -> Never {
  if wasInterrupted {
    while true { pause() }
  }
  exit(code)
}
