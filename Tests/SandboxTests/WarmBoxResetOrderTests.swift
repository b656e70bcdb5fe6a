import Foundation
import Glibc
import Synchronization
import Testing

@testable import Sandbox

// The end-of-run reset runs after the caller has its answer, on the pool's reset thread, and
// before anyone gets the box again. Each test holds the reset back with a reset hook that blocks
// until the test lets it go, so the order is proven by events, not by timing.

/// Events in the order they happened, from any thread.
private final class EventLog: Sendable {
  private let events = Mutex<[String]>([])

  func record(_ event: String) { events.withLock { $0.append(event) } }

  var all: [String] { events.withLock { $0 } }

  func contains(_ event: String) -> Bool { all.contains(event) }

  /// Whether `first` was recorded before `second` (both recorded).
  func order(_ first: String, before second: String) -> Bool {
    let events = all
    guard let firstIndex = events.firstIndex(of: first), let secondIndex = events.firstIndex(of: second) else {
      return false
    }
    return firstIndex < secondIndex
  }
}

/// A reset hook that blocks until released (or, so a broken build fails rather than hangs, 10 s).
private final class HeldReset: Sendable {
  let log = EventLog()
  private let began = DispatchSemaphore(value: 0)
  private let released = DispatchSemaphore(value: 0)

  var hook: @Sendable (WarmBox) -> Void {
    { [self] _ in
      // Only the first reset is held; later ones (the test's own put) pass.
      if log.contains("released") { return }
      log.record("reset began")
      began.signal()
      _ = released.wait(timeout: .now() + 10)
      log.record("reset let go")
    }
  }

  func waitUntilBegun() { _ = began.wait(timeout: .now() + 10) }

  func release() {
    log.record("released")
    released.signal()
  }
}

/// A box taken on a thread of its own, as a second request would.
private final class Acquirer: @unchecked Sendable {
  private(set) var box: WarmBox?
  private(set) var error: (any Error)?
  private let done = DispatchSemaphore(value: 0)

  init(_ pool: BoxPool, layout: BoxLayout, log: EventLog) {
    let thread = Thread { [self] in
      do { box = try pool.get(layout: layout, limits: BoxLimits()) } catch { self.error = error }
      log.record("next caller got a box")
      done.signal()
    }
    thread.start()
  }

  func join() { done.wait() }
}

@Suite struct WarmBoxResetOrderTests {
  /// The layout of the runs below (a layout includes the policy its boxes' inits hold).
  private let layout = BoxLayout(BoxSpec(command: ["/bin/true"], policy: Fixture.defaultPolicy))

  private func run(_ pool: BoxPool, _ command: [String]) throws -> (Outcome, WarmBox) {
    let spec = BoxSpec(command: command, policy: Fixture.defaultPolicy)
    var used: WarmBox?
    let outcome = try pool.withBox(layout: BoxLayout(spec), limits: spec.limits) { box throws(SandboxError) in
      used = box
      return try box.run(spec)
    }
    return (outcome, used!)
  }

  /// Waits (without a deadline of its own: the held reset bounds it) until the acquirer waits in
  /// the pool or already has a box.
  private func waitUntilWaiting(_ pool: BoxPool, log: EventLog) {
    while pool.callersWaitingForReset == 0 && !log.contains("next caller got a box") { usleep(1_000) }
  }

  @Test func theAnswerComesBeforeTheResetAndTheNextCallerWaitsForIt() throws {
    let held = HeldReset()
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1, beforeReset: held.hook)
    defer { pool.drain() }
    let (outcome, box) = try run(pool, ["/bin/sh", "-c", "echo note > /box/left; echo ran"])
    held.log.record("answer delivered")
    #expect(outcome.status == .ok && outcome.stdoutText == "ran\n", "\(outcome.stderrText)")
    held.waitUntilBegun()
    // Not reset yet: the run's file is still there while the caller already has its answer.
    #expect((try? box.directory.read(name: "left", limit: 100)) == Data("note\n".utf8))

