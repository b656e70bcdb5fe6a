import Foundation
import Runners
import Sandbox
import Wire

// Piston v2's wire model (docs/compat.md, "Piston v2"): its runtime names and versions, node-semver
// ranges, its request fields with the leniency its real clients need, its 400 words, and its result
// shape. Pure: PistonRoutes.swift and PistonConnect.swift do the serving.

/// A plain X.Y.Z version, as Piston's runtimes have them.
struct PistonVersion: Comparable, Sendable, CustomStringConvertible {
  var major: Int
  var minor: Int
  var patch: Int

  /// The leading numbers of a toolchain's version ("2.3.10-RC-release-444" -> 2.3.10, "1.27" -> 1.27.0).
  /// A prerelease suffix is dropped: Piston's `*` never matches a prerelease, and a client asking
  /// for `*` must get the toolchain we run.
  init?(toolchain text: String) {
    var numbers: [Int] = []
    var current = ""
    for character in text {
      if character.isASCII, character.isNumber {
        current.append(character)
      } else if character == ".", !current.isEmpty, numbers.count < 2 {
        numbers.append(Int(current) ?? 0)
        current = ""
      } else {
        break
      }
    }
    if !current.isEmpty { numbers.append(Int(current) ?? 0) }
    guard !numbers.isEmpty else { return nil }
    while numbers.count < 3 { numbers.append(0) }
    (major, minor, patch) = (numbers[0], numbers[1], numbers[2])
  }

  init(_ major: Int, _ minor: Int, _ patch: Int) {
    (self.major, self.minor, self.patch) = (major, minor, patch)
  }

  var description: String { "\(major).\(minor).\(patch)" }

  static func < (left: PistonVersion, right: PistonVersion) -> Bool {
    (left.major, left.minor, left.patch) < (right.major, right.minor, right.patch)
  }
}

/// A node-semver range (`*`, `3`, `3.x`, `3.11.2`, `^3.10`, `~1.2`, `>=1.2 <2`, `1 - 2`, `a || b`),
/// as `semver.satisfies` reads it for plain versions. A range it cannot read matches nothing, as
/// in node-semver, so Piston's "runtime is unknown" follows.
struct PistonRange: Sendable {
  private struct Comparator {
    enum Operator { case less, lessOrEqual, greater, greaterOrEqual, equal }
    var op: Operator
    var version: PistonVersion

    func admits(_ candidate: PistonVersion) -> Bool {
      switch op {
      case .less: return candidate < version
      case .lessOrEqual: return candidate <= version
      case .greater: return candidate > version
      case .greaterOrEqual: return candidate >= version
      case .equal: return candidate == version
      }
    }
  }

  /// Alternatives (`||`), each a conjunction of comparators; nil when the range is not valid.
  private let alternatives: [[Comparator]]?

  init(_ text: String) {
    var alternatives: [[Comparator]] = []
    for part in text.components(separatedBy: "||") {
      guard let set = Self.comparatorSet(part.trimmingCharacters(in: .whitespaces)) else {
        self.alternatives = nil
        return
      }
      alternatives.append(set)
    }
    self.alternatives = alternatives
  }

  func admits(_ version: PistonVersion) -> Bool {
    alternatives?.contains { $0.allSatisfy { $0.admits(version) } } ?? false
  }

  /// A partial version: its numbers, nil where it stops or says x/X/*.
  private static func partial(_ text: String) -> [Int?]? {
    var text = Substring(text)
    if text.hasPrefix("v") || text.hasPrefix("=") { text = text.dropFirst() }
    if text.isEmpty { return [] }
    let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
    guard pieces.count <= 3 else { return nil }
    var numbers: [Int?] = []
    for piece in pieces {
      if piece == "x" || piece == "X" || piece == "*" {
        numbers.append(nil)
      } else if let number = Int(piece), number >= 0, piece.allSatisfy(\.isASCII) {
        // A wildcard stops the version: "1.x.3" is "1.x".
        if numbers.contains(where: { $0 == nil }) { continue }
        numbers.append(number)
      } else {
        return nil
      }
    }
    while let last = numbers.last, last == nil { numbers.removeLast() }
    return numbers.contains(where: { $0 == nil }) ? nil : numbers
  }

  private static func version(_ numbers: [Int?]) -> PistonVersion {
    PistonVersion(
      numbers.count > 0 ? numbers[0]! : 0, numbers.count > 1 ? numbers[1]! : 0, numbers.count > 2 ? numbers[2]! : 0)
  }

