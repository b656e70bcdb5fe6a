import Foundation
import Sandbox
import Wire

// The language catalog: runners/<language>.json, one file per language, one
// entry per installed version (newest first). Loading is strict: unknown
// keys, missing fields and malformed templates are errors that name the file.

/// A runner file that cannot be used, and why.
public struct RunnerFileError: Error, CustomStringConvertible, Sendable {
  public let file: String
  public let problem: String
  public var description: String { "\(file): \(problem)" }
}

/// Limits a step declares; nil fields keep the sandbox defaults.
public struct StepLimits: Sendable, Equatable {
  public var cpuMilliseconds: UInt64?
  public var wallMilliseconds: UInt64?
  public var memoryMegabytes: UInt64?
  public var processes: UInt64?
  public var outputKilobytes: UInt64?
  public var tmpMegabytes: UInt64?
  /// Writable memory the runtime maps beyond what it uses (`BoxLimits.reservedBytes`).
  public var reserveMegabytes: UInt64?

  public init() {}

  /// These limits laid over `base`.
  public func applied(to base: BoxLimits) -> BoxLimits {
    var limits = base
    if let cpuMilliseconds { limits.cpuTimeMilliseconds = cpuMilliseconds }
    if let wallMilliseconds { limits.wallTimeMilliseconds = wallMilliseconds }
    if let memoryMegabytes { limits.memoryBytes = memoryMegabytes << 20 }
    if let processes { limits.processes = processes }
    if let outputKilobytes { limits.outputBytesPerStream = outputKilobytes << 10 }
    if let tmpMegabytes {
      limits.tmpBytes = tmpMegabytes << 20
      limits.workDirectoryBytes = tmpMegabytes << 20
    }
    if let reserveMegabytes { limits.reservedBytes = reserveMegabytes << 20 }
    return limits
  }
}

extension Runner {
  /// The run step's box limits: the sandbox's defaults, the runner's own over them, and `asked` (a
  /// request's, a challenge's) over those. The one place these layers are laid; the API reads the
  /// runner's defaults from it to lower them to its maxima.
  public func runLimits(_ asked: StepLimits = StepLimits()) -> BoxLimits {
    asked.applied(to: run.limits.applied(to: BoxLimits()))
  }
}

/// One step (compile or run) of a runner.
public struct RunnerStep: Sendable {
  /// argv with placeholders: {source} {sources} {class} {memory_mb} {heap_mb}.
  public var argv: [String]
  public var environment: [String]
  public var limits: StepLimits
  public var mounts: [ReadOnlyMount]
  /// Compile only: what the compile leaves for the run ("main", or "out/"
  /// for a whole directory).
  public var artifacts: [String]
  /// Run only: stderr texts that mean the runtime ran out of its memory
  /// budget (the JVM's OutOfMemoryError, V8's heap limit, ...).
  public var memoryErrorPatterns: [String]
  /// Compile only: compiler texts with the plain words a learner gets for them (no entry point,
  /// or more than one), in place of "see the compiler's messages".
  public var errorHints: [(text: String, message: String)] = []
}

/// How the main source file is named.
public enum SourceNaming: Sendable, Equatable {
  /// Always this name ("main.py").
  case fixed(String)
  /// Java: "<public class>.java", or the fallback when there is no public class.
  case javaPublicClass(fallback: String)
}

/// How a language's scripts run (Kotlin's `.kts`): a script compiles to a class whose constructor
/// runs its body, so a launcher file that the runner supplies is compiled beside it and started.
public struct ScriptMode: Sendable, Equatable {
  /// The entry file is a script when it ends with this (".kts")...
  public var fileExtension: String
  /// ...or when the request named the language by this alias ("kts").
  public var alias: String?
  /// The script's name in the box, which names its class ("main.kts" compiles to `Main`).
  public var entryFile: String
  public var launcherFile: String
  public var launcherSource: String
}

