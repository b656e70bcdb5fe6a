import Testing

@testable import API

/// The bound on requests held open at once: Judge0 polls, `?wait=` and `wait=true` (end to end:
/// Tests/DaemonTests/Judge0HoldTests.swift, SubmissionTests).
@Suite struct HeldRequestsTests {
  @Test func holdsAreTakenUpToTheMaximumAndFreedOnLeave() {
    let holds = HeldRequests()
    #expect(holds.enter(maximum: 2))
    #expect(holds.enter(maximum: 2))
    #expect(!holds.enter(maximum: 2))
    holds.leave()
    #expect(holds.enter(maximum: 2))
    #expect(!holds.enter(maximum: 2))
    // A refused enter takes nothing: one leave frees exactly one.
    holds.leave()
    holds.leave()
    #expect(holds.enter(maximum: 1))
    #expect(!holds.enter(maximum: 1))
  }
}
