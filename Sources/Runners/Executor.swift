import Foundation
import Glibc
import Sandbox
import Synchronization
import SystemCore

/// One source file of a request.
public struct SourceFile: Sendable, Equatable {
  /// Empty for "the main source, named as the language wants".
  public var name: String
  public var contents: Data

  public init(name: String, contents: Data) {
    self.name = name
    self.contents = contents
  }
}

/// What to compile and run.
public struct ExecuteRequest: Sendable {
  public var language: String
  public var version: String?
  /// The first file is the entry point.
  public var files: [SourceFile]
  public var stdin = Data()
  public var arguments: [String] = []
  /// The caller's limits for the run step, laid over the runner's.
  public var runLimits = StepLimits()
  /// The runner, when the caller resolved it already (the API does, before a request waits for a
  /// slot); nil resolves `language` and `version`.
  public var runner: Runner?
  /// One pipe for the program's stdout and stderr, in the order written (`BoxSpec`).
  public var mergesStderrIntoStdout = false

  public init(language: String, version: String? = nil, files: [SourceFile]) {
    self.language = language
    self.version = version
    self.files = files
  }
}

/// What happened, per step.
public struct ExecuteResult: Sendable {
  public var language: String
  public var version: String
  /// The compile step; nil for interpreted languages and for compile-cache
  /// hits (`compileCacheHit`), which skip the compile box entirely.
  public var compile: Outcome?
  /// nil when the compile failed.
  public var run: Outcome?
  public var compileCacheHit: Bool
  /// The files as named in the box (the main file may have been renamed).
  public var fileNames: [String]
}

/// A program ready to run: its files named, compiled when the language compiles (see
/// `Executor.prepare`). Run it with `Executor.run` as often as needed.
public struct PreparedProgram: Sendable {
  public let runner: Runner
  let policy: SeccompPolicy
  /// The probed version ("3.11.2") when the executor probes versions, else the runner's.
  public let version: String
  let mainFile: String
  /// The JVM class to start ({class}), found in the compiled classes; empty for other languages.
  var mainClass = ""
  /// The files as named in the box (the main file may have been renamed).
  public let fileNames: [String]
  /// How the learner named each file, for the compiler's and the runtime's messages.
  let learnerNames: [LearnerName]
  /// The compile step's outcome; nil for interpreted languages and compile-cache hits.
  public internal(set) var compile: Outcome?
  public internal(set) var compileCacheHit = false
  /// What the run box gets (name, contents, executable); nil when the compile failed.
  var runFiles: [(String, Data, Bool)]?

  init(
    runner: Runner, policy: SeccompPolicy, version: String, mainFile: String, learnerNames: [LearnerName],
    runFiles: [(String, Data, Bool)]?
  ) {
    self.runner = runner
    self.policy = policy
    self.version = version
    self.mainFile = mainFile
    self.learnerNames = learnerNames
    self.fileNames = learnerNames.map(\.box)
    self.runFiles = runFiles
  }

  /// The language's canonical name ("python").
  public var language: String { runner.language }
  /// False when the compile failed (`compile` says why).
  public var isRunnable: Bool { runFiles != nil }
}

/// Why a request could not even start; never the program's fault, often the
/// caller's (unknown language) or the operator's (toolchain missing).
public enum ExecuteError: Error, CustomStringConvertible, Sendable {
  case unknownLanguage(String, known: [String])
  case unknownVersion(language: String, version: String, known: [String])
  case toolchainMissing(language: String, version: String, path: String, install: String)
  case badFiles(String)
  case unknownPolicy(String)
  case sandbox(SandboxError)
  /// A gated executor's run did not get its turn (`RunGate`): no box slot within what was left of
  /// the job's time; the caller's, not the program's, and no failure of the sandbox.
  case notStarted(String)

  public var description: String {
    switch self {
    case .unknownLanguage(let name, let known):
      return "unknown language \"\(name)\"; known: \(known.joined(separator: ", "))"
    case .unknownVersion(let language, let version, let known):
      return "\(language) has no version \"\(version)\"; installed: \(known.joined(separator: ", "))"
    case .toolchainMissing(let language, let version, let path, let install):
      return "\(language) \(version) is not installed (\(path) is missing); install it with: \(install)"
    case .badFiles(let problem): return problem
    case .unknownPolicy(let name): return "the runner names seccomp policy \"\(name)\", which policies/ does not have"
    case .sandbox(let error): return "the sandbox failed: \(error)"
    case .notStarted(let why): return why
    }
  }
}

