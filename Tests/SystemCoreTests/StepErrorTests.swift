import Glibc
import SystemCore
import Testing

private enum TestDomain: StepErrorDomain {}
private typealias TestError = StepError<TestDomain>

@Suite struct StepErrorTests {
  @Test func descriptionNamesStepErrnoAndHint() {
    #expect(
      TestError(step: "pivot_root", errorNumber: EPERM).description == "pivot_root: EPERM (Operation not permitted)")
    #expect(
      TestError(step: "bind 127.0.0.1:8080", errorNumber: EADDRINUSE, hint: "another process listens there").description
        == "bind 127.0.0.1:8080: EADDRINUSE (Address already in use); another process listens there")
    #expect(TestError(step: "configuration", hint: "no listener").description == "configuration; no listener")
    #expect(TestError(step: "start").description == "start")
  }

  @Test func unnamedErrnoIsShownAsANumber() {
    #expect(errorNumberName(ENOSPC) == "ENOSPC")
    #expect(errorNumberName(EHWPOISON) == "errno \(EHWPOISON)")
  }

  @Test func failingCallThrowsItsStepAndErrno() {
    let error = #expect(throws: TestError.self) {
      try TestError.systemCall("close 999999", hint: "a test") { Glibc.close(999_999) }
    }
    #expect(error == TestError(step: "close 999999", errorNumber: EBADF, hint: "a test"))
  }

  @Test func succeedingCallReturnsItsResultWithoutEvaluatingTheStep() throws {
    var stepEvaluated = false
    func step() -> String {
      stepEvaluated = true
      return "getpid"
    }
    let pid = try TestError.systemCall(step()) { getpid() }
    #expect(pid == getpid())
    #expect(!stepEvaluated)
  }

  /// A call interrupted by a signal is made again, not reported.
  @Test func interruptedCallIsRetried() throws {
    var attempts = 0
    let result = try TestError.systemCall("flaky") { () -> Int32 in
      attempts += 1
      if attempts < 3 {
        errno = EINTR
        return -1
      }
      return 7
    }
    #expect(result == 7)
    #expect(attempts == 3)
  }
}
