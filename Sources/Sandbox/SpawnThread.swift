import Foundation
import Glibc
import Synchronization

/// A thread that lives as long as the process, on which warm boxes are
/// cloned.
///
/// `PR_SET_PDEATHSIG` fires when the *thread* that created a process exits,
/// not the process. A warm box outlives the call that made it, so if it were
/// cloned on a short-lived thread (an HTTP connection's, a Dispatch
/// worker's), it would be killed when that thread ended. One-shot boxes are
/// created, run and reaped by the same blocked caller, so they need none.
final class SpawnThread: @unchecked Sendable {
  static let shared = SpawnThread()

  private let lock = NSCondition()
  private var job: (() -> Void)?
  private var jobDone = false
  /// One caller at a time hands a job over.
  private let callers = NSLock()

  private init() {
    let thread = Thread { [unowned self] in self.serve() }
    thread.name = "dsa-run-spawn"
    thread.start()
  }

  private func serve() {
    while true {
      lock.lock()
      while job == nil { lock.wait() }
      lock.unlock()
      // No local copy of the job: the caller's closure must be released
      // (job = nil) before the caller is told it is done, or
      // withoutActuallyEscaping sees it escape and traps.
      job!()
      lock.lock()
      job = nil
      jobDone = true
      lock.broadcast()
      lock.unlock()
    }
  }

  /// Runs `body` on the spawn thread and returns its result.
  func run<Result>(_ body: () throws(SandboxError) -> Result) throws(SandboxError) -> Result {
    callers.lock()
    defer { callers.unlock() }
    var outcome: Swift.Result<Result, SandboxError>?
    withoutActuallyEscaping(body) { escapable in
      lock.lock()
      jobDone = false
      job = {
        do throws(SandboxError) {
          outcome = .success(try escapable())
        } catch {
          outcome = .failure(error)
        }
      }
      lock.broadcast()
      while !jobDone { lock.wait() }
      lock.unlock()
    }
    return try outcome!.get()
  }
}
