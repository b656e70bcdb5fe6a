import Foundation
import Glibc
import Runners
import Sandbox

// dsa-run: the command-line face. `exec` runs any argv in a box (operators
// and tests); `doctor` reports what this host supports.

/// Whether these arguments may make a box here (not help, a listing, or a run sent to a daemon).
func makesBoxes(_ arguments: [String]) -> Bool {
  switch arguments.first {
  case nil, "--help", "-h", "help", "--version", "languages": return false
  case "challenges": return arguments.contains("--solutions")
  default: return !arguments.contains("--remote") && !arguments.contains("--daemon")
  }
}

// First, before any thread: every thread and every box's init must share the namespace.
// An ordinary user makes none: the command says so (`boxesNeedRoot`).
let willMakeBoxes = makesBoxes(Array(CommandLine.arguments.dropFirst())) && geteuid() == 0
if willMakeBoxes { SandboxHost.enterPrivateMountNamespace() }
installInterruptHandling()
// On another CPU while this one reads the runner and sets up the host (after the signal mask, which
// its thread inherits).
if willMakeBoxes {
  SandboxHost.prepareNetworkNamespace()
  SandboxHost.startInitsByExec()
}

struct UsageError: Error { let message: String }

/// One line on stderr, then the exit (none after an interrupt: see `finish`).
func fail(_ message: String, code: Int32) -> Never {
  if !wasInterrupted { ProgramOutput.writeOwnLine(message) }
  finish(code)
}

/// The hard ceilings of a box, in the units the flags use.
enum FlagMaximum {
  static let cpuSeconds = BoxLimits.ceilings.cpuTimeMilliseconds / 1000
  static let wallSeconds = BoxLimits.ceilings.wallTimeMilliseconds / 1000
  static let liveWallSeconds = BoxLimits.liveCeilings.wallTimeMilliseconds / 1000
  static let memoryMegabytes = BoxLimits.ceilings.memoryBytes >> 20
  static let outputKilobytes = BoxLimits.ceilings.outputBytesPerStream >> 10
  static let processes = BoxLimits.ceilings.processes
  static let tmpMegabytes = min(BoxLimits.ceilings.tmpBytes, BoxLimits.ceilings.workDirectoryBytes) >> 20
}

/// Seconds as milliseconds, refused past `maximum` seconds (in seconds, not milliseconds).
func parseSeconds(_ text: String, flag: String, maximum: UInt64) throws -> UInt64 {
  guard let value = Double(text), value > 0, value.isFinite else {
    throw UsageError(message: "\(flag) needs a positive number of seconds, got \"\(text)\"")
  }
  guard value <= Double(maximum) else {
    throw UsageError(message: "limit out of range: \(flag) \(text) is too long; at most \(maximum) s")
  }
  let milliseconds = UInt64((value * 1000).rounded())
  guard milliseconds > 0 else {
    throw UsageError(message: "limit out of range: \(flag) \(text) is too short; at least 0.001 s")
  }
  return milliseconds
}

/// A whole number of `unit`s, refused past `maximum` (before any shift could overflow).
func parseCount(_ text: String, flag: String, unit: String, maximum: UInt64) throws -> UInt64 {
  guard let value = UInt64(text), value > 0 else {
    throw UsageError(message: "\(flag) needs a positive whole number, got \"\(text)\"")
  }
  guard value <= maximum else {
    let amount = unit.isEmpty ? "\(maximum)" : "\(maximum) \(unit)"
    throw UsageError(message: "limit out of range: \(flag) \(text) is too much; at most \(amount)")
  }
  return value
}

/// Walks the command line: flags, their values, and everything after "--".
struct ArgumentCursor {
  private let arguments: [String]
  private var index = 0

  init(_ arguments: [String]) { self.arguments = arguments }

  /// The next argument, or nil at the end.
  mutating func next() -> String? {
    guard index < arguments.count else { return nil }
    defer { index += 1 }
    return arguments[index]
  }

