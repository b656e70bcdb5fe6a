import Testing

@testable import API

/// The bound on Judge0 polls held at once (the end-to-end tests are Tests/DaemonTests/Judge0HoldTests.swift).
@Suite struct Judge0PollHoldsTests {
  @Test func holdsAreTakenUpToTheMaximumAndFreedOnLeave() {
    let holds = Judge0PollHolds()
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