/// Compiles (through the cache) and runs programs in box environments.
public final class Executor: Sendable {
  public let catalog: RunnerCatalog
  public let policies: [String: SeccompPolicy]
  public let cache: CompileCache?
  /// Where compiles and runs happen: warm boxes (`BoxPool`: daemon, grading), a fresh one-shot
  /// box per step (`OneShotBoxes`: the CLI), or the tests' fake.
  public let environments: any BoxEnvironmentPool
  /// Whether results carry the toolchain's probed version ("3.11.2") or
  /// the runner's declared one ("3.11"): probing starts the toolchain once
  /// per process (30 ms for the JVM), which a one-shot CLI run that prints
  /// no version need not pay.
  public let probesVersions: Bool
  /// Where probed versions are kept across processes (nil: in this process only).
  public let versionCache: VersionCache?
  /// Where each box of this executor runs: nil at once on the calling thread; a gated copy
  /// (`gated(by:)`) hands every box to its gate.
  public let gate: (any RunGate)?
  /// Pre-warmed run steps (the daemon's, when configured): a run whose spec has a waiting box is
  /// handed to it, any other runs cold (`PrewarmRuns`).
  public let prewarm: PrewarmRuns?
  /// Shared by every gated copy, so a copy per request probes no toolchain again.
  private let memo: ExecutorMemo

  public static let maximumFiles = 64
  public static let maximumSourceBytes = 1 << 20
  public static let maximumArtifactBytes = 256 << 20
  /// Program arguments at most, and their bytes in all (each counted with its terminating NUL). A
  /// warm box's run command carries the runner's command and environment, the rlimits and the
  /// seccomp filter as well, in at most 4096 strings and 256 KiB (`DSA_COMMAND_MAXIMUM_*`); these
  /// bounds leave room for the rest, so a request's arguments always fit.
  public static let maximumArguments = 1024
  public static let maximumArgumentBytes = 128 << 10

  /// What is wrong with a program's arguments, naming the argument (`args[2]: ...`); nil when they
  /// can be passed as they are. C strings end at NUL, so an argument holding one would arrive cut.
  public static func argumentsProblem(_ arguments: [String]) -> String? {
    if arguments.count > maximumArguments {
      return "args: \(arguments.count) arguments; at most \(maximumArguments) are accepted"
    }
    var total = 0
    for (index, argument) in arguments.enumerated() {
      if argument.utf8.contains(0) { return "args[\(index)]: contains a NUL byte" }
      total += argument.utf8.count + 1
    }
    if total > maximumArgumentBytes {
      return "args: the arguments total \(total) bytes; at most \(maximumArgumentBytes) are accepted"
    }
    return nil
  }

  /// The first file whose name needs another file to be a directory (`a` and `a/b`, or `main.py/x`
  /// beside the main file `main.py`), as `files[i].name: ...`; nil when the names can coexist.
  public static func fileConflict(_ names: [String]) -> String? {
    var byName: [String: Int] = [:]
    for (index, name) in names.enumerated() { byName[name] = byName[name] ?? index }
    for (index, name) in names.enumerated() {
      var parent = Substring(name)
      while let slash = parent.lastIndex(of: "/") {
        parent = parent[..<slash]
        if let other = byName[String(parent)] {
          return
            "files[\(index)].name: \"\(name)\" needs a directory \"\(parent)\", but files[\(other)] is a file of that name"
        }
      }
    }
    return nil
  }

  public init(
    environments: any BoxEnvironmentPool, catalog: RunnerCatalog, policies: [String: SeccompPolicy],
    cache: CompileCache?, probesVersions: Bool = true, versionCache: VersionCache? = nil,
    prewarm: PrewarmRuns? = nil
  ) {
    self.prewarm = prewarm
    self.environments = environments
    self.probesVersions = probesVersions
    self.versionCache = versionCache
    self.catalog = catalog
    self.policies = policies
    self.cache = cache
    gate = nil
    memo = ExecutorMemo()
  }

