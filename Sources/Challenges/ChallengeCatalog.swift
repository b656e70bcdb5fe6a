import Foundation
import Sandbox

/// Every challenge under a `challenges/` root: one directory per challenge, named by its id.
/// Broken challenges are kept out of `challenges` and reported in `problems`; they are never graded.
public struct ChallengeCatalog: Sendable {
  /// Valid challenges by id.
  public var challenges: [String: Challenge]
  /// Every problem of every broken challenge (and of the root itself), in id order.
  public var problems: [ChallengeProblem]

  public init(challenges: [String: Challenge] = [:], problems: [ChallengeProblem] = []) {
    self.challenges = challenges
    self.problems = problems
  }

  /// Valid challenges' ids, sorted.
  public var ids: [String] { challenges.keys.sorted() }

  /// Loads every directory under `root`. Files at the top (a README) and hidden entries are ignored;
  /// a link is refused, so every challenge really lives under the root.
  ///
  /// `deferringTestFiles`: the function tests' `args_file` and `expected_file` values are checked and
  /// let go, read again by each grade (`Challenge.loadingTestValues()`): a daemon's catalogue.
  public static func load(root: String, deferringTestFiles: Bool = false) -> ChallengeCatalog {
    var catalog = ChallengeCatalog()
    let rootDirectory: ChallengeDirectory
    let entries: [ChallengeDirectory.Entry]
    do {
      rootDirectory = try ChallengeDirectory(path: root)
      entries = try rootDirectory.list("") ?? []
    } catch {
      catalog.problems.append(ChallengeProblem(challenge: root, field: "", message: "\(error)"))
      return catalog
    }
    for entry in entries where !entry.name.hasPrefix(".") {
      switch entry.kind {
      case .file: continue
      case .link, .other:
        catalog.problems.append(
          ChallengeProblem(
            challenge: entry.name, field: "",
            message: "\(root)/\(entry.name) is \(entry.kind == .link ? "a symbolic link" : "not a directory"); "
              + "a challenge is a directory under the root"))
      case .directory:
        let result: Result<Challenge, ChallengeLoadError>
        do {
          result = ChallengeLoader.load(
            try ChallengeDirectory(entry: entry.name, of: rootDirectory), id: entry.name,
            deferringFilesUnder: deferringTestFiles ? root : nil)
        } catch {
          result = .failure(
            ChallengeLoadError(problems: [ChallengeProblem(challenge: entry.name, field: "", message: "\(error)")]))
        }
        switch result {
        case .success(let challenge): catalog.challenges[challenge.id] = challenge
        case .failure(let error): catalog.problems += error.problems
        }
      }
    }
    // Each test file was parsed into a JSON tree that is gone now; the heap's high-water mark stays
    // resident unless it is given back (a daemon held 146 MB of it at rest).
    releaseFreeHeapMemory()
    return catalog
  }

  /// The shipped or installed `challenges/` folder (see `DataDirectories`), or nil.
  public static func locateRoot() -> String? { DataDirectories.locate("challenges") }
}
