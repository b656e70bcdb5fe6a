import Foundation
import Glibc
import Testing

@testable import Sandbox

// Create, run, destroy leave nothing behind; a killed parent leaves no box.

struct Leftovers: Equatable, CustomStringConvertible {
  var boxProcesses: Int
  var mounts: Int
  var cgroups: Int
  var directories: Int
  var openFiles: Int

  static func count(host: SandboxHost) -> Leftovers {
    let workRoot = host.configuration.workRoot
    let mounts = (KernelFile.read("/proc/self/mountinfo", limit: 1 << 22) ?? "").split(separator: "\n")
      .filter { $0.contains(workRoot + "/boxes/") }.count
    var cgroups = 0
    for parent in Set(host.cgroups.v1Parents.values).union(host.cgroups.v2Parent.map { [$0] } ?? []) {
      cgroups += listDirectory(parent).filter { $0.hasPrefix("dsa-run-\(getpid())-") }.count
    }
    return Leftovers(
      boxProcesses: hostProcessesOfBoxes().count, mounts: mounts, cgroups: cgroups,
      directories: listDirectory(workRoot + "/boxes").count, openFiles: listDirectory("/proc/self/fd").count)
  }

  var description: String {
    "processes \(boxProcesses), mounts \(mounts), cgroups \(cgroups), directories \(directories), fds \(openFiles)"
  }
}

@Suite struct LifecycleTests {
  @Test func thousandRunsLeaveNothingBehind() throws {
    try BoxTestLock.shared.exclusive {
      let host = Fixture.host
      let before = Leftovers.count(host: host)
      var statuses: [Status: Int] = [:]
      for index in 0..<1_000 {
        var spec = BoxSpec(
          command: ["/bin/sh", "-c", index % 10 == 0 ? "sleep 5 & echo $$" : "echo $$"], policy: Fixture.defaultPolicy)
        spec.limits.wallTimeMilliseconds = 2_000
        let box = try Box(host: host, spec: spec)
        let outcome = try box.run()
        box.destroy()
        box.destroy()  // idempotent
        statuses[outcome.status, default: 0] += 1
      }
      let after = Leftovers.count(host: host)
      #expect(statuses == [.ok: 1_000])
      // Other tests may hold pipes open at either moment; growth is the leak.
      #expect(after.openFiles <= before.openFiles, "before: \(before); after: \(after)")
      #expect(after.boxProcesses == 0 && after.mounts == 0 && after.cgroups == 0 && after.directories == 0, "\(after)")
    }
  }

  @Test func boxesThatNeverRunAreCleanedUpToo() throws {
    try BoxTestLock.shared.exclusive {
      let before = Leftovers.count(host: Fixture.host)
      for _ in 0..<20 {
        let box = try Box(host: Fixture.host, spec: BoxSpec(command: ["/bin/true"], policy: Fixture.defaultPolicy))
        try box.writeFile("a/b/c.txt", contents: Data("x".utf8))
        box.destroy()
      }
      do {
        _ = try Box(host: Fixture.host, spec: BoxSpec(command: ["/bin/true"], policy: Fixture.defaultPolicy))
      }
      let after = Leftovers.count(host: Fixture.host)
      #expect(
        after.mounts == before.mounts && after.cgroups == before.cgroups && after.directories == before.directories)
    }
  }

  @Test func killingTheParentMidRunLeavesNoBoxProcess() throws {
    let marker = "dsa-run-orphan-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let cli = Process()
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
