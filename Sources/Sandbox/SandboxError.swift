public import SystemCore

/// The `StepError` domain of the sandbox.
public enum SandboxErrorDomain: StepErrorDomain {}

/// What the sandbox failed to do: never the learner's fault.
///
/// The program's own failures are values (`Outcome`); this error means the box
/// could not be built, run or cleaned up. It names the step and the system
/// error so an operator can act on it ("pivot_root: EPERM").
public typealias SandboxError = StepError<SandboxErrorDomain>

/// `StepError.systemCall` in the sandbox's domain.
@discardableResult
func systemCall<Result: BinaryInteger>(
  _ step: @autoclosure () -> String, hint: @autoclosure () -> String = "", _ call: () -> Result
) throws(SandboxError) -> Result {
  try SandboxError.systemCall(step(), hint: hint(), call)
}