  private init(_ base: Executor, gate: (any RunGate)?) {
    environments = base.environments
    probesVersions = base.probesVersions
    versionCache = base.versionCache
    catalog = base.catalog
    policies = base.policies
    cache = base.cache
    memo = base.memo
    prewarm = base.prewarm
    self.gate = gate
  }

  /// This executor with every box (compile and run steps alike) run through `gate`: the daemon's
  /// grades take a box slot per run, so a long grade yields its slot between runs.
  public func gated(by gate: any RunGate) -> Executor { Executor(self, gate: gate) }

  /// This executor with its boxes run at once, on the calling thread (work in a slot of its own).
  var ungated: Executor { gate == nil ? self : Executor(self, gate: nil) }

  /// The runner for a language and optional version (newest available by
  /// default).
  public func runner(language: String, version: String?) throws(ExecuteError) -> Runner {
    guard let runners = catalog.language(named: language) else {
      throw .unknownLanguage(language, known: catalog.names)
    }
    if let version {
      // A standard ("c++20") is a version of the newest runner that offers it.
      if let standard = runners.lazy.filter(\.isAvailable).compactMap({ $0.selectingStandard(version) }).first {
        return standard
      }
      guard let runner = runners.first(where: { $0.version == version || probedVersion(of: $0) == version }) else {
        throw .unknownVersion(
          language: runners[0].language, version: version,
          known: runners.map(\.version) + runners.flatMap(\.standards).filter { !runners.map(\.version).contains($0) })
      }
      if let missing = runner.missingRequirement {
        throw .toolchainMissing(
          language: runner.language, version: runner.version, path: missing, install: runner.installHint)
      }
      return runner
    }
    if let available = runners.first(where: \.isAvailable) { return available }
    let newest = runners[0]
    throw .toolchainMissing(
      language: newest.language, version: newest.version, path: newest.missingRequirement ?? "?",
      install: newest.installHint)
  }

  /// The toolchain's own version string (e.g. "3.11.2"), probed once: in this process, and with a
  /// `versionCache`, once for as long as the toolchain's files stay the same.
  public func probedVersion(of runner: Runner) -> String {
    let key = runner.language + "@" + runner.version
    if let known = memo.probedVersions.withLock({ $0[key] }) { return known }
    var found: String
    if let stored = versionCache?.lookup(runner) {
      found = stored
    } else {
      found = Self.probeVersion(of: runner)
      if runner.isAvailable { versionCache?.store(found, for: runner) }
    }
    memo.probedVersions.withLock { $0[key] = found }
    return found
  }

  /// Probes every available toolchain's version now, all at once, so no run waits for one: the
  /// daemon calls it before it takes requests.
  public func probeAllVersions() {
    let runners = catalog.languages.values.flatMap { $0 }.filter(\.isAvailable)
    DispatchQueue.concurrentPerform(iterations: runners.count) { _ = probedVersion(of: runners[$0]) }
  }

  /// The version `runner`'s toolchain reports, run on the host (no box): its declared version when
  /// the toolchain is missing or says nothing that matches.
  public static func probeVersion(of runner: Runner) -> String {
    guard runner.isAvailable, let output = runHostCommand(runner.versionProbe),
      let expression = try? Regex(runner.versionPattern), let match = try? expression.firstMatch(in: output),
      match.output.count > 1, let captured = match.output[1].substring
    else { return runner.version }
    return String(captured)
  }

  /// Compiles (through the cache) and runs one program: `prepare` then `run`.
  public func execute(_ request: ExecuteRequest) throws(ExecuteError) -> ExecuteResult {
    let runner: Runner
    if let resolved = request.runner {
      runner = resolved
    } else {
      runner = try self.runner(language: request.language, version: request.version)
    }
    if let result = try prewarmedExecute(runner, request) { return result }
    let program = try prepare(runner, requestedAs: request.language, files: request.files)
    var result = ExecuteResult(
      language: program.language, version: program.version, compile: program.compile, run: nil,
      compileCacheHit: program.compileCacheHit, fileNames: program.fileNames)
    guard program.isRunnable else { return result }
    result.run = try run(
      program, stdin: request.stdin, arguments: request.arguments, limits: request.runLimits, extraFiles: [],
      live: nil, mergesStderrIntoStdout: request.mergesStderrIntoStdout)
    return result
  }

