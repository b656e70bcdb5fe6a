import Challenges
import Foundation
import Glibc
import Runners
import Sandbox

// dsa-run [--lang LANG] FILE [FILE...] ... [-- ARGS...]: like running the
// program directly, only in a box. As `python hello.py` needs no language, `dsa-run hello.py`
// takes it from the file's extension.

struct RunOptions {
  var language = ""
  var version: String?
  var files: [String] = []
  var stdinPath: String?
  var limits = StepLimits()
  var json = false
  var arguments: [String] = []
  var configuration = SandboxConfiguration()
  var cacheDirectory = "/var/cache/dsa-run/compile"
  /// `--remote URL` (or `--daemon`, or $DSA_RUN_REMOTE): run through a dsa-rund instead of a local box.
  var remote: String?
  /// `--local`: ignore $DSA_RUN_REMOTE.
  var local = false
  /// `--token TOKEN` (or $DSA_RUN_TOKEN): the bearer token for --remote.
  var token: String?
  /// `--watch`: run (or grade) again whenever a source file is saved.
  var watch = false
  /// `--challenge ID|DIR`: grade the program on a challenge instead of running it once.
  var challenge: String?
  var stopAtFirstFailure = false
  /// `--no-tty`: no terminal in the box even when dsa-run's stdin is one.
  var noTerminal = false
  /// `--raw-output`: the program's output reaches a terminal unfiltered (TerminalFilter.swift).
  var rawOutput = false
  /// `--live-wall-limit SEC`: the wall limit of an interactive run (`InteractiveLimits`).
  var liveWallMilliseconds: UInt64?
  /// `--idle-limit SEC`: an interactive run ends after this long with no input and no output.
  var idleMilliseconds: UInt64?
}

func parseRun(_ arguments: [String]) throws -> RunOptions {
  var options = RunOptions()
  var cursor = ArgumentCursor(arguments)
  while let argument = cursor.next() {
    switch argument {
    case "--": options.arguments = cursor.rest()
    case "--lang": options.language = try cursor.value(for: argument)
    case "--version": options.version = try cursor.value(for: argument)
    case "--stdin": options.stdinPath = try cursor.value(for: argument)
    case "--time-limit":
      options.limits.cpuMilliseconds = try parseSeconds(
        cursor.value(for: argument), flag: argument, maximum: FlagMaximum.cpuSeconds)
    case "--wall-limit":
      options.limits.wallMilliseconds = try parseSeconds(
        cursor.value(for: argument), flag: argument, maximum: FlagMaximum.wallSeconds)
    case "--memory-limit":
      options.limits.memoryMegabytes = try parseCount(
        cursor.value(for: argument), flag: argument, unit: "MB", maximum: FlagMaximum.memoryMegabytes)
    case "--output-limit":
      options.limits.outputKilobytes = try parseCount(
        cursor.value(for: argument), flag: argument, unit: "KB", maximum: FlagMaximum.outputKilobytes)
    case "--json": options.json = true
    case "--cache-dir": options.cacheDirectory = try cursor.value(for: argument)
    case "--work-root": options.configuration.workRoot = try cursor.value(for: argument)
    case "--cgroup-mode": options.configuration.cgroupMode = try parseCgroupMode(cursor.value(for: argument))
    case "--remote": options.remote = try cursor.value(for: argument)
    case "--daemon": options.remote = localDaemonURL
    case "--local": options.local = true
    case "--token": options.token = try cursor.value(for: argument)
    case "--watch": options.watch = true
    case "--challenge": options.challenge = try cursor.value(for: argument)
    case "--stop-at-first-failure": options.stopAtFirstFailure = true
    case "--no-tty": options.noTerminal = true
    case "--live-wall-limit":
      options.liveWallMilliseconds = try parseSeconds(
        cursor.value(for: argument), flag: argument, maximum: FlagMaximum.liveWallSeconds)
    case "--idle-limit":
      options.idleMilliseconds = try parseSeconds(
        cursor.value(for: argument), flag: argument, maximum: FlagMaximum.liveWallSeconds)
    case "--raw-output": options.rawOutput = true
    default:
      if argument.hasPrefix("-") && argument != "-" {
        throw UsageError(message: "unknown option \"\(argument)\" (see dsa-run --help)")
      }
      options.files.append(argument)
    }
  }
  func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
  if options.local {
    if options.remote != nil { throw UsageError(message: "--local and --remote (or --daemon) contradict each other") }
  } else if options.remote == nil, let remote = environment("DSA_RUN_REMOTE"), !remote.isEmpty {
    options.remote = remote
  }
  if options.token != nil && options.remote == nil {
    throw UsageError(message: "--token goes with --remote (or --daemon, or DSA_RUN_REMOTE)")
  }
  // A token in the environment waits for a remote: a local run ignores it.
  if options.token == nil, options.remote != nil, let token = environment("DSA_RUN_TOKEN"), !token.isEmpty {
    options.token = token
  }
  guard let entryPoint = options.files.first else {
    throw UsageError(message: "give the source file to run, e.g. dsa-run main.py (or dsa-run --lang python main.py)")
  }
  if options.language.isEmpty { options.language = try language(ofSourceFile: entryPoint) }
  if let problem = options.limits.applied(to: BoxLimits()).violation() {
    throw UsageError(message: "limit out of range: \(problem)")
  }
  return options
}

