import Glibc

/// What the sandbox failed to do: never the learner's fault.
///
/// The program's own failures are values (`Outcome`); this error means the box
/// could not be built, run or cleaned up. It names the step and the system
/// error so an operator can act on it ("pivot_root: EPERM").
public struct SandboxError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The step that failed, e.g. "mount /usr" or "write uid_map".
  public let step: String
  /// The errno of the failing system call, or 0 when none applies.
  public let errorNumber: Int32
  /// How to fix it, when we know.
  public let hint: String

  public init(step: String, errorNumber: Int32 = 0, hint: String = "") {
    self.step = step
    self.errorNumber = errorNumber
    self.hint = hint
  }

  public var description: String {
    var text = step
    if errorNumber != 0 { text += ": \(errorName(errorNumber)) (\(String(cString: strerror(errorNumber))))" }
    if !hint.isEmpty { text += "; \(hint)" }
    return text
  }
}

/// The symbolic name of an errno value, as operators search for it.
func errorName(_ value: Int32) -> String {
  switch value {
  case EPERM: return "EPERM"
  case ENOENT: return "ENOENT"
  case EACCES: return "EACCES"
  case EEXIST: return "EEXIST"
  case EINVAL: return "EINVAL"
  case ENOSPC: return "ENOSPC"
  case ENOMEM: return "ENOMEM"
  case EBUSY: return "EBUSY"
  case EAGAIN: return "EAGAIN"
  case ENOSYS: return "ENOSYS"
  case ELOOP: return "ELOOP"
  case EXDEV: return "EXDEV"
  case EROFS: return "EROFS"
  case ENOTDIR: return "ENOTDIR"
  case EISDIR: return "EISDIR"
  case EMFILE: return "EMFILE"
  case ENAMETOOLONG: return "ENAMETOOLONG"
  case EOVERFLOW: return "EOVERFLOW"
  case ESRCH: return "ESRCH"
  case EPIPE: return "EPIPE"
  case E2BIG: return "E2BIG"
  default: return "errno \(value)"
  }
}

/// Runs a system call wrapper, retrying EINTR, and turns -1 into a thrown
/// `SandboxError` that names the step.
@discardableResult
func systemCall<Result: BinaryInteger>(
  _ step: @autoclosure () -> String, hint: String = "", _ call: () -> Result
) throws(SandboxError) -> Result {
  while true {
    let result = call()
    if result != -1 { return result }
    let error = errno
    if error == EINTR { continue }
    throw SandboxError(step: step(), errorNumber: error, hint: hint)
  }
}
