import Glibc

/// Which layer a `StepError` comes from: a type with no values, so that a box's failure and a
/// server's failure stay two error types that a `catch` can tell apart.
public protocol StepErrorDomain: Sendable {}

/// A step that could not be done with the kernel: the step, the system error and, when known,
/// how to fix it, so an operator can act on it ("pivot_root: EPERM",
/// "bind 127.0.0.1:8080: EADDRINUSE (Address already in use); another process listens there").
///
/// `Sandbox.SandboxError` and `HTTP.HTTPServerError` are this type in their own domain.
public struct StepError<Domain: StepErrorDomain>: Error, CustomStringConvertible, Sendable, Equatable {
  /// The step that failed, e.g. "mount /usr" or "bind 127.0.0.1:8080".
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

  /// "step: ENAME (strerror text); hint", leaving out the parts that are absent.
  public var description: String {
    var text = step
    if errorNumber != 0 {
      text += ": \(errorNumberName(errorNumber)) (\(String(cString: strerror(errorNumber))))"
    }
    if !hint.isEmpty { text += "; \(hint)" }
    return text
  }

  /// Runs a system call wrapper, retrying EINTR, and turns -1 into a thrown error that names
  /// the step (and the errno the call left).
  ///
  /// The one place of the project that reads `errno` after a -1 in a loop; each module pins its
  /// own domain in a one-line `systemCall` of its own.
  @discardableResult
  public static func systemCall<Result: BinaryInteger>(
    _ step: @autoclosure () -> String, hint: @autoclosure () -> String = "", _ call: () -> Result
  ) throws(StepError) -> Result {
    while true {
      let result = call()
      if result != -1 { return result }
      let error = errno
      if error == EINTR { continue }
      throw StepError(step: step(), errorNumber: error, hint: hint())
    }
  }
}
