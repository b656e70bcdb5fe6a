internal import CSandbox
import Foundation
import Glibc
import SystemCore

// Host-side access to files the box could have written. The box may plant
// symlinks, hard links to nothing useful (it sees no host files), fifos or
// directories where a file is expected; every open here resolves strictly
// beneath the box directory with no symlink of any kind followed, and
// checks it got a regular file.

/// A box's host-side work directory (bound at /box inside).
public struct BoxDirectory: Sendable {
  public let path: String

  /// Validates a file name from a request or runner: a relative path of
  /// normal components, no "..", no leading "/", no NUL, at most 4 levels.
  public static func validate(name: String) -> String? {
    if name.isEmpty { return "a file name is empty" }
    if name.utf8.count > 255 { return "the file name \"\(name.prefix(40))...\" is longer than 255 bytes" }
    if name.contains("\0") { return "a file name contains a NUL byte" }
    if name.hasPrefix("/") {
      return "the file name \"\(name)\" is absolute; give a name relative to the work directory"
    }
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    if parts.count > 4 { return "the file name \"\(name)\" is nested too deeply" }
    for part in parts where part.isEmpty || part == "." || part == ".." {
      return "the file name \"\(name)\" contains an empty, \".\" or \"..\" component"
    }
    return nil
  }

  private func openDirectory() throws(SandboxError) -> Int32 {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
    if fd < 0 { throw SandboxError(step: "open box directory \(path)", errorNumber: errno) }
    return fd
  }

  /// Writes a file (creating parent directories) owned by `owner`.
  func write(name: String, contents: Data, executable: Bool, owner: UInt32) throws(SandboxError) {
    if let problem = Self.validate(name: name) { throw SandboxError(step: problem) }
    let root = try openDirectory()
    defer { close(root) }
    let parts = name.split(separator: "/").map(String.init)
    var directory = root
    var opened: [Int32] = []
    defer { for fd in opened { close(fd) } }
    for part in parts.dropLast() {
      if mkdirat(directory, part, 0o755) != 0 && errno != EEXIST {
        throw SandboxError(step: "mkdir \(part) in the box directory", errorNumber: errno)
      }
      let next = dsa_open_beneath(directory, part, O_RDONLY | O_DIRECTORY, 0)
      if next < 0 { throw SandboxError(step: "open \(part) in the box directory", errorNumber: -next) }
      _ = fchown(next, owner, owner)
      opened.append(next)
      directory = next
    }
    // The write descriptor must not leak into a box cloned meanwhile (see SpawnLock).
    try SpawnLock.whileWritingFiles { () throws(SandboxError) in
      let fd = dsa_open_beneath(
        directory, parts.last!, O_WRONLY | O_CREAT | O_EXCL, executable ? 0o755 : 0o644)
      if fd < 0 { throw SandboxError(step: "create \(name) in the box directory", errorNumber: -fd) }
      defer { close(fd) }
      _ = fchown(fd, owner, owner)
      let failure: Int32 = contents.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int32 in
        var offset = 0
        while offset < buffer.count {
          let count = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
          if count < 0 {
            if errno == EINTR { continue }
            return errno
          }
          offset += count
        }
        return 0
      }
      if failure != 0 { throw SandboxError(step: "write \(name) in the box directory", errorNumber: failure) }
    }
  }

  /// Reads a regular file the box left, never following a symlink and never
  /// reading more than `limit` bytes. A planted symlink gives ELOOP, a fifo
  /// or device is refused before any read.
  public func read(name: String, limit: Int) throws(SandboxError) -> Data {
    if let problem = Self.validate(name: name) { throw SandboxError(step: problem) }
    let root = try openDirectory()
    defer { close(root) }
    let fd = dsa_open_beneath(root, name, O_RDONLY | O_NONBLOCK, 0)
    if fd < 0 { throw SandboxError(step: "open \(name) in the box directory", errorNumber: -fd) }
    defer { close(fd) }
    return try readRegularFile(fd, name: name + " in the box directory", limit: limit)
  }

  /// Reads every regular file under a directory the box left (at most
  /// `maximumFiles` files, `limit` bytes in all, 4 levels deep), with the
  /// same never-follow rules as `read`. Paths are relative to the work
  /// directory. Anything but directories and regular files is refused.
  public func readTree(name: String, limit: Int, maximumFiles: Int = 4096) throws(SandboxError) -> [(String, Data)] {
    if let problem = Self.validate(name: name) { throw SandboxError(step: problem) }
    var files: [(String, Data)] = []
    var total = 0
    var pending = [name]
    while let directoryName = pending.popLast() {
      let root = try openDirectory()
      let fd = dsa_open_beneath(root, directoryName, O_RDONLY | O_DIRECTORY, 0)
      close(root)
      if fd < 0 { throw SandboxError(step: "open \(directoryName) in the box directory", errorNumber: -fd) }
      guard let stream = fdopendir(fd) else {
        close(fd)
        throw SandboxError(step: "fdopendir \(directoryName)", errorNumber: errno)
      }
      var entries: [(String, UInt8)] = []
      while let entry = readdir(stream) {
        let entryName = withUnsafePointer(to: entry.pointee.d_name) {
          $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
        if entryName != "." && entryName != ".." { entries.append((entryName, entry.pointee.d_type)) }
      }
      closedir(stream)
      for (entryName, type) in entries.sorted(by: { $0.0 < $1.0 }) {
        let path = directoryName + "/" + entryName
        if Self.validate(name: path) != nil {
          throw SandboxError(step: "\(path) in the box directory is nested too deeply", errorNumber: ELOOP)
        }
        if type == UInt8(DT_DIR) {
          pending.append(path)
          continue
        }
        let data = try read(name: path, limit: limit - total)
        total += data.count
        files.append((path, data))
        if files.count > maximumFiles {
          throw SandboxError(
            step: "\(name) in the box directory holds more than \(maximumFiles) files", errorNumber: EFBIG)
        }
      }
    }
    return files
  }

  /// Deletes everything in the work directory (between runs of a warm box,
  /// when no box process is left). Symlinks are removed, never followed;
  /// a tree deeper than 64 levels is an error (the caller then discards
  /// the box instead).
  public func removeContents() throws(SandboxError) {
    let root = try openDirectory()
    defer { close(root) }
    try Self.removeEntries(in: root, depth: 0)
  }

  static func removeEntries(in directory: Int32, depth: Int) throws(SandboxError) {
    guard depth < 64 else {
      throw SandboxError(step: "a box left a directory tree deeper than 64 levels", errorNumber: ELOOP)
    }
    let listing = dup(directory)
    guard listing >= 0, let stream = fdopendir(listing) else {
      throw SandboxError(step: "list a box directory", errorNumber: errno)
    }
    // The copy shares the offset with `directory`, which a warm box keeps open from reset to reset.
    rewinddir(stream)
    var entries: [(String, UInt8)] = []
    while let entry = readdir(stream) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name != "." && name != ".." { entries.append((name, entry.pointee.d_type)) }
    }
    closedir(stream)
    for (name, type) in entries {
      if type == UInt8(DT_DIR) {
        let child = dsa_open_beneath(directory, name, O_RDONLY | O_DIRECTORY, 0)
        if child < 0 { throw SandboxError(step: "open \(name) to empty it", errorNumber: -child) }
        do {
          try removeEntries(in: child, depth: depth + 1)
        } catch {
          close(child)
          throw error
        }
        close(child)
        if unlinkat(directory, name, AT_REMOVEDIR) != 0 {
          throw SandboxError(step: "remove directory \(name)", errorNumber: errno)
        }
      } else if unlinkat(directory, name, 0) != 0 {
        throw SandboxError(step: "remove \(name)", errorNumber: errno)
      }
    }
  }
}

