import Foundation
import Testing

@testable import API

/// The live session's rules, on the machine alone: no socket, no thread, no root; time is the
/// instants the tests give it.
@Suite struct LiveSessionMachineTests {
  typealias Machine = LiveSessionMachine
  let zero = ContinuousClock.now

  func machine(_ configure: (inout Machine.Rules) -> Void = { _ in }) -> Machine {
    var rules = Machine.Rules()
    rules.highWaterBytes = 1000
    rules.lowWaterBytes = 100
    rules.stallTimeout = .seconds(10)
    rules.startTimeout = .seconds(60)
    configure(&rules)
    var machine = Machine(rules: rules)
    _ = machine.handle(.opened(zero))
    return machine
  }

  func running() -> Machine {
    var machine = machine()
    #expect(machine.handle(.client(.start(token: nil), zero)) == [.start(token: nil)])
    #expect(machine.handle(.started) == [])
    #expect(machine.phase == .running)
    return machine
  }

  @Test func theTokenIsSettledBeforeAnythingStarts() {
    let needsToken: (inout Machine.Rules) -> Void = {
      $0.needsToken = true
      $0.acceptsToken = { $0 == "good" }
    }
    var missing = machine(needsToken)
    let refusedMissing = missing.handle(.client(.start(token: nil), zero))
    #expect(refusedMissing.count == 1)
    guard case .close(.refused(let error))? = refusedMissing.first else {
      Issue.record("\(refusedMissing)")
      return
    }
    #expect(error.code == "unauthorized")
    #expect(missing.phase == .ended)

    var wrong = machine(needsToken)
    #expect(
      wrong.handle(.client(.start(token: "bad"), zero)).allSatisfy { action in
        if case .close(.refused(let error)) = action { return error.code == "unauthorized" }
        return false
      })
    // Nothing else it says is taken for a start once refused.
    #expect(wrong.handle(.client(.start(token: "good"), zero)) == [])

    var right = machine(needsToken)
    #expect(right.handle(.client(.start(token: "good"), zero)) == [.start(token: "good")])
    // A handshake that brought the token needs none in the message: the start charges the handshake's.
    var header = machine()
    #expect(header.handle(.client(.start(token: "ignored"), zero)) == [.start(token: nil)])
  }

  @Test func aSessionThatNeverStartsIsClosedAtTheStartTimeout() {
    var machine = machine { $0.startTimeout = .seconds(1) }
    #expect(machine.handle(.tick(zero + .milliseconds(999))) == [])
    #expect(machine.handle(.tick(zero + .seconds(1))) == [.close(.startTimedOut)])
    #expect(machine.phase == .ended)
    #expect(machine.handle(.tick(zero + .seconds(2))) == [])
  }

  @Test func outputPausesPastTheHighWaterMarkAndResumesUnderTheLow() {
    var machine = running()
    #expect(machine.handle(.queued(bytes: 1000, zero)) == [])
    #expect(machine.handle(.queued(bytes: 1, zero)) == [.pauseOutput])
    #expect(machine.paused)
    #expect(machine.handle(.queued(bytes: 500, zero)) == [])
    #expect(machine.handle(.delivered(bytes: 1000, zero + .seconds(1))) == [])
    #expect(machine.handle(.delivered(bytes: 401, zero + .seconds(2))) == [.resumeOutput])
    #expect(machine.queuedBytes == 100)
    #expect(!machine.paused)
  }

  @Test func aClientThatTakesNothingPastTheStallTimeIsClosedAndItsProgramKilled() {
    var machine = running()
    #expect(machine.handle(.queued(bytes: 5000, zero)) == [.pauseOutput])
    #expect(machine.handle(.tick(zero + .seconds(9))) == [])
    // Taking something, however little, restarts the clock.
    #expect(machine.handle(.delivered(bytes: 10, zero + .seconds(9))) == [])
    #expect(machine.handle(.tick(zero + .seconds(18))) == [])
    #expect(machine.handle(.tick(zero + .seconds(19))) == [.killProgram, .close(.tooSlow)])
    #expect(machine.phase == .ended)
  }

  @Test func aClientThatKeepsUpIsNeverClosedForIt() {
    var machine = running()
    for second in 0..<100 {
      let now = zero + .seconds(second)
      _ = machine.handle(.queued(bytes: 800, now))
      #expect(machine.handle(.delivered(bytes: 800, now)) == [])
      #expect(machine.handle(.tick(now)) == [])
    }
    #expect(machine.phase == .running)
  }

  @Test func stdinFlowsUntilItsEndAndIsRefusedAfter() {
    var machine = running()
    #expect(machine.handle(.client(.stdin, zero)) == [.feedStdin])
    #expect(machine.handle(.client(.signal, zero)) == [.sendSignal])
    #expect(machine.handle(.client(.eof, zero)) == [.finishStdin])
    let after = machine.handle(.client(.stdin, zero))
    #expect(after.first == .killProgram)
    #expect(after.last == .close(.refused(Machine.inputOver)))
  }

  @Test func theProtocolsOrderIsKept() {
    var notStarted = machine()
    #expect(notStarted.handle(.client(.stdin, zero)) == [.close(.refused(Machine.notStarted))])
    var twice = running()
    #expect(
      twice.handle(.client(.start(token: nil), zero)) == [.killProgram, .close(.refused(Machine.startedAlready))])
    var refused = running()
    let error = APIError.badRequest("a malformed message")
    #expect(refused.handle(.client(.refused(error), zero)) == [.killProgram, .close(.refused(error))])
  }

  @Test func aClientThatGoesAwayTakesItsProgramWithIt() {
    var machine = running()
    #expect(machine.handle(.clientClosed) == [.killProgram, .close(.clientGone)])
    #expect(machine.phase == .ended)
    // The run's end after that sends nothing.
    #expect(machine.handle(.finished) == [])
    #expect(machine.handle(.clientClosed) == [])
    var idle = self.machine()
    #expect(idle.handle(.clientClosed) == [.close(.clientGone)])
  }

  @Test func theResultGoesOutThenTheSessionCloses() {
    var machine = running()
    #expect(machine.handle(.finished) == [.sendResult])
    #expect(machine.phase == .finishing)
    // The client may still say things; nothing changes the result.
    #expect(machine.handle(.client(.kill, zero)) == [])
    #expect(machine.handle(.resultSent) == [.close(.completed)])
    #expect(machine.phase == .ended)
  }

  @Test func aRunThatFailsOrIsRefusedEndsTheSessionWithItsError() {
    var failed = running()
    let internalError = APIError.internalError("redacted")
    #expect(failed.handle(.failed(internalError)) == [.close(.refused(internalError))])
    var refused = machine()
    _ = refused.handle(.client(.start(token: nil), zero))
    let busy = APIError.busy("all taken", retryAfterSeconds: 1)
    #expect(refused.handle(.startRefused(busy)) == [.close(.refused(busy))])
    var overflowing = running()
    let tooFar = APIError.badRequest("too far ahead")
    #expect(overflowing.handle(.stdinRefused(tooFar)) == [.killProgram, .close(.refused(tooFar))])
  }
}