  /// The value that must follow `flag`.
  mutating func value(for flag: String) throws -> String {
    guard let value = next() else { throw UsageError(message: "\(flag) needs a value") }
    return value
  }

  /// Everything left (the arguments after "--").
  mutating func rest() -> [String] {
    defer { index = arguments.count }
    return Array(arguments[index...])
  }
}

func parseCgroupMode(_ text: String) throws -> CgroupMode {
  guard let mode = CgroupMode(rawValue: text) else {
    throw UsageError(message: "--cgroup-mode must be cgroup-v2, cgroup-v1 or rlimit, got \"\(text)\"")
  }
  return mode
}

struct ExecOptions {
  var limits = BoxLimits()
  var stdinPath: String?
  var environment: [String] = []
  var mounts: [ReadOnlyMount] = []
  var files: [(String, String)] = []
  var policy = "default"
  var json = false
  var rawOutput = false
  var configuration = SandboxConfiguration()
  var command: [String] = []
}

func parseExec(_ arguments: [String]) throws -> ExecOptions {
  var options = ExecOptions()
  var cursor = ArgumentCursor(arguments)
  while let argument = cursor.next() {
    switch argument {
    case "--": options.command = cursor.rest()
    case "--time-limit":
      options.limits.cpuTimeMilliseconds = try parseSeconds(
        cursor.value(for: argument), flag: argument, maximum: FlagMaximum.cpuSeconds)
    case "--wall-limit":
      options.limits.wallTimeMilliseconds = try parseSeconds(
        cursor.value(for: argument), flag: argument, maximum: FlagMaximum.wallSeconds)
    case "--memory-limit":
      options.limits.memoryBytes =
        try parseCount(cursor.value(for: argument), flag: argument, unit: "MB", maximum: FlagMaximum.memoryMegabytes)
        << 20
    case "--output-limit":
      options.limits.outputBytesPerStream =
        try parseCount(cursor.value(for: argument), flag: argument, unit: "KB", maximum: FlagMaximum.outputKilobytes)
        << 10
    case "--processes":
      options.limits.processes = try parseCount(
        cursor.value(for: argument), flag: argument, unit: "", maximum: FlagMaximum.processes)
    case "--tmp-limit":
      let bytes =
        try parseCount(cursor.value(for: argument), flag: argument, unit: "MB", maximum: FlagMaximum.tmpMegabytes)
        << 20
      options.limits.tmpBytes = bytes
      options.limits.workDirectoryBytes = bytes
    case "--stdin": options.stdinPath = try cursor.value(for: argument)
    case "--env":
      let pair = try cursor.value(for: argument)
      guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
        throw UsageError(message: "--env needs NAME=VALUE, got \"\(pair)\"")
      }
      options.environment.append(pair)
    case "--mount": options.mounts.append(try parseMount(cursor.value(for: argument)))
    case "--file":
      let pair = try cursor.value(for: argument)
      guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex, pair.index(after: equals) != pair.endIndex
      else {
        throw UsageError(message: "--file needs NAME=HOSTPATH, got \"\(pair)\"")
      }
      let name = String(pair[..<equals])
      if let problem = BoxDirectory.validate(name: name) {
        throw UsageError(message: "--file \(pair): \(problem)")
      }
      options.files.append((name, String(pair[pair.index(after: equals)...])))
    case "--policy": options.policy = try cursor.value(for: argument)
    case "--cgroup-mode": options.configuration.cgroupMode = try parseCgroupMode(cursor.value(for: argument))
    case "--work-root": options.configuration.workRoot = try cursor.value(for: argument)
    case "--json": options.json = true
    case "--raw-output": options.rawOutput = true
    default:
      throw UsageError(message: "unknown option \"\(argument)\" (see dsa-run exec --help)")
    }
  }
  guard let program = options.command.first else { throw UsageError(message: "exec needs a command after --") }
  guard program.hasPrefix("/") else {
    let hint = hostPath(of: program).map { ", e.g. \($0)" } ?? ""
    throw UsageError(
      message: "exec needs the command's absolute path (there is no PATH search in the box), got \"\(program)\"\(hint)")
  }
  if let problem = options.limits.violation() { throw UsageError(message: "limit out of range: \(problem)") }
  return options
}

