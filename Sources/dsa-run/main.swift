import API
import Foundation
import Glibc
import Sandbox

// dsa-run: the command-line face. `exec` runs any argv in a box (operators
// and tests); `doctor` reports what this host supports.

let exitCodes = """
  Exit codes:
    0-119      the program's own exit code (ok or runtime_error)
    128+N      the program was ended by signal N
    2          usage error (bad flag, unknown language, missing file, limit out of range,
               toolchain not installed: the line says how to install it)
    3          internal_error: the sandbox failed, or (--challenge) the challenge's checker failed
               (never the program's fault)
    120        --challenge: the grade is not accepted (wrong_answer, runtime_error, time_limit, ...)
    121        compile_error (the compiler's messages are on stderr)
    122        forbidden: a blocked system call killed the program
    123        output_limit
    124        time_limit (CPU or wall; the message says which)
    125        memory_limit
  """

let usage = """
  Usage:
    dsa-run --lang LANG FILE [FILE...] [OPTIONS] [-- ARGS...]   compile and run a program in a box
    dsa-run --lang LANG FILE --challenge ID|DIR [--json] [--stop-at-first-failure]
                                                  grade a program on a challenge's tests
    dsa-run languages [--json]                    languages, versions, and whether they are installed
    dsa-run challenges [--json]                   the challenges: id, title, tests, tags
    dsa-run challenges --check [--solutions] [DIR...]
                                                  validate challenges (a challenge or a challenges/ folder);
                                                  --solutions also grades every reference solution
    dsa-run exec [OPTIONS] -- COMMAND [ARGS...]   run an argv in a box
    dsa-run doctor [--json]                       report this host's sandbox support
    dsa-run --help

  --lang options:
    --version V            a language version (default: the newest installed)
    --stdin PATH           feed this file (default: dsa-run's own stdin when it is not a terminal)
    --time-limit SEC, --wall-limit SEC, --memory-limit MB, --output-limit KB
                           limits of the run (defaults come from runners/LANG.json)
    --json                 one result object: {language, version, compile, run, steps}
    --cache-dir PATH       compile cache (default /var/cache/dsa-run/compile)
    --challenge ID|DIR     grade on a challenge (an id under challenges/, or a directory): one line
                           per test, the first difference explained, a total; exit 0 when accepted
    --stop-at-first-failure  with --challenge: start no more tests after one fails

  exec options:
    --time-limit SEC       CPU time of the whole box (default 5)
    --wall-limit SEC       wall-clock time (default 10)
    --memory-limit MB      memory of the whole box (default 256)
    --output-limit KB      bytes kept per stream; more kills the box (default 1024)
    --processes N          processes and threads at once (default 64)
    --tmp-limit MB         size of /tmp and of /box (default 64)
    --stdin PATH           feed this file; without it, dsa-run's own stdin is fed
                           when it is not a terminal
    --env NAME=VALUE       add to the (otherwise empty) environment; repeatable
    --mount HOST[:BOX]     bind a host path read-only; repeatable
    --file NAME=HOSTPATH   copy a host file into /box/NAME before the run; repeatable
    --policy NAME          seccomp policy from policies/ (default "default")
    --cgroup-mode MODE     cgroup-v2, cgroup-v1 or rlimit (default: detect)
    --work-root PATH       host directory for box work directories (default /run/dsa-run)
    --json                 print one JSON result object instead of the program's output

  """ + exitCodes

struct UsageError: Error { let message: String }

func fail(_ message: String, code: Int32) -> Never {
  FileHandle.standardError.write(Data("dsa-run: \(message)\n".utf8))
  exit(code)
}

func parseSeconds(_ text: String, flag: String) throws -> UInt64 {
  guard let value = Double(text), value > 0, value.isFinite else {
    throw UsageError(message: "\(flag) needs a positive number of seconds, got \"\(text)\"")
  }
  return UInt64((value * 1000).rounded())
}

func parseCount(_ text: String, flag: String) throws -> UInt64 {
  guard let value = UInt64(text), value > 0 else {
    throw UsageError(message: "\(flag) needs a positive whole number, got \"\(text)\"")
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
      options.limits.cpuTimeMilliseconds = try parseSeconds(cursor.value(for: argument), flag: argument)
    case "--wall-limit":
      options.limits.wallTimeMilliseconds = try parseSeconds(cursor.value(for: argument), flag: argument)
    case "--memory-limit":
      options.limits.memoryBytes = try parseCount(cursor.value(for: argument), flag: argument) << 20
    case "--output-limit":
      options.limits.outputBytesPerStream = try parseCount(cursor.value(for: argument), flag: argument) << 10
    case "--processes": options.limits.processes = try parseCount(cursor.value(for: argument), flag: argument)
    case "--tmp-limit":
      let bytes = try parseCount(cursor.value(for: argument), flag: argument) << 20
      options.limits.tmpBytes = bytes
      options.limits.workDirectoryBytes = bytes
    case "--stdin": options.stdinPath = try cursor.value(for: argument)
    case "--env":
      let pair = try cursor.value(for: argument)
      guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
        throw UsageError(message: "--env needs NAME=VALUE, got \"\(pair)\"")
      }
      options.environment.append(pair)
    case "--mount":
      let text = try cursor.value(for: argument)
      let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
      options.mounts.append(ReadOnlyMount(hostPath: parts[0], boxPath: parts.count > 1 ? parts[1] : nil))
    case "--file":
      let pair = try cursor.value(for: argument)
      guard let equals = pair.firstIndex(of: "=") else {
        throw UsageError(message: "--file needs NAME=HOSTPATH, got \"\(pair)\"")
      }
      options.files.append((String(pair[..<equals]), String(pair[pair.index(after: equals)...])))
    case "--policy": options.policy = try cursor.value(for: argument)
    case "--cgroup-mode": options.configuration.cgroupMode = try parseCgroupMode(cursor.value(for: argument))
    case "--work-root": options.configuration.workRoot = try cursor.value(for: argument)
    case "--json": options.json = true
    default:
      throw UsageError(message: "unknown option \"\(argument)\" (see dsa-run --help)")
    }
  }
  if options.command.isEmpty { throw UsageError(message: "exec needs a command after --") }
  if let problem = options.limits.violation() { throw UsageError(message: "limit out of range: \(problem)") }
  return options
}

