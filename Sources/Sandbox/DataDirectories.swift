import Glibc

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
  /// Plain system calls: this runs at every CLI start, where Foundation's URL
  /// and FileManager cost more than the search.
  public static func locateRoot() -> String? {
    var candidates: [String] = []
    if let root = getenv("DSA_RUN_DATA") { candidates.append(String(cString: root)) }
    var directory = parent(of: executablePath)
    let installed = (parent(of: directory) == "/" ? "" : parent(of: directory)) + "/share/dsa-run"
    for _ in 0..<4 {
      candidates.append(directory)
      directory = parent(of: directory)
    }
    candidates.append(installed)
    candidates.append("/usr/share/dsa-run")
    if let cwd = getcwd(nil, 0) {
      candidates.append(String(cString: cwd))
      free(cwd)
    }
    return candidates.first { isDirectory(($0 == "/" ? "" : $0) + "/policies") }
  }

  /// `name` (policies, runners, challenges) in the data root, if it is there.
  public static func locate(_ name: String) -> String? {
    guard let root = locateRoot() else { return nil }
    let path = (root == "/" ? "" : root) + "/" + name
    return isDirectory(path) ? path : nil
  }

  /// The data folders of this installation that exist: what no box may see.
  public static func allLocated() -> [String] {
    ["challenges", "runners", "policies"].compactMap(locate)
  }

  /// This program's file with symbolic links resolved.
  static let executablePath: String = {
    for path in ["/proc/self/exe", CommandLine.arguments.first ?? ""] {
      if let resolved = realpath(path, nil) {
        defer { free(resolved) }
        return String(cString: resolved)
      }
    }
    return "/"
  }()

  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
  }

  private static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }
}
