import Foundation

/// Finds the project's data folders (policies/, runners/, challenges/) for
/// an installed or a development build.
public enum DataDirectories {
  /// The data root: the first of $DSA_RUN_DATA, the source tree next to the
  /// build (.build/<config>/dsa-run -> ../../), an install's
  /// PREFIX/share/dsa-run beside PREFIX/bin, /usr/share/dsa-run and the
  /// current directory that holds a policies/ folder (every root has one).
  ///
  /// All folders come from that one root: picking each folder where it is
  /// first found would let an install that lost its challenges/ grade with a
  /// stray copy in the current directory, against another root's runners.
  public static func locateRoot() -> String? {
    var candidates: [String] = []
    if let root = ProcessInfo.processInfo.environment["DSA_RUN_DATA"] { candidates.append(root) }
    let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    var directory = executable.deletingLastPathComponent()
    let installed = directory.deletingLastPathComponent().appendingPathComponent("share/dsa-run").path
    for _ in 0..<4 {
      candidates.append(directory.path)
      directory = directory.deletingLastPathComponent()
    }
    candidates.append(installed)
    candidates.append("/usr/share/dsa-run")
    candidates.append(FileManager.default.currentDirectoryPath)
    return candidates.first { isDirectory($0 + "/policies") }
  }

  /// `name` (policies, runners, challenges) in the data root, if it is there.
  public static func locate(_ name: String) -> String? {
    guard let root = locateRoot() else { return nil }
    let path = root + "/" + name
    return isDirectory(path) ? path : nil
  }

  private static func isDirectory(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
  }
}
