import Foundation
import Glibc
import Testing

@testable import Sandbox

// What a killed process left is swept at the next start, even while its pid is a zombie no one has
// reaped yet; a living owner's boxes are left alone.

/// Starts `arguments` as a child of this process that nobody waits for; its pid.
private func spawnUnreaped(_ arguments: [String]) throws -> pid_t {
  var pid: pid_t = 0
  var cArguments = arguments.map { strdup($0) } + [nil]
  defer { for argument in cArguments { free(argument) } }
  let result = posix_spawn(&pid, arguments[0], nil, nil, &cArguments, environ)
  guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
  return pid
}

/// Waits (up to 10 s) until `pid` is in state `letter`.
private func waitForState(_ pid: pid_t, _ letter: Character) -> Bool {
  for _ in 0..<1000 {
    if StaleOwner.state(of: pid) == letter { return true }
    usleep(10_000)
  }
  return false
}

// Serialized: each start on the work root sweeps, so one test would sweep what another is about to.
@Suite(.serialized) struct StaleSweepTests {
  static let workRoot = "/run/dsa-run-tests-stale"

  @Test func aZombieOwnersBoxesAndGroupsAreSwept() throws {
    let zombie = try spawnUnreaped(["/bin/true"])
    defer { _ = waitpid(zombie, nil, 0) }
    #expect(waitForState(zombie, "Z"), "the child never became a zombie")
    // The zombie still answers kill(pid, 0): that alone took it for alive.
    #expect(kill(zombie, 0) == 0)
    #expect(StaleOwner.isGone(pid: zombie))

    let host = try SandboxHost(configuration: SandboxConfiguration(workRoot: Self.workRoot))
    let box = Self.workRoot + "/boxes/\(zombie)-1"
    #expect(mkdir(box, 0o700) == 0 || errno == EEXIST)
    // A tmpfs on it, as a killed daemon leaves its boxes' scratch.
    _ = mount("tmpfs", box, "tmpfs", 0, "size=64k")
    #expect(host.sweepStaleBoxes() >= 1)
    #expect(access(box, F_OK) != 0, "the zombie's box directory was left")

    // Its box groups, in whichever hierarchy this host has (none in rlimit mode).
    let groups = ([host.cgroups.v2Parent].compactMap { $0 } + host.cgroups.v1Parents.values).map {
      $0 + "/dsa-run-\(zombie)-1"
    }
    for group in groups { #expect(mkdir(group, 0o755) == 0 || errno == EEXIST, "mkdir \(group)") }
    #expect(host.cgroups.sweepStaleGroups() >= groups.count)
    for group in groups { #expect(access(group, F_OK) != 0, "the zombie's cgroup \(group) was left") }
  }

  @Test func aLivingOwnersBoxIsKept() throws {
    let living = try spawnUnreaped(["/bin/sleep", "60"])
    defer {
      kill(living, SIGKILL)
      _ = waitpid(living, nil, 0)
    }
    #expect(waitForState(living, "S"), "the sleeper never slept")
    let host = try SandboxHost(configuration: SandboxConfiguration(workRoot: Self.workRoot))
    let box = Self.workRoot + "/boxes/\(living)-1"
    #expect(mkdir(box, 0o700) == 0 || errno == EEXIST)
    defer { rmdir(box) }
    host.sweepStaleBoxes()
    #expect(access(box, F_OK) == 0, "a living owner's box was swept")
  }

  @Test func theStateIsReadAfterTheLastParenthesis() {
    #expect(StaleOwner.parseState("4242 (a) b) (c) Z 1 4242 4242 0 -1 4194560\n") == "Z")
    #expect(StaleOwner.parseState("4242 (sleep) S 1 4242\n") == "S")
    #expect(StaleOwner.parseState("4242 (truncated") == nil)
  }
}
