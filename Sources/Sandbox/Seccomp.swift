internal import CSandbox
internal import CSeccomp
import Foundation
import Glibc
import SystemCore

// Seccomp: policies are data (policies/*.json), compiled to classic BPF once
// per policy with libseccomp in the parent, then installed by the C child
// path with a single seccomp(2) call per run.

/// A compiled seccomp policy, ready to be installed in any number of boxes.
public struct SeccompPolicy: Sendable {
  public let name: String
  public let description: String
  /// The BPF program: `struct sock_filter` records, 8 bytes each.
  let filter: [UInt64]
  /// How many rules the source file had; for `doctor` and tests.
  public let ruleCount: Int

  public var instructionCount: Int { filter.count }
}

/// A policy file that cannot be used, and why.
public struct PolicyError: Error, CustomStringConvertible, Sendable {
  public let file: String
  public let problem: String
  public var description: String { "\(file): \(problem)" }
}

enum SeccompAction {
  static let killProcess: UInt32 = 0x8000_0000
  static let allow: UInt32 = 0x7fff_0000
  static func errno(_ value: Int32) -> UInt32 { 0x0005_0000 | (UInt32(value) & 0xffff) }
}

public enum SeccompCompiler {
  private static let topLevelKeys: Set<String> = ["name", "description", "architectures", "default_action", "rules"]
  private static let ruleKeys: Set<String> = ["reason", "action", "errno", "syscalls", "arguments"]
  private static let argumentKeys: Set<String> = ["index", "op", "value", "mask"]
  private static let errnoNames: [String: Int32] = [
    "EPERM": EPERM, "EACCES": EACCES, "ENOSYS": ENOSYS, "EINVAL": EINVAL, "ENOTSUP": ENOTSUP,
    "EAFNOSUPPORT": EAFNOSUPPORT,
  ]

  /// Loads every `*.json` in a directory; the first broken file is an error.
  public static func loadDirectory(_ path: String) throws -> [String: SeccompPolicy] {
    let names = listDirectory(path).filter { $0.hasSuffix(".json") }.sorted()
    var policies: [String: SeccompPolicy] = [:]
    for name in names {
      let policy = try compile(file: path + "/" + name)
      if policies[policy.name] != nil {
        throw PolicyError(file: name, problem: "a second policy is named \"\(policy.name)\"")
      }
      policies[policy.name] = policy
    }
    if policies.isEmpty { throw PolicyError(file: path, problem: "no policy files (*.json) found") }
    return policies
  }

  public static func compile(file: String) throws -> SeccompPolicy {
    guard let data = FileManager.default.contents(atPath: file) else {
      throw PolicyError(file: file, problem: "cannot be read")
    }
    return try compile(json: data, source: file)
  }

  /// Validates a policy document strictly (unknown keys and unknown system
  /// call names are errors) and compiles it to BPF.
  public static func compile(json: Data, source: String = "policy") throws -> SeccompPolicy {
    func problem(_ text: String) -> PolicyError { PolicyError(file: source, problem: text) }
    guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
      throw problem("not a JSON object")
    }
    if let unknown = Set(root.keys).subtracting(topLevelKeys).sorted().first {
      throw problem("unknown key \"\(unknown)\"")
    }
    guard let name = root["name"] as? String, !name.isEmpty else {
      throw problem("\"name\" must be a non-empty string")
    }
    let description = root["description"] as? String ?? ""
    guard let architectures = root["architectures"] as? [String], !architectures.isEmpty else {
      throw problem("\"architectures\" must list at least one architecture")
    }
    guard root["default_action"] as? String == "kill_process" else {
      throw problem("\"default_action\" must be \"kill_process\": policies are allow-lists")
    }
    guard let rules = root["rules"] as? [[String: Any]], !rules.isEmpty else {
      throw problem("\"rules\" must be a non-empty list of objects")
    }