  /// Names the files and, for a compiled language, compiles them once (through the cache), so the
  /// result can be run many times (grading runs one program on every test). A failed compile is a
  /// value (`compile` holds the outcome and `isRunnable` is false); only a request that cannot start
  /// or a sandbox failure throws.
  public func prepare(language: String, version: String?, files given: [SourceFile]) throws(ExecuteError)
    -> PreparedProgram
  {
    try prepare(try runner(language: language, version: version), requestedAs: language, files: given)
  }

  /// `prepare` with the runner resolved already; `language` is the name the caller used (a
  /// script's alias picks the script runner's entry file).
  public func prepare(_ runner: Runner, requestedAs language: String, files given: [SourceFile])
    throws(ExecuteError) -> PreparedProgram
  {
    try prepare(runner, requestedAs: language, files: given, compileStarts: nil)
  }

  /// `prepare`, calling `compileStarts` just before a compile box runs (a live run's stage event).
  func prepare(
    _ runner: Runner, requestedAs language: String, files given: [SourceFile], compileStarts: (() -> Void)?
  ) throws(ExecuteError) -> PreparedProgram {
    guard let policy = policies[runner.policy] else { throw .unknownPolicy(runner.policy) }
    let (files, learnerNames, entrySource) = try layOut(given, runner: runner, requestedAs: language)
    let version = probesVersions ? probedVersion(of: runner) : runner.version
    var program = PreparedProgram(
      runner: runner, policy: policy, version: version, mainFile: files[0].name, learnerNames: learnerNames,
      runFiles: files.map { ($0.name, $0.contents, false) })
    if let compile = runner.compile {
      let key = cacheKey(runner: runner, step: compile, files: files)
      // Cached artifacts always held one entry point: only such compiles are stored.
      if let cached = cache?.lookup(key), let mainClass = try? entryClass(of: runner, in: cached, entry: entrySource) {
        program.compileCacheHit = true
        program.mainClass = mainClass
        program.runFiles = cached.map { ($0.0, $0.1, true) }
      } else {
        compileStarts?()
        let (compiled, artifacts) = try compileInBox(runner: runner, step: compile, policy: policy, files: files)
        var outcome = compiled
        outcome.rewriteText(stdout: true) { LearnerNames.rewrite($0, names: learnerNames) }
        program.runFiles = nil
        guard let artifacts else {
          program.compile = outcome
          return program
        }
        do throws(EntryPointProblem) {
          program.mainClass = try entryClass(of: runner, in: artifacts, entry: entrySource)
        } catch {
          outcome.status = .compileError
          outcome.message = entryPointMessage(error, runner: runner, learnerNames: learnerNames)
          program.compile = outcome
          return program
        }
        program.compile = outcome
        cache?.store(key, files: artifacts)
        program.runFiles = artifacts.map { ($0.0, $0.1, true) }
      }
    }
    return program
  }

  /// Runs a prepared program in a box with this stdin, arguments and limits (laid over the runner's).
  /// `extraFiles` are written into /box beside the program (a custom checker's input, output and
  /// answer); a name the program's own files use is refused.
  public func run(
    _ program: PreparedProgram, stdin: Data, arguments: [String] = [], limits stepLimits: StepLimits = StepLimits(),
    extraFiles: [SourceFile] = []
  ) throws(ExecuteError) -> Outcome {
    try run(program, stdin: stdin, arguments: arguments, limits: stepLimits, extraFiles: extraFiles, live: nil)
  }

  /// `run`, live when `live` is given (`executeLive`).
  func run(
    _ program: PreparedProgram, stdin: Data, arguments: [String], limits stepLimits: StepLimits,
    extraFiles: [SourceFile], live: BoxLive?, mergesStderrIntoStdout: Bool = false
  ) throws(ExecuteError) -> Outcome {
    let command = try runCommand(
      program, stdin: stdin, arguments: arguments, limits: stepLimits, extraFiles: extraFiles, live: live,
      mergesStderrIntoStdout: mergesStderrIntoStdout)
    var outcome: Outcome
    if live == nil, prewarm != nil {
      let environments = self.environments
      let warm = { @Sendable () throws(ExecuteError) -> Outcome in
        if let outcome = try self.prewarmedRun(
          program, spec: command.spec, files: command.files, stdin: stdin, arguments: arguments,
          limits: command.spec.limits)
        {
          return outcome
        }
        return try Self.run(command, in: environments) { outcome, _ in outcome }
      }
      if let gate {
        outcome = try gate.run(warm)
      } else {
        outcome = try warm()
      }
    } else {
      outcome = try inBox(command) { outcome, _ in outcome }
    }
    // Merged streams, or a terminal's stdout, hold the program's stderr: they name the learner's files too.
    outcome.rewriteText(stdout: mergesStderrIntoStdout || command.spec.terminal) {
      LearnerNames.rewrite($0, names: program.learnerNames)
    }
    return outcome
  }

