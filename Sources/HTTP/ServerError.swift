public import SystemCore

/// The `StepError` domain of the HTTP server.
public enum HTTPServerErrorDomain: StepErrorDomain {}

/// What the server could not set up: a listener, a systemd socket, a notification, a thread.
///
/// Failures of one connection are never errors: that connection is answered or dropped and the
/// server goes on. This error names the step and the system error so an operator can act on it
/// ("bind 127.0.0.1:8080: EADDRINUSE").
public typealias HTTPServerError = StepError<HTTPServerErrorDomain>

/// `StepError.systemCall` in the server's domain.
@discardableResult
func systemCall<Result: BinaryInteger>(
  _ step: @autoclosure () -> String, hint: @autoclosure () -> String = "", _ call: () -> Result
) throws(HTTPServerError) -> Result {
  try HTTPServerError.systemCall(step(), hint: hint(), call)
}
