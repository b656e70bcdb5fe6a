import Foundation
import Runners
import Sandbox
import Wire

/// The body of `POST /v1/execute` (DESIGN §5), decoded strictly: a key the contract does not have is
/// an error, so a misspelt `"limts"` is refused instead of silently running with default limits.
public struct ExecuteBody: Decodable, Sendable, Equatable {
  /// One named source file.
  public struct File: Decodable, Sendable, Equatable {
    /// The file's name; the first file's may be replaced by what the language needs.
    public var name: String
    /// The file's text.
    public var content: String

    /// A file from its parts.
    public init(name: String, content: String) {
      self.name = name
      self.content = content
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case name, content
    }

    /// Decodes strictly.
    public init(from decoder: any Decoder) throws {
      try rejectUnknownKeys(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
      let container = try decoder.container(keyedBy: CodingKeys.self)
      name = try container.decode(String.self, forKey: .name)
      content = try container.decode(String.self, forKey: .content)
    }
  }

  /// The run step's limits as asked for; signed so a negative value reaches the range check and gets
  /// its own message instead of a type error.
  public struct Limits: Decodable, Sendable, Equatable {
    /// CPU time, milliseconds.
    public var cpuMilliseconds: Int64?
    /// Wall time, milliseconds.
    public var wallMilliseconds: Int64?
    /// Memory, MiB.
    public var memoryMegabytes: Int64?
    /// Output per stream, KiB.
    public var outputKilobytes: Int64?
    /// Processes and threads.
    public var processes: Int64?

    /// Limits from their parts; nil leaves the runner's.
    public init(
      cpuMilliseconds: Int64? = nil, wallMilliseconds: Int64? = nil, memoryMegabytes: Int64? = nil,
      outputKilobytes: Int64? = nil, processes: Int64? = nil
    ) {
      self.cpuMilliseconds = cpuMilliseconds
      self.wallMilliseconds = wallMilliseconds
      self.memoryMegabytes = memoryMegabytes
      self.outputKilobytes = outputKilobytes
      self.processes = processes
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case cpuMilliseconds = "cpu_ms"
      case wallMilliseconds = "wall_ms"
      case memoryMegabytes = "memory_mb"
      case outputKilobytes = "output_kb"
      case processes
    }

    /// Decodes strictly.
    public init(from decoder: any Decoder) throws {
      try rejectUnknownKeys(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
      let container = try decoder.container(keyedBy: CodingKeys.self)
      cpuMilliseconds = try container.decodeIfPresent(Int64.self, forKey: .cpuMilliseconds)
      wallMilliseconds = try container.decodeIfPresent(Int64.self, forKey: .wallMilliseconds)
      memoryMegabytes = try container.decodeIfPresent(Int64.self, forKey: .memoryMegabytes)
      outputKilobytes = try container.decodeIfPresent(Int64.self, forKey: .outputKilobytes)
      processes = try container.decodeIfPresent(Int64.self, forKey: .processes)
    }
  }

  /// A language name or alias.
  public var language: String
  /// A version; nil picks the newest installed.
  public var version: String?
  /// The files, entry point first; nil when `source` is given.
  public var files: [File]?
  /// A single source, named as the language wants; nil when `files` is given.
  public var source: String?
  /// The program's standard input.
  public var stdin: String?
  /// The program's arguments.
  public var args: [String]?
  /// The run step's limits.
  public var limits: Limits?

  /// A body from its parts.
  public init(
    language: String, version: String? = nil, files: [File]? = nil, source: String? = nil, stdin: String? = nil,
    args: [String]? = nil, limits: Limits? = nil
  ) {
    self.language = language
    self.version = version
    self.files = files
    self.source = source
    self.stdin = stdin
    self.args = args
    self.limits = limits
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case language, version, files, source, stdin, args, limits
  }

