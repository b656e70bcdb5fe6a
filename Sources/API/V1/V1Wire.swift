import Challenges
import Foundation
import Runners
import Sandbox
import Wire

// The /v1 wire (Wire's `ExecuteBody` and `GradeBody`) converted at the edge to the run service's
// requests: the body read strictly, the files named as given, the limits as asked.

extension ExecuteBody {
  /// Reads a body, every problem of it in one 400 that says where and what.
  public static func decode(_ data: Data) throws(APIError) -> ExecuteBody {
    try read(data).get(orThrow: APIError.refusedBody)
  }

  /// The run service's request: files (or the single source), stdin, arguments and limits as asked.
  public func runAsk() throws(APIError) -> RunAsk {
    var ask = RunAsk(
      language: language, version: version, files: try ExecuteBody.sourceFiles(files: files, source: source))
    ask.stdin = Data((stdin ?? "").utf8)
    ask.arguments = args ?? []
    ask.limits = limits ?? AskedLimits()
    return ask
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
}

extension GradeBody {
  /// Reads a body, every problem of it in one 400 that says where and what.
  public static func decode(_ data: Data) throws(APIError) -> GradeBody {
    try read(data).get(orThrow: APIError.refusedBody)
  }

  /// The run service's request: the program and its challenge, from `catalog` by id or read inline.
  public func gradeAsk(in catalog: ChallengeCatalog) throws(APIError) -> GradeAsk {
    let files = try ExecuteBody.sourceFiles(files: files, source: source)
    var inline = false
    let resolved: Challenge
    switch challenge {
    case .string(let id):
      guard let found = catalog.challenges[id] else {
        throw APIError(
          code: "unknown_challenge", message: "no challenge \"\(id)\"", status: .notFound, known: catalog.ids)
      }
      resolved = found
    case .object:
      switch ChallengeLoader.decodeInline(challenge) {
      case .success(let read): resolved = read
      case .failure(let error):
        throw APIError(
          code: "bad_challenge", message: error.problems.map(\.description).joined(separator: "; "),
          status: .badRequest)
      }
      inline = true
    default:
      throw .badRequest("\"challenge\" must be a challenge id (a string) or an inline challenge (an object)")
    }
    var ask = GradeAsk(language: language, version: version, files: files, challenge: resolved, inline: inline)
    ask.stopAtFirstFailure = stopAtFirstFailure ?? false
    return ask
  }
}

extension Result where Failure == JSONProblems {
  /// The value, or the error `refusal` makes of the problems.
  func get(orThrow refusal: (JSONProblems) -> APIError) throws(APIError) -> Success {
    switch self {
    case .success(let value): return value
    case .failure(let problems): throw refusal(problems)
    }
  }
}

extension APIError {
  /// 400 for a body the strict reader refused: `unknown_field` when a key is not the contract's
  /// (clients check the code), else `bad_request`; every problem in the message, with its path.
  static func refusedBody(_ refusal: JSONProblems) -> APIError {
    let sentences = refusal.problems.map { problem -> String in
      switch problem.kind {
      case .unknownKey: return "unknown field \"\(problem.path)\""
      case .invalidJSON: return "the body is not valid JSON"
      case .duplicateKey: return "\"\(problem.path)\" is given twice; give each field once"
      case .null: return "\"\(problem.path)\" must not be null; leave the field out instead"
      case .missing: return "missing field \"\(problem.path)\""
      case .wrongType where problem.path.isEmpty: return "the body must be a JSON object"
      default: return problem.description
      }
    }
    let code = refusal.problems.contains { $0.kind == .unknownKey } ? "unknown_field" : "bad_request"
    return APIError(code: code, message: sentences.joined(separator: "; "), status: .badRequest)
  }
}