  /// The smallest version above every version that `numbers` (a partial) covers.
  private static func upper(_ numbers: [Int?]) -> PistonVersion {
    let values = numbers.map { $0! }
    switch values.count {
    case 1: return PistonVersion(values[0] + 1, 0, 0)
    case 2: return PistonVersion(values[0], values[1] + 1, 0)
    default: return PistonVersion(values[0], values[1], values[2] + 1)
    }
  }

  private static func comparatorSet(_ text: String) -> [Comparator]? {
    if text.isEmpty { return [] }
    // A hyphen range: "1.2 - 2.3" is >=1.2.0 <2.4.0.
    let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    if words.count == 3, words[1] == "-" {
      guard let low = partial(words[0]), let high = partial(words[2]) else { return nil }
      var set = [Comparator(op: .greaterOrEqual, version: version(low))]
      if high.count == 3 {
        set.append(Comparator(op: .lessOrEqual, version: version(high)))
      } else if !high.isEmpty {
        set.append(Comparator(op: .less, version: upper(high)))
      }
      return set
    }
    var set: [Comparator] = []
    var pendingOperator: String?
    for word in words {
      var rest = Substring(word)
      var op = ""
      for candidate in [">=", "<=", ">", "<", "=", "^", "~>", "~"] where rest.hasPrefix(candidate) {
        op = candidate
        rest = rest.dropFirst(candidate.count)
        break
      }
      if rest.isEmpty {
        // An operator standing alone ("> 1.2") applies to the next word.
        guard !op.isEmpty, pendingOperator == nil else { return nil }
        pendingOperator = op
        continue
      }
      if let pending = pendingOperator {
        guard op.isEmpty else { return nil }
        op = pending
        pendingOperator = nil
      }
      guard let numbers = partial(String(rest)), let comparators = comparators(op, numbers) else { return nil }
      set += comparators
    }
    return pendingOperator == nil ? set : nil
  }

  private static func comparators(_ op: String, _ numbers: [Int?]) -> [Comparator]? {
    let low = version(numbers)
    let any = numbers.isEmpty
    switch op {
    case "", "=":
      if any { return [] }
      if numbers.count == 3 { return [Comparator(op: .equal, version: low)] }
      return [Comparator(op: .greaterOrEqual, version: low), Comparator(op: .less, version: upper(numbers))]
    case ">=":
      return any ? [] : [Comparator(op: .greaterOrEqual, version: low)]
    case ">":
      if any { return [Comparator(op: .less, version: PistonVersion(0, 0, 0))] }
      return numbers.count == 3
        ? [Comparator(op: .greater, version: low)] : [Comparator(op: .greaterOrEqual, version: upper(numbers))]
    case "<":
      return any ? [Comparator(op: .less, version: PistonVersion(0, 0, 0))] : [Comparator(op: .less, version: low)]
    case "<=":
      if any { return [] }
      return numbers.count == 3
        ? [Comparator(op: .lessOrEqual, version: low)] : [Comparator(op: .less, version: upper(numbers))]
    case "~", "~>":
      if any { return [] }
      let ceiling = numbers.count == 1 ? PistonVersion(low.major + 1, 0, 0) : PistonVersion(low.major, low.minor + 1, 0)
      return [Comparator(op: .greaterOrEqual, version: low), Comparator(op: .less, version: ceiling)]
    case "^":
      if any { return [] }
      let ceiling: PistonVersion
      if low.major > 0 || numbers.count == 1 {
        ceiling = PistonVersion(low.major + 1, 0, 0)
      } else if low.minor > 0 || numbers.count == 2 {
        ceiling = PistonVersion(0, low.minor + 1, 0)
      } else {
        ceiling = PistonVersion(0, 0, low.patch + 1)
      }
      return [Comparator(op: .greaterOrEqual, version: low), Comparator(op: .less, version: ceiling)]
    default:
      return nil
    }
  }
}

/// One entry of `GET /api/v2/runtimes`: one of our runners under Piston's name.
struct PistonRuntime: Sendable {
  var language: String
  var version: PistonVersion
  var aliases: [String]
  /// Piston's package for multi-language runtimes (node, gcc).
  var runtime: String?
  var runner: Runner

  /// Piston's names (`packages/*/metadata.json`) for our languages; our own aliases are added.
  static let names: [String: (language: String, aliases: [String], runtime: String?)] = [
    "python": ("python", ["py", "py3", "python3"], nil),
    "javascript": ("javascript", ["node-javascript", "node-js", "javascript", "js"], "node"),
    "java": ("java", [], nil),
    "c": ("c", ["gcc"], "gcc"),
    "cpp": ("c++", ["cpp", "g++"], "gcc"),
    "kotlin": ("kotlin", ["kt"], nil),
    "go": ("go", ["go", "golang"], nil),
    "dart": ("dart", [], nil),
  ]

