internal import CSandbox
internal import CSeccomp
import Foundation
import Glibc
import SystemCore
import Wire

// Seccomp: policies are data (policies/*.json), compiled to classic BPF once
// per policy with libseccomp in the parent, then installed by the C child
// path with a single seccomp(2) call per run: in a one-shot box by the
// program, in a warm box once by its init, whose programs inherit it.

/// A compiled seccomp policy, ready to be installed in any number of boxes.
public struct SeccompPolicy: Sendable {
  public let name: String
  public let description: String
  /// The BPF program: `struct sock_filter` records, 8 bytes each.
  let filter: [UInt64]
  /// How many rules the source file had; for `doctor` and tests.
  public let ruleCount: Int
  /// What a warm box's init installs on itself; nil for a policy without a filter (tests of the
  /// sandbox itself), which its programs then run without.
  let initBinding: InitFilterBinding?

  public var instructionCount: Int { filter.count }

  /// `allowsIPCCreation`: the policy allows the calls that make IPC objects
  /// (`InitFilterBinding.ipcCreatingCalls`) outright, on x86_64 alone; the compiler knows, a policy
  /// read back from bytes does not (its warm boxes then replace their IPC namespace after every run).
  init(name: String, description: String, filter: [UInt64], ruleCount: Int, allowsIPCCreation: Bool = false) {
    self.name = name
    self.description = description
    self.filter = filter
    self.ruleCount = ruleCount
    initBinding =
      filter.isEmpty
      ? nil
      : InitFilterBinding(
        name: name,
        filter: (allowsIPCCreation ? InitFilterBinding.ipcCreationNotice : []) + InitFilterBinding.initAllowance
          + filter,
        noticesIPCCreation: allowsIPCCreation)
  }
}

/// A policy as a warm box's init holds it: installed on the init at the box's first run and
/// inherited by every program after, so a run does not pay for the kernel compiling (and later
/// freeing) a filter of some 500 instructions, about a seventh of a warm run's CPU time. Boxes
/// holding different filters are different `BoxLayout`s.
///
/// In front of the policy is one allowance the init's reset needs: unshare(CLONE_NEWIPC), exactly
/// that flag, on x86_64. A program inherits it and gets EPERM from it all the same (the policy's
/// own answer): creating an IPC namespace takes CAP_SYS_ADMIN in the caller's user namespace, which
/// a program, running as the box's unprivileged user under no_new_privs, has not, and it cannot
/// make a user namespace in which it would (clone, clone3 and unshare with CLONE_NEWUSER stay
/// refused, and the box allows no user namespaces).
///
/// For a policy that allows the calls making IPC objects, a notice comes first: those calls go to the
/// init (`SECCOMP_RET_USER_NOTIF`), which marks the run as one that used IPC and lets the call
/// proceed as the policy would (`SECCOMP_USER_NOTIF_FLAG_CONTINUE`; the notice decides nothing).
/// A run that made no IPC object leaves the namespace as the last reset left it, so the init
/// replaces it only after runs that did (a new IPC namespace, made and later freed by the kernel,
/// was about a twentieth of a warm run's CPU time).
public struct InitFilterBinding: Sendable, Hashable {
  let name: String
  let filter: [UInt64]
  /// The filter begins with `ipcCreationNotice`.
  let noticesIPCCreation: Bool
  /// Of `filter`, once: a pool looks layouts up at every run.
  private let digest: Int

  init(name: String, filter: [UInt64], noticesIPCCreation: Bool = false) {
    self.name = name
    self.filter = filter
    self.noticesIPCCreation = noticesIPCCreation
    digest = filter.hashValue
  }

  /// Every call that makes an IPC object on x86_64 (no `ipc` multiplexer there; the box mounts no
  /// mqueue file system, so queues are made by mq_open alone). Every other IPC call needs an object.
  static let ipcCreatingCalls = ["shmget", "semget", "msgget", "mq_open"]

