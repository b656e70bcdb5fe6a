import Glibc

private final class ThreadWork {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }
}

/// A value computed on a POSIX thread of its own from the moment it is made, while the caller goes
/// on; `value()` waits for it. On two CPUs the host's set-up (cgroup detection, the stale-box
/// sweep, the generated /etc files) then overlaps the reading of the runner file and the seccomp
/// policy instead of following it. Without a thread the value is computed by `value()` itself.
final class ValueOnThread<Value>: @unchecked Sendable {
  // @unchecked: `outcome` is written by the thread before it ends and read only after
  // pthread_join, which orders the two; nothing else is shared.
  private var outcome: Result<Value, any Error>?
  private let body: () throws -> Value
  private var thread = pthread_t()
  private var running = false

  init(_ body: @escaping () throws -> Value) {
    self.body = body
    let work = ThreadWork { [self] in outcome = Result { try body() } }
    let context = Unmanaged.passRetained(work).toOpaque()
    running =
      pthread_create(
        &thread, nil,
        { context in
          Unmanaged<ThreadWork>.fromOpaque(context!).takeRetainedValue().run()
          return nil
        }, context) == 0
    if !running { Unmanaged<ThreadWork>.fromOpaque(context).release() }
  }

  /// Waits for the thread (once); what it returned or threw.
  func value() throws -> Value {
    wait()
    if outcome == nil { outcome = Result { try body() } }
    return try outcome!.get()
  }

  /// Waits for the thread, if it is still running; for paths that leave without the value.
  func wait() {
    guard running else { return }
    pthread_join(thread, nil)
    running = false
  }
}