/// Reads a whole regular file from an open descriptor: anything else (fifo,
/// device, directory) is refused before any read, as is a file larger than
/// `limit`, so a planted file can neither block nor flood the reader. A
/// file that shrinks while read gives what was there.
public func readRegularFile(_ fd: Int32, name: String, limit: Int) throws(SandboxError) -> Data {
  var info = stat()
  guard fstat(fd, &info) == 0 else { throw SandboxError(step: "fstat \(name)", errorNumber: errno) }
  guard info.st_mode & S_IFMT == S_IFREG else {
    throw SandboxError(step: "\(name) is not a regular file", errorNumber: EINVAL)
  }
  guard info.st_size <= limit else {
    throw SandboxError(step: "\(name) is larger than \(limit) bytes", errorNumber: EFBIG)
  }
  var data = Data(count: Int(info.st_size))
  let total = data.withUnsafeMutableBytes { buffer -> Int in
    var offset = 0
    while offset < buffer.count {
      let count = Glibc.read(fd, buffer.baseAddress! + offset, buffer.count - offset)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      offset += count
    }
    return offset
  }
  return data.prefix(total)
}

/// A regular file opened beneath a directory, with what fstat said of it.
public struct FileBeneath {
  public let descriptor: OwnedDescriptor
  public let info: stat

  /// The whole file, refused when it has grown past `limit` since it was opened.
  public func read(limit: Int, name: String) throws(SandboxError) -> Data {
    try readRegularFile(descriptor.rawValue, name: name, limit: limit)
  }
}

/// Opens the regular file at `path` (relative) beneath the directory `root` for reading, for a
/// server that hands files of a folder to anyone who asks (the playground page): resolution never
/// leaves `root` (`openat2` with `RESOLVE_BENEATH`, so no `..` or absolute link gets out), magic
/// links are never followed, and with `symlinksWithin` false no link of any kind is followed, on
/// any component. Anything but a regular file (a directory, a fifo, a device) is refused, a fifo
/// without blocking. `root` itself is the operator's and is opened as given.
public func openRegularFile(beneath root: String, path: String, symlinksWithin: Bool) throws(SandboxError)
  -> FileBeneath
{
  let directory = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
  if directory < 0 { throw SandboxError(step: "open \(root)", errorNumber: errno) }
  defer { close(directory) }
  let fd = dsa_open_existing_beneath(directory, path, O_RDONLY | O_NONBLOCK, symlinksWithin ? 1 : 0)
  if fd < 0 { throw SandboxError(step: "open \(path) beneath \(root)", errorNumber: -fd) }
  let owned = OwnedDescriptor(fd)
  var info = stat()
  guard fstat(fd, &info) == 0 else { throw SandboxError(step: "fstat \(path) beneath \(root)", errorNumber: errno) }
  guard info.st_mode & S_IFMT == S_IFREG else {
    throw SandboxError(step: "\(path) beneath \(root) is not a regular file", errorNumber: EINVAL)
  }
  return FileBeneath(descriptor: owned, info: info)
}
