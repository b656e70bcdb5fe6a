import Glibc

/// Finds the project's data folders (policies/, runners/, challenges/) for
/// an installed or a development build.
public enum DataDirectories {
  /// Search order: $DSA_RUN_DATA, the source tree next to the build
  /// (.build/<config>/dsa-run -> ../../), /usr/share/dsa-run, the current
  /// directory. Plain system calls: this runs at every CLI start, where
  /// Foundation's URL and FileManager cost more than the search.
  public static func locate(_ name: String) -> String? {
    var candidates: [String] = []
    if let root = getenv("DSA_RUN_DATA") { candidates.append(String(cString: root) + "/" + name) }
    var directory = parent(of: executablePath)
    for _ in 0..<4 {
      candidates.append((directory == "/" ? "" : directory) + "/" + name)
      directory = parent(of: directory)
    }
    candidates.append("/usr/share/dsa-run/" + name)
    if let cwd = getcwd(nil, 0) {
      candidates.append(String(cString: cwd) + "/" + name)
      free(cwd)
    }
    return candidates.first { candidate in
      var info = stat()
      return stat(candidate, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
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
}
