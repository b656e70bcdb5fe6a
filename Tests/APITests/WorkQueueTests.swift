import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

@testable import API

@Suite struct WorkQueueTests {
  @Test func defaultsToABudgetAndNoFixedLine() {
    let queue = WorkQueue(slots: 3)
    #expect(queue.slots == 3)
    #expect(queue.maximumWaiting == Int.max)
    #expect(APIConfiguration().slots == ProcessInfo.processInfo.activeProcessorCount)
    #expect(APIConfiguration(slots: 4).maximumQueued == nil)
    #expect(APIConfiguration(slots: 4).queueWaitBudget == .seconds(5))
  }

  /// The estimate is the place in line times the run time per slot: with runs taken to last 1 s on
  /// 2 slots, the first two waiters expect 0.5 s and 1 s, the third 1.5 s, over a 1.2 s budget.
  @Test func refusesWhenTheEstimatedWaitPassesTheBudget() throws {
    let queue = WorkQueue(slots: 2, waitBudget: .milliseconds(1200), initialRunEstimate: .seconds(1))
    #expect(queue.estimatedWait == .zero)
    #expect(queue.acquire(timeout: .zero) == .admitted)
    #expect(queue.acquire(timeout: .zero) == .admitted)
    #expect(queue.estimatedWait == .milliseconds(500))
    let waiters = DispatchGroup()
    for expected in [1, 2] {
      waiters.enter()
      Thread.detachNewThread {
        _ = queue.withSlot(timeout: .seconds(30)) {}
        waiters.leave()
      }
      while queue.depth < expected { usleep(1000) }
    }
    #expect(queue.estimatedWait == .milliseconds(1500))
    #expect(queue.recentRunTime == .seconds(1))
    let (admission, ran) = queue.withSlot(timeout: .seconds(30)) { true }
    #expect(admission == .overBudget(estimatedWait: .milliseconds(1500)))
    #expect(ran == nil)
    // A stored job, which no client waits on, is not held to the budget.
    let stored = Mutex<WorkQueue.Admission?>(nil)
    waiters.enter()
    Thread.detachNewThread {
      stored.withLock { $0 = queue.withSlot(timeout: .seconds(30), checksBudget: false) {}.0 }
      waiters.leave()
    }
    while queue.depth < 3 { usleep(1000) }
    queue.release()
    queue.release()
    waiters.wait()
    #expect(stored.withLock { $0 } == .admitted)
    #expect(queue.depth == 0)
  }

  @Test func boundsConcurrencyAndRefusesPastTheLine() {
    let queue = WorkQueue(slots: 2, maximumWaiting: 2)
    let counts = Counts()
    let admissions = Mutex<[WorkQueue.Admission]>([])
    // Six arrive together: two run, two wait, two are turned away at once. Threads of their own,
    // because concurrentPerform runs only as many at once as there are cores.
    let group = DispatchGroup()
    for _ in 0..<6 {
      group.enter()
      Thread.detachNewThread {
        let caller = pthread_self()
        let (admission, worker) = queue.withSlot(timeout: .seconds(10)) { () -> pthread_t in
          counts.enter()
          usleep(500_000)
          counts.leave()
          return pthread_self()
        }
        // The work ran on one of the queue's own long-lived threads, not the caller's.
        if admission == .admitted { #expect(worker != nil && worker != caller) }
        admissions.withLock { $0.append(admission) }
        group.leave()
      }
    }
    group.wait()
    let all = admissions.withLock { $0 }
    #expect(all.filter { $0 == .admitted }.count == 4)
    #expect(all.filter { $0 == .full }.count == 2)
    #expect(counts.peak == 2)
    #expect(queue.inFlight == 0)
    #expect(queue.depth == 0)
  }

  /// A slot that finishes takes the next job in line itself, in arrival order.
  @Test func workRunsInArrivalOrder() {
    let queue = WorkQueue(slots: 1, maximumWaiting: 8)
    #expect(queue.acquire(timeout: .zero) == .admitted)
    let order = Mutex<[Int]>([])
    let group = DispatchGroup()
    for index in 0..<5 {
      group.enter()
      Thread.detachNewThread {
        _ = queue.withSlot(timeout: .seconds(10)) { order.withLock { $0.append(index) } }
        group.leave()
      }
      // Arrive one after another.
      while queue.depth < index + 1 { usleep(1000) }
    }
    queue.release()
    group.wait()
    #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
  }

  @Test func aWaiterLeavesAtItsDeadline() {
    let queue = WorkQueue(slots: 1, maximumWaiting: 1)
    #expect(queue.acquire(timeout: .zero) == .admitted)
    let start = ContinuousClock.now
    #expect(queue.acquire(timeout: .milliseconds(100)) == .timedOut)
    #expect(ContinuousClock.now - start >= .milliseconds(100))
    #expect(queue.depth == 0)
    queue.release()
    #expect(queue.acquire(timeout: .zero) == .admitted)
    queue.release()
    #expect(queue.inFlight == 0)
  }

  @Test func aReleasedSlotGoesToTheWaiter() {
    let queue = WorkQueue(slots: 1, maximumWaiting: 1)
    #expect(queue.acquire(timeout: .zero) == .admitted)
    let waiter = Mutex<WorkQueue.Admission?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let admission = queue.acquire(timeout: .seconds(10))
      waiter.withLock { $0 = admission }
      done.signal()
    }
    while queue.depth == 0 { usleep(1000) }
    // The line is full now: a third is refused without waiting.
    #expect(queue.acquire(timeout: .seconds(10)) == .full)
    queue.release()
    done.wait()
    #expect(waiter.withLock { $0 } == .admitted)
    #expect(queue.inFlight == 1)
    queue.release()
  }
}

/// Concurrency counters shared with work closures.
private final class Counts: Sendable {
  private let state = Mutex<(now: Int, peak: Int)>((0, 0))

  func enter() {
    state.withLock {
      $0.now += 1
      $0.peak = max($0.peak, $0.now)
    }
  }

  func leave() { state.withLock { $0.now -= 1 } }

  var peak: Int { state.withLock { $0.peak } }
}
