import Testing
@testable import Sandbox

@Test func limitsRejectZero() {
  var limits = BoxLimits()
  limits.memoryBytes = 0
  #expect(limits.violation() != nil)
}