  /// `ipcCreatingCalls` to the init, and the init's two ioctls for answering them allowed (a program
  /// has no listener to use them on: the init's is closed before its exec, and no policy allows
  /// `seccomp(2)`, the only way to ask for one); anything else falls through to what follows.
  static let ipcCreationNotice: [UInt64] = {
    typealias Code = SetCheck
    let numbers = ipcCreatingCallNumbers
    let ioctlNumber = UInt32(bitPattern: seccomp_syscall_resolve_name_arch(auditArchX8664, "ioctl"))
    // Positions: the notification's return, the allowance's, and the end (the next block).
    let notify = 3 + numbers.count + 4
    let (allow, end) = (notify + 1, notify + 2)
    func offset(from index: Int, to target: Int) -> UInt8 { UInt8(target - index - 1) }
    var code = [
      Code.instruction(Code.loadWordAbsolute, k: 4),  // seccomp_data.arch
      Code.instruction(Code.jumpIfEqual, jf: offset(from: 1, to: end), k: auditArchX8664),
      Code.instruction(Code.loadWordAbsolute, k: 0),  // seccomp_data.nr
    ]
    for number in numbers {
      code.append(Code.instruction(Code.jumpIfEqual, jt: offset(from: code.count, to: notify), k: number))
    }
    code.append(Code.instruction(Code.jumpIfEqual, jf: offset(from: code.count, to: end), k: ioctlNumber))
    code.append(Code.instruction(Code.loadWordAbsolute, k: 24))  // args[1], low word: the request
    code.append(
      Code.instruction(Code.jumpIfEqual, jt: offset(from: code.count, to: allow), k: answeringRequests[0]))
    code.append(
      Code.instruction(
        Code.jumpIfEqual, jt: offset(from: code.count, to: allow), jf: offset(from: code.count, to: end),
        k: answeringRequests[1]))
    code.append(Code.instruction(UInt16(Code.returnConstant), k: SeccompAction.userNotification))
    code.append(Code.instruction(UInt16(Code.returnConstant), k: SeccompAction.allow))
    return code
  }()

  static let auditArchX8664: UInt32 = 0xC000_003E

  /// `ipcCreatingCalls`' x86_64 numbers.
  static let ipcCreatingCallNumbers = ipcCreatingCalls.map {
    UInt32(bitPattern: seccomp_syscall_resolve_name_arch(auditArchX8664, $0))
  }

  /// The ioctl requests the init answers with: SECCOMP_IOCTL_NOTIF_RECV, SECCOMP_IOCTL_NOTIF_SEND.
  static let answeringRequests = [dsa_seccomp_ioctl_receive, dsa_seccomp_ioctl_send]

  public static func == (left: InitFilterBinding, right: InitFilterBinding) -> Bool {
    left.digest == right.digest && left.name == right.name && left.filter == right.filter
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(digest)
  }

  /// Jumps count the instructions after their own, so the policy's program runs unchanged behind it.
  static let initAllowance: [UInt64] = {
    typealias Code = SetCheck
    let unshareNumber = UInt32(bitPattern: seccomp_syscall_resolve_name_arch(auditArchX8664, "unshare"))
    let newIPC = dsa_clone_newipc
    let allow = UInt16(Code.returnConstant)
    return [
      Code.instruction(Code.loadWordAbsolute, k: 4),  // seccomp_data.arch
      Code.instruction(Code.jumpIfEqual, jf: 7, k: auditArchX8664),
      Code.instruction(Code.loadWordAbsolute, k: 0),  // seccomp_data.nr
      Code.instruction(Code.jumpIfEqual, jf: 5, k: unshareNumber),
      Code.instruction(Code.loadWordAbsolute, k: 16),  // args[0], low word
      Code.instruction(Code.jumpIfEqual, jf: 3, k: newIPC),
      Code.instruction(Code.loadWordAbsolute, k: 20),  // args[0], high word
      Code.instruction(Code.jumpIfEqual, jf: 1, k: 0),
      Code.instruction(allow, k: SeccompAction.allow),
    ]
  }()
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
  static let userNotification: UInt32 = 0x7fc0_0000
  static func errno(_ value: Int32) -> UInt32 { 0x0005_0000 | (UInt32(value) & 0xffff) }
}

public enum SeccompCompiler {
  private static let topLevelKeys = ["name", "description", "architectures", "default_action", "rules"]
  private static let ruleKeys = ["reason", "action", "errno", "syscalls", "arguments"]
  private static let argumentKeys = ["index", "op", "value", "mask", "values"]
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

  /// One argument comparison as the file gives it.
  struct ArgumentRule {
    var index: UInt32
    var op: String
    var value: UInt64
    var mask: UInt64
    /// The set of "masked_in" and "masked_not_in".
    var values: [UInt64] = []
  }

  /// The most values one "masked_in" or "masked_not_in" may list.
  static let maximumValues = 256

