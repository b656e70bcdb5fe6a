import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

@testable import API

// A pool's refill never costs a request: it takes a box slot only when nobody waits and another
// slot stays idle (or, with one slot, the slot is idle), and it is never put in line. Every wait is
// bounded, so a wrong answer fails the test instead of hanging the suite.
@Suite struct PrewarmSlotsTests {
  /// Waits up to 10 s for `semaphore`; false when it was not signalled.
  private func signalled(_ semaphore: DispatchSemaphore) -> Bool {
    semaphore.wait(timeout: .now() + 10) == .success
  }

  /// Polls `condition` for up to 10 s.
  private func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<10_000 {
      if condition() { return true }
      usleep(1000)
    }
    return condition()
  }

  @Test func aRefillRunsOnlyWhenItLeavesASlotIdle() {
    let queue = WorkQueue(slots: 2)
    let ran = DispatchSemaphore(value: 0)
    #expect(queue.runIfIdle { ran.signal() })
    #expect(signalled(ran))
    #expect(queue.acquire(timeout: .zero) == .admitted)
    // One slot busy: taking the other would leave none for the next request.
    #expect(!queue.runIfIdle { Issue.record("a refill took the last idle slot") })
    #expect(queue.acquire(timeout: .zero) == .admitted)
    #expect(!queue.runIfIdle { Issue.record("a refill ran while every slot was busy") })
    // A request waiting in line: no refill either, even once a slot frees (the waiter takes it).
    let waiter = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      _ = queue.withSlot(timeout: .seconds(30)) {}
      waiter.signal()
    }
    #expect(eventually { queue.depth >= 1 })
    #expect(!queue.runIfIdle { Issue.record("a refill went ahead of a waiting request") })
    queue.release()
    #expect(signalled(waiter))
    queue.release()
    #expect(queue.inFlight == 0)
  }

  @Test func withOneSlotARefillTakesItOnlyWhenIdle() {
    let queue = WorkQueue(slots: 1)
    #expect(queue.acquire(timeout: .zero) == .admitted)
    #expect(!queue.runIfIdle { Issue.record("a refill ran in the busy slot") })
    queue.release()
    let ran = DispatchSemaphore(value: 0)
    #expect(queue.runIfIdle { ran.signal() })
    #expect(signalled(ran))
  }

  @Test func aRefillDoesNotMoveTheRunTimeEstimate() {
    let queue = WorkQueue(slots: 2, initialRunEstimate: .seconds(1))
    let ran = DispatchSemaphore(value: 0)
    #expect(queue.runIfIdle { ran.signal() })
    #expect(signalled(ran))
    #expect(eventually { queue.inFlight == 0 })
    #expect(queue.recentRunTime == .seconds(1))
  }
}
