import Foundation

/// The body of `POST /v1/execute` (DESIGN §5), read strictly: a key the contract does not have is
/// an error, so a misspelt `"limts"` is refused instead of silently running with default limits.
/// The daemon reads it and the CLI's `--remote` writes it.
public struct ExecuteBody: Sendable, Equatable {
  /// One named source file.
  public struct File: Sendable, Equatable {
    /// The file's name; the first file's may be replaced by what the language needs.
    public var name: String
    /// The file's text.
    public var content: String

    /// A file from its parts.
    public init(name: String, content: String) {
      self.name = name
      self.content = content
    }

    /// Its keys.
    public static let keys = ["name", "content"]

    /// Reads one file object; nil when a problem was recorded.
    public init?(reading object: StrictObject) {
      guard let name = object.string("name", required: true), let content = object.string("content", required: true)
      else { return nil }
      self.init(name: name, content: content)
    }

    /// `{"content", "name"}`.
    public var json: JSONValue { ["name": .string(name), "content": .string(content)] }
  }

  /// The run step's limits as asked for; signed so a negative value reaches the range check and gets
  /// its own message instead of a type error.
  public struct Limits: Sendable, Equatable {
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

    /// The keys, each with its field (key paths are immutable; Swift 6.0 does not mark them Sendable).
    nonisolated(unsafe) static let fields: [(key: String, field: WritableKeyPath<Limits, Int64?>)] = [
      ("cpu_ms", \.cpuMilliseconds), ("wall_ms", \.wallMilliseconds), ("memory_mb", \.memoryMegabytes),
      ("output_kb", \.outputKilobytes), ("processes", \.processes),
    ]
    /// Its keys.
    public static let keys = fields.map(\.key)

    /// Reads a limits object; nil when a problem was recorded.
    public init?(reading object: StrictObject) {
      let before = object.reader.problems.count
      for (key, field) in Self.fields { self[keyPath: field] = object.integer(key, as: Int64.self) }
      if object.reader.problems.count > before { return nil }
    }

    /// The limits given, as an object.
    public var json: JSONValue {
      var object: [String: JSONValue] = [:]
      for (key, field) in Self.fields {
        if let value = self[keyPath: field] { object[key] = .number(Double(value)) }
      }
      return .object(object)
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

  /// Its keys.
  public static let keys = ["language", "version", "files", "source", "stdin", "args", "limits"]

  /// Reads a body's top-level object; nil when a problem was recorded.
  public init?(reading object: StrictObject) {
    let before = object.reader.problems.count
    let language = object.string("language", required: true)
    version = object.string("version")
    files = object.objects("files", keys: File.keys)?.compactMap(File.init(reading:))
    source = object.string("source")
    stdin = object.string("stdin")
    args = object.strings("args")
    limits = object.object("limits", keys: Limits.keys).flatMap(Limits.init(reading:))
    guard let language, object.reader.problems.count == before else { return nil }
    self.language = language
  }

  /// Reads a body: every problem of it, or the body.
  public static func read(_ data: Data) -> Result<ExecuteBody, JSONProblems> {
    StrictReader.read(data, keys: keys, ExecuteBody.init(reading:))
  }

  /// The body as sent: the keys given, nothing for the ones left out.
  public var json: JSONValue {
    var object: [String: JSONValue] = ["language": .string(language)]
    if let version { object["version"] = .string(version) }
    if let files { object["files"] = .array(files.map(\.json)) }
    if let source { object["source"] = .string(source) }
    if let stdin { object["stdin"] = .string(stdin) }
    if let args { object["args"] = .array(args.map(JSONValue.string)) }
    if let limits { object["limits"] = limits.json }
    return .object(object)
  }
}

extension ExecuteBody: Codable {
  /// Decodes strictly, through the same reader as `read`.
  public init(from decoder: any Decoder) throws {
    self = try WireCoding.decode(JSONValue(from: decoder), keys: Self.keys, Self.init(reading:))
  }

  /// Encodes `json`.
  public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}

/// Codable through `JSONValue`: a Decoder's value read strictly, an encoder given the value a type's
/// `json` builds. The wire's own bytes come from `JSONValue.compactJSONBytes` (sorted keys, compact).
enum WireCoding {
  static func decode<Value>(
    _ value: JSONValue, keys: [String], nulls: StrictReader.Nulls = .refused, _ build: (StrictObject) -> Value?
  ) throws -> Value {
    switch StrictReader.read(value, keys: keys, reader: StrictReader(nulls: nulls), build) {
    case .success(let built): return built
    case .failure(let problems):
      throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: problems.description))
    }
  }
}
