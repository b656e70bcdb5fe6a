import Foundation

/// Finds the project's data folders (policies/, runners/, challenges/) for
/// an installed or a development build.
public enum DataDirectories {
  /// Search order: $DSA_RUN_DATA, the source tree next to the build
  /// (.build/<config>/dsa-run -> ../../), /usr/share/dsa-run, the current
  /// directory.
  /// The data folders of this installation that exist: what no box may see.
  public static func allLocated() -> [String] {
    ["challenges", "runners", "policies"].compactMap(locate)
  }

  public static func locate(_ name: String) -> String? {
    var candidates: [String] = []
    if let root = ProcessInfo.processInfo.environment["DSA_RUN_DATA"] { candidates.append(root + "/" + name) }
    let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    var directory = executable.deletingLastPathComponent()
    for _ in 0..<4 {
      candidates.append(directory.appendingPathComponent(name).path)
      directory = directory.deletingLastPathComponent()
    }
    candidates.append("/usr/share/dsa-run/" + name)
    candidates.append(FileManager.default.currentDirectoryPath + "/" + name)
    var isDirectory: ObjCBool = false
    return candidates.first {
      FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue
    }
  }
}