  /// The box command that runs a prepared program (`run`'s, and each of an interaction's two).
  func runCommand(
    _ program: PreparedProgram, stdin: Data, arguments: [String], limits stepLimits: StepLimits,
    extraFiles: [SourceFile], live: BoxLive?, mergesStderrIntoStdout: Bool = false
  ) throws(ExecuteError) -> BoxCommand {
    guard let programFiles = program.runFiles else {
      throw .badFiles("the program did not compile, so it cannot run")
    }
    if let problem = Self.argumentsProblem(arguments) { throw .badFiles(problem) }
    var runFiles = programFiles.map { BoxFile(name: $0.0, contents: $0.1, executable: $0.2) }
    for file in extraFiles {
      if let problem = BoxDirectory.validate(name: file.name) { throw .badFiles(problem) }
      guard !runFiles.contains(where: { $0.name == file.name || $0.name.hasPrefix(file.name + "/") }) else {
        throw .badFiles("the extra file \(file.name) would replace one of the program's files")
      }
      runFiles.append(BoxFile(name: file.name, contents: file.contents))
    }
    let runner = program.runner
    let limits = runner.runLimits(stepLimits)
    if let problem = limits.violation(of: live == nil ? .ceilings : .liveCeilings) {
      throw .badFiles("limit out of range: \(problem)")
    }
    var spec = BoxSpec(
      command: expand(runner.run.argv, mainFile: program.mainFile, mainClass: program.mainClass, limits: limits)
        + arguments,
      environment: expand(
        runner.run.environment, mainFile: program.mainFile, mainClass: program.mainClass, limits: limits),
      policy: program.policy)
    spec.limits = limits
    spec.readOnlyMounts = runner.mounts + runner.run.mounts
    spec.outOfMemoryTexts = runner.run.memoryErrorPatterns
    spec.terminal = live?.terminal ?? false
    spec.mergesStderrIntoStdout = mergesStderrIntoStdout
    return BoxCommand(spec: spec, files: runFiles, stdin: stdin, live: live)
  }

  /// The compile step in its own box. Returns the outcome and, when it
  /// succeeded, the artifacts read back from the box.
  private func compileInBox(
    runner: Runner, step: RunnerStep, policy: SeccompPolicy, files: [SourceFile]
  ) throws(ExecuteError) -> (Outcome, [(String, Data)]?) {
    let limits = step.limits.applied(to: BoxLimits())
    let sources =
      [files[0].name]
      + files.dropFirst().map(\.name).filter { name in runner.sourceExtensions.contains { name.hasSuffix($0) } }
    var spec = BoxSpec(
      command: expand(step.argv, mainFile: files[0].name, mainClass: "", limits: limits, sources: sources),
      environment: expand(step.environment, mainFile: files[0].name, mainClass: "", limits: limits),
      policy: policy)
    spec.limits = limits
    spec.readOnlyMounts = runner.mounts + step.mounts
    let command = BoxCommand(spec: spec, files: files.map { BoxFile(name: $0.name, contents: $0.contents) })
    let finish = {
      @Sendable (ran: Outcome, environment: any BoxEnvironment) throws(SandboxError) -> (Outcome, [(String, Data)]?) in
      var outcome = ran.asCompile(errorHints: step.errorHints)
      guard outcome.status == .ok else { return (outcome, nil) }
      var artifacts: [(String, Data)] = []
      var total = 0
      for artifact in step.artifacts {
        do throws(SandboxError) {
          if artifact.hasSuffix("/") {
            let tree = try environment.readTree(String(artifact.dropLast()), limit: Self.maximumArtifactBytes - total)
            artifacts += tree
            total += tree.reduce(0) { $0 + $1.1.count }
          } else {
            let data = try environment.readFile(artifact, limit: Self.maximumArtifactBytes - total)
            artifacts.append((artifact, data))
            total += data.count
          }
        } catch {
          outcome.status = .compileError
          outcome.message = "The compiler finished but left no usable \(artifact): \(error.step)."
          return (outcome, nil)
        }
      }
      return (outcome, artifacts)
    }
    guard prewarm != nil else { return try inBox(command, finish: finish) }
    let environments = self.environments
    let compile = { @Sendable () throws(ExecuteError) -> (Outcome, [(String, Data)]?) in
      if let compiled = try self.prewarmedCompile(command, runner: runner, policy: policy, finish: finish) {
        return compiled
      }
      return try Self.run(command, in: environments, finish: finish)
    }
    guard let gate else { return try compile() }
    return try gate.run(compile)
  }

