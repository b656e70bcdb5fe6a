import Foundation
import Glibc
import SystemCore
import Testing

@testable import Sandbox

// Create, run, destroy leave nothing behind; a killed parent leaves no box.

/// What is left of a set of boxes (by name and host id) after they were
/// destroyed. Tests of other suites run boxes at the same time, so only
/// these boxes' own traces are counted.
struct Leftovers: CustomStringConvertible {
  var processes: [Int32] = []
  var mounts: [String] = []
  var cgroups: [String] = []
  var directories: [String] = []

  static func of(names: [String], hostIDs: Set<UInt32>, host: SandboxHost) -> Leftovers {
    var found = Leftovers()
    let mountInfo = KernelFile.read("/proc/self/mountinfo", limit: 1 << 22) ?? ""
    let parents = Array(host.cgroups.v1Parents.values) + (host.cgroups.v2Parent.map { [$0] } ?? [])
    for name in names {
      // A warm box also has name.tmp and name.shm beside its work directory.
      for directory in ["", ".tmp", ".shm"].map({ host.boxesDirectory + "/" + name + $0 }) {
        if mountInfo.contains(" \(directory) ") { found.mounts.append(directory) }
        if access(directory, F_OK) == 0 { found.directories.append(directory) }
      }
      for parent in parents where access(parent + "/dsa-run-" + name, F_OK) == 0 {
        found.cgroups.append(parent + "/dsa-run-" + name)
      }
    }
    for entry in listDirectory("/proc") {
      guard let pid = Int32(entry), let status = KernelFile.read("/proc/\(entry)/status") else { continue }
      guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }) else { continue }
      let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
      if fields.count > 1, let uid = UInt32(fields[1]), hostIDs.contains(uid) { found.processes.append(pid) }
    }
    return found
  }

  var isEmpty: Bool { processes.isEmpty && mounts.isEmpty && cgroups.isEmpty && directories.isEmpty }

  /// Of the processes found under `hostIDs`, those left behind: still there a moment later under
  /// an id whose pair nobody leases then. Leases are reused (one-shot allocators start within the
  /// first 64 slots), so a live box of a suite running alongside, in this process or in a CLI it
  /// started, may hold a pair these boxes had; its processes are its own.
  mutating func keepUnclaimedProcesses(hostIDs: Set<UInt32>, host: SandboxHost) {
    guard !processes.isEmpty else { return }
    usleep(500_000)
    let unleased = hostIDs.filter { !Self.isLeased($0, directory: host.identities.directory) }
    let again = Leftovers.of(names: [], hostIDs: unleased, host: host)
    processes = processes.filter(again.processes.contains)
  }

  /// Whether anyone holds the lease of the pair `id` belongs to: its file's flock is taken.
  static func isLeased(_ id: UInt32, directory: String) -> Bool {
    let slot = (id - HostIdentityAllocator.firstHostID) / 2
    let fd = open(directory + "/\(slot)", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
    flock(fd, LOCK_UN)
    return false
  }

  var description: String {
    "processes \(processes), mounts \(mounts), cgroups \(cgroups), directories \(directories)"
  }
}

func openFileCount() -> Int { listDirectory("/proc/self/fd").count }