  /// One rule as the file gives it, read and checked but not yet compiled.
  struct Rule {
    var path: String
    var action: UInt32
    var syscalls: [String]
    var arguments: [ArgumentRule]
  }

  /// Validates a policy document strictly (unknown keys and unknown system
  /// call names are errors) and compiles it to BPF. Every problem of the
  /// document's shape is in the one error, each with its path (`rules[2].errno: ...`).
  public static func compile(json: Data, source: String = "policy") throws -> SeccompPolicy {
    try compile(json: json, source: source, splicesSetChecks: true)
  }

  /// `splicesSetChecks` false: every set-membership pair through libseccomp's complement classes
  /// (tests compare the two filters' decisions).
  static func compile(json: Data, source: String, splicesSetChecks: Bool) throws -> SeccompPolicy {
    func problem(_ text: String) -> PolicyError { PolicyError(file: source, problem: text) }
    let read = StrictReader.read(json, keys: topLevelKeys, nulls: .absent) { root -> Policy? in
      readPolicy(root)
    }
    let document: Policy
    switch read {
    case .success(let policy): document = policy
    case .failure(let refusal): throw problem(refusal.description)
    }
    let (name, description, architectures, rules) =
      (document.name, document.description, document.architectures, document.rules)

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

    let setChecks = splicesSetChecks ? SetCheck.pairs(in: rules, architectures: architectures) : []
    let spliced = Set(setChecks.flatMap(\.ruleIndices))
    for (marker, check) in setChecks.enumerated() {
      for syscall in check.syscalls {
        let number = seccomp_syscall_resolve_name(syscall)
        let result = seccomp_rule_add_array(context, SetCheck.markerAction(marker), number, 0, nil)
        if result != 0 && result != -EACCES && result != -EOPNOTSUPP {
          throw problem("\(check.location): libseccomp refused \"\(syscall)\" (\(errorNumberName(-result)))")
        }
      }
    }
    for (ruleIndex, rule) in rules.enumerated() where !spliced.contains(ruleIndex) {
      let location = rule.path
      let comparisonSets = try argumentComparisons(rule.arguments, location: location, problem: problem)
      let (action, syscalls) = (rule.action, rule.syscalls)
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
    var filter = try export(context, source: source)
    if !setChecks.isEmpty {
      guard let withChecks = SetCheck.splice(setChecks, into: filter) else {
        throw problem("the compiled filter with its set checks is not a usable BPF program")
      }
      filter = withChecks
    }
    let allowsIPCCreation =
      architectures == ["x86_64"]
      && InitFilterBinding.ipcCreatingCalls.allSatisfy { call in
        let naming = rules.filter { $0.syscalls.contains(call) }
        return naming.count == 1 && naming[0].action == SeccompAction.allow && naming[0].arguments.isEmpty
      }
    return SeccompPolicy(
      name: name, description: description, filter: filter, ruleCount: rules.count,
      allowsIPCCreation: allowsIPCCreation)
  }

  /// A policy document as the file gives it, read and checked but not yet compiled.
  struct Policy {
    var name: String
    var description: String
    var architectures: [String]
    var rules: [Rule]
  }

  /// Reads the document's shape; nil when the reader recorded a problem.
  private static func readPolicy(_ root: StrictObject) -> Policy? {
    let reader = root.reader
    let name = root.string("name", required: true, nonEmpty: true)
    let description = root.string("description") ?? ""
    let architectures = root.strings("architectures", required: true)
    if architectures?.isEmpty == true {
      reader.report(root.path("architectures"), "must list at least one architecture")
    }
    if let action = root.string("default_action", required: true), action != "kill_process" {
      reader.report(root.path("default_action"), "must be \"kill_process\": policies are allow-lists")
    }
    let ruleObjects = root.objects("rules", keys: ruleKeys, required: true)
    if ruleObjects?.isEmpty == true { reader.report(root.path("rules"), "must be a non-empty list of objects") }
    let rules = (ruleObjects ?? []).compactMap(readRule)
    guard reader.isClean, let name, let architectures else { return nil }
    return Policy(name: name, description: description, architectures: architectures, rules: rules)
  }

  private static func readRule(_ rule: StrictObject) -> Rule? {
    let reader = rule.reader
    _ = rule.string("reason", required: true, nonEmpty: true)
    let syscalls = rule.strings("syscalls", required: true)
    if syscalls?.isEmpty == true { reader.report(rule.path("syscalls"), "must be a non-empty list") }
    var action: UInt32?
    switch rule.string("action", required: true) {
    case "allow": action = SeccompAction.allow
    case "kill_process": action = SeccompAction.killProcess
    case "errno":
      if let errnoName = rule.string("errno", required: true) {
        if let value = errnoNames[errnoName] {
          action = SeccompAction.errno(value)
        } else {
          reader.report(rule.path("errno"), "must be one of \(errnoNames.keys.sorted().joined(separator: ", "))")
        }
      }
    case nil: break
    default:
      reader.report(rule.path("action"), "must be \"allow\", \"errno\" or \"kill_process\"")
    }
    let arguments = (rule.objects("arguments", keys: argumentKeys) ?? []).compactMap(readArgument)
    guard let action, let syscalls else { return nil }
    return Rule(path: rule.path, action: action, syscalls: syscalls, arguments: arguments)
  }

  private static func readArgument(_ argument: StrictObject) -> ArgumentRule? {
    let reader = argument.reader
    let before = reader.problems.count
    let index = argument.integer("index", as: UInt32.self, in: 0...5, required: true)
    let op = argument.string("op", required: true)
    // Each operator takes exactly the operands it uses: a "value" left out of an "eq" must not
    // quietly compare with 0.
    let operands: Set<String>
    switch op {
    case "eq", "ne": operands = ["value"]
    case "masked_eq": operands = ["value", "mask"]
    case "any_bit_set": operands = ["mask"]
    case "masked_in", "masked_not_in": operands = ["values", "mask"]
    case nil: operands = []
    default:
      reader.report(argument.path("op"), "must be eq, ne, masked_eq, any_bit_set, masked_in or masked_not_in")
      operands = []
    }
    if let op {
      for key in ["value", "mask", "values"] where operands.contains(key) != argument.has(key) {
        reader.report(argument.path, "\"\(op)\" \(operands.contains(key) ? "needs" : "takes no") \"\(key)\"")
      }
    }
    let value = argument.integer("value", as: UInt64.self)
    let mask = argument.integer("mask", as: UInt64.self)
    var values: [UInt64] = []
    if operands.contains("values"), let items = argument.array("values") {
      for (position, item) in items.enumerated() {
        let path = "\(argument.path("values"))[\(position)]"
        if let number = StrictObject.integer(item, at: path, as: UInt64.self, reader: reader) {
          values.append(number)
        }
      }
      if values.count == items.count {
        if values.isEmpty || values.count > maximumValues {
          reader.report(argument.path("values"), "must list 1 to \(maximumValues) numbers")
        } else if Set(values).count != values.count {
          reader.report(argument.path("values"), "lists a number twice")
        } else if let mask, let outside = values.first(where: { $0 & ~mask != 0 }) {
          // Such a value could never equal the masked argument: a typo, not a rule.
          reader.report(argument.path("values"), "\(outside) has bits outside the mask \(mask)")
        }
      }
    }
    guard reader.problems.count == before, let index, let op else { return nil }
    return ArgumentRule(index: index, op: op, value: value ?? 0, mask: mask ?? 0, values: values)
  }

  /// The masked values outside `values` (each within `mask`) as disjoint (mask, value) classes: one
  /// per subtree of the binary tree over the mask's bits, high to low, that holds no listed value.
  /// A value matches exactly one class or one listed value, never both, so a "masked_in" rule and
  /// a "masked_not_in" rule of the same set with different actions compile to a filter whose result
  /// does not depend on the order libseccomp tests them in (it merges overlapping rules of one
  /// system call into one tree, and a rule with no argument would replace them all).
  static func complementClasses(of values: [UInt64], mask: UInt64) -> [(mask: UInt64, value: UInt64)] {
    let bits = (0..<64).reversed().map { UInt64(1) << UInt64($0) }.filter { mask & $0 != 0 }
    var classes: [(mask: UInt64, value: UInt64)] = []
    func split(_ members: [UInt64], prefixMask: UInt64, prefix: UInt64, depth: Int) {
      if members.isEmpty {
        classes.append((prefixMask, prefix))
        return
      }
      guard depth < bits.count else { return }
      let bit = bits[depth]
      split(members.filter { $0 & bit == 0 }, prefixMask: prefixMask | bit, prefix: prefix, depth: depth + 1)
      split(members.filter { $0 & bit != 0 }, prefixMask: prefixMask | bit, prefix: prefix | bit, depth: depth + 1)
    }
    split(values.map { $0 & mask }, prefixMask: 0, prefix: 0, depth: 0)
    return classes
  }

  /// One rule's arguments may expand (through "any_bit_set", "masked_in" and "masked_not_in") to at
  /// most this many libseccomp rules: expansions multiply, and three full 64-bit masks would be
  /// 262,144 rules, compiled for minutes. The terminal ioctl list's complement is about 130.
  static let maximumExpandedRules = 512

  /// Each inner list is one libseccomp rule (its comparisons are ANDed);
  /// "any_bit_set" expands to one rule per bit of its mask.
  private static func argumentComparisons(
    _ arguments: [ArgumentRule], location: String, problem: (String) -> PolicyError
  ) throws -> [[scmp_arg_cmp]] {
    var sets: [[scmp_arg_cmp]] = [[]]
    for argument in arguments {
      let (arg, datum, mask) = (argument.index, argument.value, argument.mask)
      switch argument.op {
      case "eq": sets = sets.map { $0 + [scmp_arg_cmp(arg: arg, op: SCMP_CMP_EQ, datum_a: datum, datum_b: 0)] }
      case "ne": sets = sets.map { $0 + [scmp_arg_cmp(arg: arg, op: SCMP_CMP_NE, datum_a: datum, datum_b: 0)] }
      case "masked_eq":
        sets = sets.map { $0 + [scmp_arg_cmp(arg: arg, op: SCMP_CMP_MASKED_EQ, datum_a: mask, datum_b: datum)] }
      case "masked_in", "masked_not_in":
        let classes =
          argument.op == "masked_in"
          ? argument.values.map { (mask: mask, value: $0) } : complementClasses(of: argument.values, mask: mask)
        guard sets.count * classes.count <= maximumExpandedRules else {
          throw problem(
            "\(location).arguments: they expand to more than \(maximumExpandedRules) rules; split the rule")
        }
        sets = sets.flatMap { set in
          classes.map { set + [scmp_arg_cmp(arg: arg, op: SCMP_CMP_MASKED_EQ, datum_a: $0.mask, datum_b: $0.value)] }
        }
      default:
        guard mask != 0 else { throw problem("\(location).arguments: \"any_bit_set\" needs a non-zero \"mask\"") }
        guard sets.count * mask.nonzeroBitCount <= maximumExpandedRules else {
          throw problem(
            "\(location).arguments: they expand to more than \(maximumExpandedRules) rules; split the rule")
        }
        let bits = (0..<64).map { UInt64(1) << UInt64($0) }.filter { mask & $0 != 0 }
        sets = sets.flatMap { set in
          bits.map { bit in set + [scmp_arg_cmp(arg: arg, op: SCMP_CMP_MASKED_EQ, datum_a: bit, datum_b: bit)] }
        }
      }
    }
    return sets
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

/// A "masked_in" rule and a "masked_not_in" rule of the same system calls, argument, mask and
/// values: the usual shape of an ioctl allow-list ("these requests; ENOTTY for the rest").
/// libseccomp cannot test an argument against a set's complement, so such a pair compiled through
/// it becomes one rule per complement class (about 130 for the ioctl list, 360 of the default
/// policy's 838 instructions), and the kernel compiles (JITs) every instruction again at each run's
/// seccomp(2). Instead the pair's system calls go to libseccomp unconditionally with a marker
/// action, and each marker's return is replaced by a jump to a block appended here: load the
/// argument, compare it with each value, return the one action or the other.
struct SetCheck {
  var syscalls: [String]
  var argument: UInt32
  var mask: UInt32
  var values: [UInt32]
  var inAction: UInt32
  var outAction: UInt32
  var ruleIndices: [Int]
  var location: String

  /// SECCOMP_RET_TRACE with the marker in its data: no policy action is TRACE.
  static func markerAction(_ marker: Int) -> UInt32 { 0x7ff0_0000 | UInt32(marker + 1) }

  /// The most values one block compares (a BPF conditional jump reaches 255 instructions ahead).
  static let maximumValues = 200

  /// The pairs of `rules` that can be spliced: the two rules alone name their system calls, and
  /// the mask is within the argument's low 32 bits (the only word the block loads; on every listed
  /// architecture, little-endian, it is the first).
  static func pairs(in rules: [SeccompCompiler.Rule], architectures: [String]) -> [SetCheck] {
    guard architectures.allSatisfy({ ["x86_64", "x86", "x32"].contains($0) }) else { return [] }
    var mentions: [String: Int] = [:]
    for rule in rules { for syscall in Set(rule.syscalls) { mentions[syscall, default: 0] += 1 } }
    var checks: [SetCheck] = []
    var used: Set<Int> = []
    for (inIndex, inRule) in rules.enumerated() where !used.contains(inIndex) {
      guard inRule.arguments.count == 1, let inArgument = inRule.arguments.first, inArgument.op == "masked_in",
        inArgument.mask >> 32 == 0, inArgument.values.count <= maximumValues,
        Set(inRule.syscalls).allSatisfy({ mentions[$0] == 2 })
      else { continue }
      let partner = rules.indices.first { index in
        let rule = rules[index]
        guard index != inIndex, !used.contains(index), rule.arguments.count == 1, let argument = rule.arguments.first
        else { return false }
        return argument.op == "masked_not_in" && argument.index == inArgument.index
          && argument.mask == inArgument.mask && Set(argument.values) == Set(inArgument.values)
          && Set(rule.syscalls) == Set(inRule.syscalls)
      }
      guard let outIndex = partner else { continue }
      used.formUnion([inIndex, outIndex])
      checks.append(
        SetCheck(
          syscalls: Array(Set(inRule.syscalls)).sorted(), argument: inArgument.index, mask: UInt32(inArgument.mask),
          values: inArgument.values.map { UInt32($0) }, inAction: inRule.action,
          outAction: rules[outIndex].action, ruleIndices: [inIndex, outIndex], location: inRule.path))
    }
    return checks
  }

  /// `filter` with each marker's return replaced by a jump to its check's block, the blocks
  /// appended; nil when a marker is missing or the program grows past the kernel's 4096.
  static func splice(_ checks: [SetCheck], into filter: [UInt64]) -> [UInt64]? {
    var blocks: [[UInt64]] = []
    for check in checks { blocks.append(check.block()) }
    var program = filter
    var blockStarts: [Int] = []
    var next = filter.count
    for block in blocks {
      blockStarts.append(next)
      next += block.count
    }
    guard next <= 4096 else { return nil }
    var found = Array(repeating: false, count: checks.count)
    for (pc, instruction) in filter.enumerated() where instruction & 0xffff == Self.returnConstant {
      let action = UInt32(truncatingIfNeeded: instruction >> 32)
      guard action & 0xffff_0000 == 0x7ff0_0000 else { continue }
      let marker = Int(action & 0xffff) - 1
      guard checks.indices.contains(marker) else { return nil }
      found[marker] = true
      program[pc] = Self.instruction(Self.jumpAlways, k: UInt32(blockStarts[marker] - (pc + 1)))
    }
    guard found.allSatisfy({ $0 }) else { return nil }
    return program + blocks.flatMap { $0 }
  }

  // Classic BPF opcodes (linux/filter.h).
  static let loadWordAbsolute: UInt16 = 0x20
  static let andConstant: UInt16 = 0x54
  static let jumpIfEqual: UInt16 = 0x15
  static let jumpAlways: UInt16 = 0x05
  static let returnConstant: UInt64 = 0x06

  static func instruction(_ code: UInt16, jt: UInt8 = 0, jf: UInt8 = 0, k: UInt32) -> UInt64 {
    UInt64(code) | UInt64(jt) << 16 | UInt64(jf) << 24 | UInt64(k) << 32
  }

  /// Loads the argument's low word (struct seccomp_data: args at offset 16, 8 bytes each), masks
  /// it, and compares: a value jumps past the remaining compares and the "not in" return.
  func block() -> [UInt64] {
    var code = [Self.instruction(Self.loadWordAbsolute, k: 16 + 8 * argument)]
    if mask != 0xffff_ffff { code.append(Self.instruction(Self.andConstant, k: mask)) }
    for (position, value) in values.enumerated() {
      let remaining = values.count - 1 - position
      code.append(Self.instruction(Self.jumpIfEqual, jt: UInt8(remaining + 1), k: value))
    }
    code.append(Self.instruction(UInt16(Self.returnConstant), k: outAction))
    code.append(Self.instruction(UInt16(Self.returnConstant), k: inAction))
    return code
  }
}