    guard let context = seccomp_init(SeccompAction.killProcess) else { throw problem("seccomp_init failed") }
    defer { seccomp_release(context) }
    // A system call of any other ABI (i386 via int 0x80, x32) kills the
    // process: the arch is pinned to what the policy lists.
    guard seccomp_attr_set(context, SCMP_FLTATR_ACT_BADARCH, SeccompAction.killProcess) == 0 else {
      throw problem("cannot set the bad-architecture action")
    }
    // A binary tree of system call numbers instead of a linear list: the
    // calls the kernel's bitmap cache cannot settle (those with argument
    // checks, and every call on a non-native arch) cost log(n) comparisons.
    _ = seccomp_attr_set(context, SCMP_FLTATR_CTL_OPTIMIZE, 2)
    let native = seccomp_arch_native()
    var nativeListed = false
    for architecture in architectures {
      let token = seccomp_arch_resolve_name(architecture)
      guard token != 0 else { throw problem("unknown architecture \"\(architecture)\"") }
      if token == native {
        nativeListed = true
      } else {
        let added = seccomp_arch_add(context, token)
        guard added == 0 || added == -EEXIST else { throw problem("cannot add architecture \"\(architecture)\"") }
      }
    }
    if !nativeListed { _ = seccomp_arch_remove(context, native) }

