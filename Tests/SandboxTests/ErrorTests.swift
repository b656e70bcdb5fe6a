import Foundation
import Glibc
import Testing

@testable import Sandbox

// The sandbox's own failures are thrown, named and leave nothing behind.

@Suite struct ErrorTests {
  @Test func missingProgramNamesExecve() throws {
    let error = #expect(throws: SandboxError.self) { try runInBox(["/nonexistent/program"]) }
    #expect(error?.step == "execve /nonexistent/program")
    #expect(error?.errorNumber == ENOENT)
  }

  @Test func aWorkRootTheBoxesCannotReachIsRefusedAtStart() throws {
    // mkdtemp makes its directory 0700: an unprivileged box uid could not walk below it, and every
    // box used to fail later at "mount root tmpfs: EACCES".
    var template = Array("/tmp/dsa-run-private-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
    }
    let parent = try #require(made)
    defer { rmdir(parent + "/work/root") }
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let error = #expect(throws: SandboxError.self) {
      _ = try SandboxHost(configuration: SandboxConfiguration(workRoot: parent + "/work"))
    }
    #expect(error?.step.contains("\(parent) is not searchable by others") == true, "\(String(describing: error))")
    #expect(error?.hint == "chmod o+x \(parent), or choose another --work-root")
    chmod(parent, 0o755)
    let host = try SandboxHost(configuration: SandboxConfiguration(workRoot: parent + "/work"))
    _ = host
  }

  @Test func aSecondHostsSetUpChangesNothingOnDisk() throws {
    // Each one-shot CLI sets up a host. A chmod or truncate to what is already there still dirties
    // the inode, and on a journaling /run a start then waited for the journal now and then.
    let workRoot = "/run/dsa-run-tests-unchanged-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: workRoot) }
    _ = try SandboxHost(configuration: SandboxConfiguration(workRoot: workRoot))
    func changeTimes() -> [String: timespec] {
      var times: [String: timespec] = [:]
      for path in ["/boxes", "/empty", "/empty-file", "/etc/passwd", "/etc/hosts"] {
        var info = stat()
        if lstat(workRoot + path, &info) == 0 { times[path] = info.st_ctim }
      }
      return times
    }
    let before = changeTimes()
    #expect(before.count == 5)
    // Past the file system's timestamp granularity (a jiffy).
    usleep(30_000)
    _ = try SandboxHost(configuration: SandboxConfiguration(workRoot: workRoot))
    for (path, time) in changeTimes() {
      let earlier = try #require(before[path])
      #expect(time.tv_sec == earlier.tv_sec && time.tv_nsec == earlier.tv_nsec, "\(path) was changed again")
    }
  }

  @Test func relativeCommandIsRefused() {
    let error = #expect(throws: SandboxError.self) {
      _ = try Box(host: Fixture.host, spec: BoxSpec(command: ["true"], policy: Fixture.defaultPolicy))
    }
    #expect(
      error
        == SandboxError(step: "the command must start with an absolute path inside the box", errorNumber: EINVAL))
    #expect(
      error?.description
        == "the command must start with an absolute path inside the box: EINVAL (Invalid argument)")
  }

  @Test(arguments: [
    ("/proc", "cover"), ("/box/x", "cover"), ("relative", "absolute"), ("/usr/../etc", "normal"), ("/", "normal"),
    ("/etc", "cover"),
  ])
  func badMountTargetsAreRefused(target: String, word: String) {
    var spec = BoxSpec(command: ["/bin/true"], policy: Fixture.defaultPolicy)
    spec.readOnlyMounts = [ReadOnlyMount(hostPath: "/usr/share", boxPath: target)]
    let error = #expect(throws: SandboxError.self) { _ = try Box(host: Fixture.host, spec: spec) }
    #expect(error?.step.contains(word) == true)
  }

  @Test func missingMountSourceIsRefused() {
    var spec = BoxSpec(command: ["/bin/true"], policy: Fixture.defaultPolicy)
    spec.readOnlyMounts = [ReadOnlyMount(hostPath: "/does/not/exist", boxPath: "/opt/x")]
    let error = #expect(throws: SandboxError.self) { _ = try Box(host: Fixture.host, spec: spec) }
    #expect(
      error == SandboxError(step: "mount: host path /does/not/exist is missing or unreadable", errorNumber: ENOENT))
  }

  @Test func extraReadOnlyMountIsVisibleAndReadOnly() throws {
    let outcome = try runInBox([
      "/bin/sh", "-c", "ls /opt/share-probe | head -1; touch /opt/share-probe/x 2>/dev/null || echo readonly",
    ]) { spec in
      spec.readOnlyMounts = [ReadOnlyMount(hostPath: "/usr/share/doc", boxPath: "/opt/share-probe")]
    }
    #expect(outcome.status == .ok)
    #expect(outcome.stdoutText.hasSuffix("readonly\n"))
  }

  @Test(arguments: [
    ("memory=0", "limits: memory (bytes) must be greater than 0"),
    ("cpu=10000000", "limits: cpu time (ms) is 10000000; the maximum is 60000"),
    ("processes=100000", "limits: processes is 100000; the maximum is 1024"),
    ("output=0", "limits: output per stream (bytes) must be greater than 0"),
  ])
  func absurdLimitsAreRefused(setting: String, step: String) {
    var spec = BoxSpec(command: ["/bin/true"], policy: Fixture.defaultPolicy)
    let parts = setting.split(separator: "=")
    let value = UInt64(parts[1])!
    switch parts[0] {
    case "memory": spec.limits.memoryBytes = value
    case "cpu": spec.limits.cpuTimeMilliseconds = value
    case "processes": spec.limits.processes = value
    default: spec.limits.outputBytesPerStream = value
    }
    let error = #expect(throws: SandboxError.self) { _ = try Box(host: Fixture.host, spec: spec) }
    #expect(error == SandboxError(step: step, errorNumber: EINVAL))
  }

  @Test(arguments: ["../escape", "/abs", "a/../../b", "", "a//b", "./x", "a/b/c/d/e"])
  func pathTricksInFileNamesAreRefused(name: String) throws {
    #expect(BoxDirectory.validate(name: name) != nil)
    do {
      let box = try Box(host: Fixture.host, spec: BoxSpec(command: ["/bin/true"], policy: Fixture.defaultPolicy))
      defer { box.destroy() }
      #expect(throws: SandboxError.self) { try box.writeFile(name, contents: Data("x".utf8)) }
    }
  }

  @Test func aBoxRunsOnce() throws {
    do {
      let box = try Box(host: Fixture.host, spec: BoxSpec(command: ["/bin/true"], policy: Fixture.defaultPolicy))
      defer { box.destroy() }
      _ = try box.run()
      #expect(throws: SandboxError.self) { _ = try box.run() }
    }
  }

  @Test func errorsNameTheStepAndTheErrno() {
    let error = SandboxError(step: "pivot_root", errorNumber: EPERM)
    #expect(error.description.hasPrefix("pivot_root: EPERM"))
  }
}

