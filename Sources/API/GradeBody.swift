import Challenges
import Foundation
import Grading
import Runners
import Wire

/// The body of `POST /v1/grade`: a program and the challenge to grade it on, decoded strictly.
///
/// ```json
/// {"language": "python", "source": "...", "challenge": "insertion-sort", "stop_at_first_failure": false}
/// ```
/// `challenge` is a catalog id, or an inline challenge object (docs/challenges.md: the keys of
/// challenge.json, with contents where the file holds paths). `files` or `source` as for execute.
public struct GradeBody: Decodable, Sendable {
  public var language: String
  public var version: String?
  public var files: [ExecuteBody.File]?
  public var source: String?
  /// A catalog id (a string) or an inline challenge (an object).
  public var challenge: JSONValue
  public var stopAtFirstFailure: Bool?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case language, version, files, source, challenge
    case stopAtFirstFailure = "stop_at_first_failure"
  }

  /// Decodes strictly.
  public init(from decoder: any Decoder) throws {
    try rejectUnknownKeys(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    let container = try decoder.container(keyedBy: CodingKeys.self)
    language = try container.decode(String.self, forKey: .language)
    version = try container.decodeIfPresent(String.self, forKey: .version)
    files = try container.decodeIfPresent([ExecuteBody.File].self, forKey: .files)
    source = try container.decodeIfPresent(String.self, forKey: .source)
    challenge = try container.decode(JSONValue.self, forKey: .challenge)
    stopAtFirstFailure = try container.decodeIfPresent(Bool.self, forKey: .stopAtFirstFailure)
  }

  /// Decodes a body, every failure a 400 that says where and what.
  public static func decode(_ data: Data) throws(APIError) -> GradeBody {
    try decodeBody(GradeBody.self, from: data)
  }

  /// The program's files (or the single source), as for execute.
  public func sourceFiles() throws(APIError) -> [SourceFile] {
    try ExecuteBody.sourceFiles(files: files, source: source)
  }

  /// The challenge: from `catalog` by id, or decoded inline (every problem in one 400).
  public func resolveChallenge(in catalog: ChallengeCatalog) throws(APIError) -> Challenge {
    switch challenge {
    case .string(let id):
      guard let found = catalog.challenges[id] else {
        throw APIError(
          code: "unknown_challenge", message: "no challenge \"\(id)\"", status: .notFound, known: catalog.ids)
      }
      return found
    case .object:
      switch ChallengeLoader.decodeInline(challenge) {
      case .success(let inline): return inline
      case .failure(let error):
        throw APIError(
          code: "bad_challenge", message: error.problems.map(\.description).joined(separator: "; "),
          status: .badRequest)
      }
    default:
      throw .badRequest("\"challenge\" must be a challenge id (a string) or an inline challenge (an object)")
    }
  }
}
