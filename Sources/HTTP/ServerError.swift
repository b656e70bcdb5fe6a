import Glibc

/// What the server could not set up: a listener, a systemd socket, a notification, a thread.
///
/// Failures of one connection are never errors: that connection is answered or dropped and the
/// server goes on. This error names the step and the system error so an operator can act on it
/// ("bind 127.0.0.1:8080: EADDRINUSE").
public struct HTTPServerError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The step that failed, e.g. "bind 127.0.0.1:8080" or "LISTEN_FDS".
  public let step: String
  /// The errno of the failing system call, or 0 when none applies.
  public let errorNumber: Int32
  /// How to fix it, when known.
  public let hint: String

  /// An error for `step`, with the system call's errno when there was one.
  public init(step: String, errorNumber: Int32 = 0, hint: String = "") {
    self.step = step
    self.errorNumber = errorNumber
    self.hint = hint
  }

  /// "bind 127.0.0.1:8080: EADDRINUSE (Address already in use); another process listens there".
  public var description: String {
    var text = step
    if errorNumber != 0 {
      text += ": \(errorNumberName(errorNumber)) (\(String(cString: strerror(errorNumber))))"
    }
    if !hint.isEmpty { text += "; \(hint)" }
    return text
  }
}

/// The symbolic name of an errno value, as operators search for it.
func errorNumberName(_ value: Int32) -> String {
  switch value {
  case EPERM: return "EPERM"
  case ENOENT: return "ENOENT"
  case EACCES: return "EACCES"
  case EEXIST: return "EEXIST"
  case EINVAL: return "EINVAL"
  case EBADF: return "EBADF"
  case EMFILE: return "EMFILE"
  case ENFILE: return "ENFILE"
  case ENOMEM: return "ENOMEM"
  case EAGAIN: return "EAGAIN"
  case ENOTSOCK: return "ENOTSOCK"
  case EADDRINUSE: return "EADDRINUSE"
  case EADDRNOTAVAIL: return "EADDRNOTAVAIL"
  case ECONNREFUSED: return "ECONNREFUSED"
  case ENAMETOOLONG: return "ENAMETOOLONG"
  case ENOTDIR: return "ENOTDIR"
  case EROFS: return "EROFS"
  default: return "errno \(value)"
  }
}

/// Runs a system call wrapper, retrying EINTR, and turns -1 into a thrown `HTTPServerError`
/// that names the step.
@discardableResult
func systemCall<Result: BinaryInteger>(
  _ step: @autoclosure () -> String, hint: @autoclosure () -> String = "", _ call: () -> Result
) throws(HTTPServerError) -> Result {
  while true {
    let result = call()
    if result != -1 { return result }
    let error = errno
    if error == EINTR { continue }
    throw HTTPServerError(step: step(), errorNumber: error, hint: hint())
  }
}
