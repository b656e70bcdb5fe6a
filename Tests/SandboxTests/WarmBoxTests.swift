import Foundation
import Glibc
import Testing

@testable import Sandbox

// A warm box serves many runs; each run must find nothing of the last one.

@Suite struct WarmBoxTests {
  private func spec(_ command: [String], configure: (inout BoxSpec) -> Void = { _ in }) -> BoxSpec {
    var spec = BoxSpec(command: command, policy: Fixture.defaultPolicy)
    configure(&spec)
    return spec
  }

  private func run(
    _ box: WarmBox, _ command: [String], stdin: Data = Data(), files: [String: Data] = [:],
    configure: (inout BoxSpec) -> Void = { _ in }
  ) throws -> Outcome {
    let spec = spec(command, configure: configure)
    try box.prepare(limits: spec.limits)
    for (name, data) in files { try box.writeFile(name, contents: data, executable: true) }
    return try box.run(spec, stdin: stdin)
  }

  /// A process we did not start can hold the program file open for writing for a moment (one that
  /// forked while we wrote it, until its own exec). The program still starts once it lets go.
  @Test func aProgramFileHeldOpenForWritingForAMomentStillRuns() throws {
    let box = try WarmBox(host: Fixture.host, layout: BoxLayout())
    defer { box.destroy() }
    let program = try compileC("int main(void) { return 0; }", name: "tiny")
    let spec = spec(["/box/probe"])
    try box.prepare(limits: spec.limits)
    try box.writeFile("probe", contents: program, executable: true)
    let writer = open(box.directory.path + "/probe", O_WRONLY | O_CLOEXEC)
    try #require(writer >= 0)
    let released = DispatchSemaphore(value: 0)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) {
      close(writer)
      released.signal()
    }
    let outcome = try box.run(spec, stdin: Data())
    released.wait()
    #expect(outcome.status == .ok, "\(outcome.message)")
  }

  @Test func runsManyProgramsWithNothingCarriedOver() throws {
    do {
      let box = try WarmBox(host: Fixture.host, layout: BoxLayout())
      defer { box.destroy() }
      let first = try run(
        box,
        [
          "/bin/sh", "-c",
          "echo secret > /tmp/t; echo secret > /dev/shm/s; echo secret > /box/b; (sleep 30 &); python3 -c 'import sysv_ipc' 2>/dev/null; echo one",
        ])
      #expect(first.status == .ok)
      #expect(first.stdoutText == "one\n")
      let second = try run(
        box,
        [
          "/bin/sh", "-c",
          "ls -A /tmp /dev/shm /box; ps -e -o comm= 2>/dev/null || ls /proc | grep -E '^[0-9]+$'; echo two",
        ])
      #expect(second.status == .ok)
      #expect(!second.stdoutText.contains("secret"))
      #expect(!second.stdoutText.contains("sleep"))
      #expect(second.stdoutText.hasSuffix("two\n"))
      #expect(box.runCount == 2)
    }
  }

  @Test func sysVSharedMemoryDoesNotSurviveARun() throws {
    do {
      let box = try WarmBox(host: Fixture.host, layout: BoxLayout())
      defer { box.destroy() }
      let create = """
        import ctypes
        libc = ctypes.CDLL(None)
        print(libc.shmget(0x5eed, 4096, 0o1666))
        """
      let look = """
        import ctypes
        libc = ctypes.CDLL(None)
        print(libc.shmget(0x5eed, 4096, 0o666))
        """
      let made = try run(box, ["/usr/bin/python3", "-c", create])
      #expect(Int(made.stdoutText.trimmed) ?? -1 >= 0)
      let found = try run(box, ["/usr/bin/python3", "-c", look])
      #expect(found.stdoutText.trimmed == "-1", "a run saw the last run's shared memory")
    }
  }

  @Test func limitsHoldPerRunAndTheBoxSurvivesThem() throws {
    do {
      let box = try WarmBox(host: Fixture.host, layout: BoxLayout())
      defer { box.destroy() }
      let spin = try run(box, ["/usr/bin/python3", "-c", "while True: pass"]) { $0.limits.cpuTimeMilliseconds = 300 }
      #expect(spin.status == .timeLimit && spin.timeLimitKind == .cpu)
      let sleep = try run(box, ["/bin/sleep", "30"]) { $0.limits.wallTimeMilliseconds = 300 }
      #expect(sleep.status == .timeLimit && sleep.timeLimitKind == .wall)
      #expect(sleep.wallMilliseconds < 1_500)
      let flood = try run(box, ["/usr/bin/yes"]) { $0.limits.outputBytesPerStream = 1_000 }
      #expect(flood.status == .outputLimit && flood.stdout.count == 1_000)
      // The counters of the runs above do not leak into this one.
      let fine = try run(box, ["/usr/bin/python3", "-c", "print(sum(range(10)))"])
      #expect(fine.status == .ok && fine.stdoutText == "45\n")
      #expect(fine.cpuMilliseconds < 300)
      #expect(!box.isBroken)
      // Last: the OOM killer may take the init itself (a copy of this large
      // process) instead of the hog; the verdict is memory_limit either way,
      // and a box left broken is one the pool discards.
      let hog = try run(box, ["/usr/bin/python3", "-c", "a = bytearray(300 << 20)"]) {
        $0.limits.memoryBytes = 64 << 20
      }
      #expect(hog.status == .memoryLimit)
      if !box.isBroken {
        let after = try run(box, ["/usr/bin/python3", "-c", "print(1)"])
        #expect(after.status == .ok)
        #expect(after.memoryKilobytes < 64 * 1024)
      }
    }
  }

  @Test func execFailureIsThrownAndTheBoxStaysUsable() throws {
    do {
      let box = try WarmBox(host: Fixture.host, layout: BoxLayout())
      defer { box.destroy() }
      let error = #expect(throws: SandboxError.self) { _ = try run(box, ["/no/such/program"]) }
      #expect(error?.step == "execve /no/such/program")
      let after = try run(box, ["/bin/echo", "fine"])
      #expect(after.stdoutText == "fine\n")
    }
  }

  /// A read-only mount whose source the box's user cannot reach (a toolchain in a 0700 folder): the
  /// run's error names the init's failing step, not only that the init died.
  @Test func anUnreachableMountSourceIsNamed() throws {
    var template = Array("/opt/dsa-run-warm-test.XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    let parent = String(cString: try #require(made))
    defer { try? FileManager.default.removeItem(atPath: parent) }
    #expect(chmod(parent, 0o700) == 0)
    let tool = parent + "/tool"
    try FileManager.default.createDirectory(atPath: tool, withIntermediateDirectories: false)
    let box = try WarmBox(host: Fixture.host, layout: BoxLayout(readOnlyMounts: [ReadOnlyMount(hostPath: tool)]))
    defer { box.destroy() }
    let error = #expect(throws: SandboxError.self) {
      _ = try run(box, ["/bin/true"]) { $0.readOnlyMounts = [ReadOnlyMount(hostPath: tool)] }
    }
    #expect(error?.step.contains(tool) == true, "\(String(describing: error))")
    #expect(error?.step != "the warm box's init died during a run")
    #expect(error?.errorNumber == EACCES, "\(String(describing: error))")
  }

  @Test func filesGoInAndArtifactsComeOut() throws {
    do {
      let box = try WarmBox(host: Fixture.host, layout: BoxLayout())
      defer { box.destroy() }
      let outcome = try run(
        box, ["/bin/sh", "-c", "tr a-z A-Z < in.txt > out.txt; mkdir -p d/e; ln -s /etc/passwd d/link"],
        files: ["in.txt": Data("hello\n".utf8)])
      #expect(outcome.status == .ok)
      #expect(try box.directory.read(name: "out.txt", limit: 100) == Data("HELLO\n".utf8))
      #expect(throws: SandboxError.self) { _ = try box.directory.read(name: "d/link", limit: 100) }
      // The next run starts with an empty /box.
      let next = try run(box, ["/bin/ls", "-A", "/box"])
      #expect(next.stdoutText.isEmpty)
    }
  }

  @Test func aKilledInitBreaksTheBoxCleanly() throws {
    do {
      let box = try WarmBox(host: Fixture.host, layout: BoxLayout())
      defer { box.destroy() }
      _ = try run(box, ["/bin/true"])
      // Simulate the init dying (the kernel's OOM killer, an operator).
      let initPID = try #require(box.initPID)
      kill(initPID, SIGKILL)
      usleep(50_000)
      #expect(throws: SandboxError.self) { _ = try run(box, ["/bin/true"]) }
      #expect(box.isBroken)
    }
  }

  @Test func poolReusesBoxesAndLeavesNothingBehind() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 2)
    let filesBefore = openFileCount()
    var boxes: [ObjectIdentifier: (String, HostIdentity)] = [:]
    for index in 0..<300 {
      let spec = spec(["/bin/sh", "-c", index % 7 == 0 ? "sleep 5 & echo $$" : "echo $$"])
      let outcome = try pool.withBox(layout: BoxLayout(spec), limits: spec.limits) { box throws(SandboxError) in
        boxes[ObjectIdentifier(box)] = (box.name, box.identity)
        return try box.run(spec)
      }
      #expect(outcome.status == .ok)
      #expect(outcome.wallMilliseconds < 1_000, "a background child held the run open")
    }
    #expect(boxes.count == 1, "a sequential caller reuses one warm box")
    #expect(pool.idleCount == 1)
    pool.drain()
    let hostIDs = Set(boxes.values.flatMap { [$0.1.base, $0.1.programUID] })
    var left = Leftovers.of(names: boxes.values.map(\.0), hostIDs: hostIDs, host: Fixture.host)
    // The drained box's pair may already be another suite's.
    left.keepUnclaimedProcesses(hostIDs: hostIDs, host: Fixture.host)
    #expect(left.isEmpty, "\(left)")
    #expect(openFileCount() <= filesBefore + 32)
  }

  @Test func aWarmBoxOutlivesTheThreadThatMadeIt() throws {
    // The parent-death signal follows the creating thread: boxes are cloned
    // on the spawn thread so a short-lived caller thread can end first.
    final class Holder: @unchecked Sendable {
      var box: WarmBox?
      var error: (any Error)?
    }
    let holder = Holder()
    let made = DispatchSemaphore(value: 0)
    let thread = Thread {
      do { holder.box = try WarmBox(host: Fixture.host, layout: BoxLayout()) } catch { holder.error = error }
      made.signal()
    }
    thread.start()
    made.wait()
    usleep(200_000)  // the thread has ended by now
    let box = try #require(holder.box, "\(String(describing: holder.error))")
    defer { box.destroy() }
    #expect(box.isAlive)
    let outcome = try run(box, ["/bin/echo", "alive"])
    #expect(outcome.stdoutText == "alive\n")
  }

  @Test func leftoversTooDeepToEmptyCostTheNextCallerNothing() throws {
    // A run may leave a tree deeper than the host-side emptying goes; the box is then discarded, and the
    // next request, which did nothing wrong, gets a fresh box instead of an error.
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 2)
    defer { pool.drain() }
    let deep = spec([
      "/bin/sh", "-c",
      "cd /box && for i in $(seq 100); do mkdir d && cd d; done && cd /tmp && mkdir -p a/b && echo made",
    ])
    var firstPID: Int32?
    let first = try pool.withBox(layout: BoxLayout(deep), limits: deep.limits) { box throws(SandboxError) in
      firstPID = box.initPID
      return try box.run(deep)
    }
    #expect(first.stdoutText == "made\n", "\(first.stderrText)")
    let next = spec(["/bin/sh", "-c", "ls -A /box /tmp; echo next"])
    let outcome = try pool.withBox(layout: BoxLayout(next), limits: next.limits) { box throws(SandboxError) in
      #expect(box.initPID != firstPID)
      return try box.run(next)
    }
    #expect(outcome.status == .ok)
    #expect(outcome.stdoutText == "/box:\n\n/tmp:\nnext\n")
  }

  @Test func poolDropsAnIdleBoxWhoseInitDied() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 2)
    defer { pool.drain() }
    let spec = spec(["/bin/true"])
    var firstPID: Int32?
    _ = try pool.withBox(layout: BoxLayout(spec), limits: spec.limits) { box throws(SandboxError) in
      firstPID = box.initPID
      return try box.run(spec)
    }
    let pid = try #require(firstPID)
    kill(pid, SIGKILL)
    usleep(100_000)
    let outcome = try pool.withBox(layout: BoxLayout(spec), limits: spec.limits) { box throws(SandboxError) in
      #expect(box.initPID != pid)
      return try box.run(spec)
    }
    #expect(outcome.status == .ok)
  }

  /// The pool's reset arms the next run's counters while the box is idle; what a run reports is
  /// still its own: CPU time and peak after a heavy run, and the memory limit's failures when the
  /// next run comes with another limit.
  @Test func countersArmedByTheResetMeasureEachRunAlone() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    func pooled(_ command: [String], configure: (inout BoxSpec) -> Void = { _ in }) throws -> Outcome {
      let spec = spec(command, configure: configure)
      return try pool.withBox(layout: BoxLayout(spec), limits: spec.limits) { box throws(SandboxError) in
        try box.run(spec)
      }
    }
    let spin = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass"
    let heavy = try pooled(["/usr/bin/python3", "-c", "a = bytearray(96 << 20)\n" + spin])
    #expect(heavy.status == .ok, "\(heavy.message) \(heavy.stderrText)")
    #expect(heavy.cpuMilliseconds >= 250 && heavy.memoryKilobytes >= 90 << 10, "\(heavy)")
    let light = try pooled(["/bin/true"])
    #expect(light.status == .ok && light.cpuMilliseconds < 100, "\(light)")
    #expect(light.memoryKilobytes < 16 << 10, "the heavy run's peak leaked: \(light.memoryKilobytes) KiB")
    let lowered = try pooled(["/usr/bin/python3", "-c", "a = bytearray(8 << 20)"]) { $0.limits.memoryBytes = 48 << 20 }
    #expect(lowered.status == .ok, "\(lowered)")
    let hog = try pooled(["/usr/bin/python3", "-c", "a = bytearray(200 << 20)"]) { $0.limits.memoryBytes = 48 << 20 }
    #expect(hog.status == .memoryLimit, "\(hog)")
    // A failing exit after the hog is the program's own failure, not the hog's memory limit.
    let after = try pooled(["/bin/sh", "-c", "exit 3"]) { $0.limits.memoryBytes = 48 << 20 }
    #expect(after.status != .memoryLimit && after.exitCode == 3 && after.cpuMilliseconds < 100, "\(after)")
  }
}
