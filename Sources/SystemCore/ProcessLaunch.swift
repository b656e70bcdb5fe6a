import Foundation
import Glibc

/// What `ChildProcess` and the rest of this process share about starting children: pipes whose
/// ends no other child inherits, and an environment nobody changes while a child copies it.
public enum ProcessLaunch {
  private static let lock = NSLock()

  /// A pipe whose two ends are close-on-exec: a box or a library that starts a child of its own
  /// does not hand them on (a `ChildProcess` makes each child's own ends its 0, 1 and 2 by `dup2`,
  /// which clears the flag there).
  public static func pipe() -> Pipe {
    let pipe = Pipe()
    for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
      _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
    }
    return pipe
  }

  /// setenv(3) with no child copying the environment meanwhile: a setenv on another thread may
  /// move it under the copy.
  public static func setEnvironment(_ name: String, _ value: String) {
    lock.withLock { _ = setenv(name, value, 1) }
  }

  /// This process's environment, `NAME=value` each, copied with no setenv under way.
  static func currentEnvironment() -> [String] {
    lock.withLock {
      var lines: [String] = []
      var entry = environ
      while let line = entry.pointee {
        lines.append(String(cString: line))
        entry += 1
      }
      return lines
    }
  }
}