/// One installed (or installable) version of a language.
public struct Runner: Sendable {
  public var language: String
  public var displayName: String
  public var aliases: [String]
  public var version: String
  public var requires: [String]
  public var versionProbe: [String]
  public var versionPattern: String
  public var installHint: String
  public var sourceNaming: SourceNaming
  /// The extensions of the files the compile step takes (`{sources}`: every such file, the entry
  /// file first); an entry file with one of them keeps the learner's name.
  public var sourceExtensions: [String]
  /// What a JVM entry point looks like in this language, for the message when there is none or
  /// more than one ("public static void main(String[] args)").
  public var entryPoint: String?
  public var script: ScriptMode?
  public var policy: String
  public var mounts: [ReadOnlyMount]
  public var compile: RunnerStep?
  public var run: RunnerStep
  public var selfTest: SelfTest
  /// The language standards a caller may choose by `version` ("c++20"), the default first; its
  /// compile command names the chosen one as gcc does (`-std=gnu++20`). Empty: the runner takes
  /// no standard and no compiler options (`CompilerOptions`).
  public var standards: [String] = []

  /// Which of `requires` is missing, if any.
  public var missingRequirement: String? {
    requires.first { !FileManager.default.isExecutableFile(atPath: $0) && !FileManager.default.fileExists(atPath: $0) }
  }

  public var isAvailable: Bool { missingRequirement == nil }
}

public struct SelfTest: Sendable {
  public var source: String
  public var stdin: String
  public var stdout: String
}

/// All runners, by language, newest version first.
public struct RunnerCatalog: Sendable {
  public let languages: [String: [Runner]]

  public init(languages: [String: [Runner]]) { self.languages = languages }

  public var names: [String] { languages.keys.sorted() }

  /// Finds a language by name or alias, case-insensitively.
  public func language(named name: String) -> [Runner]? {
    let wanted = name.lowercased()
    if let runners = languages[wanted] { return runners }
    return languages.values.first { runners in runners.first?.aliases.contains(wanted) == true }
  }

  public static func load(directory: String) throws -> RunnerCatalog {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.filter { $0.hasSuffix(".json") }
      .sorted()
    guard let names, !names.isEmpty else {
      throw RunnerFileError(file: directory, problem: "no runner files (*.json) found")
    }
    var languages: [String: [Runner]] = [:]
    var aliases: [String: String] = [:]
    for name in names {
      let path = directory + "/" + name
      guard let data = FileManager.default.contents(atPath: path) else {
        throw RunnerFileError(file: path, problem: "cannot be read")
      }
      let runners = try parse(data, file: path)
      let language = runners[0].language
      guard name == language + ".json" else {
        throw RunnerFileError(file: path, problem: "a runner for \"\(language)\" must be in \(language).json")
      }
      for alias in [language] + runners[0].aliases {
        if let other = aliases[alias] {
          throw RunnerFileError(file: path, problem: "\"\(alias)\" already names \(other)")
        }
        aliases[alias] = language
      }
      languages[language] = runners
    }
    return RunnerCatalog(languages: languages)
  }

  /// The keys of a runner file, its versions, and their parts.
  private static let fileKeys = ["language", "display_name", "aliases", "self_test", "versions"]
  private static let versionKeys = [
    "version", "requires", "version_probe", "version_pattern", "install", "source_file", "source_extensions",
    "entry_point", "script", "policy", "mounts", "compile", "run", "standards",
  ]
  private static let compileKeys = ["argv", "environment", "limits", "mounts", "artifacts", "error_hints"]
  private static let runKeys = ["argv", "environment", "limits", "mounts", "memory_error_patterns"]
  private static let limitKeys = ["cpu_ms", "wall_ms", "memory_mb", "processes", "output_kb", "tmp_mb", "reserve_mb"]

  /// Parses one runner file through the strict reader (`Wire.StrictReader`): every problem of the
  /// file is collected, each with its path, into one `RunnerFileError`. A null is the same as
  /// leaving the key out, as in the other files an operator writes.
  public static func parse(_ data: Data, file: String) throws -> [Runner] {
    let reader = StrictReader(nulls: .absent)
    var runners: [Runner]?
    if let value = reader.parse(data), let root = reader.object(value, at: "", keys: fileKeys) {
      runners = read(root)
    }
    guard let runners, reader.isClean else {
      let problems = reader.problems.isEmpty ? ["not readable"] : reader.problems.map(\.description)
      throw RunnerFileError(file: file, problem: problems.joined(separator: "; "))
    }
    return runners
  }

