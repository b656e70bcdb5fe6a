import Foundation
import Glibc
import Testing

@testable import Sandbox

// What the one-shot CLI does differently to start and end faster, and that it keeps its promises.

@Suite struct CLISpeedTests {
  /// The CLI makes its boxes in a mount namespace of its own: while a box runs, the host has no
  /// directory of it in boxes/ and no mount of it; the CLI's namespace has the box's tmpfs. After the
  /// CLI ends nothing of the box is left anywhere the host can see.
  @Test func boxDirectoriesLiveInTheCLIsOwnMountNamespace() throws {
    let marker = "dsa-run-private-namespace-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let cli = Process()
    cli.executableURL = URL(fileURLWithPath: dsaRunBinary)
    cli.arguments = ["exec", "--wall-limit", "30", "--", "/bin/sh", "-c", "sleep 30; echo \(marker)"]
    cli.standardOutput = FileHandle.nullDevice
    cli.standardError = FileHandle.nullDevice
    try cli.run()
    let pid = cli.processIdentifier
    defer {
      if cli.isRunning { kill(pid, SIGKILL) }
      cli.waitUntilExit()
    }
    // The CLI's own command line holds the marker too: wait for the box's shell, not just the CLI.
    func cliMounts() -> String { (try? String(contentsOfFile: "/proc/\(pid)/mountinfo", encoding: .utf8)) ?? "" }
    var seen = false
    for _ in 0..<500 where !seen {
      seen = processesWithArgument(marker).contains { $0 != pid } && cliMounts().contains("/run/dsa-run/boxes/\(pid)-")
      if !seen { usleep(20_000) }
    }
    try #require(seen, "the box never started, or its tmpfs is not in the CLI's namespace")
    let hostNamespace = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/mnt")
    let cliNamespace = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/mnt")
    #expect(hostNamespace != cliNamespace, "the CLI makes its boxes in the host's mount namespace")
    // The host's view while the box runs: its cgroups, and neither its directory nor its mount.
    let visible = leftovers(of: pid).filter { !$0.hasPrefix("/sys/fs/cgroup/") }
    #expect(visible.isEmpty, "the host sees the box's work directory: \(visible)")
    #expect(hasBox(pid), "the CLI does not see its box's directory")
    kill(pid, SIGTERM)
    cli.waitUntilExit()
    #expect(cli.terminationStatus == 143)
    #expect(leftovers(of: pid).isEmpty)
  }
}
