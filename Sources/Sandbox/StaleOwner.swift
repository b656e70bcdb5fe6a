import Foundation
import Glibc

/// Whether the process that made a box's work directory or cgroup (named after its pid) is gone, so
/// that a later start may sweep what it left.
///
/// `kill(pid, 0)` alone is not enough: a daemon killed with SIGKILL whose parent has not reaped it
/// yet is a zombie, and its pid answers `kill` for as long as that lasts; and once it is reaped, its
/// pid may belong to another process. Neither can own a box any longer.
public enum StaleOwner {
  /// What `/proc/PID/stat` says of a process.
  public struct ProcessState: Equatable, Sendable {
    /// The state letter: `R`, `S`, `D`, `Z` (zombie), `X` (dead), ...
    public var state: Character
    /// When it started, seconds since the epoch (to the clock tick, but boot time is whole seconds).
    public var startTime: Double
  }

  /// Start times and directory times are compared with this slack: the boot time the kernel gives is
  /// whole seconds, and a pid is not reused within seconds of its box's last change on any real host.
  static let clockSlackSeconds = 5.0

  /// Whether the owner `pid` of something last changed at `changedAt` (seconds since the epoch, the
  /// directory's ctime) no longer exists: no process has the pid, or it is a zombie, or the process
  /// that has it started after the thing was changed (its pid was reused), which its owner cannot have.
  public static func isGone(pid: Int32, changedAt: Double?) -> Bool {
    if kill(pid, 0) != 0 && errno == ESRCH { return true }
    guard let process = state(of: pid) else {
      // Gone between the two looks, or /proc is not there to tell: only kill's answer counts.
      return kill(pid, 0) != 0 && errno == ESRCH
    }
    if process.state == "Z" || process.state == "X" { return true }
    if let changedAt, process.startTime > changedAt + clockSlackSeconds { return true }
    return false
  }

  /// The ctime of `path` (seconds since the epoch), without following a symbolic link.
  public static func changeTime(of path: String) -> Double? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return Double(status.st_ctim.tv_sec) + Double(status.st_ctim.tv_nsec) / 1e9
  }

  /// The state letter and start time of `pid`, from `/proc/PID/stat`; nil when it has none.
  public static func state(of pid: Int32) -> ProcessState? {
    guard let text = KernelFile.read("/proc/\(pid)/stat"), let bootTime = bootTime() else { return nil }
    return parseStat(text, bootTime: bootTime, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))))
  }

  /// Parses a `/proc/PID/stat` line. The command name (field 2) is in parentheses and may hold spaces
  /// and parentheses itself, so the fields are counted from its last `)`.
  static func parseStat(_ text: String, bootTime: Double, ticksPerSecond: Double) -> ProcessState? {
    guard let close = text.lastIndex(of: ")"), ticksPerSecond > 0 else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // fields[0] is field 3 (state); the start time is field 22, in clock ticks since boot.
    guard fields.count > 19, let state = fields[0].first, let ticks = Double(fields[19]) else { return nil }
    return ProcessState(state: state, startTime: bootTime + ticks / ticksPerSecond)
  }

  /// The boot time, seconds since the epoch (`btime` of `/proc/stat`).
  static func bootTime() -> Double? {
    guard let text = KernelFile.read("/proc/stat", limit: 1 << 20) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
      return Double(line.dropFirst("btime ".count).trimmingCharacters(in: .whitespaces))
    }
    return nil
  }
}