/// `HOST[:BOX]`: both absolute when given.
func parseMount(_ text: String) throws -> ReadOnlyMount {
  let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
  guard let host = parts.first, host.hasPrefix("/") else {
    throw UsageError(message: "--mount needs an absolute HOST path (HOST[:BOX]), got \"\(text)\"")
  }
  if parts.count > 1 && !parts[1].hasPrefix("/") {
    throw UsageError(message: "--mount needs an absolute BOX path after the colon, got \"\(text)\"")
  }
  return ReadOnlyMount(hostPath: host, boxPath: parts.count > 1 ? parts[1] : nil)
}

/// Where `name` is on this host's PATH (only as a hint: the box has the host's /usr).
func hostPath(of name: String) -> String? {
  guard !name.contains("/"), !name.isEmpty else { return nil }
  for directory in ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"] {
    let candidate = directory + "/" + name
    if access(candidate, X_OK) == 0 { return candidate }
  }
  return nil
}

/// The bytes to feed the program: --stdin, or our own stdin when piped.
func readInput(path: String?) throws -> Data {
  let maximum = 64 << 20
  if let path {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else {
      throw UsageError(message: "cannot read --stdin \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return try readAll(fd, limit: maximum, what: "--stdin \(path)")
  }
  if isatty(0) != 0 { return Data() }
  return try readAll(0, limit: maximum, what: "standard input")
}

/// Reads a regular file, pipe, socket or device to its end; a directory (or any read error) is a
/// usage error that names `what`.
func readAll(_ fd: Int32, limit: Int, what: String) throws -> Data {
  var info = stat()
  if fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
    throw UsageError(message: "cannot read \(what): it is a directory")
  }
  var data = Data()
  // A regular file in one read of its size (plus one byte, to see its end); nothing is zeroed: a
  // zeroed 64 KB chunk per file was a tenth of a millisecond of a start that reads three.
  let isRegularFile = info.st_mode & S_IFMT == S_IFREG && info.st_size > 0
  let capacity = isRegularFile ? min(Int(info.st_size), limit) + 1 : 65_536
  let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
  defer { chunk.deallocate() }
  while true {
    let count = read(fd, chunk, capacity)
    if count == 0 { break }
    if count < 0 {
      if errno == EINTR { continue }
      throw UsageError(message: "cannot read \(what): \(String(cString: strerror(errno)))")
    }
    data.append(chunk, count: count)
    if data.count > limit { throw UsageError(message: "\(what) is larger than \(limit >> 20) MiB") }
  }
  return data
}

func runExec(_ arguments: [String]) -> Never {
  if asksForHelp(arguments) { printHelp(execHelp) }
  let options: ExecOptions
  let input: Data
  let policy: SeccompPolicy
  do {
    options = try parseExec(arguments)
    if let problem = boxesNeedRoot() { throw problem }
    input = try readInput(path: options.stdinPath)
    policy = try loadPolicy(named: options.policy)
  } catch let error as UsageError {
    fail(error.message, code: 2)
  } catch {
    fail("\(error)", code: 2)
  }
  ProgramOutput.raw.store(options.rawOutput, ordering: .relaxed)
  var spec = BoxSpec(command: options.command, environment: options.environment, policy: policy)
  spec.limits = options.limits
  spec.readOnlyMounts = options.mounts
  var contents: [(String, Data, Bool)] = []
  for (name, hostPath) in options.files {
    do {
      let fd = open(hostPath, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        throw UsageError(message: "cannot read --file \(hostPath): \(String(cString: strerror(errno)))")
      }
      defer { close(fd) }
      contents.append((name, try readAll(fd, limit: 64 << 20, what: "--file \(hostPath)"), access(hostPath, X_OK) == 0))
    } catch let error as UsageError {
      fail(error.message, code: 2)
    } catch {
      fail("\(error)", code: 2)
    }
  }
  do {
    let host = try SandboxHost(configuration: options.configuration)
    let box = try Box(host: host, spec: spec)
    defer { box.destroy() }
    for (name, data, executable) in contents {
      try box.writeFile(name, contents: data, executable: executable)
    }
    let outcome = try box.run(stdin: input)
    box.destroy()
    if options.json && !wasInterrupted {
      FileHandle.standardOutput.write(ResultEncoder.data(ResultEncoder.outcomeValue(outcome)) + Data("\n".utf8))
    }
    finishRun(compile: nil, run: PrintedStep(outcome), json: options.json)
  } catch {
    if options.json && !wasInterrupted {
      let object: [String: Any] = ["status": "internal_error", "message": "The sandbox failed: \(error)"]
      FileHandle.standardOutput.write(ResultEncoder.data(object) + Data("\n".utf8))
    }
    fail("internal_error: the sandbox failed: \(error)", code: 3)
  }
}

func runDoctor(_ arguments: [String]) -> Never {
  if asksForHelp(arguments) { printHelp(doctorHelp) }
  for argument in arguments where argument != "--json" {
    fail("unknown option \"\(argument)\" (see dsa-run doctor --help)", code: 2)
  }
  let asJSON = arguments.contains("--json")
  var facts: [(String, String)] = []
  var healthy = true
  do {
    if let problem = boxesNeedRoot() { throw problem }
    let host = try SandboxHost()
    facts += host.report()
    if BoxLimits.timeScale != 1 {
      let ceilings = BoxLimits.ceilings
      facts.append(
        (
          "time scale",
          "DSA_RUN_TIME_SCALE \(BoxLimits.timeScale): ceilings \(ceilings.cpuTimeMilliseconds / 1000) s CPU, "
            + "\(ceilings.wallTimeMilliseconds / 1000) s wall"
        ))
    }
    let policies = try loadPolicies()
    for (name, policy) in policies.sorted(by: { $0.key < $1.key }) {
      facts.append(
        ("seccomp policy", "\(name): \(policy.ruleCount) rules, \(policy.instructionCount) BPF instructions"))
    }
    if let policy = policies["default"] {
      let box = try Box(host: host, spec: BoxSpec(command: ["/bin/true"], policy: policy))
      let outcome = try box.run()
      box.destroy()
      facts.append(("self-test", "/bin/true in a box: \(outcome.status.rawValue) in \(outcome.wallMilliseconds) ms"))
      healthy = outcome.status == .ok
    }
  } catch let error as UsageError {
    facts.append(("error", error.message))
    healthy = false
  } catch {
    facts.append(("error", "\(error)"))
    healthy = false
  }
  if wasInterrupted { finish(3) }
  if asJSON {
    let object: [String: Any] = ["healthy": healthy, "facts": facts.map { ["name": $0.0, "value": $0.1] }]
    FileHandle.standardOutput.write(ResultEncoder.data(object) + Data("\n".utf8))
  } else {
    for (name, value) in facts { print("\(name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(value)") }
  }
  finish(healthy ? 0 : 3)
}

let arguments = Array(CommandLine.arguments.dropFirst())
// Before any flag is read against the ceilings it scales.
if let problem = BoxLimits.timeScaleProblem { fail(problem, code: 2) }
switch arguments.first {
case "exec": runExec(Array(arguments.dropFirst()))
case "languages": listLanguages(Array(arguments.dropFirst()))
case "challenges": runChallengesCommand(Array(arguments.dropFirst()))
case "doctor": runDoctor(Array(arguments.dropFirst()))
case "--version" where arguments.count == 1:
  print("dsa-run \(toolVersion)")
  finish(0)
case "--help", "-h", "help", nil:
  print(usage)
  finish(arguments.isEmpty ? 2 : 0)
case let first? where first.hasPrefix("-"): runProgram(arguments)
default:
  if arguments.contains("--lang") || namesSourceFile(arguments[0]) { runProgram(arguments) }
  fail("unknown command \"\(arguments[0])\" (see dsa-run --help)", code: 2)
}