  private static func read(_ root: StrictObject) -> [Runner]? {
    let reader = root.reader
    let language = root.string("language", required: true, nonEmpty: true)
    // ^[a-z][a-z0-9+]*$ by hand: Foundation's regular expressions start ICU's, a tenth of a CLI start.
    let lowercase = UInt8(ascii: "a")...UInt8(ascii: "z")
    let digit = UInt8(ascii: "0")...UInt8(ascii: "9")
    if let language, let first = language.utf8.first,
      !lowercase.contains(first)
        || !language.utf8.allSatisfy({ lowercase.contains($0) || digit.contains($0) || $0 == UInt8(ascii: "+") })
    {
      reader.report(root.path("language"), "must be lower-case letters and digits")
    }
    let displayName = root.string("display_name", required: true, nonEmpty: true)
    let aliases = root.strings("aliases") ?? []
    let selfTestObject = root.object("self_test", keys: ["source", "stdin", "stdout"], required: true)
    let selfTest = selfTestObject.flatMap { object in
      both(object.string("source", required: true, nonEmpty: true), object.string("stdout", required: true))
        .map { SelfTest(source: $0, stdin: object.string("stdin") ?? "", stdout: $1) }
    }
    let versions = root.objects("versions", keys: versionKeys, required: true)
    if versions?.isEmpty == true { reader.report(root.path("versions"), "is empty") }
    let runners = (versions ?? []).compactMap { version -> Runner? in
      guard let language, let displayName, let selfTest else { return nil }
      return readVersion(version, language: language, displayName: displayName, aliases: aliases, selfTest: selfTest)
    }
    guard reader.isClean, let versions, runners.count == versions.count, !runners.isEmpty else { return nil }
    return runners
  }

  private static func readVersion(
    _ version: StrictObject, language: String, displayName: String, aliases: [String], selfTest: SelfTest
  ) -> Runner? {
    let reader = version.reader
    let before = reader.problems.count
    let sourceFile = version.string("source_file", required: true, nonEmpty: true)
    var naming: SourceNaming?
    if let sourceFile {
      if sourceFile.hasPrefix("java_public_class:") {
        naming = .javaPublicClass(fallback: String(sourceFile.dropFirst("java_public_class:".count)))
      } else if BoxDirectory.validate(name: sourceFile) == nil {
        naming = .fixed(sourceFile)
      } else {
        reader.report(version.path("source_file"), "\(sourceFile) is not a plain file name")
      }
    }
    let nameParts = (sourceFile ?? "").split(separator: ".")
    let extensions =
      version.strings("source_extensions") ?? (nameParts.count > 1 ? ["." + String(nameParts.last!)] : [])
    for fileExtension in extensions
    where !fileExtension.hasPrefix(".") || fileExtension.count < 2 || fileExtension.contains("/") {
      reader.report(
        version.path("source_extensions"), "holds \"\(fileExtension)\", not an extension like \".cpp\"")
    }
    let probe = version.strings("version_probe", required: true)
    if let probe, probe.first?.hasPrefix("/") != true {
      reader.report(version.path("version_probe"), "must start with an absolute path")
    }
    let pattern = version.string("version_pattern", required: true, nonEmpty: true)
    // Swift's own Regex, the engine the probe uses: Foundation's NSRegularExpression leaks the
    // pattern's buffer when it refuses one (LeakSanitizer found it through the fuzz target).
    if let pattern, !isPlainRegularExpression(pattern), (try? Regex(pattern)) == nil {
      reader.report(version.path("version_pattern"), "is not a regular expression")
    }
    let number = version.string("version", required: true, nonEmpty: true)
    let requires = version.strings("requires", required: true)
    let install = version.string("install", required: true, nonEmpty: true)
    let entryPoint = version.string("entry_point", nonEmpty: true)
    let script = version.object("script", keys: ["extension", "alias", "entry_file", "launcher_file", "launcher"])
      .flatMap(scriptMode)
    let policy = version.string("policy", nonEmpty: true) ?? "default"
    let mounts = readMounts(version)
    let compile = version.object("compile", keys: compileKeys).flatMap { readStep($0, isCompile: true) }
    let run = version.object("run", keys: runKeys, required: true).flatMap { readStep($0, isCompile: false) }
    let standards = version.strings("standards") ?? []
    if let first = standards.first {
      let flag = CompilerOptions.standardFlag(first)
      if !CompilerOptions.standards.contains(first) {
        reader.report(version.path("standards"), "\"\(first)\" is not a gcc standard this server knows")
      } else if compile?.argv.contains(flag) != true {
        reader.report(version.path("standards"), "the first is the default: the compile argv must hold \(flag)")
      }
      for name in standards.dropFirst() where !CompilerOptions.standards.contains(name) {
        reader.report(version.path("standards"), "\"\(name)\" is not a gcc standard this server knows")
      }
    }
    guard reader.problems.count == before, let naming, let probe, let pattern, let number, let requires,
      let install, let run
    else { return nil }
    return Runner(
      language: language, displayName: displayName, aliases: aliases, version: number, requires: requires,
      versionProbe: probe, versionPattern: pattern, installHint: install, sourceNaming: naming,
      sourceExtensions: extensions, entryPoint: entryPoint, script: script, policy: policy, mounts: mounts,
      compile: compile, run: run, selfTest: selfTest, standards: standards)
  }

