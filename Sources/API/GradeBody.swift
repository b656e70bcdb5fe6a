import Challenges
import Foundation
import Grading
import Runners
import Wire

extension GradeBody {
  /// Reads a body, every problem of it in one 400 that says where and what.
  public static func decode(_ data: Data) throws(APIError) -> GradeBody {
    try read(data).get(orThrow: APIError.refusedBody)
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