  /// The installed runners under Piston's names, newest version first within a language.
  static func list(_ service: RunService) -> [PistonRuntime] {
    var runtimes: [PistonRuntime] = []
    for name in service.catalog.names {
      for runner in service.catalog.languages[name] ?? [] where runner.isAvailable {
        let probed = service.probesVersions ? service.probedVersion(of: runner) : runner.version
        guard let version = PistonVersion(toolchain: probed) ?? PistonVersion(toolchain: runner.version) else {
          continue
        }
        let piston = names[runner.language] ?? (runner.language, [], nil)
        var aliases = piston.aliases
        if runner.language == "python" { aliases.append("python\(version.major).\(version.minor)") }
        for alias in [runner.language] + runner.aliases where alias != piston.language && !aliases.contains(alias) {
          aliases.append(alias)
        }
        runtimes.append(
          PistonRuntime(
            language: piston.language, version: version, aliases: aliases, runtime: piston.runtime, runner: runner))
      }
    }
    return runtimes
  }

  /// `runtime.get_latest_runtime_matching_language_version`: by name or alias, the newest version
  /// the range admits.
  static func matching(_ runtimes: [PistonRuntime], language: String, version: String) -> PistonRuntime? {
    let range = PistonRange(version)
    return
      runtimes
      .filter { ($0.language == language || $0.aliases.contains(language)) && range.admits($0.version) }
      .max { $0.version < $1.version }
  }

  var listing: JSONValue {
    var object: [String: JSONValue] = [
      "language": .string(language), "version": .string(version.description),
      "aliases": .array(aliases.map(JSONValue.string)),
    ]
    if let runtime { object["runtime"] = .string(runtime) }
    return .object(object)
  }
}

/// A 400 in Piston's shape: exactly `{"message"}`.
struct PistonError: Error, Equatable {
  var message: String
  init(_ message: String) { self.message = message }
}

/// The body of `POST /api/v2/execute` (and the WebSocket's `init`), read as Piston's `get_job`
/// reads it: unknown keys ignored, the checks in its order, its words.
struct PistonJob: Sendable {
  var runtime: PistonRuntime
  var files: [SourceFile]
  var stdin: String
  var args: [String]
  var runLimits: StepLimits

  /// Piston's file encodings; any other (or none) is utf8, as in `job.js`.
  static let encodings = ["utf8", "base64", "hex"]

