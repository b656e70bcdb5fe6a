import Foundation
import Glibc

/// Whether the process that made a box's work directory or cgroup (named after its pid) is gone, so
/// that a later start may sweep what it left.
///
/// `kill(pid, 0)` alone is not enough: a daemon killed with SIGKILL whose parent has not reaped it
/// yet is a zombie, and its pid answers `kill` for as long as that lasts, although a zombie holds no
/// box any more (its mounts and files were let go when it died).
///
/// A pid reused since by an unrelated process still counts as the owner: telling reuse apart would
/// mean comparing the process's start with the directory's time, and the two are on different clocks
/// (boot time and wall time), so a wall clock stepped forward (NTP at boot) would make a living
/// daemon's boxes look stale, and sweeping a living box is far worse than leaving a dead one until
/// the pid is free again.
public enum StaleOwner {
  /// Whether no process owns what was named after `pid`: none has the pid, or it is a zombie.
  public static func isGone(pid: Int32) -> Bool {
    if kill(pid, 0) != 0 && errno == ESRCH { return true }
    guard let state = state(of: pid) else {
      // Gone between the two looks, or /proc is not there to tell: only kill's answer counts.
      return kill(pid, 0) != 0 && errno == ESRCH
    }
    return state == "Z" || state == "X"
  }

  /// The state letter of `pid` from `/proc/PID/stat` (`R`, `S`, `D`, `Z` for a zombie, `X` dead, ...);
  /// nil when it has none.
  public static func state(of pid: Int32) -> Character? {
    KernelFile.read("/proc/\(pid)/stat").flatMap(parseState)
  }

  /// The state field of a `/proc/PID/stat` line. The command name before it is in parentheses and may
  /// hold spaces and parentheses itself, so the field is found after the last `)`.
  static func parseState(_ text: String) -> Character? {
    guard let close = text.lastIndex(of: ")") else { return nil }
    return text[text.index(after: close)...].split(separator: " ").first?.first
  }
}
