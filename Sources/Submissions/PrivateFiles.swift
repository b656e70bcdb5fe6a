import Glibc

/// Files only the daemon may read or write: the store holds learners' code, outputs and callback
/// URLs, and the compile cache their compiled programs. Another local user who can read them reads
/// every learner's work; one who can write them changes results or plants programs that run for
/// others. So they are made 0600 (folders 0700) whatever the umask, and a start refuses what is
/// already looser rather than quietly tightening it: a loose file may have been read already, and
/// the operator should know.
public enum PrivateFiles {
  /// The permission bits that let anyone but the owner at a file.
  static let othersBits: mode_t = 0o077

  /// Why the file at `path` must not be used, with the command that fixes it, or nil when it is
  /// missing or private: owned by this process's user, reachable by no one else, and (without
  /// following a link) a regular file or, with `directory`, a folder.
  public static func problem(at path: String, directory: Bool = false) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    let kind = info.st_mode & S_IFMT
    guard kind == (directory ? S_IFDIR : S_IFREG) else {
      let expected = directory ? "folder" : "regular file"
      return "\(path) is not a \(expected) but a link or another kind of file; name the real \(expected) instead"
    }
    if info.st_uid != geteuid() {
      return "\(path) belongs to uid \(info.st_uid), not to this daemon's uid \(geteuid()); chown \(geteuid()) \(path)"
    }
    let mode = info.st_mode & 0o7777
    if mode & othersBits != 0 {
      let fix = directory ? "chmod -R go-rwx \(path)" : "chmod 600 \(path)"
      return "\(path) has mode \(String(mode, radix: 8)), so others may read or write it; \(fix)"
    }
    return nil
  }

  /// Creates `path` empty with mode 0600 unless it exists (the umask could only take bits away,
  /// but is not trusted to: the mode is set on the descriptor again). Returns an errno, or 0.
  static func createIfMissing(_ path: String) -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
    if fd < 0 { return errno == EEXIST ? 0 : errno }
    defer { close(fd) }
    return fchmod(fd, 0o600) == 0 ? 0 : errno
  }
}
