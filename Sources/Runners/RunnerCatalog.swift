import Foundation
import Sandbox

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

  /// Parses one runner file.
  public static func parse(_ data: Data, file: String) throws -> [Runner] {
    let root = try StrictObject(data: data, file: file)
    try root.allowOnly(["language", "display_name", "aliases", "self_test", "versions"])
    let language: String = try root.require("language")
    // ^[a-z][a-z0-9+]*$ by hand: Foundation's regular expressions start ICU's, a tenth of a CLI start.
    let lowercase = UInt8(ascii: "a")...UInt8(ascii: "z")
    let digit = UInt8(ascii: "0")...UInt8(ascii: "9")
    guard let first = language.utf8.first, lowercase.contains(first),
      language.utf8.allSatisfy({ lowercase.contains($0) || digit.contains($0) || $0 == UInt8(ascii: "+") })
    else {
      throw RunnerFileError(file: file, problem: "\"language\" must be lower-case letters and digits")
    }
    let displayName: String = try root.require("display_name")
    let aliases: [String] = try root.optional("aliases") ?? []
    let selfTestObject = try root.object("self_test")
    try selfTestObject.allowOnly(["source", "stdin", "stdout"])
    let selfTest = SelfTest(
      source: try selfTestObject.require("source"), stdin: try selfTestObject.optional("stdin") ?? "",
      stdout: try selfTestObject.require("stdout"))
    let versions = try root.objects("versions")
    guard !versions.isEmpty else { throw RunnerFileError(file: file, problem: "\"versions\" is empty") }
    return try versions.map { version in
      try version.allowOnly([
        "version", "requires", "version_probe", "version_pattern", "install", "source_file", "source_extensions",
        "entry_point", "script", "policy", "mounts", "compile", "run",
      ])
      let sourceFile: String = try version.require("source_file")
      let naming: SourceNaming
      if sourceFile.hasPrefix("java_public_class:") {
        naming = .javaPublicClass(fallback: String(sourceFile.dropFirst("java_public_class:".count)))
      } else {
        guard BoxDirectory.validate(name: sourceFile) == nil else {
          throw RunnerFileError(file: file, problem: "\"source_file\" \(sourceFile) is not a plain file name")
        }
        naming = .fixed(sourceFile)
      }
      let nameParts = sourceFile.split(separator: ".")
      let extensions: [String] =
        try version.optional("source_extensions") ?? (nameParts.count > 1 ? ["." + nameParts.last!] : [])
      for fileExtension in extensions
      where !fileExtension.hasPrefix(".") || fileExtension.count < 2 || fileExtension.contains("/") {
        throw RunnerFileError(
          file: file, problem: "\"source_extensions\" holds \"\(fileExtension)\", not an extension like \".cpp\"")
      }
      let probe: [String] = try version.require("version_probe")
      guard probe.first?.hasPrefix("/") == true else {
        throw RunnerFileError(file: file, problem: "\"version_probe\" must start with an absolute path")
      }
      let pattern: String = try version.require("version_pattern")
      // Swift's own Regex, the engine the probe uses: Foundation's NSRegularExpression leaks the
      // pattern's buffer when it refuses one (LeakSanitizer found it through the fuzz target).
      guard (try? Regex(pattern)) != nil else {
        throw RunnerFileError(file: file, problem: "\"version_pattern\" is not a regular expression")
      }
      return Runner(
        language: language, displayName: displayName, aliases: aliases, version: try version.require("version"),
        requires: try version.require("requires"), versionProbe: probe, versionPattern: pattern,
        installHint: try version.require("install"), sourceNaming: naming, sourceExtensions: extensions,
        entryPoint: try version.optional("entry_point"),
        script: try version.has("script") ? scriptMode(version.object("script"), file: file) : nil,
        policy: try version.optional("policy") ?? "default",
        mounts: try mounts(version.optional("mounts") ?? [], file: file),
        compile: try version.has("compile") ? step(version.object("compile"), file: file, isCompile: true) : nil,
        run: try step(version.object("run"), file: file, isCompile: false), selfTest: selfTest)
    }
  }

  private static func scriptMode(_ object: StrictObject, file: String) throws -> ScriptMode {
    try object.allowOnly(["extension", "alias", "entry_file", "launcher_file", "launcher"])
    let mode = ScriptMode(
      fileExtension: try object.require("extension"), alias: try object.optional("alias"),
      entryFile: try object.require("entry_file"), launcherFile: try object.require("launcher_file"),
      launcherSource: try object.require("launcher"))
    for name in [mode.entryFile, mode.launcherFile] where BoxDirectory.validate(name: name) != nil || name.contains("/")
    {
      throw RunnerFileError(file: file, problem: "\(object.path): \"\(name)\" is not a plain file name")
    }
    return mode
  }

  private static func mounts(_ list: [[String: Any]], file: String) throws -> [ReadOnlyMount] {
    try list.map { entry in
      let object = StrictObject(entry, file: file, path: "mounts")
      try object.allowOnly(["host", "box"])
      let host: String = try object.require("host")
      return ReadOnlyMount(hostPath: host, boxPath: try object.optional("box") ?? host)
    }
  }

  private static let placeholders: Set<String> = ["{source}", "{sources}", "{class}", "{memory_mb}", "{heap_mb}"]

  private static func step(_ object: StrictObject, file: String, isCompile: Bool) throws -> RunnerStep {
    try object.allowOnly(
      isCompile
        ? ["argv", "environment", "limits", "mounts", "artifacts", "error_hints"]
        : ["argv", "environment", "limits", "mounts", "memory_error_patterns"])
    let argv: [String] = try object.require("argv")
    guard argv.first?.hasPrefix("/") == true else {
      throw RunnerFileError(file: file, problem: "\(object.path): \"argv\" must start with an absolute path")
    }
    for argument in argv {
      var rest = Substring(argument)
      while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
        let token = String(rest[open...close])
        guard placeholders.contains(token) else {
          throw RunnerFileError(file: file, problem: "\(object.path): unknown placeholder \(token) in \"\(argument)\"")
        }
        // It stands for several arguments, so it cannot be part of one.
        if token == "{sources}", argument != token {
          throw RunnerFileError(file: file, problem: "\(object.path): {sources} must be an argument of its own")
        }
        rest = rest[rest.index(after: close)...]
      }
    }
    var limits = StepLimits()
    if object.has("limits") {
      let limitsObject = try object.object("limits")
      try limitsObject.allowOnly([
        "cpu_ms", "wall_ms", "memory_mb", "processes", "output_kb", "tmp_mb", "reserve_mb",
      ])
      limits.cpuMilliseconds = try limitsObject.optional("cpu_ms")
      limits.wallMilliseconds = try limitsObject.optional("wall_ms")
      limits.memoryMegabytes = try limitsObject.optional("memory_mb")
      limits.processes = try limitsObject.optional("processes")
      limits.outputKilobytes = try limitsObject.optional("output_kb")
      limits.tmpMegabytes = try limitsObject.optional("tmp_mb")
      limits.reserveMegabytes = try limitsObject.optional("reserve_mb")
      // Checked in the file's own units first: converted to bytes, a huge memory_mb wraps around
      // (2^44 + 1 MiB is 1 MiB in a UInt64) and would pass the byte ceiling as a small limit.
      let ceilings = BoxLimits.ceilings
      let unitCeilings: [(key: String, value: UInt64?, maximum: UInt64)] = [
        ("cpu_ms", limits.cpuMilliseconds, ceilings.cpuTimeMilliseconds),
        ("wall_ms", limits.wallMilliseconds, ceilings.wallTimeMilliseconds),
        ("memory_mb", limits.memoryMegabytes, ceilings.memoryBytes >> 20),
        ("processes", limits.processes, ceilings.processes),
        ("output_kb", limits.outputKilobytes, ceilings.outputBytesPerStream >> 10),
        ("tmp_mb", limits.tmpMegabytes, min(ceilings.tmpBytes, ceilings.workDirectoryBytes) >> 20),
        ("reserve_mb", limits.reserveMegabytes, ceilings.memoryBytes >> 20),
      ]
      for (key, value, maximum) in unitCeilings {
        if let value, value > maximum {
          throw RunnerFileError(
            file: file, problem: "\"\(limitsObject.path).\(key)\" is \(value); the maximum is \(maximum)")
        }
      }
      if let problem = limits.applied(to: BoxLimits()).violation() {
        throw RunnerFileError(file: file, problem: "\(object.path).limits: \(problem)")
      }
    }
    let artifacts: [String] = isCompile ? try object.require("artifacts") : []
    for artifact in artifacts {
      let name = artifact.hasSuffix("/") ? String(artifact.dropLast()) : artifact
      guard BoxDirectory.validate(name: name) == nil else {
        throw RunnerFileError(file: file, problem: "\(object.path): artifact \"\(artifact)\" is not a plain name")
      }
    }
    let hints: [[String: Any]] = isCompile ? try object.optional("error_hints") ?? [] : []
    let errorHints = try hints.map { entry in
      let hint = StrictObject(entry, file: file, path: object.path + ".error_hints")
      try hint.allowOnly(["text", "message"])
      let pair: (text: String, message: String) = (try hint.require("text"), try hint.require("message"))
      return pair
    }
    return RunnerStep(
      argv: argv, environment: try object.optional("environment") ?? [], limits: limits,
      mounts: try mounts(object.optional("mounts") ?? [], file: file), artifacts: artifacts,
      memoryErrorPatterns: try object.optional("memory_error_patterns") ?? [], errorHints: errorHints)
  }
}

