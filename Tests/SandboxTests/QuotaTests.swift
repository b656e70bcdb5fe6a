import Foundation
import Glibc
import SandboxTesting
import Synchronization
import SystemCore
import Testing

@testable import Sandbox

// Issue 10, holes 6 and 7, core dumps and uid leases: the kernel's per-user
// counters, challenge data under /usr, core handlers, host uid collisions.

/// A box program that takes as much of one kernel resource as it can, prints
/// what it got, then holds it until the host removes /box/ready.
private let holdingProbe = #"""
  #define _GNU_SOURCE
  #include <errno.h>
  #include <fcntl.h>
  #include <mqueue.h>
  #include <signal.h>
  #include <stdio.h>
  #include <string.h>
  #include <sys/inotify.h>
  #include <unistd.h>

  int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "";
    int count = 0, error = 0;
    if (strcmp(what, "inotify") == 0) {
      while (count < 100000 && inotify_init1(IN_CLOEXEC) >= 0) count++;
      error = errno;
    } else if (strcmp(what, "signals") == 0) {
      sigset_t set;
      sigemptyset(&set);
      sigaddset(&set, SIGRTMIN);
      sigprocmask(SIG_BLOCK, &set, NULL);
      union sigval value = {0};
      while (count < 200000 && sigqueue(getpid(), SIGRTMIN, value) == 0) count++;
      error = errno;
    } else if (strcmp(what, "mqueue") == 0) {
      char name[32];
      for (;;) {
        snprintf(name, sizeof name, "/probe-%d", count);
        if (mq_open(name, O_CREAT | O_RDWR, 0600, NULL) == (mqd_t)-1) break;
        count++;
      }
      error = errno;
    }
    printf("%s %d %s\n", what, count, strerror(error));
    fflush(stdout);
    close(open("/box/ready", O_CREAT | O_WRONLY, 0600));
    for (int i = 0; i < 2000 && access("/box/ready", F_OK) == 0; i++) usleep(10000);
    return 0;
  }
  """#

/// Run on the host as root, outside every box: does root still get its own
/// inotify instance, POSIX timer, queued signal and message queue?
private let hostProbe = #"""
  #define _GNU_SOURCE
  #include <errno.h>
  #include <fcntl.h>
  #include <mqueue.h>
  #include <signal.h>
  #include <stdio.h>
  #include <string.h>
  #include <sys/inotify.h>
  #include <time.h>
  #include <unistd.h>

  static const char *result(int ok) { return ok ? "ok" : strerror(errno); }

  int main(void) {
    printf("inotify_init1 %s\n", result(inotify_init1(IN_CLOEXEC) >= 0));
    timer_t timer;
    printf("timer_create %s\n", result(timer_create(CLOCK_MONOTONIC, NULL, &timer) == 0));
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGRTMIN);
    sigprocmask(SIG_BLOCK, &set, NULL);
    union sigval value = {0};
    printf("sigqueue %s\n", result(sigqueue(getpid(), SIGRTMIN, value) == 0));
    char name[64];
    snprintf(name, sizeof name, "/dsa-run-host-probe-%d", getpid());
    mqd_t queue = mq_open(name, O_CREAT | O_RDWR, 0600, NULL);
    printf("mq_open %s\n", result(queue != (mqd_t)-1));
    if (queue != (mqd_t)-1) mq_unlink(name);
    return 0;
  }
  """#

private let probes: (holding: Data, host: Data) = {
  do {
    return (try compileC(holdingProbe, name: "quota-holding"), try compileC(hostProbe, name: "quota-host"))
  } catch {
    fatalError("the quota probes do not compile: \(error)")
  }
}()

/// Root's view from outside while boxes hold what they took: one line per
/// call, "NAME ok" or "NAME <error>".
private func rootsOwnCalls() throws -> String {
  let path = NSTemporaryDirectory() + "dsa-run-quota-host-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  guard FileManager.default.createFile(atPath: path, contents: probes.host, attributes: [.posixPermissions: 0o700])
  else { throw SandboxError(step: "write \(path)", errorNumber: errno) }
  defer { unlink(path) }
  let process = ChildProcess()
  process.executableURL = URL(fileURLWithPath: path)
  let output = ProcessLaunch.pipe()
  process.standardOutput = output
  try process.run()
  let text = String(decoding: output.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
  process.waitUntilExit()
  return text
}

/// Runs the holding probe in `count` boxes at once; when all of them hold
/// their resource, runs `whileHeld` on the host, then lets them end.
private func holdInBoxes(_ resource: String, count: Int, whileHeld: () throws -> Void) throws -> [Outcome] {
  var boxes: [Box] = []
  defer { for box in boxes { box.destroy() } }
  for _ in 0..<count {
    var spec = BoxSpec(command: ["/box/probe", resource], policy: Fixture.defaultPolicy)
    spec.limits.wallTimeMilliseconds = 30_000
    let box = try Box(host: Fixture.host, spec: spec)
    try box.writeFile("probe", contents: probes.holding, executable: true)
    boxes.append(box)
  }
  let outcomes = Mutex<[Int: Result<Outcome, SandboxError>]>([:])
  let threads = boxes.enumerated().map { index, box in
    Thread {
      let result = Result(catching: { () throws(SandboxError) -> Outcome in try box.run() })
      outcomes.withLock { $0[index] = result }
    }
  }
  for thread in threads { thread.start() }
  let readyPaths = boxes.map { $0.directory.path + "/ready" }
  let deadline = monotonicMilliseconds() + 25_000
  while readyPaths.contains(where: { access($0, F_OK) != 0 }) && monotonicMilliseconds() < deadline {
    usleep(10_000)
  }
  let allHeld = readyPaths.allSatisfy { access($0, F_OK) == 0 }
  if allHeld { try whileHeld() }
  for path in readyPaths { unlink(path) }
  while outcomes.withLock({ $0.count }) < boxes.count { usleep(10_000) }
  #expect(allHeld, "every box reached the point where it holds its \(resource)")
  return try (0..<boxes.count).map { index in try outcomes.withLock { $0[index]! }.get() }
}

/// "NAME COUNT ERROR" from a holding probe.
private func heldCount(_ outcome: Outcome) -> Int {
  Int(outcome.stdoutText.split(separator: " ").dropFirst().first ?? "") ?? -1
}

@Suite(.serialized) struct KernelCounterTests {
  @Test func theBoxsUserNamespaceIsOwnedByTheBoxNotRoot() throws {
    // NS_GET_OWNER_UID: the kernel charges every per-user count made in a user
    // namespace to its owner in the parent namespace as well.
    let box = try WarmBox(host: Fixture.host, layout: BoxLayout())
    defer { box.destroy() }
    let pid = try #require(box.initPID)
    let fd = open("/proc/\(pid)/ns/user", O_RDONLY | O_CLOEXEC)
    try #require(fd >= 0)
    defer { close(fd) }
    var owner: uid_t = 0
    let nsGetOwnerUID: UInt = 0xB704  // _IO(0xb7, 0x4)
    #expect(ioctl(fd, nsGetOwnerUID, &owner) == 0)
    #expect(owner == box.identity.base)
  }

  @Test func inotifyInstancesOfManyBoxesLeaveRootItsOwn() throws {
    // Five boxes take all they can: together more than root's 128, if
    // they were charged to root.
    var hostView = ""
    let outcomes = try holdInBoxes("inotify", count: 5) { hostView = try rootsOwnCalls() }
    for outcome in outcomes {
      #expect(outcome.status == .ok, "\(outcome.stdoutText) \(outcome.stderrText)")
      let held = heldCount(outcome)
      #expect(held > 0 && held <= 32, "inotify instances per box: \(outcome.stdoutText)")
    }
    #expect(hostView.contains("inotify_init1 ok"), "root's own inotify: \(hostView)")
  }

  @Test func queuedSignalsAreBoundedPerBoxAndLeaveRootItsOwn() throws {
    var hostView = ""
    let outcomes = try holdInBoxes("signals", count: 1) { hostView = try rootsOwnCalls() }
    let outcome = try #require(outcomes.first)
    #expect(outcome.status == .ok)
    let held = heldCount(outcome)
    #expect(held > 0 && held <= Int(boxSignalsPending), "queued signals: \(outcome.stdoutText)")
    #expect(hostView.contains("timer_create ok"), "root's own timer: \(hostView)")
    #expect(hostView.contains("sigqueue ok"), "root's own queued signal: \(hostView)")
  }

  @Test func messageQueueBytesAreBoundedPerBoxAndLeaveRootItsOwn() throws {
    var hostView = ""
    let outcomes = try holdInBoxes("mqueue", count: 1) { hostView = try rootsOwnCalls() }
    let outcome = try #require(outcomes.first)
    #expect(outcome.status == .ok)
    // A default queue (10 x 8 KiB) costs about 82 KiB of RLIMIT_MSGQUEUE.
    let held = heldCount(outcome)
    #expect(held >= 1 && held <= 3, "message queues: \(outcome.stdoutText)")
    #expect(hostView.contains("mq_open ok"), "root's own message queue: \(hostView)")
  }

  @Test func theProgramSeesItsKernelCounterLimits() throws {
    let outcome = try runPython(
      """
      import resource
      print(open("/proc/sys/user/max_inotify_instances").read().strip(), open("/proc/sys/user/max_inotify_watches").read().strip())
      print(resource.getrlimit(resource.RLIMIT_SIGPENDING), resource.getrlimit(resource.RLIMIT_MSGQUEUE))
      """)
    let expected =
      "32 8192\n(\(boxSignalsPending), \(boxSignalsPending)) (\(boxMessageQueueBytes), \(boxMessageQueueBytes))\n"
    #expect(outcome.stdoutText == expected, "\(outcome.stderrText)")
  }
}

@Suite struct CoreDumpTests {
  @Test func rlimitCoreIsOneAndTheProgramCannotChangeIt() throws {
    let outcome = try runPython(
      """
      import resource
      print(resource.getrlimit(resource.RLIMIT_CORE))
      for value in [(0, 0), (0, 1), (1, 0)]:
          try:
              resource.setrlimit(resource.RLIMIT_CORE, value)
              print("changed", value)
          except ValueError as error:  # Python's word for EPERM here
              print("refused", error)
      resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
      print(resource.getrlimit(resource.RLIMIT_CORE), resource.getrlimit(resource.RLIMIT_NOFILE))
      """)
    #expect(outcome.status == .ok, "\(outcome.stderrText)")
    let refused = "refused not allowed to raise maximum limit\n"
    #expect(outcome.stdoutText == "(1, 1)\n" + String(repeating: refused, count: 3) + "(1, 1) (64, 64)\n")
  }

  @Test func rawCallsWithHighBitsInTheResourceAreRefusedToo() throws {
    // The kernel takes the resource's low 32 bits; the filter must as well.
    let outcome = try runC(
      """
      #define _GNU_SOURCE
      #include <stdio.h>
      #include <sys/resource.h>
      #include <sys/syscall.h>
      #include <unistd.h>
      int main(void) {
        struct rlimit zero = {0, 0};
        long a = syscall(SYS_setrlimit, 0x100000004L, &zero);
        long b = syscall(SYS_prlimit64, 0, 0x700000004L, &zero, NULL);
        struct rlimit now;
        getrlimit(RLIMIT_CORE, &now);
        printf("%ld %ld %lu %lu\\n", a, b, (unsigned long)now.rlim_cur, (unsigned long)now.rlim_max);
        return 0;
      }
      """, name: "core-high-bits")
    #expect(outcome.stdoutText == "-1 -1 1 1\n", "\(outcome.stderrText)")
  }

  @Test func aCrashingProgramLeavesNoCoreFile() throws {
    // core_pattern here is a file name ("core"): with RLIMIT_CORE 1 no file
    // is written (a pipe helper would not be started either; see
    // docs/security.md).
    let pattern = KernelFile.read("/proc/sys/kernel/core_pattern")?.trimmed ?? ""
    let outcome = try runInBox(
      ["/bin/sh", "-c", "cd /box && /usr/bin/python3 -c 'import os; os.abort()'; ls -a /box"],
      configure: { $0.limits.fileSizeBytes = 64 << 20 })
    #expect(outcome.status == .ok)
    if !pattern.hasPrefix("|") && !pattern.hasPrefix("@") {
      #expect(!outcome.stdoutText.contains("core"), "core_pattern \(pattern): \(outcome.stdoutText)")
    }
  }
}

@Suite struct HiddenDataTests {
  @Test func dataInstalledUnderUsrIsInvisibleToBoxesWhileRunsWork() throws {
    let root = "/usr/local/share/dsa-run-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let answer = root + "/challenges/sum/tests/1.out"
    let manager = FileManager.default
    try manager.createDirectory(atPath: root + "/challenges/sum/tests", withIntermediateDirectories: true)
    try manager.createDirectory(atPath: root + "/runners", withIntermediateDirectories: true)
    defer { try? manager.removeItem(atPath: root) }
    try "42 EXPECTED-ANSWER\n".write(toFile: answer, atomically: false, encoding: .utf8)
    try "{}".write(toFile: root + "/runners/python.json", atomically: false, encoding: .utf8)
    try "{\"bearer_tokens\": [\"SECRET\"]}".write(toFile: root + "/dsa-rund.json", atomically: false, encoding: .utf8)

    let host = try SandboxHost(
      configuration: SandboxConfiguration(
        workRoot: "/run/dsa-run-tests",
        hiddenPaths: [root + "/challenges", root + "/runners", root + "/dsa-rund.json"]))
    let probe = """
      import glob, os
      print(sorted(os.listdir("\(root)")))
      for path in ["\(root)/challenges", "\(root)/runners"]:
          print(path.rsplit("/", 1)[1], os.listdir(path))
      print(glob.glob("/usr/local/**/tests/*.out", recursive=True))
      for path in ["\(answer)", "\(root)/dsa-rund.json"]:
          try:
              print("READ", open(path).read())
          except OSError as error:
              print("refused", error.errno)
      print("toolchain", os.path.exists("/usr/bin/python3"))
      """
    for warm in [false, true] {
      var spec = BoxSpec(command: ["/usr/bin/python3", "-c", probe], policy: Fixture.defaultPolicy)
      spec.limits.wallTimeMilliseconds = 20_000
      let outcome: Outcome
      if warm {
        let box = try WarmBox(host: host, layout: BoxLayout(spec))
        defer { box.destroy() }
        try box.prepare(limits: spec.limits)
        outcome = try box.run(spec)
      } else {
        let box = try Box(host: host, spec: spec)
        defer { box.destroy() }
        outcome = try box.run()
      }
      #expect(outcome.status == .ok, "\(outcome.stderrText)")
      let text = outcome.stdoutText
      #expect(text.contains("challenges []\nrunners []\n"), "warm \(warm): \(text)")
      #expect(!text.contains("EXPECTED-ANSWER") && !text.contains("SECRET") && !text.contains("1.out"), "\(text)")
      #expect(text.contains("READ \n"), "the config reads as an empty file: \(text)")
      #expect(text.contains("toolchain True"))
    }
  }

  @Test func pathsAreCoveredWhereverABoundDirectoryShowsThem() {
    var layout = HostLayout()
    layout.topLevelDirectories = ["/srv"]
    // /usr/bin stands in for data under /usr: it exists and is bound twice
    // (as /usr and through a runner's extra mount at /opt/bin). /etc is not
    // bound, the repository is outside every bound directory, and a missing
    // path shows nothing.
    layout.hiddenPaths = ["/usr/bin", "/etc/passwd", repositoryRoot, "/usr/share/dsa-run-missing"]
    let extra = [ReadOnlyMount(hostPath: "/usr/bin", boxPath: "/opt/bin")]
    let targets = maskedDataPaths(layout: layout, extra: extra)
    #expect(targets.map(\.target) == ["/usr/bin", "/opt/bin"])
    #expect(targets.allSatisfy { !$0.isFile })
    layout.hiddenPaths = ["/usr/bin/env"]
    #expect(maskedDataPaths(layout: layout, extra: []).map { "\($0.target) \($0.isFile)" } == ["/usr/bin/env true"])
  }
}

@Suite(.serialized) struct HostIdentityLeaseTests {
  /// A second process that holds the leases of `slots` in `directory` until killed.
  private func startHolder(directory: String, slots: [UInt32]) throws -> ChildProcess {
    let holder = ChildProcess()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    holder.arguments =
      [
        "-c",
        """
        import fcntl, os, sys, time
        held = []
        for slot in sys.argv[2:]:
            fd = os.open(os.path.join(sys.argv[1], slot), os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held.append(fd)
        print("held", flush=True)
        time.sleep(120)
        """,
        directory,
      ] + slots.map(String.init)
    let output = ProcessLaunch.pipe()
    holder.standardOutput = output
    try holder.run()
    let line = output.fileHandleForReading.availableData
    #expect(String(decoding: line, as: UTF8.self).hasPrefix("held"))
    return holder
  }

  private func temporaryLeaseDirectory() -> String {
    "/run/dsa-run-tests/uid-leases-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  }

  @Test func anotherProcesssLeasesAreNeverHandedOutAndADeadHoldersAreReused() throws {
    let directory = temporaryLeaseDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let allocator = HostIdentityAllocator(directory: directory, slotCount: 4)
    // Creates the directory (root-only).
    allocator.release(try allocator.next())
    var info = stat()
    #expect(lstat(directory, &info) == 0 && info.st_mode & 0o777 == 0o700)

    let holder = try startHolder(directory: directory, slots: [0, 2])
    let first = try allocator.next()
    let second = try allocator.next()
    let bases = Set([first.base, second.base])
    let free = Set([1, 3].map { HostIdentityAllocator.firstHostID + UInt32($0) * 2 })
    #expect(bases == free, "the other process holds slots 0 and 2")
    #expect(throws: SandboxError.self) { try allocator.next() }

    kill(holder.processIdentifier, SIGKILL)
    holder.waitUntilExit()
    // The dead holder's leases are free again, without any cleanup.
    let third = try allocator.next()
    let fourth = try allocator.next()
    #expect(Set([third.base, fourth.base]) == Set([0, 2].map { HostIdentityAllocator.firstHostID + UInt32($0) * 2 }))
    for identity in [first, second, third, fourth] { allocator.release(identity) }
  }

  @Test func oneShotAllocatorsReuseAFewLeaseFiles() throws {
    // Each one-shot CLI makes a fresh allocator. Started anywhere in all 32,768 slots, most of them
    // created a new lock file, and on an ext4 /run that open waits for the journal.
    let directory = temporaryLeaseDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for _ in 0..<300 {
      let allocator = HostIdentityAllocator(directory: directory)
      allocator.release(try allocator.next())
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(files.count <= Int(HostIdentityAllocator.startWindow), "\(files.count) lease files for 300 one-shot leases")
  }

  @Test func twoAllocatorsNeverShareAPair() throws {
    // Two hosts in one process, or two processes: each lease is its own open
    // file description, so flock keeps them apart either way.
    let directory = temporaryLeaseDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // Few slots: each lease is an open fd, and other tests count this process's fds.
    let one = HostIdentityAllocator(directory: directory, slotCount: 16)
    let other = HostIdentityAllocator(directory: directory, slotCount: 16)
    var seen: Set<UInt32> = []
    var identities: [(HostIdentityAllocator, HostIdentity)] = []
    for index in 0..<16 {
      let allocator = index % 2 == 0 ? one : other
      let identity = try allocator.next()
      #expect(seen.insert(identity.base).inserted)
      identities.append((allocator, identity))
    }
    #expect(throws: SandboxError.self) { try one.next() }
    for (allocator, identity) in identities { allocator.release(identity) }
  }
}
