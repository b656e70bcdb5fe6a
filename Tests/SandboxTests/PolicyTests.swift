import Foundation
import Testing

@testable import Sandbox

@Suite struct PolicyTests {
  @Test func shippedPoliciesCompile() throws {
    let policies = try SeccompCompiler.loadDirectory(repositoryRoot + "/policies")
    let policy = try #require(policies["default"])
    #expect(policy.instructionCount > 50)
    #expect(policy.ruleCount > 10)
  }

  @Test func everyRuleOfTheShippedPolicyHasAReason() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/policies/default.json"))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let rules = try #require(root["rules"] as? [[String: Any]])
    for rule in rules { #expect(((rule["reason"] as? String) ?? "").count > 10) }
  }

  private func policy(_ rules: String, extra: String = "") -> Data {
    Data(
      """
      {"name": "t", "architectures": ["x86_64"], "default_action": "kill_process", \(extra) "rules": \(rules)}
      """.utf8)
  }

  @Test(arguments: [
    (#"[{"reason": "r", "action": "allow", "syscalls": ["not_a_syscall"]}]"#, "unknown system call"),
    (#"[{"reason": "r", "action": "allow", "syscalls": ["read"], "surprise": 1}]"#, "unknown key"),
    (#"[{"action": "allow", "syscalls": ["read"]}]"#, "reason"),
    (#"[{"reason": "r", "action": "maybe", "syscalls": ["read"]}]"#, "action"),
    (#"[{"reason": "r", "action": "errno", "errno": "EWHAT", "syscalls": ["read"]}]"#, "errno"),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": 9, "op": "eq", "value": 1}]}]"#,
      "index"
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": 0, "op": "lt", "value": 1}]}]"#,
      "op"
    ),
    (#"[]"#, "rules"),
    // Found by fuzzing (Tests/fuzz/policy-file/regressions/): an index of 1.5, true or 2^32 read as
    // 1, 1 and 0; a value "1", -1 or 2^64 read as 0, 2^64 - 1 and 0; a missing value as 0; and
    // any_bit_set expansions multiplied without bound (three full masks: 262,144 rules, minutes).
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": 1.5, "op": "eq", "value": 1}]}]"#,
      "index"
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": true, "op": "eq", "value": 1}]}]"#,
      "index"
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": 4294967296, "op": "eq", "value": 1}]}]"#,
      "index"
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": 0, "op": "eq"}]}]"#,
      "needs \"value\""
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": 0, "op": "any_bit_set", "mask": 1, "value": 1}]}]"#,
      "takes no \"value\""
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": 0, "op": "eq", "value": "1"}]}]"#,
      "whole number"
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": 0, "op": "eq", "value": -1}]}]"#,
      "whole number"
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": 0, "op": "eq", "value": 18446744073709551616}]}]"#,
      "whole number"
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": 0, "op": "masked_eq", "mask": 0.5, "value": 0}]}]"#,
      "whole number"
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": 0, "op": "any_bit_set", "mask": 18446744073709551615}, {"index": 1, "op": "any_bit_set", "mask": 511}]}]"#,
      "expand to more than 512"
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["ioctl"], "arguments": [{"index": 1, "op": "masked_in", "mask": 255}]}]"#,
      "needs \"values\""
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["ioctl"], "arguments": [{"index": 1, "op": "masked_in", "mask": 255, "values": []}]}]"#,
      "1 to 256"
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["ioctl"], "arguments": [{"index": 1, "op": "masked_in", "mask": 255, "values": [1, 1]}]}]"#,
      "twice"
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["ioctl"], "arguments": [{"index": 1, "op": "masked_not_in", "mask": 255, "values": [256]}]}]"#,
      "outside the mask"
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["ioctl"], "arguments": [{"index": 1, "op": "masked_in", "mask": 255, "values": [1], "value": 1}]}]"#,
      "takes no \"value\""
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["ioctl"], "arguments": [{"index": 1, "op": "eq", "value": 1, "values": [1]}]}]"#,
      "takes no \"values\""
    ),
    (
      #"[{"reason": "r", "action": "allow", "syscalls": ["ioctl"], "arguments": [{"index": 1, "op": "masked_in", "mask": 255, "values": [-1]}]}]"#,
      "whole number"
    ),
  ])
  func brokenPoliciesAreRefusedWithTheirReason(rules: String, word: String) {
    let error = #expect(throws: PolicyError.self) { _ = try SeccompCompiler.compile(json: self.policy(rules)) }
    #expect(error?.problem.contains(word) == true, "\(String(describing: error))")
  }

  @Test func unknownTopLevelKeyIsRefused() {
    let data = policy(#"[{"reason": "r", "action": "allow", "syscalls": ["read"]}]"#, extra: #""typo": 1,"#)
    let error = #expect(throws: PolicyError.self) { _ = try SeccompCompiler.compile(json: data, source: "t.json") }
    #expect(error?.file == "t.json")
    #expect(error?.problem == "typo: unknown key; known keys: name, description, architectures, default_action, rules")
    #expect(
      error?.description
        == "t.json: typo: unknown key; known keys: name, description, architectures, default_action, rules")
  }

  @Test func defaultActionMustKill() {
    let data = Data(
      #"{"name": "t", "architectures": ["x86_64"], "default_action": "allow", "rules": [{"reason": "r", "action": "allow", "syscalls": ["read"]}]}"#
        .utf8)
    let error = #expect(throws: PolicyError.self) { _ = try SeccompCompiler.compile(json: data, source: "t.json") }
    #expect(error?.file == "t.json")
    #expect(error?.problem == #"default_action: must be "kill_process": policies are allow-lists"#)
  }

  @Test func wholeNumbersUpToTwoToTheSixtyFourMinusOneAreExact() throws {
    _ = try SeccompCompiler.compile(
      json: policy(
        #"[{"reason": "r", "action": "allow", "syscalls": ["read"], "arguments": [{"index": 5, "op": "eq", "value": 18446744073709551615}]}]"#
      ))
  }

  /// "any_bit_set" with a mask of n bits compiles to exactly the program of n rules that each test
  /// one bit (masked_eq bit == bit), in ascending order: no more, no fewer.
  @Test(
    arguments: [
      (UInt64(1), [UInt64(1)]), (UInt64(7), [UInt64(1), 2, 4]),
      (UInt64(0x8000_0000_0000_0010), [UInt64(0x10), 1 << 63]),
    ] as [(UInt64, [UInt64])])
  func anyBitSetExpandsToOneRulePerBit(mask: UInt64, bits: [UInt64]) throws {
    func rule(_ argument: String) -> String {
      #"{"reason": "r", "action": "errno", "errno": "EPERM", "syscalls": ["clone"], "arguments": [\#(argument)]}"#
    }
    let expanded = try SeccompCompiler.compile(
      json: policy("[" + rule(#"{"index": 0, "op": "any_bit_set", "mask": \#(mask)}"#) + "]"))
    let explicit = try SeccompCompiler.compile(
      json: policy(
        "["
          + bits.map { rule(#"{"index": 0, "op": "masked_eq", "mask": \#($0), "value": \#($0)}"#) }.joined(
            separator: ", ")
          + "]"))
    let oneMore = try SeccompCompiler.compile(
      json: policy(
        "["
          + (bits + [UInt64(1) << 33]).map {
            rule(#"{"index": 0, "op": "masked_eq", "mask": \#($0), "value": \#($0)}"#)
          }
          .joined(separator: ", ") + "]"))
    #expect(expanded.filter == explicit.filter)
    #expect(expanded.instructionCount == explicit.instructionCount)
    #expect(expanded.instructionCount < oneMore.instructionCount)
    #expect(expanded.ruleCount == 1 && explicit.ruleCount == bits.count)
  }

  @Test func aPolicyWithoutWriteStopsThePrograms() throws {
    // A policy is really installed: without write(2), even "echo" dies.
    let policy = try SeccompCompiler.compile(
      json: policy(
        #"[{"reason": "r", "action": "allow", "syscalls": ["execve", "brk", "mmap", "munmap", "mprotect", "arch_prctl", "set_tid_address", "set_robust_list", "rseq", "prlimit64", "openat", "newfstatat", "read", "close", "pread64", "access", "getrandom", "exit_group", "fstat", "getuid", "getgid", "geteuid", "getegid", "getpid", "getppid", "rt_sigaction", "rt_sigprocmask", "ioctl", "fcntl", "uname", "getcwd", "lseek", "stat"]}]"#
      ))
    let outcome = try runInBox(["/bin/echo", "hi"]) { spec in spec.policy = policy }
    #expect(outcome.status == .forbidden)
    #expect(outcome.stdout.isEmpty)
  }
}