  /// The request as JSON values. `fields` is a JSON object's members or a form's (each value a
  /// string, `args` possibly several).
  static func read(
    _ fields: [String: JSONValue], runtimes: [PistonRuntime], maxima: LimitMaxima
  ) throws(PistonError) -> PistonJob {
    guard case .string(let language)? = fields["language"], !language.isEmpty else {
      throw PistonError("language is required as a string")
    }
    guard case .string(let version)? = fields["version"], !version.isEmpty else {
      throw PistonError("version is required as a string")
    }
    guard case .array(let files)? = fields["files"] else { throw PistonError("files is required as an array") }
    var contents: [(name: String, content: String, encoding: String)] = []
    for (index, file) in files.enumerated() {
      guard case .object(let members) = file, case .string(let content)? = members["content"] else {
        throw PistonError("files[\(index)].content is required as a string")
      }
      var name = ""
      if case .string(let given)? = members["name"] { name = given }
      var encoding = "utf8"
      if case .string(let given)? = members["encoding"], encodings.contains(given) { encoding = given }
      contents.append((name.isEmpty ? "file\(index).code" : name, content, encoding))
    }
    guard let runtime = PistonRuntime.matching(runtimes, language: language, version: version) else {
      throw PistonError("\(language)-\(version) runtime is unknown")
    }
    guard contents.contains(where: { $0.encoding == "utf8" }) else {
      throw PistonError("files must include at least one utf8 encoded file")
    }
    let runLimits = try limits(fields, runtime: runtime, maxima: maxima)
    // The first utf8 file is the entry (job.js runs code_files[0]); a later file of the same name
    // replaces the earlier one's content, as Piston's writes in order do.

    var decoded: [(name: String, data: Data)] = []
    for (index, file) in contents.enumerated() {
      switch file.encoding {
      case "base64":
        guard let data = Data(base64Encoded: file.content, options: .ignoreUnknownCharacters) else {
          throw PistonError("files[\(index)].content is not valid base64")
        }
        decoded.append((file.name, data))
      case "hex":
        guard let data = hexBytes(file.content) else { throw PistonError("files[\(index)].content is not valid hex") }
        decoded.append((file.name, data))
      default:
        decoded.append((file.name, Data(file.content.utf8)))
      }
    }
    let entry = contents.first { $0.encoding == "utf8" }!.name
    var ordered: [SourceFile] = []
    for name in [entry] + decoded.map(\.name) where !ordered.contains(where: { $0.name == name }) {
      ordered.append(SourceFile(name: name, contents: decoded.last { $0.name == name }!.data))
    }
    var stdin = ""
    if case .string(let given)? = fields["stdin"] { stdin = given }
    if !stdin.hasSuffix("\n") { stdin += "\n" }
    var args: [String] = []
    if case .array(let given)? = fields["args"] {
      args = given.compactMap { value -> String? in
        switch value {
        case .string(let text): return text
        case .number(let number): return JSONValue.format(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: return nil
        }
      }
    }
    return PistonJob(runtime: runtime, files: ordered, stdin: stdin, args: args, runLimits: runLimits)
  }

  /// The run service's request: the runner Piston's name resolved to, the limits as v2.js chose them.
  func runAsk() -> RunAsk {
    var ask = RunAsk(language: runtime.runner.language, version: runtime.runner.version, files: files)
    ask.stdin = Data(stdin.utf8)
    ask.arguments = args
    ask.limits = AskedLimits(runLimits)
    return ask
  }

  /// Lowercase or uppercase hex digit pairs.
  static func hexBytes(_ text: String) -> Data? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes = Data(capacity: digits.count / 2)
    func value(_ digit: UInt8) -> UInt8? {
      switch digit {
      case 0x30...0x39: return digit - 0x30
      case 0x41...0x46: return digit - 0x41 + 10
      case 0x61...0x66: return digit - 0x61 + 10
      default: return nil
      }
    }
    var index = 0
    while index < digits.count {
      guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  /// The configured limit of each of Piston's six, in its units (ms, bytes): the run's are the
  /// server's maxima; the compile's are the runner's compile step's (which every compile gets).
  static func configuredLimits(runtime: PistonRuntime, maxima: LimitMaxima) -> [String: UInt64] {
    let compile = runtime.runner.compile.map { $0.limits.applied(to: BoxLimits()) }
    return [
      "run_timeout": maxima.wallMilliseconds, "run_cpu_time": maxima.cpuMilliseconds,
      "run_memory_limit": maxima.memoryMegabytes << 20,
      "compile_timeout": compile?.wallTimeMilliseconds ?? maxima.wallMilliseconds,
      "compile_cpu_time": compile?.cpuTimeMilliseconds ?? maxima.cpuMilliseconds,
      "compile_memory_limit": compile?.memoryBytes ?? (maxima.memoryMegabytes << 20),
    ]
  }

  /// v2.js's limit checks, in its order (memory_limit, timeout, cpu_time; compile before run):
  /// absent or 0 is the default; -1 is the configured limit (Piston's "no limit"); the run's limits
  /// become the run step's.
  static func limits(
    _ fields: [String: JSONValue], runtime: PistonRuntime, maxima: LimitMaxima
  ) throws(PistonError) -> StepLimits {
    let configured = configuredLimits(runtime: runtime, maxima: maxima)
    var chosen: [String: UInt64] = [:]
    for constraint in ["memory_limit", "timeout", "cpu_time"] {
      for type in ["compile", "run"] {
        let name = "\(type)_\(constraint)"
        guard let value = fields[name], value != .null, value != .bool(false), value != .number(0),
          value != .string("")
        else { continue }
        guard case .number(let number) = value else { throw PistonError("If specified, \(name) must be a number") }
        let limit = configured[name]!
        if number == -1 {
          chosen[name] = limit
          continue
        }
        if number > Double(limit) { throw PistonError("\(name) cannot exceed the configured limit of \(limit)") }
        if number < 0 { throw PistonError("\(name) must be non-negative") }
        chosen[name] = UInt64(number.rounded(.up))
      }
    }
    var step = StepLimits()
    step.wallMilliseconds = chosen["run_timeout"]
    step.cpuMilliseconds = chosen["run_cpu_time"]
    // Piston counts bytes; the box counts MiB: a limit rounds up to the next MiB.
    step.memoryMegabytes = chosen["run_memory_limit"].map { max(1, ($0 + (1 << 20) - 1) >> 20) }
    return step
  }
}

/// Piston's stage object from one of our outcomes.
enum PistonStage {
  /// isolate's status letters and message for what the program did (`job.js` reads isolate's meta
  /// file); the memory and sandbox refusals keep our own words in `message`.
  static func value(_ outcome: Outcome) -> JSONValue {
    var code: JSONValue = outcome.exitCode.map { .number(Double($0)) } ?? .null
    var signal: JSONValue = outcome.signal.map { .string(signalName($0)) } ?? .null
    var status: JSONValue = .null
    var message: JSONValue = .null
    switch outcome.status {
    case .ok:
      break
    case .timeLimit:
      status = "TO"
      message = .string(outcome.timeLimitKind == .wall ? "Time limit exceeded (wall clock)" : "Time limit exceeded")
      signal = "SIGKILL"
      code = .null
    case .outputLimit:
      status = outcome.stdoutTruncated ? "OL" : "EL"
      message = outcome.stdoutTruncated ? "stdout length exceeded" : "stderr length exceeded"
      signal = "SIGKILL"
      code = .null
    case .internalError:
      status = "XX"
      message = .string(outcome.message)
    case .runtimeError, .compileError, .memoryLimit, .forbidden:
      if let number = outcome.signal {
        status = "SG"
        message = .string("Caught fatal signal \(number)")
      } else if let exit = outcome.exitCode, exit != 0 {
        status = "RE"
        message = .string("Exited with error status \(exit)")
      }
      if outcome.status == .memoryLimit || outcome.status == .forbidden { message = .string(outcome.message) }
    }
    return .object([
      "stdout": .string(String(decoding: outcome.stdout, as: UTF8.self)),
      "stderr": .string(String(decoding: outcome.stderr, as: UTF8.self)),
      "output": .string(String(decoding: outcome.interleavedOutput, as: UTF8.self)),
      "code": code, "signal": signal, "message": message, "status": status,
      "memory": .number(Double(outcome.memoryKilobytes * 1024)),
      "cpu_time": .number(Double(outcome.cpuMilliseconds)),
      "wall_time": .number(Double(outcome.wallMilliseconds)),
    ])
  }

  /// The execute answer: `compile` for compiled runtimes (when it ran), and `run` the compile's
  /// stage when the compile failed, as v2.js does since 2023.
  static func result(_ result: ExecuteResult, runtime: PistonRuntime) -> JSONValue {
    var object: [String: JSONValue] = [
      "language": .string(runtime.language), "version": .string(runtime.version.description),
    ]
    let compile = result.compile.map(value)
    if let compile { object["compile"] = compile }
    if let run = result.run {
      object["run"] = value(run)
    } else if let compile {
      object["run"] = compile
    }
    if runtime.runner.compile != nil && compile == nil {
      // A compile-cache hit ran no compiler: Piston's compile stage of a clean compile.
      object["compile"] = .object([
        "stdout": "", "stderr": "", "output": "", "code": 0, "signal": .null, "message": .null, "status": .null,
        "memory": 0, "cpu_time": 0, "wall_time": 0,
      ])
    }
    return .object(object)
  }
}

/// A form-encoded body (`application/x-www-form-urlencoded`, as pistonapi's `requests.post(url,
/// payload)` sends) as Piston's fields: repeated keys are an array (`args`), a `files` string is
/// one file with that content (emkc.org's leniency).
enum PistonForm {
  static func fields(_ body: Data) -> [String: JSONValue] {
    var values: [String: [String]] = [:]
    for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let key = decode(parts[0])
      values[key, default: []].append(parts.count > 1 ? decode(parts[1]) : "")
    }
    var fields: [String: JSONValue] = [:]
    for (key, list) in values {
      switch key {
      case "args": fields[key] = .array(list.map(JSONValue.string))
      case "files": fields[key] = .array(list.map { .object(["content": .string($0)]) })
      default:
        let text = list[list.count - 1]
        // Piston's limits are numbers; a form carries them as text.
        if key.hasSuffix("_timeout") || key.hasSuffix("_cpu_time") || key.hasSuffix("_memory_limit"),
          let number = Double(text)
        {
          fields[key] = .number(number)
        } else {
          fields[key] = .string(text)
        }
      }
    }
    return fields
  }

  private static func decode(_ text: Substring) -> String {
    let spaced = text.replacingOccurrences(of: "+", with: " ")
    return spaced.removingPercentEncoding ?? spaced
  }
}