  /// Runs a command in an environment from the pool and lets `finish` read what it left in /box
  /// before the environment is reused or removed.
  private func inBox<Result: Sendable>(
    _ command: BoxCommand, finish: @escaping @Sendable (Outcome, any BoxEnvironment) throws(SandboxError) -> Result
  ) throws(ExecuteError) -> Result {
    guard let gate else { return try Self.run(command, in: environments, finish: finish) }
    let environments = self.environments
    return try gate.run { () throws(ExecuteError) -> Result in
      try Self.run(command, in: environments, finish: finish)
    }
  }

  static func run<Result>(
    _ command: BoxCommand, in environments: any BoxEnvironmentPool,
    finish: (Outcome, any BoxEnvironment) throws(SandboxError) -> Result
  ) throws(ExecuteError) -> Result {
    do throws(SandboxError) {
      return try environments.run(command, finish: finish)
    } catch {
      throw .sandbox(error)
    }
  }

  /// Checks `files` as `prepare` would before it compiles anything (their names, sizes and the
  /// names the language gives them), so a request that cannot run is refused when it is made, not
  /// when a stored job runs.
  public func checkFiles(_ files: [SourceFile], runner: Runner, requestedAs language: String) throws(ExecuteError) {
    _ = try layOut(files, runner: runner, requestedAs: language)
  }

  /// The files as the box gets them: named (`nameFiles`), with a script's launcher beside them;
  /// and the file the compiler starts from.
  func layOut(_ given: [SourceFile], runner: Runner, requestedAs language: String) throws(ExecuteError)
    -> (files: [SourceFile], learnerNames: [LearnerName], entrySource: String)
  {
    var (files, learnerNames) = try nameFiles(given, runner: runner)
    // A script's launcher is compiled with it and started in its place; it is not the learner's.
    var entrySource = files[0].name
    if let script = runner.script,
      given[0].name.hasSuffix(script.fileExtension)
        || (script.alias == language.lowercased() && !isEntrySource(given[0].name, runner: runner))
    {
      files[0].name = script.entryFile
      learnerNames[0].box = script.entryFile
      if given[0].name.isEmpty { learnerNames[0].learner = script.entryFile }
      guard !files.dropFirst().contains(where: { $0.name == script.entryFile || $0.name == script.launcherFile }) else {
        throw .badFiles("a script's other files may not be named \(script.entryFile) or \(script.launcherFile)")
      }
      files.append(SourceFile(name: script.launcherFile, contents: Data(script.launcherSource.utf8)))
      entrySource = script.launcherFile
    }
    return (files, learnerNames, entrySource)
  }