    for (ruleIndex, rule) in rules.enumerated() {
      let location = "rule \(ruleIndex + 1)"
      if let unknown = Set(rule.keys).subtracting(ruleKeys).sorted().first {
        throw problem("\(location): unknown key \"\(unknown)\"")
      }
      guard let reason = rule["reason"] as? String, !reason.isEmpty else {
        throw problem("\(location): every rule needs a \"reason\"")
      }
      _ = reason
      guard let syscalls = rule["syscalls"] as? [String], !syscalls.isEmpty else {
        throw problem("\(location): \"syscalls\" must be a non-empty list")
      }
      let action: UInt32
      switch rule["action"] as? String {
      case "allow": action = SeccompAction.allow
      case "kill_process": action = SeccompAction.killProcess
      case "errno":
        guard let errnoName = rule["errno"] as? String, let value = errnoNames[errnoName] else {
          throw problem("\(location): \"errno\" must be one of \(errnoNames.keys.sorted().joined(separator: ", "))")
        }
        action = SeccompAction.errno(value)
      default:
        throw problem("\(location): \"action\" must be \"allow\", \"errno\" or \"kill_process\"")
      }
      let comparisonSets = try argumentComparisons(rule["arguments"], location: location, problem: problem)
      for syscall in syscalls {
        let number = seccomp_syscall_resolve_name(syscall)
        guard number != __NR_SCMP_ERROR else { throw problem("\(location): unknown system call \"\(syscall)\"") }
        for comparisons in comparisonSets {
          var array = comparisons
          let result = array.withUnsafeMutableBufferPointer { buffer in
            seccomp_rule_add_array(context, action, number, UInt32(buffer.count), buffer.baseAddress)
          }
          // -EACCES: a pseudo call absent on one of the listed arches; fine.
          if result != 0 && result != -EACCES && result != -EOPNOTSUPP {
            throw problem("\(location): libseccomp refused \"\(syscall)\" (\(errorNumberName(-result)))")
          }
        }
      }
    }
    return SeccompPolicy(
      name: name, description: description, filter: try export(context, source: source), ruleCount: rules.count)
  }

  /// One rule's arguments may expand (through "any_bit_set") to at most this many libseccomp rules:
  /// expansions multiply, and three full 64-bit masks would be 262,144 rules, compiled for minutes.
  static let maximumExpandedRules = 64

  /// Each inner list is one libseccomp rule (its comparisons are ANDed);
  /// "any_bit_set" expands to one rule per bit of its mask.
  private static func argumentComparisons(
    _ value: Any?, location: String, problem: (String) -> PolicyError
  ) throws -> [[scmp_arg_cmp]] {
    guard let value else { return [[]] }
    guard let arguments = value as? [[String: Any]] else { throw problem("\(location): \"arguments\" must be a list") }
    var sets: [[scmp_arg_cmp]] = [[]]
    for argument in arguments {
      if let unknown = Set(argument.keys).subtracting(argumentKeys).sorted().first {
        throw problem("\(location): unknown argument key \"\(unknown)\"")
      }
      guard let index = wholeNumber(argument["index"]), index < 6 else {
        throw problem("\(location): argument \"index\" must be 0...5")
      }
      let op = argument["op"] as? String
      // Each operator takes exactly the operands it uses: a "value" left out of an "eq" must not
      // quietly compare with 0.
      let operands: Set<String> =
        switch op {
        case "eq", "ne": ["value"]
        case "masked_eq": ["value", "mask"]
        case "any_bit_set": ["mask"]
        default: throw problem("\(location): argument \"op\" must be eq, ne, masked_eq or any_bit_set")
        }
      for key in ["value", "mask"] {
        if operands.contains(key) != (argument[key] != nil) {
          throw problem("\(location): \"\(op ?? "")\" \(operands.contains(key) ? "needs" : "takes no") \"\(key)\"")
        }
      }
      func operand(_ key: String) throws -> UInt64 {
        guard let raw = argument[key] else { return 0 }
        guard let number = wholeNumber(raw) else {
          throw problem("\(location): argument \"\(key)\" must be a whole number from 0 to 2^64 - 1")
        }
        return number
      }
      let datum = try operand("value")
      let mask = try operand("mask")
      let arg = UInt32(index)
      switch op {
      case "eq": sets = sets.map { $0 + [scmp_arg_cmp(arg: arg, op: SCMP_CMP_EQ, datum_a: datum, datum_b: 0)] }
      case "ne": sets = sets.map { $0 + [scmp_arg_cmp(arg: arg, op: SCMP_CMP_NE, datum_a: datum, datum_b: 0)] }
      case "masked_eq":
        sets = sets.map { $0 + [scmp_arg_cmp(arg: arg, op: SCMP_CMP_MASKED_EQ, datum_a: mask, datum_b: datum)] }
      default:
        guard mask != 0 else { throw problem("\(location): \"any_bit_set\" needs a non-zero \"mask\"") }
        guard sets.count * mask.nonzeroBitCount <= maximumExpandedRules else {
          throw problem(
            "\(location): the arguments expand to more than \(maximumExpandedRules) rules; split the rule")
        }
        let bits = (0..<64).map { UInt64(1) << UInt64($0) }.filter { mask & $0 != 0 }
        sets = sets.flatMap { set in
          bits.map { bit in set + [scmp_arg_cmp(arg: arg, op: SCMP_CMP_MASKED_EQ, datum_a: bit, datum_b: bit)] }
        }
      }
    }
    return sets
  }

  /// A JSON whole number in 0...2^64 - 1, exactly; nil for anything else. JSONSerialization hands
  /// out `true` as an NSNumber (objCType "c"), 2^64 as an NSDecimalNumber whose uint64Value is 0,
  /// and NSNumber's accessors truncate 1.5 and wrap -1, so none of them is trusted blindly.
  static func wholeNumber(_ raw: Any?) -> UInt64? {
    guard let number = raw as? NSNumber, !(number is NSDecimalNumber) else { return nil }
    switch String(cString: number.objCType) {
    case "c": return nil
    case "Q": return number.uint64Value
    case "d", "f":
      let value = number.doubleValue
      guard value >= 0, value < 0x1p64, value == value.rounded() else { return nil }
      return UInt64(value)
    default:
      let value = number.int64Value
      return value >= 0 ? UInt64(value) : nil
    }
  }

  private static func export(_ context: scmp_filter_ctx, source: String) throws -> [UInt64] {
    let fd = dsa_memfd("seccomp-bpf")
    guard fd >= 0 else { throw PolicyError(file: source, problem: "memfd_create: \(errorNumberName(errno))") }
    defer { close(fd) }
    let result = seccomp_export_bpf(context, fd)
    guard result == 0 else {
      throw PolicyError(file: source, problem: "seccomp_export_bpf: \(errorNumberName(-result))")
    }
    let size = Int(lseek(fd, 0, SEEK_END))
    guard size > 0, size % 8 == 0, size / 8 <= 4096 else {
      throw PolicyError(file: source, problem: "exported BPF has an unusable size of \(size) bytes")
    }
    var filter = [UInt64](repeating: 0, count: size / 8)
    let read = filter.withUnsafeMutableBytes { pread(fd, $0.baseAddress, size, 0) }
    guard read == size else { throw PolicyError(file: source, problem: "cannot read back the exported BPF") }
    return filter
  }
}
