import Foundation
import Glibc
import Testing

@testable import Sandbox

// A warm box of a policy's layout holds the policy on its init, and its programs inherit it instead
// of installing it at every run. These tests prove the program is filtered all the same, by the
// policy alone, and that a box never runs a program of another policy.

@Suite struct InitFilterTests {
  private static let python = "/usr/bin/python3"

  private func spec(_ command: [String], policy: SeccompPolicy = Fixture.defaultPolicy) -> BoxSpec {
    BoxSpec(command: command, policy: policy)
  }

  private func run(_ pool: BoxPool, _ spec: BoxSpec) throws -> (Outcome, WarmBox) {
    var used: WarmBox?
    let outcome = try pool.withBox(layout: BoxLayout(spec), limits: spec.limits) { box throws(SandboxError) in
      used = box
      return try box.run(spec)
    }
    return (outcome, used!)
  }

  /// The `Seccomp` and `Seccomp_filters` lines of a process's status.
  private func seccompLines(_ status: String) -> [String] {
    status.split(separator: "\n").map(String.init).filter { $0.hasPrefix("Seccomp") }
      .map { $0.replacingOccurrences(of: "\t", with: " ") }
  }

  @Test func everyRunsProgramIsFilteredByTheInitsOneFilter() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    var boxes: [WarmBox] = []
    for _ in 0..<3 {
      let (outcome, box) = try run(pool, spec(["/bin/cat", "/proc/self/status"]))
      #expect(outcome.status == .ok, "\(outcome.stderrText)")
      // Mode 2 (filter), and one filter: inherited, not a second one stacked on the init's.
      #expect(seccompLines(outcome.stdoutText) == ["Seccomp: 2", "Seccomp_filters: 1"])
      boxes.append(box)
    }
    #expect(boxes.allSatisfy { $0 === boxes[0] }, "the runs did not share one warm box")
    let initStatus = try String(contentsOfFile: "/proc/\(try #require(boxes[0].initPID))/status", encoding: .utf8)
    #expect(seccompLines(initStatus) == ["Seccomp: 2", "Seccomp_filters: 1"])
  }

  @Test func aBoxWithoutAPolicyOfItsOwnInstallsEachRunsFilterInItsProgram() throws {
    let box = try WarmBox(host: Fixture.host, layout: BoxLayout())
    defer { box.destroy() }
    for _ in 0..<2 {
      let outcome = try box.run(spec(["/bin/cat", "/proc/self/status"]))
      box.reset()
      #expect(seccompLines(outcome.stdoutText) == ["Seccomp: 2", "Seccomp_filters: 1"])
    }
    let initStatus = try String(contentsOfFile: "/proc/\(try #require(box.initPID))/status", encoding: .utf8)
    #expect(seccompLines(initStatus) == ["Seccomp: 0", "Seccomp_filters: 0"])
  }

  /// The one allowance the init's filter adds (unshare(CLONE_NEWIPC), for the init's reset) gives a
  /// program nothing: EPERM as the policy answers, and the same IPC namespace after.
  @Test func theInitsAllowanceLeavesAProgramWhereThePolicyDoes() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    let probe = """
      import ctypes, os
      libc = ctypes.CDLL(None, use_errno=True)
      before = os.readlink('/proc/self/ns/ipc')
      for flags in (0x08000000, 0x08000000 | 0x10000000, 0x10000000):
          result = libc.unshare(flags)
          print(hex(flags), result, os.strerror(ctypes.get_errno()) if result else 'done')
      print('same namespace' if os.readlink('/proc/self/ns/ipc') == before else 'moved')
      """
    for _ in 0..<2 {
      let (outcome, _) = try run(pool, spec([Self.python, "-c", probe]))
      #expect(outcome.status == .ok, "\(outcome.stderrText)")
      #expect(
        outcome.stdoutText == """
          0x8000000 -1 Operation not permitted
          0x18000000 -1 Operation not permitted
          0x10000000 -1 Operation not permitted
          same namespace

          """)
    }
  }

  @Test func programsKeepTheCoreLimitThePoliciesRefuseToChange() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    let probe = """
      import resource
      print(resource.getrlimit(resource.RLIMIT_CORE))
      try:
          resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
          print('changed')
      except ValueError as error:  # Python's words for EPERM
          print(error)
      """
    for _ in 0..<2 {
      let (outcome, _) = try run(pool, spec([Self.python, "-c", probe]))
      #expect(outcome.stdoutText == "(1, 1)\nnot allowed to raise maximum limit\n", "\(outcome.stderrText)")
    }
  }

  @Test func aBoxServesOnlyThePolicyItsInitHolds() throws {
    let other = try #require(Fixture.policies.values.first { $0.name != Fixture.defaultPolicy.name })
    let command = ["/bin/cat", "/proc/self/status"]
    #expect(BoxLayout(spec(command)) != BoxLayout(spec(command, policy: other)))

    let box = try WarmBox(host: Fixture.host, layout: BoxLayout(spec(command)))
    defer { box.destroy() }
    #expect(throws: SandboxError.self) { try box.run(spec(command, policy: other)) }
    let outcome = try box.run(spec(command))
    #expect(seccompLines(outcome.stdoutText) == ["Seccomp: 2", "Seccomp_filters: 1"])

    // Through a pool, each policy gets a box of its own and runs under its own filter.
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    let (first, firstBox) = try run(pool, spec(command))
    let (second, secondBox) = try run(pool, spec(command, policy: other))
    #expect(first.status == .ok && second.status == .ok, "\(first.stderrText) \(second.stderrText)")
    #expect(firstBox !== secondBox)
  }

  /// The box's IPC namespace, as the host sees the init's, once the last run's reset is done.
  private func ipcNamespace(of box: WarmBox) throws -> String {
    _ = box.isBroken
    let pid = try #require(box.initPID)
    var buffer = [CChar](repeating: 0, count: 256)
    let length = readlink("/proc/\(pid)/ns/ipc", &buffer, buffer.count - 1)
    try #require(length > 0)
    return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// A run that made no IPC object keeps the namespace; one that made any (and removed it, or a
  /// POSIX queue) gets a new one, so the next run's first id is a fresh namespace's.
  @Test func theIPCNamespaceIsReplacedAfterExactlyTheRunsThatMadeObjects() throws {
    #expect(try #require(Fixture.defaultPolicy.initBinding).noticesIPCCreation)
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    let segment = """
      import ctypes
      libc = ctypes.CDLL(None, use_errno=True)
      made = libc.shmget(0, 4096, 0o1600)
      print(made, libc.shmctl(made, 0, None))
      """
    let queue = """
      import ctypes
      rt = ctypes.CDLL('librt.so.1', use_errno=True)
      print(rt.mq_open(b'/dsa-note', 0o100 | 0o2, 0o600, None) >= 0)
      """
    let (first, box) = try run(pool, spec([Self.python, "-c", segment]))
    let afterSegment = try ipcNamespace(of: box)
    let (quiet, _) = try run(pool, spec(["/bin/true"]))
    #expect(quiet.status == .ok)
    #expect(try ipcNamespace(of: box) == afterSegment, "a run without IPC replaced the namespace")
    let (second, again) = try run(pool, spec([Self.python, "-c", segment]))
    #expect(again === box)
    #expect(first.stdoutText == "0 0\n", "\(first.stderrText)")
    // A kept namespace would hand out the next index (and a reused one a new sequence number).
    #expect(second.stdoutText == first.stdoutText)
    #expect(try ipcNamespace(of: box) != afterSegment)

    let beforeQueue = try ipcNamespace(of: box)
    let (made, _) = try run(pool, spec([Self.python, "-c", queue]))
    #expect(made.stdoutText == "True\n", "\(made.stderrText)")
    #expect(try ipcNamespace(of: box) != beforeQueue, "a run that made a message queue kept the namespace")
    #expect(box.fingerprint().differences(from: try #require(box.freshFingerprint)).isEmpty)
  }

  /// The notice is for a policy that allows the calls outright on x86_64 alone (i386's `ipc`
  /// multiplexer would make objects unseen); it sends exactly those calls to the init and allows
  /// only the init's two answering ioctls.
  @Test func onlyAnX86_64PolicyThatAllowsTheCallsOutrightIsNoticed() throws {
    let notice = InitFilterBinding.ipcCreationNotice
    for policy in Fixture.policies.values {
      let binding = try #require(policy.initBinding)
      #expect(binding.noticesIPCCreation == (policy.name == "default"), "\(policy.name)")
      #expect((Array(binding.filter.prefix(notice.count)) == notice) == binding.noticesIPCCreation)
    }
    let conditional = Data(
      """
      {"name": "t", "description": "t", "architectures": ["x86_64"], "default_action": "kill_process",
       "rules": [{"reason": "r", "action": "allow", "syscalls": ["read", "exit_group", "semget", "msgget", "mq_open"]},
                 {"reason": "r", "action": "allow", "syscalls": ["shmget"],
                  "arguments": [{"index": 0, "op": "eq", "value": 0}]}]}
      """.utf8)
    #expect(try SeccompCompiler.compile(json: conditional).initBinding?.noticesIPCCreation == false)

    let end = notice.count
    let (notify, allow) = (end - 2, end - 1)
    #expect(notice[notify] == SetCheck.instruction(0x06, k: 0x7fc0_0000))
    #expect(notice[allow] == SetCheck.instruction(0x06, k: 0x7fff_0000))
    var targets: [UInt32: Set<Int>] = [:]
    for (index, instruction) in notice.enumerated() where instruction & 0xffff == 0x15 {
      let value = UInt32(truncatingIfNeeded: instruction >> 32)
      let (jumpIfTrue, jumpIfFalse) = (Int((instruction >> 16) & 0xff), Int((instruction >> 24) & 0xff))
      targets[value, default: []].insert(index + 1 + jumpIfTrue)
      #expect(index + 1 + jumpIfFalse <= end)
    }
    // shmget, semget, msgget, mq_open on x86_64.
    #expect(InitFilterBinding.ipcCreatingCallNumbers == [29, 64, 68, 240])
    for number in InitFilterBinding.ipcCreatingCallNumbers { #expect(targets[number] == [notify], "\(number)") }
    // SECCOMP_IOCTL_NOTIF_RECV and _SEND.
    #expect(InitFilterBinding.answeringRequests == [0xC050_2100, 0xC018_2101])
    for request in InitFilterBinding.answeringRequests { #expect(targets[request] == [allow]) }
    #expect(targets.values.filter { $0.contains(allow) }.count == 2)
  }

  /// The allowance in front of the policy is what the init needs and nothing else, and jumps
  /// past itself into the policy's program for any other call.
  @Test func theAllowanceIsExactlyUnshareOfANewIPCNamespaceOnX86_64() throws {
    let binding = try #require(Fixture.defaultPolicy.initBinding)
    let allowance = InitFilterBinding.initAllowance
    let notice = InitFilterBinding.ipcCreationNotice.count
    #expect(Array(binding.filter.dropFirst(notice).prefix(allowance.count)) == allowance)
    #expect(Array(binding.filter.dropFirst(notice + allowance.count)) == Fixture.defaultPolicy.filter)
    // Every conditional jump of the allowance lands on the policy's first instruction when false.
    for (index, instruction) in allowance.enumerated() where instruction & 0xffff == 0x15 {
      let jumpIfFalse = Int((instruction >> 24) & 0xff)
      #expect(index + 1 + jumpIfFalse == allowance.count, "instruction \(index)")
    }
  }
}