/// A JSON object read strictly: every key must be expected, every value of
/// the expected type; errors name the file and the key.
struct StrictObject {
  let values: [String: Any]
  let file: String
  let path: String

  init(data: Data, file: String) throws {
    guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
      throw RunnerFileError(file: file, problem: "not a JSON object")
    }
    self.init(object, file: file, path: "")
  }

  init(_ values: [String: Any], file: String, path: String) {
    self.values = values
    self.file = file
    self.path = path
  }

  private func name(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

  func allowOnly(_ keys: Set<String>) throws {
    if let unknown = Set(values.keys).subtracting(keys).sorted().first {
      throw RunnerFileError(file: file, problem: "unknown key \"\(name(unknown))\"")
    }
  }

  func has(_ key: String) -> Bool { values[key] != nil && !(values[key] is NSNull) }

  func require<T>(_ key: String) throws -> T {
    guard let value = try optional(key) as T? else {
      throw RunnerFileError(file: file, problem: "\"\(name(key))\" is missing")
    }
    return value
  }

  func optional<T>(_ key: String) throws -> T? {
    guard let raw = values[key], !(raw is NSNull) else { return nil }
    if T.self == UInt64.self {
      // JSON `true` arrives as an NSNumber too (objCType "c"), and a number past Int64 as one whose
      // int64Value is 0 or wrapped; neither may pass as a small limit.
      guard let number = raw as? NSNumber, String(cString: number.objCType) != "c",
        case let value = number.doubleValue, value >= 0, value == value.rounded()
      else {
        throw RunnerFileError(file: file, problem: "\"\(name(key))\" must be a whole number")
      }
      // Every limit's ceiling is far below 2^53, where doubles stop holding every whole number.
      guard value <= 0x1p53 else {
        throw RunnerFileError(file: file, problem: "\"\(name(key))\" is too large")
      }
      return (UInt64(value) as! T)
    }
    guard let value = raw as? T else {
      throw RunnerFileError(file: file, problem: "\"\(name(key))\" has the wrong type")
    }
    if let text = value as? String, text.isEmpty {
      throw RunnerFileError(file: file, problem: "\"\(name(key))\" is empty")
    }
    return value
  }

  func object(_ key: String) throws -> StrictObject {
    let values: [String: Any] = try require(key)
    return StrictObject(values, file: file, path: name(key))
  }

  func objects(_ key: String) throws -> [StrictObject] {
    let list: [[String: Any]] = try require(key)
    return list.enumerated().map { StrictObject($0.element, file: file, path: "\(name(key))[\($0.offset)]") }
  }
}