/// The bytes to feed the program: --stdin, or our own stdin when piped.
func readInput(path: String?) throws -> Data {
  let maximum = 64 << 20
  if let path {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw UsageError(message: "cannot read --stdin file \(path)")
    }
    let data = handle.readData(ofLength: maximum + 1)
    if data.count > maximum { throw UsageError(message: "--stdin file \(path) is larger than 64 MiB") }
    return data
  }
  if isatty(0) != 0 { return Data() }
  let data = FileHandle.standardInput.readData(ofLength: maximum + 1)
  if data.count > maximum { throw UsageError(message: "standard input is larger than 64 MiB") }
  return data
}

func loadPolicies() throws -> [String: SeccompPolicy] {
  guard let directory = DataDirectories.locate("policies") else {
    throw UsageError(message: "cannot find the policies/ folder (set DSA_RUN_DATA to the folder that holds it)")
  }
  return try SeccompCompiler.loadDirectory(directory)
}

func runExec(_ arguments: [String]) -> Never {
  let options: ExecOptions
  let input: Data
  let policy: SeccompPolicy
  do {
    options = try parseExec(arguments)
    input = try readInput(path: options.stdinPath)
    let policies = try loadPolicies()
    guard let chosen = policies[options.policy] else {
      throw UsageError(
        message: "unknown policy \"\(options.policy)\"; known: \(policies.keys.sorted().joined(separator: ", "))")
    }
    policy = chosen
  } catch let error as UsageError {
    fail(error.message, code: 2)
  } catch {
    fail("\(error)", code: 2)
  }
  var spec = BoxSpec(command: options.command, environment: options.environment, policy: policy)
  spec.limits = options.limits
  spec.readOnlyMounts = options.mounts
  do {
    let host = try SandboxHost(configuration: options.configuration)
    let box = try Box(host: host, spec: spec)
    defer { box.destroy() }
    for (name, hostPath) in options.files {
      guard let contents = FileManager.default.contents(atPath: hostPath) else {
        box.destroy()
        fail("cannot read --file \(hostPath)", code: 2)
      }
      try box.writeFile(name, contents: contents, executable: access(hostPath, X_OK) == 0)
    }
    let outcome = try box.run(stdin: input)
    box.destroy()
    if options.json {
      FileHandle.standardOutput.write(ResultEncoder.data(ResultEncoder.outcomeObject(outcome)) + Data("\n".utf8))
    }
    finishRun(compile: nil, run: PrintedStep(outcome), json: options.json)
  } catch {
    if options.json {
      let object: [String: Any] = ["status": "internal_error", "message": "The sandbox failed: \(error)"]
      FileHandle.standardOutput.write(
        (try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) + Data("\n".utf8))
    }
    fail("internal_error: the sandbox failed: \(error)", code: 3)
  }
}

func runDoctor(_ arguments: [String]) -> Never {
  let asJSON = arguments.contains("--json")
  var facts: [(String, String)] = []
  var healthy = true
  do {
    let host = try SandboxHost()
    facts += host.report()
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
  } catch {
    facts.append(("error", "\(error)"))
    healthy = false
  }
  if asJSON {
    let object: [String: Any] = ["healthy": healthy, "facts": facts.map { ["name": $0.0, "value": $0.1] }]
    FileHandle.standardOutput.write(
      (try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) + Data("\n".utf8))
  } else {
    for (name, value) in facts { print("\(name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(value)") }
  }
  exit(healthy ? 0 : 3)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "exec": runExec(Array(arguments.dropFirst()))
case "languages": listLanguages(Array(arguments.dropFirst()))
case "challenges": runChallengesCommand(Array(arguments.dropFirst()))
case let first? where first.hasPrefix("--") && first != "--help": runProgram(arguments)
case "doctor": runDoctor(Array(arguments.dropFirst()))
case "--help", "-h", "help", nil:
  print(usage)
  exit(arguments.isEmpty ? 2 : 0)
default:
  if arguments.contains("--lang") { runProgram(arguments) }
  fail("unknown command \"\(arguments[0])\" (see dsa-run --help)", code: 2)
}