@Suite struct HostIdentityTests {
  @Test func liveBoxesNeverShareHostIDs() throws {
    let directory = "/run/dsa-run-tests/uid-leases-\(getpid())-many"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let allocator = HostIdentityAllocator(directory: directory)
    var identities: [HostIdentity] = []
    var bases: Set<UInt32> = []
    // Few at once: each lease is an open fd, and other tests count this process's fds.
    let live = 16
    for _ in 0..<live {
      let identity = try allocator.next()
      identities.append(identity)
      bases.insert(identity.base)
    }
    for _ in 0..<500 {
      allocator.release(identities.removeFirst())
      let identity = try allocator.next()
      #expect(!identities.contains { $0.base == identity.base })
      identities.append(identity)
    }
    #expect(bases.count == live)
    // Freed pairs are taken again before new ones, so the lock files stay near the most boxes alive
    // at once, not one per pair ever handed out (516 here). Near, not equal: a box's init, cloned
    // from this process by a test running alongside, holds a copy of every lease until it closes
    // what it inherited, and a slot locked that way is skipped.
    #expect(listDirectory(directory).count < 200)
    for identity in identities { allocator.release(identity) }
    #expect(bases.allSatisfy { $0 >= HostIdentityAllocator.firstHostID && $0 % 2 == 0 })
  }
}