  /// Validates file names and sizes and names the files as the language wants: the entry file
  /// keeps the learner's name when it has one of the runner's source extensions, and a Java file
  /// is named after its public class, which javac demands. Returns the files and how the learner
  /// named each.
  func nameFiles(_ given: [SourceFile], runner: Runner) throws(ExecuteError) -> ([SourceFile], [LearnerName]) {
    guard !given.isEmpty else { throw .badFiles("no source files were given") }
    guard given.count <= Self.maximumFiles else { throw .badFiles("at most \(Self.maximumFiles) files may be given") }
    let total = given.reduce(0) { $0 + $1.contents.count }
    guard total <= Self.maximumSourceBytes else {
      throw .badFiles("the source files total \(total) bytes; at most \(Self.maximumSourceBytes) are accepted")
    }
    var files = given
    let isSource = { (name: String) in self.isEntrySource(name, runner: runner) }
    switch runner.sourceNaming {
    case .fixed(let name):
      let entry = files[0].name
      if !isSource(entry) || entry.hasPrefix("-") || BoxDirectory.validate(name: entry) != nil { files[0].name = name }
    case .javaPublicClass(let fallback):
      for index in files.indices where index == 0 || files[index].name.hasSuffix(".java") {
        let name = files[index].name
        let directory = name.contains("/") ? String(name[...name.lastIndex(of: "/")!]) : ""
        if let publicClass = javaPublicClass(in: String(decoding: files[index].contents, as: UTF8.self)) {
          files[index].name = directory + publicClass + ".java"
        } else if index == 0, !isSource(name) || name.hasPrefix("-") || BoxDirectory.validate(name: name) != nil {
          files[index].name = fallback
        }
      }
    }
    var seen: Set<String> = []
    for (index, (file, original)) in zip(files, given).enumerated() {
      if let problem = BoxDirectory.validate(name: file.name) { throw .badFiles("files[\(index)].name: \(problem)") }
      if file.name.hasPrefix("-"), isSource(file.name) {
        throw .badFiles(
          "files[\(index)].name: \"\(file.name)\" starts with \"-\", which the compiler would take for an option; "
            + "rename it")
      }
      guard seen.insert(file.name).inserted else {
        let renamed = file.name != original.name ? " (\"\(original.name)\" is named after what it declares)" : ""
        throw .badFiles("files[\(index)].name: two files are named \"\(file.name)\"\(renamed)")
      }
    }
    // Writing both would fail in the box directory (ENOTDIR or EISDIR), the sandbox's error, not the caller's.
    if let conflict = Self.fileConflict(files.map(\.name)) { throw .badFiles(conflict) }
    let learnerNames = zip(files, given).map { LearnerName(box: $0.name, learner: $1.name.isEmpty ? $0.name : $1.name) }
    return (files, learnerNames)
  }

  /// Whether a file has one of the runner's source extensions (and a name before it).
  private func isEntrySource(_ name: String, runner: Runner) -> Bool {
    runner.sourceExtensions.contains { name.hasSuffix($0) && name.count > $0.count }
  }

  /// The class to start, when the run names one ({class}); "" for languages that start a file.
  private func entryClass(of runner: Runner, in artifacts: [(String, Data)], entry: String)
    throws(EntryPointProblem) -> String
  {
    guard runner.run.argv.contains(where: { $0.contains("{class}") }) else { return "" }
    return try EntryPoint.choose(among: artifacts, entrySource: entry)
  }

  private func entryPointMessage(_ problem: EntryPointProblem, runner: Runner, learnerNames: [LearnerName]) -> String {
    let entryPoint = runner.entryPoint ?? "a main method"
    switch problem {
    case .none:
      return "The code compiled, but it has no entry point, so nothing can start it: add \(entryPoint)."
    case .several(let classes):
      let listed = classes.map { candidate in candidate.name + (candidate.sourceFile.map { " (\($0))" } ?? "") }
      return "The code compiled, but it has more than one entry point: \(listed.joined(separator: ", ")) each have "
        + "\(entryPoint). Keep one, or give first the file that holds the one to start (the first file is "
        + "\(learnerNames[0].learner))."
    }
  }

  func expand(
    _ templates: [String], mainFile: String, mainClass: String, limits: BoxLimits, sources: [String] = []
  ) -> [String] {
    let memory = limits.memoryBytes >> 20
    let heap = max(16, memory * 3 / 4)
    let values = ["source": mainFile, "class": mainClass, "memory_mb": String(memory), "heap_mb": String(heap)]
    // One pass with native strings: a placeholder inside a substituted value stays as it is, and
    // Foundation's replacingOccurrences (bridged to NSString) cost more than the rest of a warm run's setup.
    return templates.flatMap { template -> [String] in
      guard template.utf8.contains(UInt8(ascii: "{")) else { return [template] }
      if template == "{sources}" { return sources.isEmpty ? [mainFile] : sources }
      var expanded = ""
      var rest = template[...]
      while let open = rest.firstIndex(of: "{") {
        // String(...) first: `String += Substring` is generic, and its witnesses cost a runtime lookup.
        expanded += String(rest[..<open])
        let afterOpen = rest.index(after: open)
        if let close = rest[afterOpen...].firstIndex(of: "}"), let value = values[String(rest[afterOpen..<close])] {
          expanded += value
          rest = rest[rest.index(after: close)...]
        } else {
          expanded += "{"
          rest = rest[afterOpen...]
        }
      }
      return [expanded + String(rest)]
    }
  }