@Suite struct LifecycleTests {
  @Test func thousandRunsLeaveNothingBehind() throws {
    let host = Fixture.host
    // Descriptors sampled every 50 runs; a leak shows as growth between the least seen early and the
    // least seen late (other suites open and close descriptors meanwhile, so one count is noise).
    var fileCounts: [Int] = []
    var names: [String] = []
    var hostIDs: Set<UInt32> = []
    var statuses: [Status: Int] = [:]
    for index in 0..<1_000 {
      var spec = BoxSpec(
        command: ["/bin/sh", "-c", index % 10 == 0 ? "sleep 5 & echo $$" : "echo $$"], policy: Fixture.defaultPolicy)
      spec.limits.wallTimeMilliseconds = 2_000
      let box = try Box(host: host, spec: spec)
      names.append(box.name)
      hostIDs.formUnion([box.identity.base, box.identity.programUID])
      let outcome = try box.run()
      box.destroy()
      box.destroy()  // idempotent
      statuses[outcome.status, default: 0] += 1
      if index % 50 == 49 { fileCounts.append(openFileCount()) }
    }
    #expect(statuses == [.ok: 1_000])
    // Leases are reused: a pair these boxes had may now belong to a live box of a test running
    // alongside, whose processes are its own. Every pair held now is such a box's (ours are gone).
    func leasedNow() -> Set<UInt32> {
      Set(
        host.identities.heldSlots.flatMap { slot -> [UInt32] in
          let base = HostIdentityAllocator.firstHostID + slot * 2
          return [base, base + 1]
        })
    }
    hostIDs.subtract(leasedNow())
    var left = Leftovers.of(names: names, hostIDs: hostIDs, host: host)
    // The allocator hands the next box the pair ours just freed, so a box of a suite alongside can
    // lease one between the look at the leases and the walk of /proc (seen once in a loaded full
    // run: four processes, gone a moment later).
    left.keepUnclaimedProcesses(hostIDs: hostIDs, host: host)
    #expect(left.isEmpty, "\(left)")
    // 20 samples: runs 50 to 250 against runs 800 to 1000. One descriptor leaked per run would be 550
    // more, one every third run 180; the bound leaves room for the boxes that other suites' pools
    // start meanwhile (a full suite went from 1,000 to 1,400 descriptors in its last minutes, and once
    // 66 of them fell in this test's span).
    let early = fileCounts.prefix(5).min() ?? 0
    let late = fileCounts.suffix(5).min() ?? 0
    #expect(late <= early + 160, "fds every 50 runs: \(fileCounts)")
  }

  @Test func boxesThatNeverRunAreCleanedUpToo() throws {
    var names: [String] = []
    var hostIDs: Set<UInt32> = []
    for _ in 0..<20 {
      let box = try Box(host: Fixture.host, spec: BoxSpec(command: ["/bin/true"], policy: Fixture.defaultPolicy))
      names.append(box.name)
      hostIDs.formUnion([box.identity.base, box.identity.programUID])
      try box.writeFile("a/b/c.txt", contents: Data("x".utf8))
      box.destroy()
    }
    do {
      // Dropped without destroy: deinit cleans up.
      let box = try Box(host: Fixture.host, spec: BoxSpec(command: ["/bin/true"], policy: Fixture.defaultPolicy))
      names.append(box.name)
    }
    var left = Leftovers.of(names: names, hostIDs: hostIDs, host: Fixture.host)
    // These boxes never ran: a process under their ids is a live box's that leased a pair again.
    left.keepUnclaimedProcesses(hostIDs: hostIDs, host: Fixture.host)
    #expect(left.isEmpty, "\(left)")
  }

  @Test func killingTheParentMidRunLeavesNoBoxProcess() throws {
    let marker = "dsa-run-orphan-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let cli = ChildProcess()
    cli.executableURL = URL(fileURLWithPath: dsaRunBinary)
    cli.arguments = [
      "exec", "--work-root", "/run/dsa-run-tests-parent", "--wall-limit", "60", "--", "/bin/sh", "-c",
      "sleep 60; echo \(marker)",
    ]
    cli.standardOutput = FileHandle.nullDevice
    cli.standardError = FileHandle.nullDevice
    try cli.run()
    // Wait until the box's shell is running.
    var seen = false
    for _ in 0..<200 where !seen {
      seen = processesWithArgument(marker).count > 0
      if !seen { usleep(20_000) }
    }
    #expect(seen, "the box never started")
    kill(cli.processIdentifier, SIGKILL)
    cli.waitUntilExit()
    var left = processesWithArgument(marker)
    for _ in 0..<100 where !left.isEmpty {
      usleep(20_000)
      left = processesWithArgument(marker)
    }
    #expect(left.isEmpty, "box processes survived their parent: \(left)")

    // A new start sweeps the dead process's work directory and cgroups.
    let host = try SandboxHost(configuration: SandboxConfiguration(workRoot: "/run/dsa-run-tests-parent"))
    #expect(listDirectory("/run/dsa-run-tests-parent/boxes").isEmpty)
    let outcome = try runInBox(["/bin/true"], host: host)
    #expect(outcome.status == .ok)
  }
}

func processesWithArgument(_ argument: String) -> [Int32] {
  listDirectory("/proc").compactMap { entry -> Int32? in
    guard let pid = Int32(entry), let commandLine = KernelFile.read("/proc/\(entry)/cmdline") else { return nil }
    return commandLine.contains(argument) ? pid : nil
  }
}
