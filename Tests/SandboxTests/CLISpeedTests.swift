import Foundation
import Glibc
import SandboxTesting
import SystemCore
import Testing

@testable import Sandbox

// What the one-shot CLI does differently to start and end faster, and that it keeps its promises.

@Suite struct CLISpeedTests {
  /// The CLI makes its boxes in a mount namespace of its own: while a box runs, the host has no
  /// directory of it in boxes/ and no mount of it; the CLI's namespace has the box's tmpfs. After the
  /// CLI ends nothing of the box is left anywhere the host can see.
  @Test func boxDirectoriesLiveInTheCLIsOwnMountNamespace() throws {
    let marker = "dsa-run-private-namespace-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let errors = ProcessLaunch.pipe()
    let cli = try startCLI(
      ["exec", "--wall-limit", "60", "--", "/bin/sh", "-c", "sleep 60; echo \(marker)"], errors: errors)
    let pid = cli.processIdentifier
    defer { stopCLI(cli, signal: SIGKILL) }
    // The CLI's own command line holds the marker too: wait for the box's shell and its tmpfs, by
    // the clock (a loaded host makes each look at /proc slow), and say why if the CLI ended first.
    // Read to its end: Foundation's String(contentsOfFile:) stops at the first page of a /proc file.
    func cliMounts() -> String { KernelFile.read("/proc/\(pid)/mountinfo", limit: 1 << 22) ?? "" }
    let deadline = Date().addingTimeInterval(45)
    var seen = false
    while !seen && cli.isRunning && Date() < deadline {
      seen =
        cliMounts().contains("/run/dsa-run/boxes/\(pid)-") && processesWithArgument(marker).contains { $0 != pid }
      if !seen { usleep(20_000) }
    }
    if !cli.isRunning {
      let stderr = String(decoding: errors.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
      Issue.record("the CLI ended (\(cli.terminationStatus)) before its box was seen: \(stderr)")
      return
    }
    let state = "box directory \(hasBox(pid)), processes \(processesWithArgument(marker)), CLI \(pid)"
    try #require(seen, "the box never started, or its tmpfs is not in the CLI's namespace: \(state)")
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

  /// In the CLI's own namespace a box's tmpfs is left mounted for the namespace's end only until the
  /// next box is made: while a C++ program runs, its compile box's tmpfs is gone from the CLI's
  /// namespace (its artifacts do not stay in memory), and after the CLI ends the host sees nothing.
  @Test func anEarlierBoxsTmpfsIsUnmountedWhenTheNextBoxIsMade() throws {
    let marker = "dsa-run-left-tmpfs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let directory = NSTemporaryDirectory() + marker
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let source = directory + "/sleep.cpp"
    // The marker makes the source new to the compile cache, so a compile box is made first.
    try Data("#include <unistd.h>\n// \(marker)\nint main() { sleep(30); }\n".utf8).write(
      to: URL(fileURLWithPath: source))
    let cli = try startCLI(["--lang", "cpp", source, "--wall-limit", "40", "--cache-dir", directory + "/cache"])
    let pid = cli.processIdentifier
    defer { stopCLI(cli, signal: SIGKILL) }
    func cliMounts() -> String { KernelFile.read("/proc/\(pid)/mountinfo", limit: 1 << 22) ?? "" }
    let deadline = Date().addingTimeInterval(60)
    while cli.isRunning && Date() < deadline && !cliMounts().contains("/run/dsa-run/boxes/\(pid)-2 ") {
      usleep(20_000)
    }
    try #require(cli.isRunning, "the CLI ended before its run box was seen")
    let mounts = cliMounts()
    #expect(mounts.contains("/run/dsa-run/boxes/\(pid)-2 "), "the run box's tmpfs is not in the CLI's namespace")
    #expect(!mounts.contains("/run/dsa-run/boxes/\(pid)-1 "), "the compile box's tmpfs is still mounted")
    kill(pid, SIGTERM)
    cli.waitUntilExit()
    #expect(cli.terminationStatus == 143)
    #expect(leftovers(of: pid).isEmpty, "\(leftovers(of: pid))")
  }

  /// A run that ends by itself leaves nothing the host can see either, though its box's tmpfs was
  /// left to the end of the CLI's mount namespace.
  @Test func aFinishedRunLeavesNothingBehind() throws {
    let cli = ChildProcess()
    cli.executableURL = URL(fileURLWithPath: dsaRunBinary)
    cli.arguments = ["exec", "--", "/bin/true"]
    try cli.run()
    cli.waitUntilExit()
    #expect(cli.terminationStatus == 0)
    #expect(leftovers(of: cli.processIdentifier).isEmpty, "\(leftovers(of: cli.processIdentifier))")
  }

  /// The CLI starts its box's init as a fresh process (an exec of its own binary in init mode), not
  /// as a copy of itself: bytes the CLI read for the run (here its --stdin file, which only the CLI
  /// ever holds) are nowhere in the init's private memory, where a forked init has them in its
  /// copy of the CLI's heap.
  @Test func theBoxsInitHoldsNoCopyOfTheCLIsMemory() throws {
    let marker = "dsa-run-init-memory-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let input = try temporaryFile(String(repeating: marker + "\n", count: 64), name: "stdin.txt")
    defer { try? FileManager.default.removeItem(atPath: (input as NSString).deletingLastPathComponent) }
    let cli = try startCLI(["exec", "--stdin", input, "--wall-limit", "60", "--", "/bin/sh", "-c", "sleep 60"])
    let pid = cli.processIdentifier
    // SIGTERM: the CLI ends its box and removes its cgroups (a SIGKILL would leave them to a sweep).
    defer {
      stopCLI(cli, signal: SIGTERM)
      #expect(leftovers(of: pid).isEmpty, "\(leftovers(of: pid))")
    }
    // The init, once it has started the program (its set-up is done then).
    func children(of parent: Int32) -> [(pid: Int32, name: String)] {
      listDirectory("/proc").compactMap { entry in
        guard let child = Int32(entry), let stat = KernelFile.read("/proc/\(entry)/stat"),
          let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2, Int32(fields[1]) == parent else { return nil }
        return (child, String(stat[stat.index(after: open)..<close]))
      }
    }
    let deadline = Date().addingTimeInterval(45)
    var initPID: Int32?
    while initPID == nil && cli.isRunning && Date() < deadline {
      initPID = children(of: pid).first { $0.name == "dsa-box-init" && !children(of: $0.pid).isEmpty }?.pid
      if initPID == nil { usleep(20_000) }
    }
    let found = try #require(initPID, "no box init with a program under the CLI \(pid)")
    // Its private memory: anonymous mappings, heap and stack (file mappings hold files, not state).
    let maps = KernelFile.read("/proc/\(found)/maps", limit: 1 << 22) ?? ""
    let memory = try #require(FileHandle(forReadingAtPath: "/proc/\(found)/mem"))
    defer { try? memory.close() }
    var scanned = 0
    var holders: [String] = []
    for line in maps.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 5, fields[1].hasPrefix("r") else { continue }
      let name = fields.count > 5 ? String(fields[5]) : ""
      guard name.isEmpty || name == "[heap]" || name == "[stack]" else { continue }
      let bounds = fields[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
      guard bounds.count == 2, bounds[1] > bounds[0], bounds[1] - bounds[0] <= 1 << 30 else { continue }
      try memory.seek(toOffset: bounds[0])
      guard let bytes = try? memory.read(upToCount: Int(bounds[1] - bounds[0])) else { continue }
      scanned += bytes.count
      if bytes.range(of: Data(marker.utf8)) != nil { holders.append(String(line)) }
    }
    #expect(scanned > 0, "nothing of the init's memory could be read")
    #expect(holders.isEmpty, "the box's init holds the CLI's --stdin bytes in \(holders)")
  }

  /// The CLI makes its first box's network namespace ahead, on a thread of its own. The box still
  /// has a namespace of its own (not the host's) with only a loopback, and that namespace belongs to
  /// the host's user namespace: the box's root does not own it, so its /proc/sys/net files show the
  /// overflow uid, where a namespace made by the box's clone shows the box's root (0).
  @Test func theFirstBoxGetsANetworkNamespaceMadeAhead() throws {
    let result = try runCLI([
      "exec", "--", "/bin/sh", "-c",
      "readlink /proc/self/ns/net; stat -c %u /proc/sys/net/core/somaxconn; tail -n +3 /proc/net/dev | cut -d: -f1",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    try #require(lines.count >= 3, "\(result.stdout)")
    let host = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")
    #expect(lines[0].hasPrefix("net:[") && lines[0] != host, "the box is in the host's network namespace")
    #expect(lines[1] == "65534", "the box's root owns its network namespace: it was not made ahead")
    #expect(Array(lines[2...]) == ["lo"])
  }
}

/// A CLI started with its output discarded (its stderr into `errors` if given), for tests that look
/// at it while it runs.
func startCLI(_ arguments: [String], errors: Pipe? = nil) throws -> ChildProcess {
  let cli = ChildProcess()
  cli.executableURL = URL(fileURLWithPath: dsaRunBinary)
  cli.arguments = arguments
  cli.standardOutput = FileHandle.nullDevice
  cli.standardError = errors ?? FileHandle.nullDevice
  try cli.run()
  return cli
}

/// Ends a CLI from `startCLI` with `signal` if it still runs, and waits for it.
func stopCLI(_ cli: ChildProcess, signal: Int32) {
  if cli.isRunning { kill(cli.processIdentifier, signal) }
  cli.waitUntilExit()
}