  /// Identifies the installed toolchain files (path, size, change time and
  /// inode of everything the runner requires), so an upgrade in place
  /// invalidates cached artifacts without starting the toolchain.
  func toolchainFingerprint(of runner: Runner) -> String {
    let key = runner.language + "@" + runner.version
    if let known = memo.fingerprints.withLock({ $0[key] }) { return known }
    let fingerprint = runner.requires.map { path -> String in
      var info = stat()
      guard stat(path, &info) == 0 else { return path + ":missing" }
      return "\(path):\(info.st_size):\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec):\(info.st_ino)"
    }.joined(separator: "|")
    memo.fingerprints.withLock { $0[key] = fingerprint }
    return fingerprint
  }

  func cacheKey(runner: Runner, step: RunnerStep, files: [SourceFile]) -> String {
    var hasher = SHA256()
    for field in [runner.language, runner.version, toolchainFingerprint(of: runner)] + step.argv + step.environment
      + step.artifacts + runner.mounts.map(\.hostPath) + step.mounts.map(\.hostPath)
    {
      hasher.updateField(Data(field.utf8))
    }
    for file in files {
      hasher.updateField(Data(file.name.utf8))
      hasher.updateField(file.contents)
    }
    return hasher.finalize()
  }
}

/// The public top-level type of a Java source, if any: the one javac wants the file named after.
/// An unindented declaration is taken first, as a nested `public enum` is usually indented; a nested
/// type taken for lack of one only renames a file no public type constrains.
func javaPublicClass(in source: String) -> String? {
  let modifiers = #"public\s+(?:final\s+|abstract\s+|strictfp\s+|sealed\s+|non-sealed\s+)*"#
  let kinds = #"(?:class|interface|enum|record|@interface)\s+([A-Za-z_$][A-Za-z0-9_$]*)"#
  for indentation in ["^", #"^\s*"#] {
    guard let expression = try? NSRegularExpression(pattern: "(?m)" + indentation + modifiers + kinds),
      let match = expression.firstMatch(in: source, range: NSRange(source.startIndex..., in: source)),
      let range = Range(match.range(at: 1), in: source)
    else { continue }
    return String(source[range])
  }
  return nil
}

/// Runs a trusted host command (a toolchain's version probe) with a
/// 10-second bound; stdout and stderr together, or nil.
func runHostCommand(_ argv: [String]) -> String? {
  let process = ChildProcess()
  process.executableURL = URL(fileURLWithPath: argv[0])
  process.arguments = Array(argv.dropFirst())
  process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
  let pipe = ProcessLaunch.pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  process.standardInput = FileHandle.nullDevice
  do { try process.run() } catch { return nil }
  let deadline = DispatchTime.now() + .seconds(10)
  let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
  DispatchQueue.global().asyncAfter(deadline: deadline, execute: watchdog)
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  watchdog.cancel()
  return String(decoding: output, as: UTF8.self)
}

/// Where a gated executor's boxes run (`Executor.gated(by:)`): the daemon's run service takes a box
/// slot for each, in line with everyone else's requests. `run` returns once `work` has run, or
/// throws `ExecuteError.notStarted` when it never will.
public protocol RunGate: Sendable {
  func run<Value: Sendable>(_ work: @escaping @Sendable () throws(ExecuteError) -> Value) throws(ExecuteError)
    -> Value
  /// `run` for work that runs `boxCount` boxes at once in its one turn (`Executor.runTogether`), so a
  /// gate that counts runs counts each box.
  func run<Value: Sendable>(boxCount: Int, _ work: @escaping @Sendable () throws(ExecuteError) -> Value)
    throws(ExecuteError) -> Value
}

extension RunGate {
  public func run<Value: Sendable>(boxCount: Int, _ work: @escaping @Sendable () throws(ExecuteError) -> Value)
    throws(ExecuteError) -> Value
  {
    try run(work)
  }
}

/// What every copy of an executor shares: probing a toolchain starts it, so once per process.
private final class ExecutorMemo: Sendable {
  let probedVersions = Mutex<[String: String]>([:])
  let fingerprints = Mutex<[String: String]>([:])
}
