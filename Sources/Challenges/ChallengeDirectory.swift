import Foundation
import Glibc
import Sandbox

// Challenge files are data that others write (and that a daemon may load from a shared folder), so
// a path in challenge.json never leaves the challenge directory: no "..", no absolute path, and no
// symbolic link anywhere beneath the directory. Each component is opened with O_NOFOLLOW from the
// directory's descriptor, and files are read with a size bound.

/// A challenge directory opened once; every read resolves beneath it without following a link.
final class ChallengeDirectory {
  /// The path as given, for messages.
  let path: String
  private let descriptor: Int32

  /// Opens `path` (which itself may be reached through links: the caller chose it).
  init(path: String) throws(ChallengeFileError) {
    self.path = path
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw ChallengeFileError(Self.describe(errno, name: path)) }
    descriptor = fd
  }

  /// Opens the entry `name` of `parent` as a challenge directory, refusing a link.
  init(entry name: String, of parent: ChallengeDirectory) throws(ChallengeFileError) {
    path = parent.path.hasSuffix("/") ? parent.path + name : parent.path + "/" + name
    let fd = openat(parent.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw ChallengeFileError(parent.describeFailure(errno, component: name, shown: name)) }
    descriptor = fd
  }

  deinit { close(descriptor) }

  /// Why a relative path from challenge.json is not acceptable, or nil.
  static func validate(relativePath path: String) -> String? {
    if path.isEmpty { return "the path is empty" }
    if path.hasPrefix("/") { return "the path must be relative to the challenge directory, not absolute" }
    if path.utf8.count > 255 { return "the path is longer than 255 bytes" }
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    if parts.contains("..") { return "the path may not contain \"..\": files stay inside the challenge directory" }
    if parts.contains(where: { $0.isEmpty || $0 == "." }) { return "the path has an empty or \".\" component" }
    if parts.count > 4 { return "the path is nested more than 4 levels deep" }
    if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\\" }) {
      return "the path contains a control character or a backslash"
    }
    return nil
  }

  /// Reads the regular file at `relativePath`, at most `limit` bytes.
  func read(_ relativePath: String, limit: Int) throws(ChallengeFileError) -> Data {
    if let problem = Self.validate(relativePath: relativePath) {
      throw ChallengeFileError("\(relativePath): \(problem)")
    }
    let parts = relativePath.split(separator: "/").map(String.init)
    var directory = descriptor
    var opened: [Int32] = []
    defer { for fd in opened { close(fd) } }
    for (index, part) in parts.enumerated() {
      let last = index == parts.count - 1
      let flags =
        last ? O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
      let fd = openat(directory, part, flags)
      guard fd >= 0 else {
        let shown = parts[...index].joined(separator: "/")
        throw ChallengeFileError(Self.failure(errno, directory: directory, component: part, shown: shown))
      }
      opened.append(fd)
      directory = fd
    }
    var info = stat()
    guard fstat(directory, &info) == 0 else { throw ChallengeFileError("\(relativePath): cannot be read") }
    guard info.st_mode & S_IFMT == S_IFREG else { throw ChallengeFileError("\(relativePath): is not a regular file") }
    guard info.st_size <= limit else {
      throw ChallengeFileError("\(relativePath): is \(info.st_size) bytes, more than the \(Self.size(limit)) allowed")
    }
    do {
      return try readRegularFile(directory, name: relativePath, limit: limit)
    } catch {
      throw ChallengeFileError("\(relativePath): \(error)")
    }
  }

  /// A directory entry: its name and whether it is a regular file, a directory, or something else.
  struct Entry {
    enum Kind { case file, directory, link, other }
    var name: String
    var kind: Kind
  }

  /// The entries of the directory at `relativePath` ("" for the challenge directory itself), sorted by
  /// name without "." and ".."; nil when it does not exist.
  func list(_ relativePath: String) throws(ChallengeFileError) -> [Entry]? {
    var fd: Int32
    if relativePath.isEmpty {
      fd = dup(descriptor)
    } else {
      if let problem = Self.validate(relativePath: relativePath) {
        throw ChallengeFileError("\(relativePath): \(problem)")
      }
      fd = descriptor
      var opened: [Int32] = []
      for part in relativePath.split(separator: "/").map(String.init) {
        let next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        let failure = errno
        if next < 0 {
          let message = Self.failure(failure, directory: fd, component: part, shown: relativePath)
          for open in opened { close(open) }
          if failure == ENOENT { return nil }
          throw ChallengeFileError(message)
        }
        opened.append(next)
        fd = next
      }
      for open in opened.dropLast() { close(open) }
    }
    guard fd >= 0, let stream = fdopendir(fd) else {
      throw ChallengeFileError("\(relativePath.isEmpty ? path : relativePath): cannot be listed")
    }
    defer { closedir(stream) }
    var entries: [Entry] = []
    while let entry = readdir(stream) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name == "." || name == ".." { continue }
      var info = stat()
      guard fstatat(dirfd(stream), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
      let kind: Entry.Kind
      switch info.st_mode & S_IFMT {
      case S_IFREG: kind = .file
      case S_IFDIR: kind = .directory
      case S_IFLNK: kind = .link
      default: kind = .other
      }
      entries.append(Entry(name: name, kind: kind))
    }
    return entries.sorted { $0.name < $1.name }
  }

  private func describeFailure(_ error: Int32, component: String, shown: String) -> String {
    Self.failure(error, directory: descriptor, component: component, shown: shown)
  }

  /// A failed open in plain words; a link is named as such whatever errno the kernel chose.
  private static func failure(_ error: Int32, directory: Int32, component: String, shown: String) -> String {
    var info = stat()
    if fstatat(directory, component, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFLNK {
      return "\(shown): is a symbolic link; challenge files may not be links"
    }
    return describe(error, name: shown)
  }

  private static func describe(_ error: Int32, name: String) -> String {
    switch error {
    case ENOENT: return "\(name): no such file"
    case ENOTDIR: return "\(name): a part of the path is not a directory"
    case EACCES: return "\(name): permission denied"
    case ELOOP: return "\(name): is a symbolic link; challenge files may not be links"
    default: return "\(name): cannot be opened (\(String(cString: strerror(error))))"
    }
  }

  /// "64 KiB", "1 MiB".
  static func size(_ bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}

/// A file that cannot be read, in words that name it ("tests/x.in: no such file").
struct ChallengeFileError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
