import Foundation
import Submissions

/// What the compile cache at `directory` holds that others could read or write: the folder, its
/// `objects/` and `tmp/`, and every bundle (a learner's compiled program, which the cache hands to
/// the next run of the same source, someone else's included). Empty when all are private or
/// missing; `CompileCache` makes missing folders 0700 and bundles 0600.
func compileCacheProblems(_ directory: String) -> [String] {
  var problems = [directory, directory + "/objects", directory + "/tmp"].compactMap {
    PrivateFiles.problem(at: $0, directory: true)
  }
  let objects = directory + "/objects"
  for name in ((try? FileManager.default.contentsOfDirectory(atPath: objects)) ?? []).sorted() {
    if let problem = PrivateFiles.problem(at: objects + "/" + name) { problems.append(problem) }
    // One line per file would bury the fix; the folder's chmod -R covers the rest.
    if problems.count >= 4 {
      problems.append("(and maybe more: chmod -R go-rwx \(directory))")
      break
    }
  }
  return problems
}
