import Foundation
import Glibc

/// A throwaway PostgreSQL cluster (Debian `postgresql`) for the store's own tests: initdb and the
/// server run as nobody in a temporary directory, listening only on a Unix socket there; `remove()`
/// stops it and deletes it.
///
/// DaemonTests has its own (`PostgresCluster`), over that target's process helpers; this one needs
/// nothing but libc. Children are started with `posix_spawn`, every descriptor above 2 closed in
/// them and their output sent to files: the server lives for the whole test, and a pipe of another
/// test's child that it inherited would keep that child's output open as long.
final class ThrowawayPostgres {
  static let binaries: String? = {
    let root = "/usr/lib/postgresql"
    let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted { $0 > $1 }
    return versions.map { "\(root)/\($0)/bin" }.first {
      FileManager.default.isExecutableFile(atPath: $0 + "/initdb")
    }
  }()

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let directory: String
  private var server: pid_t?
  /// libpq's URL for the socket in `directory`, for `database`.
  func connectionString(_ database: String = "postgres") -> String {
    "postgresql://postgres@/\(database)?host=\(directory)"
  }

  init() throws {
    guard let binaries = Self.binaries else { throw Failure(description: "no /usr/lib/postgresql/*/bin/initdb") }
    var template = Array((NSTemporaryDirectory() + "dsa-run-postgres.XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw Failure(description: "mkdtemp: errno \(errno)")
    }
    directory = String(cString: made)
    // PostgreSQL refuses to run as root: the server runs as nobody and writes its socket and data here.
    guard chown(directory, 65534, 65534) == 0, chmod(directory, 0o755) == 0 else {
      try? FileManager.default.removeItem(atPath: directory)
      throw Failure(description: "chown \(directory): errno \(errno)")
    }
    let data = directory + "/data"
    let initdb = try Self.spawn(
      Self.asNobody + [binaries + "/initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
      log: directory + "/initdb.log")
    guard Self.wait(initdb, seconds: 120) == 0 else {
      let log = (try? String(contentsOfFile: directory + "/initdb.log", encoding: .utf8)) ?? ""
      remove()
      throw Failure(description: "initdb failed: \(log)")
    }
    let settings = ["-k", directory, "-c", "listen_addresses=", "-c", "fsync=off"]
    server = try Self.spawn(
      Self.asNobody + [binaries + "/postgres", "-D", data] + settings, log: directory + "/server.log")
    let deadline = Date(timeIntervalSinceNow: 30)
    while true {
      let probe = try Self.spawn(
        [binaries + "/pg_isready", "-q", "-h", directory, "-U", "postgres"], log: directory + "/isready.log")
      if Self.wait(probe, seconds: 30) == 0 { break }
      guard Date() < deadline else {
        remove()
        throw Failure(description: "postgres did not become ready within 30 s")
      }
      usleep(100_000)
    }
  }

  func remove() {
    if let server {
      // SIGINT is PostgreSQL's fast shutdown: it ends every session and exits.
      kill(server, SIGINT)
      if Self.wait(server, seconds: 30) == nil {
        kill(server, SIGKILL)
        _ = Self.wait(server, seconds: 10)
      }
    }
    server = nil
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np`, looked up at run time: the Glibc module
  /// does not export it.
  private static let addCloseFrom:
    (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
      else { return nil }
      return unsafeBitCast(
        symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

  private static let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]

  /// Starts `arguments` with stdin from /dev/null and stdout and stderr appended to `log`.
  private static func spawn(_ arguments: [String], log: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    guard let closeFrom = Self.addCloseFrom, closeFrom(&actions, 3) == 0 else {
      throw Failure(description: "posix_spawn_file_actions_addclosefrom_np is missing (glibc 2.34 or later)")
    }
    let argv = arguments.map { strdup($0) } + [nil]
    let variables: [String] = ["PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
    let environment = variables.map { strdup($0) } + [nil]
    defer { for pointer in argv + environment { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environment)
    guard status == 0 else { throw Failure(description: "posix_spawn \(arguments[0]): error \(status)") }
    return pid
  }

  /// The exit status of `pid`, or nil if it has not ended within `seconds` (it is then not reaped).
  private static func wait(_ pid: pid_t, seconds: Double) -> Int32? {
    let deadline = Date(timeIntervalSinceNow: seconds)
    var status: Int32 = 0
    while true {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid { return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f) }
      if reaped < 0 && errno != EINTR { return -1 }
      guard Date() < deadline else { return nil }
      usleep(20_000)
    }
  }
}