/// The language a source file is in, told by its extension as a challenge's files are
/// (`ChallengeLanguages`: one table for both); without one it knows, a usage error that lists them.
func language(ofSourceFile path: String) throws -> String {
  let name = (path as NSString).lastPathComponent
  if let language = ChallengeLanguages.language(ofFile: name) { return language }
  let known = ChallengeLanguages.byExtension.sorted { $0.key < $1.key }.map { ".\($0.key) (\($0.value))" }
  throw UsageError(
    message: "cannot tell the language of \(name) from its extension; known extensions: "
      + known.joined(separator: ", ") + ". Name the language with --lang LANG (see dsa-run languages)")
}

/// Whether a command line's first word names a program to run (`dsa-run hello.py`) rather than a
/// command: it has an extension or a slash, or a file of that name is here. A mistyped command
/// (`dsa-run langauges`) stays an unknown command.
func namesSourceFile(_ word: String) -> Bool {
  if word.contains(".") || word.contains("/") { return true }
  var info = stat()
  return stat(word, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
}

/// The source files as the box will get them: the first keeps its role as
/// the entry point; each is named by its base name.
func readSources(_ paths: [String]) throws -> [SourceFile] {
  try paths.map { path in
    var info = stat()
    guard stat(path, &info) == 0 else { throw UsageError(message: "cannot read \(path): no such file") }
    guard info.st_mode & S_IFMT == S_IFREG else { throw UsageError(message: "\(path) is not a regular file") }
    guard info.st_size <= Executor.maximumSourceBytes else {
      throw UsageError(message: "\(path) is larger than \(Executor.maximumSourceBytes / 1024) KiB")
    }
    guard let contents = FileManager.default.contents(atPath: path) else {
      throw UsageError(message: "cannot read \(path): permission denied")
    }
    return SourceFile(name: (path as NSString).lastPathComponent, contents: contents)
  }
}

/// The runner catalog; for one language named as its file is (`python` -> runners/python.json), only
/// that file: parsing every runner file was a fifth of a `--lang python` start. An exact name wins over
/// any alias in the whole catalog as well, so the runner is the same; an alias (`py`) or an unknown
/// name loads them all (and the error lists them).
func loadCatalog(directory: String, for languages: [String]?) throws -> RunnerCatalog {
  if let languages, languages.count == 1 {
    let name = languages[0].lowercased()
    let path = directory + "/" + name + ".json"
    let fd = name.contains("/") || name.hasPrefix(".") ? -1 : open(path, O_RDONLY | O_CLOEXEC)
    if fd >= 0 {
      defer { close(fd) }
      let runners = try RunnerCatalog.parse(try readAll(fd, limit: 1 << 20, what: path), file: path)
      if runners.first?.language == name { return RunnerCatalog(languages: [name: runners]) }
    }
  }
  return try RunnerCatalog.load(directory: directory)
}

/// The local daemon's socket (`--daemon`): $DSA_RUN_DAEMON_SOCKET, for a daemon whose `unix_socket`
/// is elsewhere, else /run/dsa-rund.sock.
var localDaemonURL: String {
  guard let configured = getenv("DSA_RUN_DAEMON_SOCKET").map({ String(cString: $0) }), !configured.isEmpty else {
    return "unix:/run/dsa-rund.sock"
  }
  return "unix:" + configured
}

/// Why this process cannot make boxes, or nil: they are made as root (namespaces, mounts, cgroups
/// and a host uid of their own each), so an ordinary user hears that, and where a program can run
/// instead, before anything fails on the way (`create /run/dsa-run/empty-file: EACCES`).
func boxesNeedRoot() -> UsageError? {
  guard geteuid() != 0 else { return nil }
  return UsageError(
    message: "running programs here needs root: dsa-run makes its boxes (namespaces, mounts, cgroups) as root. "
      + "Run it as root (sudo dsa-run ...), or send the program to a dsa-rund: --daemon (the one on this host, "
      + "\(localDaemonURL)) or --remote URL")
}

/// An executor for this host. `languages` limits the seccomp policies compiled to the ones those
/// languages' runners name (nil: every policy, for grading and listings).
func makeExecutor(
  configuration: SandboxConfiguration, cacheDirectory: String?, probesVersions: Bool = true, warmBoxes: Bool = false,
  languages: [String]? = nil
) throws -> Executor {
  guard let runnersDirectory = DataDirectories.locate("runners") else {
    throw UsageError(message: "cannot find the runners/ folder (set DSA_RUN_DATA to the folder that holds it)")
  }
  let catalog = try loadCatalog(directory: runnersDirectory, for: languages)
  let policies: [String: SeccompPolicy]
  var compiles = true
  if let languages {
    let runners = languages.flatMap { catalog.language(named: $0) ?? [] }
    policies = try loadPolicies(named: Set(runners.map(\.policy)))
    compiles = runners.isEmpty || runners.contains { $0.compile != nil }
  } else {
    policies = try loadPolicies()
  }
  let host = try SandboxHost(configuration: configuration)
  // Opening the compile cache sizes it (a stat of every entry): not for an interpreted language.
  let cache = try compiles ? cacheDirectory.map { try CompileCache(directory: $0) } : nil
  // Grading runs one program many times: warm boxes pay the box setup once per parallel lane.
  let environments: any BoxEnvironmentPool = warmBoxes ? BoxPool(host: host) : OneShotBoxes(host: host)
  return Executor(
    environments: environments, catalog: catalog, policies: policies, cache: cache, probesVersions: probesVersions,
    versionCache: VersionCache(directory: seccompCacheDirectory))
}

func runProgram(_ arguments: [String]) -> Never {
  if asksForHelp(arguments) { printHelp(runHelp) }
  let options: RunOptions
  do {
    options = try parseRun(arguments)
    if options.stopAtFirstFailure && options.challenge == nil {
      throw UsageError(message: "--stop-at-first-failure needs --challenge")
    }
    // Once, before --watch would say it again at every save.
    if options.remote == nil, let problem = boxesNeedRoot() { throw problem }
  } catch let error as UsageError {
    fail(error.message, code: 2)
  } catch {
    fail("\(error)", code: 2)
  }
  ProgramOutput.raw.store(options.rawOutput, ordering: .relaxed)
  if options.watch { watchAndRepeat(options) }
  finish(runOnce(options))
}

/// One run or grade as the options ask; returns the exit code.
func runOnce(_ options: RunOptions) -> Int32 {
  if options.challenge != nil { return runChallenge(options) }
  if let remote = options.remote { return runRemote(options, url: remote) }
  var request: ExecuteRequest
  let executor: Executor
  do {
    executor = try makeExecutor(
      configuration: options.configuration, cacheDirectory: options.cacheDirectory, probesVersions: options.json,
      languages: [options.language])
    // The language first: a typo in --lang is the first thing to hear about.
    let runner = try executor.runner(language: options.language, version: options.version)
    request = ExecuteRequest(
      language: options.language, version: options.version, files: try readSources(options.files))
    request.runner = runner
    // --watch feeds only --stdin (read again each time): our own stdin can be read once. Without
    // either, our stdin is streamed to the program as it comes (`runLive`).
    if options.stdinPath != nil || options.watch {
      request.stdin = options.watch && options.stdinPath == nil ? Data() : try readInput(path: options.stdinPath)
    }
    request.arguments = options.arguments
    request.runLimits = options.limits
  } catch let error as UsageError {
    return complain(error.message, code: 2)
  } catch {
    return complain("\(error)", code: 2)
  }
  let live = options.stdinPath == nil && !options.watch
  let result: ExecuteResult
  do {
    result = live ? try runLive(request, executor: executor, options: options) : try executor.execute(request)
  } catch {
    if case .sandbox = error { return complain("internal_error: \(error)", code: 3) }
    return complain("\(error)", code: 2)
  }
  if wasInterrupted { return 3 }
  if options.json {
    FileHandle.standardOutput.write(ResultEncoder.data(ResultEncoder.executeValue(result)) + Data("\n".utf8))
  }
  var run = result.run.map(PrintedStep.init)
  // A live run's output was passed through as it came.
  if live && !options.json {
    run?.stdout = Data()
    run?.stderr = Data()
  }
  return printRun(compile: result.compile.map(PrintedStep.init), run: run, json: options.json)
}

/// `fail` without the exit: one line on stderr (none after an interrupt), and the code.
func complain(_ message: String, code: Int32) -> Int32 {
  if !wasInterrupted { ProgramOutput.writeOwnLine(message) }
  return code
}

func listLanguages(_ arguments: [String]) -> Never {
  if asksForHelp(arguments) { printHelp(languagesHelp) }
  for argument in arguments where argument != "--json" {
    fail("unknown option \"\(argument)\" (see dsa-run languages --help)", code: 2)
  }
  let asJSON = arguments.contains("--json")
  // The catalog and the toolchains' own version probes: no box, so an ordinary user may list them.
  let catalog: RunnerCatalog
  do {
    guard let runnersDirectory = DataDirectories.locate("runners") else {
      throw UsageError(message: "cannot find the runners/ folder (set DSA_RUN_DATA to the folder that holds it)")
    }
    catalog = try RunnerCatalog.load(directory: runnersDirectory)
  } catch let error as UsageError {
    fail(error.message, code: 2)
  } catch {
    fail("\(error)", code: 2)
  }
  var rows: [[String: Any]] = []
  for name in catalog.names {
    for runner in catalog.languages[name] ?? [] {
      rows.append([
        "language": runner.language, "name": runner.displayName, "aliases": runner.aliases,
        "version": VersionCache(directory: seccompCacheDirectory).lookup(runner) ?? Executor.probeVersion(of: runner),
        "available": runner.isAvailable, "standards": runner.standards,
        "reason": runner.missingRequirement.map { "\($0) is missing; install with: \(runner.installHint)" as Any }
          ?? NSNull(),
      ])
    }
  }
  if asJSON {
    FileHandle.standardOutput.write(ResultEncoder.data(rows) + Data("\n".utf8))
  } else {
    for row in rows {
      let aliases = (row["aliases"] as? [String] ?? []).joined(separator: ", ")
      let state = (row["available"] as? Bool) == true ? "available" : "not installed: \(row["reason"] ?? "")"
      let language = (row["language"] as? String ?? "").padding(toLength: 12, withPad: " ", startingAt: 0)
      let versionWidth = rows.map { ($0["version"] as? String ?? "").count }.max() ?? 0
      let version = (row["version"] as? String ?? "").padding(toLength: versionWidth + 2, withPad: " ", startingAt: 0)
      let standards = (row["standards"] as? [String] ?? []).joined(separator: ", ")
      let chosen = standards.isEmpty ? "" : "; --version picks a standard: \(standards)"
      print("\(language)\(version)\(state)  (aliases: \(aliases)\(chosen))")
    }
  }
  finish(0)
}
