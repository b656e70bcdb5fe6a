internal import CSpawn
import Foundation
import Glibc
import Synchronization

/// A child process of this one: the version probes, and every child the tests start (curl, the CLI,
/// a daemon, a compiler). The part of Foundation's `Process` that those use, without its launch.
///
/// Foundation's `Process.run()` finds the descriptors to close in the child by reading
/// /proc/self/fd with readdir and copying each entry's whole 256-byte name field: with about 1,360
/// descriptors open, the last entry sits at the end of readdir's 32 KiB buffer and the copy reads
/// past it, which crashed a full test suite (whose pooled boxes hold 1,400) with SIGSEGV in that
/// memcpy, in CI. Its exit socket and `Pipe()`'s pipes are not close-on-exec either, so a child
/// that another thread spawned at that moment inherited them and hid this one's end. Here the
/// child closes every descriptor from 3 up in posix_spawn itself (`closefrom`), so nothing is read
/// and nothing leaks into it, whatever the other threads do.
public final class ChildProcess: @unchecked Sendable {
  public enum TerminationReason: Sendable { case exit, uncaughtSignal }

  public struct LaunchError: Error, CustomStringConvertible {
    public let path: String
    public let errorNumber: Int32
    public var description: String { "cannot start \(path): \(String(cString: strerror(errorNumber)))" }
  }

  /// Set before `run()`, as with `Process`.
  public var executableURL: URL?
  public var arguments: [String] = []
  /// nil: this process's environment at `run()`.
  public var environment: [String: String]?
  /// A `Pipe`, a `FileHandle`, or nil for /dev/null; by default this process's own.
  public var standardInput: Any? = FileHandle.standardInput
  public var standardOutput: Any? = FileHandle.standardOutput
  public var standardError: Any? = FileHandle.standardError
  /// Called on the thread that saw the child end, after `isRunning` turned false.
  public var terminationHandler: (@Sendable (ChildProcess) -> Void)?

  private struct State {
    var pid: pid_t = 0
    var running = false
    var status: Int32 = 0
    var reason: TerminationReason = .exit
  }
  private let state = Mutex(State())
  private let ended = NSCondition()

  public init() {}

  public var processIdentifier: Int32 { state.withLock { $0.pid } }
  public var isRunning: Bool { state.withLock { $0.running } }

  /// The exit status, or the signal that ended it; only after it ended.
  public var terminationStatus: Int32 {
    state.withLock {
      precondition($0.pid > 0 && !$0.running, "the child has not ended")
      return $0.status
    }
  }

  public var terminationReason: TerminationReason {
    state.withLock {
      precondition($0.pid > 0 && !$0.running, "the child has not ended")
      return $0.reason
    }
  }

  public func run() throws {
    precondition(processIdentifier == 0, "a ChildProcess runs once")
    guard let path = executableURL?.path else { throw LaunchError(path: "(no executable)", errorNumber: ENOENT) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var nullDevice: FileHandle?
    for (target, source) in [
      (STDIN_FILENO, standardInput), (STDOUT_FILENO, standardOutput), (STDERR_FILENO, standardError),
    ] {
      let descriptor: Int32
      switch source {
      case let pipe as Pipe:
        descriptor = (target == STDIN_FILENO ? pipe.fileHandleForReading : pipe.fileHandleForWriting).fileDescriptor
      // FileHandle.nullDevice has no descriptor (-1): it too is /dev/null.
      case let handle as FileHandle where handle.fileDescriptor >= 0: descriptor = handle.fileDescriptor
      default:
        if nullDevice == nil { nullDevice = FileHandle(forUpdatingAtPath: "/dev/null") }
        guard let nullDevice else { throw LaunchError(path: "/dev/null", errorNumber: errno) }
        descriptor = nullDevice.fileDescriptor
      }
      if descriptor != target {
        let result = posix_spawn_file_actions_adddup2(&actions, descriptor, target)
        guard result == 0 else { throw LaunchError(path: path, errorNumber: result) }
      }
    }
    let closing = posix_spawn_file_actions_addclosefrom_np(&actions, 3)
    guard closing == 0 else { throw LaunchError(path: path, errorNumber: closing) }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Its own process group, as Foundation's children have; no signal blocked, whatever the
    // starting thread blocks.
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))

    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let environmentLines =
      environment.map { $0.map { "\($0)=\($1)" } } ?? ProcessLaunch.currentEnvironment()
    let envp = environmentLines.map { strdup($0) } + [nil]
    defer { for pointer in envp { free(pointer) } }

    var pid: pid_t = 0
    let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    try? nullDevice?.close()
    guard result == 0 else { throw LaunchError(path: path, errorNumber: result) }

    // The child's ends are the child's alone now: the reader sees the end of output when the child
    // (and whatever it started) closes them.
    for (isInput, source) in [(true, standardInput), (false, standardOutput), (false, standardError)] {
      guard let pipe = source as? Pipe else { continue }
      try? (isInput ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
    }
    state.withLock {
      $0.pid = pid
      $0.running = true
    }
    let spawned = pid
    let reaper = Thread { [self] in reap(spawned) }
    reaper.stackSize = 128 * 1024
    reaper.start()
  }

  private func reap(_ pid: pid_t) {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7f
    state.withLock {
      $0.running = false
      $0.reason = signal == 0 ? .exit : .uncaughtSignal
      $0.status = signal == 0 ? (status >> 8) & 0xff : signal
    }
    ended.withLock { ended.broadcast() }
    terminationHandler?(self)
  }

  public func waitUntilExit() {
    ended.withLock {
      while isRunning { ended.wait() }
    }
  }

  /// SIGTERM, as `Process.terminate()`.
  public func terminate() {
    let pid = processIdentifier
    precondition(pid > 0, "the child was never started")
    if isRunning { kill(pid, SIGTERM) }
  }
}
