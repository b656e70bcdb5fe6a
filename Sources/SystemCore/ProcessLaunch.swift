import Foundation
import Glibc

/// Where this process starts children with Foundation's `Process`: the version probes, and every
/// child the tests start (curl, the CLI, a daemon, a compiler).
///
/// Foundation's `Process.run()` makes the socket that tells it the child has exited, and `Pipe()`
/// makes its pipes, without close-on-exec. A child that another thread spawns at that moment can
/// inherit them: then this child's exit, or the end of its output, is not seen until that other
/// child ends too. A full suite starts processes on many threads, and some children live long (a
/// daemon, a curl held 50 s by the server), so a curl answered in milliseconds looked stuck for
/// the length of another test. Every launch, and every pipe's creation, takes this one lock, and the
/// pipes' ends are close-on-exec before any other launch can see them (each child's own ends become
/// its 0, 1 and 2 by `dup2`, which clears the flag there).
public enum ProcessLaunch {
  private static let lock = NSLock()

  /// A pipe whose two ends no other child inherits.
  public static func pipe() -> Pipe {
    lock.withLock {
      let pipe = Pipe()
      for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
        _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
      }
      return pipe
    }
  }

  /// `process.run()`, with no other launch or pipe creation in between.
  public static func run(_ process: Process) throws {
    try lock.withLock { try process.run() }
  }

  /// setenv(3) with no launch under way: `Process.run()` copies the environment, and a setenv on
  /// another thread may move it meanwhile (a full suite crashed in that copy).
  public static func setEnvironment(_ name: String, _ value: String) {
    lock.withLock { _ = setenv(name, value, 1) }
  }
}
