import Foundation

/// The body of `POST /v1/grade`: a program and the challenge to grade it on, read strictly.
///
/// ```json
/// {"language": "python", "source": "...", "challenge": "insertion-sort", "stop_at_first_failure": false}
/// ```
/// `challenge` is a catalog id, or an inline challenge object (docs/challenges.md: the keys of
/// challenge.json, with contents where the file holds paths). `files` or `source` as for execute.
public struct GradeBody: Sendable, Equatable {
  /// A language name or alias.
  public var language: String
  /// A version; nil picks the newest installed.
  public var version: String?
  /// The files, entry point first; nil when `source` is given.
  public var files: [ExecuteBody.File]?
  /// A single source; nil when `files` is given.
  public var source: String?
  /// A catalog id (a string) or an inline challenge (an object).
  public var challenge: JSONValue
  /// Whether grading stops at the first failed test.
  public var stopAtFirstFailure: Bool?

  /// A body from its parts.
  public init(
    language: String, version: String? = nil, files: [ExecuteBody.File]? = nil, source: String? = nil,
    challenge: JSONValue, stopAtFirstFailure: Bool? = nil
  ) {
    self.language = language
    self.version = version
    self.files = files
    self.source = source
    self.challenge = challenge
    self.stopAtFirstFailure = stopAtFirstFailure
  }

  /// Its keys.
  public static let keys = ["language", "version", "files", "source", "challenge", "stop_at_first_failure"]

  /// Reads a body's top-level object; nil when a problem was recorded.
  public init?(reading object: StrictObject) {
    let before = object.reader.problems.count
    let language = object.string("language", required: true)
    version = object.string("version")
    files = object.objects("files", keys: ExecuteBody.File.keys)?.compactMap(ExecuteBody.File.init(reading:))
    source = object.string("source")
    let challenge = object.value("challenge", required: true)
    stopAtFirstFailure = object.bool("stop_at_first_failure")
    guard let language, let challenge, object.reader.problems.count == before else { return nil }
    self.language = language
    self.challenge = challenge
  }

  /// Reads a body: every problem of it, or the body.
  public static func read(_ data: Data) -> Result<GradeBody, JSONProblems> {
    StrictReader.read(data, keys: keys, GradeBody.init(reading:))
  }

  /// The body as sent.
  public var json: JSONValue {
    var object: [String: JSONValue] = ["language": .string(language), "challenge": challenge]
    if let version { object["version"] = .string(version) }
    if let files { object["files"] = .array(files.map(\.json)) }
    if let source { object["source"] = .string(source) }
    if let stopAtFirstFailure { object["stop_at_first_failure"] = .bool(stopAtFirstFailure) }
    return .object(object)
  }
}

extension GradeBody: Codable {
  /// Decodes strictly, through the same reader as `read`.
  public init(from decoder: any Decoder) throws {
    self = try WireCoding.decode(JSONValue(from: decoder), keys: Self.keys, Self.init(reading:))
  }

  /// Encodes `json`.
  public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}