  /// Decodes strictly.
  public init(from decoder: any Decoder) throws {
    try rejectUnknownKeys(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    let container = try decoder.container(keyedBy: CodingKeys.self)
    language = try container.decode(String.self, forKey: .language)
    version = try container.decodeIfPresent(String.self, forKey: .version)
    files = try container.decodeIfPresent([File].self, forKey: .files)
    source = try container.decodeIfPresent(String.self, forKey: .source)
    stdin = try container.decodeIfPresent(String.self, forKey: .stdin)
    args = try container.decodeIfPresent([String].self, forKey: .args)
    limits = try container.decodeIfPresent(Limits.self, forKey: .limits)
  }

  /// Decodes a body, turning every decoding failure into a 400 that says where and what.
  public static func decode(_ data: Data) throws(APIError) -> ExecuteBody {
    try decodeBody(ExecuteBody.self, from: data)
  }
}

/// Decodes a request body strictly, turning every decoding failure into a 400 that says where and what.
func decodeBody<Body: Decodable>(_ type: Body.Type, from data: Data) throws(APIError) -> Body {
  if let key = DuplicateKeys.first(in: data) {
    throw .badRequest("\"\(key)\" is given twice; give each field once")
  }
  do {
    return try JSONDecoder().decode(Body.self, from: data)
  } catch let error as APIError {
    throw error
  } catch let error as DecodingError {
    // Foundation reports a number that does not fit the field (1.5 or 1e30 for a whole number) as
    // corrupt data with no path; the body parsing as JSON tells the two apart.
    if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
      (try? JSONSerialization.jsonObject(with: data)) != nil
    {
      throw .badRequest("a number in the body is not a whole number in range (limits take whole numbers)")
    }
    throw .badRequest(describe(error))
  } catch {
    throw .badRequest("the body is not valid JSON")
  }
}

private func describe(_ error: DecodingError) -> String {
  func path(_ keys: [any CodingKey]) -> String {
    let text = keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
    return text.hasPrefix(".") ? String(text.dropFirst()) : text
  }
  switch error {
  case .keyNotFound(let key, let context):
    return "missing field \"\(path(context.codingPath + [key]))\""
  case .typeMismatch(let type, let context):
    if context.codingPath.isEmpty { return "the body must be a JSON object" }
    return "\"\(path(context.codingPath))\" must be \(typeName(type))"
  case .valueNotFound(let type, let context):
    if context.codingPath.isEmpty { return "the body must be a JSON object, not null" }
    return "\"\(path(context.codingPath))\" must be \(typeName(type)), not null"
  case .dataCorrupted(let context):
    return context.codingPath.isEmpty
      ? "the body is not valid JSON" : "\"\(path(context.codingPath))\" is not valid: \(context.debugDescription)"
  @unknown default:
    return "the body is not a valid request"
  }
}

private func typeName(_ type: Any.Type) -> String {
  switch type {
  case is String.Type: return "a string"
  case is Int64.Type: return "a whole number"
  case is Bool.Type: return "true or false"
  default:
    let name = String(describing: type)
    if name.hasPrefix("Array") { return "an array" }
    if name.hasPrefix("Dictionary") { return "an object" }
    return "of type \(name)"
  }
}

/// The most a request may ask for; the runner's own defaults above a maximum are lowered to it.
public struct LimitMaxima: Sendable, Equatable {
  /// CPU time, milliseconds.
  public var cpuMilliseconds: UInt64 = 10_000
  /// Wall time, milliseconds.
  public var wallMilliseconds: UInt64 = 20_000
  /// Memory, MiB.
  public var memoryMegabytes: UInt64 = 1024
  /// Output per stream, KiB.
  public var outputKilobytes: UInt64 = 4096
  /// Processes and threads.
  public var processes: UInt64 = 128

  /// The defaults: 10 s CPU, 20 s wall, 1 GiB, 4 MiB of output per stream, 128 processes.
  public init() {}
}

extension ExecuteBody {
  /// The executor's request: files (or the single source), stdin, arguments, and the run limits laid
  /// over `runnerLimits` (the runner's run-step limits) and checked against `maxima`.
  ///
  /// A limit asked above its maximum is refused, naming the maximum, rather than quietly lowered:
  /// a learner who asks for 60 s and gets 10 s would misread the time_limit that follows. A runner's
  /// own default above a maximum is lowered, because that is the operator's choice, not the caller's.
  public func executeRequest(maxima: LimitMaxima, runnerLimits: BoxLimits) throws(APIError) -> ExecuteRequest {
    var request = ExecuteRequest(
      language: language, version: version, files: try ExecuteBody.sourceFiles(files: files, source: source))
    request.stdin = Data((stdin ?? "").utf8)
    request.arguments = args ?? []
    if let problem = Executor.argumentsProblem(request.arguments) { throw .badRequest(problem) }

    let asked = limits ?? Limits()
    var step = StepLimits()
    step.cpuMilliseconds = try Self.limit(
      "cpu_ms", asked.cpuMilliseconds, maximum: maxima.cpuMilliseconds, default: runnerLimits.cpuTimeMilliseconds)
    step.wallMilliseconds = try Self.limit(
      "wall_ms", asked.wallMilliseconds, maximum: maxima.wallMilliseconds,
      default: runnerLimits.wallTimeMilliseconds)
    step.memoryMegabytes = try Self.limit(
      "memory_mb", asked.memoryMegabytes, maximum: maxima.memoryMegabytes, default: runnerLimits.memoryBytes >> 20)
    step.outputKilobytes = try Self.limit(
      "output_kb", asked.outputKilobytes, maximum: maxima.outputKilobytes,
      default: runnerLimits.outputBytesPerStream >> 10)
    step.processes = try Self.limit(
      "processes", asked.processes, maximum: maxima.processes, default: runnerLimits.processes)
    request.runLimits = step
    return request
  }

