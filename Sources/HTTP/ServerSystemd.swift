import Glibc

// The two halves of the systemd protocol a daemon speaks without libsystemd: socket activation
// (sd_listen_fds(3): LISTEN_PID, LISTEN_FDS, descriptors from 3) and readiness (sd_notify(3): one
// datagram to $NOTIFY_SOCKET).

/// Socket activation: which descriptors systemd passed to this process.
enum SystemdActivation {
  static let variableNames = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]

  /// The activation variables of this process's environment.
  static func processVariables() -> [String: String] {
    var variables: [String: String] = [:]
    for name in variableNames {
      if let value = getenv(name) { variables[name] = String(cString: value) }
    }
    return variables
  }

  /// Removes the variables so that processes started later do not take the sockets for theirs.
  static func removeProcessVariables() {
    for name in variableNames { unsetenv(name) }
  }

  /// The descriptors passed to `processID`: `LISTEN_FDS` of them from `firstDescriptor`, or none
  /// when the variables are absent or meant for another process (`LISTEN_PID` differs: they were
  /// inherited through a wrapper that did not clear them). Malformed values are errors, since a
  /// unit that passes sockets and a daemon that ignores them would fail silently.
  static func passedDescriptors(
    environment: [String: String], processID: Int32, firstDescriptor: Int32
  ) throws(HTTPServerError) -> [Int32] {
    guard let pidText = environment["LISTEN_PID"] else { return [] }
    guard let pid = Int32(pidText), pid > 0 else {
      throw HTTPServerError(step: "LISTEN_PID", errorNumber: EINVAL, hint: "LISTEN_PID must be a process id")
    }
    guard pid == processID else { return [] }
    guard let countText = environment["LISTEN_FDS"], let count = Int32(countText), count >= 0,
      count <= Int32.max - firstDescriptor
    else {
      throw HTTPServerError(
        step: "LISTEN_FDS", errorNumber: EINVAL, hint: "LISTEN_FDS must be a number of descriptors")
    }
    return Array(firstDescriptor..<firstDescriptor + count)
  }
}

extension HTTPServer {
  /// Tells systemd the service is ready (`READY=1`), for `Type=notify` units; call it once `start()`
  /// has returned, so that systemd starts dependent units only when connections are accepted.
  ///
  /// - Returns: false when `NOTIFY_SOCKET` is not set (not started by systemd): nothing to do.
  @discardableResult
  public static func notifySystemdReady() throws(HTTPServerError) -> Bool {
    try notifySystemd(state: "READY=1")
  }

  /// Sends `state` (newline-separated `KEY=value` lines such as `STOPPING=1` or `STATUS=...`) to
  /// `$NOTIFY_SOCKET`, a path or an abstract socket written `@name`.
  ///
  /// - Returns: false when `NOTIFY_SOCKET` is not set.
  @discardableResult
  public static func notifySystemd(state: String) throws(HTTPServerError) -> Bool {
    guard let socketAddress = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !socketAddress.isEmpty else {
      return false
    }
    try notifySystemd(state: state, socketAddress: socketAddress)
    return true
  }

  /// Sends `state` as one datagram to the Unix socket `socketAddress` (a path or `@name`).
  static func notifySystemd(state: String, socketAddress: String) throws(HTTPServerError) {
    guard socketAddress.hasPrefix("/") || socketAddress.hasPrefix("@") else {
      throw HTTPServerError(
        step: "notify systemd", errorNumber: EINVAL,
        hint: "NOTIFY_SOCKET must be a path or an @abstract name; other transports are not supported")
    }
    var (address, length) = try unixSocketAddress(socketAddress, step: "notify systemd at \(socketAddress)")
    let descriptor = try systemCall("socket for NOTIFY_SOCKET") {
      Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }
    defer { close(descriptor) }
    let bytes = Array(state.utf8)
    let sent = try systemCall("send to NOTIFY_SOCKET \(socketAddress)") {
      withSocketAddress(&address) { pointer, _ in
        bytes.withUnsafeBytes { raw in
          sendto(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), pointer, length)
        }
      }
    }
    if sent != bytes.count {
      throw HTTPServerError(step: "send to NOTIFY_SOCKET \(socketAddress)", errorNumber: EMSGSIZE)
    }
  }
}