  private static func scriptMode(_ object: StrictObject) -> ScriptMode? {
    let fileExtension = object.string("extension", required: true, nonEmpty: true)
    let alias = object.string("alias", nonEmpty: true)
    let entryFile = object.string("entry_file", required: true, nonEmpty: true)
    let launcherFile = object.string("launcher_file", required: true, nonEmpty: true)
    let launcher = object.string("launcher", required: true, nonEmpty: true)
    var plain = true
    for (key, name) in [("entry_file", entryFile), ("launcher_file", launcherFile)] {
      if let name, BoxDirectory.validate(name: name) != nil || name.contains("/") {
        object.reader.report(object.path(key), "\"\(name)\" is not a plain file name")
        plain = false
      }
    }
    guard plain, let fileExtension, let entryFile, let launcherFile, let launcher else { return nil }
    return ScriptMode(
      fileExtension: fileExtension, alias: alias, entryFile: entryFile, launcherFile: launcherFile,
      launcherSource: launcher)
  }

  private static func readMounts(_ object: StrictObject) -> [ReadOnlyMount] {
    (object.objects("mounts", keys: ["host", "box"]) ?? []).compactMap { entry in
      guard let host = entry.string("host", required: true, nonEmpty: true) else { return nil }
      return ReadOnlyMount(hostPath: host, boxPath: entry.string("box", nonEmpty: true) ?? host)
    }
  }

  private static let placeholders: Set<String> = ["{source}", "{sources}", "{class}", "{memory_mb}", "{heap_mb}"]

  private static func readStep(_ object: StrictObject, isCompile: Bool) -> RunnerStep? {
    let reader = object.reader
    let before = reader.problems.count
    let argv = object.strings("argv", required: true)
    if let argv, argv.first?.hasPrefix("/") != true {
      reader.report(object.path("argv"), "must start with an absolute path")
    }
    for argument in argv ?? [] {
      var rest = Substring(argument)
      while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
        let token = String(rest[open...close])
        if !placeholders.contains(token) {
          reader.report(object.path("argv"), "unknown placeholder \(token) in \"\(argument)\"")
        } else if token == "{sources}", argument != token {
          // It stands for several arguments, so it cannot be part of one.
          reader.report(object.path("argv"), "{sources} must be an argument of its own")
        }
        rest = rest[rest.index(after: close)...]
      }
    }
    let limits = object.object("limits", keys: limitKeys).map(readLimits) ?? StepLimits()
    let artifacts = isCompile ? object.strings("artifacts", required: true) ?? [] : []
    for artifact in artifacts {
      let name = artifact.hasSuffix("/") ? String(artifact.dropLast()) : artifact
      if BoxDirectory.validate(name: name) != nil {
        reader.report(object.path("artifacts"), "\"\(artifact)\" is not a plain name")
      }
    }
    let hints = isCompile ? object.objects("error_hints", keys: ["text", "message"]) ?? [] : []
    let errorHints = hints.compactMap { hint -> (text: String, message: String)? in
      both(hint.string("text", required: true, nonEmpty: true), hint.string("message", required: true, nonEmpty: true))
        .map { (text: $0, message: $1) }
    }
    let environment = object.strings("environment") ?? []
    let mounts = readMounts(object)
    let memoryErrorPatterns = object.strings("memory_error_patterns") ?? []
    guard reader.problems.count == before, let argv else { return nil }
    return RunnerStep(
      argv: argv, environment: environment, limits: limits, mounts: mounts, artifacts: artifacts,
      memoryErrorPatterns: memoryErrorPatterns, errorHints: errorHints)
  }

  /// A step's limits, each checked in the file's own unit against the sandbox's ceiling first:
  /// converted to bytes, a huge memory_mb wraps around (2^44 + 1 MiB is 1 MiB in a UInt64) and would
  /// pass the byte ceiling as a small limit.
  private static func readLimits(_ object: StrictObject) -> StepLimits {
    let ceilings = BoxLimits.ceilings
    func limit(_ key: String, maximum: UInt64) -> UInt64? {
      object.integer(key, as: UInt64.self, in: 0...maximum)
    }
    var limits = StepLimits()
    limits.cpuMilliseconds = limit("cpu_ms", maximum: ceilings.cpuTimeMilliseconds)
    limits.wallMilliseconds = limit("wall_ms", maximum: ceilings.wallTimeMilliseconds)
    limits.memoryMegabytes = limit("memory_mb", maximum: ceilings.memoryBytes >> 20)
    limits.processes = limit("processes", maximum: ceilings.processes)
    limits.outputKilobytes = limit("output_kb", maximum: ceilings.outputBytesPerStream >> 10)
    limits.tmpMegabytes = limit("tmp_mb", maximum: min(ceilings.tmpBytes, ceilings.workDirectoryBytes) >> 20)
    limits.reserveMegabytes = limit("reserve_mb", maximum: ceilings.memoryBytes >> 20)
    if let problem = limits.applied(to: BoxLimits()).violation() { object.reader.report(object.path, problem) }
    return limits
  }
}

