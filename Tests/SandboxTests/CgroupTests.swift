import Foundation
import Glibc
import SandboxTesting
import Testing

@testable import Sandbox

// Mode detection from fake procfs/cgroupfs files, so v2, v1 and rlimit-only
// are all exercised whatever this host has; the live mode is tested by
// every box test.

@Suite struct CgroupTests {
  final class FakeTree {
    let root: String

    init() throws {
      root = NSTemporaryDirectory() + "dsa-run-cgroup-fake-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func file(_ path: String, _ text: String) throws {
      let full = root + "/" + path
      try FileManager.default.createDirectory(
        atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try text.write(toFile: full, atomically: false, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
  }

  @Test func parsesCgroupMountsFromMountInfo() {
    let mountInfo = """
      30 23 0:26 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory
      31 23 0:27 / /sys/fs/cgroup/pids rw,relatime shared:10 - cgroup cgroup rw,pids
      32 23 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:11 - cgroup cgroup rw,cpu,cpuacct
      33 23 0:29 / /sys/fs/cgroup/unified rw,relatime shared:12 - cgroup2 cgroup2 rw
      34 23 0:30 /sub /mnt/bind rw,relatime - cgroup cgroup rw,memory
      35 23 0:31 / /mnt/cgroup\0402 rw - cgroup2 cgroup2 rw
      36 23 0:32 / /run rw,relatime - tmpfs tmpfs rw,memory
      37 23 0:33 / /short - cgroup
      """
    let mounts = CgroupSetup.parseCgroupMounts(mountInfo)
    #expect(mounts.v2 == "/sys/fs/cgroup/unified")
    #expect(mounts.v1["memory"] == "/sys/fs/cgroup/memory")
    #expect(mounts.v1["cpuacct"] == "/sys/fs/cgroup/cpu,cpuacct")
    #expect(mounts.v1["pids"] == "/sys/fs/cgroup/pids")
    // Only the first cgroup2 mount counts; a line cut short, or another type, is skipped.
    #expect(mounts.v1.count == 3)
  }

  @Test func configuredV2PathIsUsedAndControllersEnabled() throws {
    let tree = try FakeTree()
    try tree.file("delegated/cgroup.controllers", "cpuset cpu io memory pids\n")
    try tree.file("delegated/cgroup.subtree_control", "")
    try tree.file("self-cgroup", "0::/\n")
    try tree.file("mountinfo", "")
    let setup = CgroupSetup.detect(
      configuredV2Path: tree.root + "/delegated", procSelfCgroup: tree.root + "/self-cgroup",
      procSelfMountInfo: tree.root + "/mountinfo")
    #expect(setup.mode == .v2)
    #expect(setup.v2Parent == tree.root + "/delegated")
    // Enabling writes "+controller" lines to the parent's subtree_control.
    #expect(KernelFile.read(tree.root + "/delegated/cgroup.subtree_control")?.contains("+") == true)
  }

  @Test func v2WithoutMemoryAndPidsFallsBackToV1() throws {
    let tree = try FakeTree()
    try tree.file("unified/cgroup.controllers", "hugetlb\n")
    try tree.file("memory/cgroup.procs", "")
    try tree.file("pids/cgroup.procs", "")
    try tree.file("cpuacct/cgroup.procs", "")
    try tree.file("self-cgroup", "4:memory:/\n8:pids:/\n2:cpuacct:/\n0::/\n")
    try tree.file(
      "mountinfo",
      """
      1 0 0:1 / \(tree.root)/unified rw - cgroup2 cgroup2 rw
      2 0 0:2 / \(tree.root)/memory rw - cgroup cgroup rw,memory
      3 0 0:3 / \(tree.root)/pids rw - cgroup cgroup rw,pids
      4 0 0:4 / \(tree.root)/cpuacct rw - cgroup cgroup rw,cpuacct

      """)
    let setup = CgroupSetup.detect(
      procSelfCgroup: tree.root + "/self-cgroup", procSelfMountInfo: tree.root + "/mountinfo")
    #expect(setup.mode == .v1)
    #expect(setup.v1Parents[.memory] == tree.root + "/memory")
    #expect(setup.report.contains { $0.contains("hugetlb") })
  }

  /// The statfs look at the usual places finds what mountinfo says (the same file systems) for the
  /// controllers a box needs, or nothing; and nothing where they are not cgroup file systems.
  @Test func theUsualMountsAreTheOnesMountinfoNames() throws {
    let tree = try FakeTree()
    try tree.file("memory/cgroup.procs", "")
    try tree.file("pids/cgroup.procs", "")
    try tree.file("cpuacct/cgroup.procs", "")
    #expect(CgroupSetup.usualCgroupMounts(root: tree.root) == nil)
    #expect(CgroupSetup.usualCgroupMounts(root: tree.root + "/absent") == nil)
    guard let usual = CgroupSetup.usualCgroupMounts() else { return }
    let listed = CgroupSetup.parseCgroupMounts(KernelFile.read("/proc/self/mountinfo", limit: 1 << 22) ?? "")
    func resolved(_ path: String?) -> String? { path.flatMap { realpath($0, nil) }.map { String(cString: $0) } }
    #expect(resolved(usual.v2) == resolved(listed.v2))
    for controller in CgroupSetup.V1Controller.allCases where !usual.v1.isEmpty {
      #expect(resolved(usual.v1[controller.rawValue]) == resolved(listed.v1[controller.rawValue]), "\(controller)")
    }
  }

  @Test func nothingUsableGivesRlimitOnly() throws {
    let tree = try FakeTree()
    try tree.file("self-cgroup", "0::/\n")
    try tree.file("mountinfo", "")
    let setup = CgroupSetup.detect(
      procSelfCgroup: tree.root + "/self-cgroup", procSelfMountInfo: tree.root + "/mountinfo")
    #expect(setup.mode == .rlimitOnly)
    #expect(setup.report.last?.contains("degraded") == true)
  }

  @Test func forcedModeIsHonoured() {
    #expect(CgroupSetup.detect(forceMode: .rlimitOnly).mode == .rlimitOnly)
  }

  @Test func liveModeIsReportedByTheHost() {
    let facts = Fixture.host.report()
    #expect(facts.contains { $0.0 == "accounting" && $0.1 == Fixture.host.cgroups.mode.rawValue })
  }
}

/// The same limits in rlimit-only mode (no cgroup), as on hosts without a
/// writable cgroup.
@Suite struct RlimitOnlyModeTests {
  static let host: SandboxHost = {
    do {
      return try SandboxHost(
        configuration: SandboxConfiguration(workRoot: "/run/dsa-run-tests-rlimit", cgroupMode: .rlimitOnly))
    } catch {
      fatalError("\(error)")
    }
  }()

  @Test func runsAndReportsDegradedAccounting() throws {
    let outcome = try runInBox(["/usr/bin/python3", "-c", "print(sum(range(1000)))"], host: Self.host)
    #expect(outcome.status == .ok)
    #expect(outcome.stdoutText == "499500\n")
    #expect(outcome.accounting == "rlimit")
    #expect(outcome.memoryKilobytes > 1_000)
  }

  /// Without a cgroup RLIMIT_CPU is the only bound, so the figure reported is the one it charges
  /// (the kernel's tick-based count, which ran ahead of the process's rusage): the message and
  /// the figure agree, on a busy host too.
  @Test(arguments: [false, true])
  func cpuLoopIsStoppedByRLIMIT_CPU(busyHost: Bool) throws {
    let hogs = busyHost ? CPUHogs() : nil
    defer { hogs?.stop() }
    let outcome = try runInBox(["/usr/bin/python3", "-c", "while True: pass"], host: Self.host) { spec in
      spec.limits.cpuTimeMilliseconds = 1_000
      // Scaled: scripts/test-kernels runs this suite in an emulated VM, beside the hogs too.
      spec.limits.wallTimeMilliseconds = 30_000 * BoxLimits.timeScale
    }
    LimitTests.expectCPUVerdictAgreesWithItsFigures(outcome, limit: 1_000, "rlimit-only")
  }

  @Test func memoryHogFails() throws {
    let outcome = try runInBox(["/usr/bin/python3", "-c", "a = bytearray(600 * 1024 * 1024)"], host: Self.host) {
      spec in
      spec.limits.memoryBytes = 64 << 20
    }
    #expect(outcome.status == .memoryLimit || outcome.status == .runtimeError)
    #expect(outcome.status != .ok)
  }

  @Test func forkBombIsBoundedByRLIMIT_NPROC() throws {
    let outcome = try runInBox(
      [
        "/usr/bin/python3", "-c",
        "import os\nn = 0\ntry:\n    while True:\n        if os.fork() == 0:\n            import time; time.sleep(30)\n        n += 1\nexcept OSError:\n    print('stopped', n)",
      ],
      host: Self.host
    ) { spec in
      spec.limits.processes = 16
      // Room for a Python start and 16 forks, scaled in an emulated VM: unscaled, 6.1 emulated on a
      // loaded host took 7.7 s, ended at this wall limit, and printed nothing.
      spec.limits.wallTimeMilliseconds = 5_000 * BoxLimits.timeScale
    }
    #expect(outcome.stdoutText.hasPrefix("stopped"), "\(outcome.status): \(outcome.message)")
    let count = Int(outcome.stdoutText.split(separator: " ").last?.split(separator: "\n").first ?? "") ?? 999
    #expect(count < 16)
  }
}