  /// The program's files from a body's `files` or single `source` (exactly one of them; the first
  /// file's name may be replaced by what the language needs, a lone source is named by it).
  static func sourceFiles(files: [File]?, source: String?) throws(APIError) -> [SourceFile] {
    switch (files, source) {
    case (.some, .some):
      throw .badRequest("give either \"files\" or \"source\", not both")
    case (nil, nil):
      throw .badRequest("missing field \"files\" (or \"source\")")
    case (.some(let files), nil):
      guard !files.isEmpty else { throw .badRequest("\"files\" must hold at least one file") }
      // Every name as given, the first one's too: a runner may rename the entry file, but "/etc/x"
      // or "" is a caller's mistake to be told, not silently replaced.
      var seen: Set<String> = []
      for (index, file) in files.enumerated() {
        if let problem = BoxDirectory.validate(name: file.name) {
          throw .badRequest("files[\(index)].name: \(problem)")
        }
        guard seen.insert(file.name).inserted else {
          throw .badRequest("files[\(index)].name: two files are named \"\(file.name)\"")
        }
      }
      return files.map { SourceFile(name: $0.name, contents: Data($0.content.utf8)) }
    case (nil, .some(let source)):
      return [SourceFile(name: "", contents: Data(source.utf8))]
    }
  }

  /// The value to use for one limit; nil keeps the runner's default as it is.
  fileprivate static func limit(
    _ name: String, _ asked: Int64?, maximum: UInt64, default runnerDefault: UInt64, field: String = "limits."
  ) throws(APIError) -> UInt64? {
    guard let asked else { return runnerDefault > maximum ? maximum : nil }
    guard asked > 0 else { throw .badRequest("\(field)\(name) must be greater than 0 (it was \(asked))") }
    guard UInt64(asked) <= maximum else {
      throw .badRequest("\(field)\(name) is \(asked); the maximum is \(maximum)")
    }
    return UInt64(asked)
  }
}

extension LimitMaxima {
  /// A challenge's test limits within the maxima, laid over `runnerLimits` as for an execute.
  ///
  /// An inline challenge is the caller's, so a limit above its maximum is refused naming the field
  /// (`challenge.limits.memory_mb is 2048; the maximum is 1024`); a catalog challenge's is the
  /// operator's choice, lowered to the maximum like a runner's default.
  public func challengeLimits(_ asked: StepLimits, runnerLimits: BoxLimits, inline: Bool) throws(APIError)
    -> StepLimits
  {
    func bounded(_ name: String, _ value: UInt64?, _ maximum: UInt64, _ runnerDefault: UInt64) throws(APIError)
      -> UInt64?
    {
      let value = inline ? value : value.map { min($0, maximum) }
      return try ExecuteBody.limit(
        name, value.map { Int64(clamping: $0) }, maximum: maximum, default: runnerDefault, field: "challenge.limits.")
    }
    var limits = asked
    limits.cpuMilliseconds = try bounded(
      "cpu_ms", asked.cpuMilliseconds, cpuMilliseconds, runnerLimits.cpuTimeMilliseconds)
    limits.wallMilliseconds = try bounded(
      "wall_ms", asked.wallMilliseconds, wallMilliseconds, runnerLimits.wallTimeMilliseconds)
    limits.memoryMegabytes = try bounded(
      "memory_mb", asked.memoryMegabytes, memoryMegabytes, runnerLimits.memoryBytes >> 20)
    limits.outputKilobytes = try bounded(
      "output_kb", asked.outputKilobytes, outputKilobytes, runnerLimits.outputBytesPerStream >> 10)
    limits.processes = try bounded("processes", asked.processes, processes, runnerLimits.processes)
    return limits
  }
}

/// Any key, to list what an object holds.
private struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// Throws `unknown_field` (with its dotted path) for the first key not in `allowed`.
func rejectUnknownKeys(_ decoder: any Decoder, allowed: [String]) throws {
  // Not an object: let the typed container report the mismatch.
  guard let container = try? decoder.container(keyedBy: AnyKey.self) else { return }
  func path(_ key: String) -> String {
    let parts = decoder.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue } + ["." + key]
    return String(parts.joined().dropFirst())
  }
  let unknown = container.allKeys.map(\.stringValue).filter { !allowed.contains($0) }.sorted()
  if let first = unknown.first { throw APIError.unknownField(path(first)) }
  // No field of a request may be null (the schema makes none nullable): a null is a mistake, where
  // decodeIfPresent would quietly read it as "left out".
  for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
  where try container.decodeNil(forKey: key) {
    throw APIError.badRequest("\"\(path(key.stringValue))\" must not be null; leave the field out instead")
  }
}