/// Both values, when both are there.
private func both<A, B>(_ first: A?, _ second: B?) -> (A, B)? {
  guard let first, let second else { return nil }
  return (first, second)
}

/// Whether `pattern` is plainly a regular expression Swift's `Regex` compiles: literal characters,
/// escaped punctuation, `.`, groups, bracket classes of single characters and ranges, and the
/// quantifiers `+`, `*` and `?`, nothing else. Runner files hold such patterns
/// (`Python ([0-9.]+)`); compiling one with `Regex` was a third of a millisecond of every start
/// that loads a runner, for a pattern only a version probe uses. False is no verdict: the caller
/// compiles the pattern to decide.
func isPlainRegularExpression(_ pattern: String) -> Bool {
  let bytes = Array(pattern.utf8)
  let metacharacters = Set(#"\()[]{}|^$.*+?"#.utf8)
  func isLiteral(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F && !metacharacters.contains(byte) }
  func isAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }
  var index = 0
  var depth = 0
  var canRepeat = false
  while index < bytes.count {
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\\"):
      guard index < bytes.count, metacharacters.contains(bytes[index]) else { return false }
      index += 1
      canRepeat = true
    case UInt8(ascii: "("):
      // "(?" opens the extended syntax: left to Regex.
      if index < bytes.count, bytes[index] == UInt8(ascii: "?") { return false }
      depth += 1
      canRepeat = false
    case UInt8(ascii: ")"):
      guard depth > 0 else { return false }
      depth -= 1
      canRepeat = true
    case UInt8(ascii: "["):
      var members = 0
      while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
        let member = bytes[index]
        if isAlphanumeric(member), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "-"),
          bytes[index + 2] != UInt8(ascii: "]")
        {
          guard isAlphanumeric(bytes[index + 2]), member <= bytes[index + 2] else { return false }
          index += 3
        } else if member == UInt8(ascii: "-") {
          // Only last, where it is itself.
          guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "]"), members > 0 else { return false }
          index += 1
        } else {
          // `.` is itself here; `&&`, `~~`, `[:` and `[=` are set operations and classes in
          // Swift's syntax: left to Regex.
          guard member == UInt8(ascii: ".") || isLiteral(member), !Array("-&~:=".utf8).contains(member)
          else { return false }
          index += 1
        }
        members += 1
      }
      guard index < bytes.count, members > 0 else { return false }
      index += 1
      canRepeat = true
    case UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "?"):
      guard canRepeat else { return false }
      canRepeat = false
    case UInt8(ascii: "."):
      canRepeat = true
    default:
      guard isLiteral(byte) else { return false }
      canRepeat = true
    }
  }
  return depth == 0
}