    let next = Acquirer(pool, layout: layout, log: held.log)
    waitUntilWaiting(pool, log: held.log)
    held.release()
    next.join()
    #expect(next.error == nil)
    #expect(held.log.order("answer delivered", before: "reset let go"), "\(held.log.all)")
    #expect(held.log.order("released", before: "next caller got a box"), "\(held.log.all)")
    // The caller waited for the box being reset rather than getting it unreset or building another.
    let got = try #require(next.box)
    #expect(got === box)
    #expect((try? got.directory.read(name: "left", limit: 100)) == nil, "the next caller saw the last run's file")
    #expect(got.fingerprint().differences(from: try #require(got.freshFingerprint)).isEmpty)
    pool.put(got)
  }

  @Test func aBoxWhoseResetFailsIsDestroyedAndTheWaitingCallerGetsANewOne() throws {
    let held = HeldReset()
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1, beforeReset: held.hook)
    defer { pool.drain() }
    // Deeper than the host-side emptying goes: the reset fails.
    let (deep, box) = try run(
      pool, ["/bin/sh", "-c", "cd /box && for i in $(seq 100); do mkdir d && cd d; done; echo made"])
    held.log.record("answer delivered")
    #expect(deep.stdoutText == "made\n")
    let initPID = try #require(box.initPID)
    held.waitUntilBegun()

    let next = Acquirer(pool, layout: layout, log: held.log)
    waitUntilWaiting(pool, log: held.log)
    held.release()
    next.join()
    #expect(held.log.order("released", before: "next caller got a box"), "\(held.log.all)")
    let got = try #require(next.box)
    #expect(got !== box)
    #expect(box.isBroken)
    #expect(!WarmBox.liveInitPIDs.contains(initPID), "the failed box was not destroyed")
    #expect(pool.discardCounts[.files] == 1)
    pool.put(got)
  }

  @Test func drainWaitsForAResetInProgressAndLeavesNoBox() throws {
    let held = HeldReset()
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1, beforeReset: held.hook)
    let (_, box) = try run(pool, ["/bin/true"])
    let initPID = try #require(box.initPID)
    held.waitUntilBegun()
    let drained = DispatchSemaphore(value: 0)
    Thread {
      pool.drain()
      held.log.record("drained")
      drained.signal()
    }.start()
    held.release()
    drained.wait()
    #expect(held.log.order("reset let go", before: "drained"), "\(held.log.all)")
    #expect(pool.idleCount == 0)
    #expect(!WarmBox.liveInitPIDs.contains(initPID), "a box outlived the drain")
  }

  /// The fingerprint's socket count, parsed in C: a reading that failed would be nil in the fresh
  /// fingerprint and after every run alike, and the check would prove nothing.
  @Test func theSocketCountIsReadFromTheNamespacesSockstat() throws {
    let text = try String(contentsOfFile: "/proc/self/net/sockstat", encoding: .utf8)
    func number(after key: String, onLineStarting line: String) -> Int? {
      for row in text.split(separator: "\n") where row.hasPrefix(line) {
        let words = row.split(separator: " ")
        if let index = words.firstIndex(of: Substring(key)), index + 1 < words.count { return Int(words[index + 1]) }
      }
      return nil
    }
    let before = try #require(BoxFingerprint.socketCount(initPID: getpid()))
    let used = try #require(number(after: "used", onLineStarting: "sockets:"))
    let timeWait = try #require(number(after: "tw", onLineStarting: "TCP:"))
    // Other threads of the test process may open or close a socket meanwhile: near, not equal.
    #expect(abs(before - (used + timeWait)) < 64, "\(before) against \(used) + \(timeWait)")
    #expect(BoxFingerprint.socketCount(initPID: -1) == nil)
  }

  /// The fingerprint's limits, read from /proc/<pid>/limits in one go, are what prlimit says.
  @Test func theInitsLimitsAreReadAsPrlimitGivesThem() throws {
    let fd = open("/proc/self/limits", O_RDONLY | O_CLOEXEC)
    try #require(fd >= 0)
    defer { close(fd) }
    var expected: [UInt64] = []
    for resource in 0..<16 {
      var value = rlimit()
      #expect(getrlimit(__rlimit_resource_t(UInt32(resource)), &value) == 0)
      expected += [UInt64(value.rlim_cur), UInt64(value.rlim_max)]
    }
    // Twice through the one descriptor: each reading starts from the file's start.
    #expect(BoxFingerprint.initRLimits(fd) == expected)
    #expect(BoxFingerprint.initRLimits(fd) == expected)
    #expect(BoxFingerprint.initRLimits(-1) == [UInt64](repeating: .max - 1, count: 32))
  }

  /// A run with the limits of the run before skips writing them (BoxCgroup.beginRun): each run's
  /// limits still hold, repeated or changed.
  @Test func eachRunsMemoryLimitHoldsWhetherItRepeatsOrChanges() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    var statuses: [Status] = []
    for megabytes: UInt64 in [64, 64, 256, 256, 64] {
      var spec = BoxSpec(
        command: ["/usr/bin/python3", "-c", "a = bytearray(120 << 20); print('held')"], policy: Fixture.defaultPolicy)
      spec.limits.memoryBytes = megabytes << 20
      statuses.append(
        try pool.withBox(layout: BoxLayout(spec), limits: spec.limits) { box throws(SandboxError) in try box.run(spec) }
          .status)
    }
    #expect(statuses == [.memoryLimit, .memoryLimit, .ok, .ok, .memoryLimit])
  }
}
