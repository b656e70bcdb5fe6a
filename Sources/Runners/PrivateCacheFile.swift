import Foundation
import Glibc

/// Small cache entries kept by root for root (compiled seccomp filters, probed toolchain versions):
/// the directory is created 0700, an entry is written under a temporary name and renamed into
/// place, and it is read only when it is a regular file (no symlink) owned by this user and writable
/// by no one else, in a directory of the same kind. Anything else is a miss, so a tampered or broken
/// cache costs a recomputation, never a wrong answer.
public enum PrivateCacheFile {
  /// Owned by this user, writable by no one else.
  public static func isPrivate(_ info: stat) -> Bool {
    info.st_uid == geteuid() && info.st_mode & 0o022 == 0
  }

  /// The entry `name` of `directory`, when it is private and at most `limit` bytes; else nil.
  public static func read(directory: String, name: String, limit: Int) -> Data? {
    var directoryInfo = stat()
    guard lstat(directory, &directoryInfo) == 0, directoryInfo.st_mode & S_IFMT == S_IFDIR, isPrivate(directoryInfo)
    else { return nil }
    let fd = open(directory + "/" + name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, isPrivate(info), info.st_size <= limit else {
      return nil
    }
    // One byte more than the size, to see the end in one read.
    let capacity = Int(info.st_size) + 1
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { buffer.deallocate() }
    var data = Data()
    while true {
      let count = Glibc.read(fd, buffer, capacity)
      if count == 0 { break }
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      data.append(buffer, count: count)
      if data.count > limit { return nil }
    }
    return data
  }

  /// Best effort: a cache that cannot be written only costs the next start a recomputation.
  public static func write(_ bytes: Data, directory: String, name: String) {
    if mkdir(directory, 0o700) != 0 && errno != EEXIST { return }
    var directoryInfo = stat()
    guard lstat(directory, &directoryInfo) == 0, directoryInfo.st_mode & S_IFMT == S_IFDIR, isPrivate(directoryInfo)
    else { return }
    let temporary = directory + "/.\(name).\(getpid()).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    close(fd)
    if written != bytes.count || rename(temporary, directory + "/" + name) != 0 { unlink(temporary) }
  }
}

/// 64-bit FNV-1a (Fowler, Noll, Vo): a fast hash with no secret and no resistance to a chosen
/// collision, for names and accidental-damage checks only.
public enum FNV1a64 {
  public static func hash<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      value ^= UInt64(byte)
      value &*= 0x0000_0100_0000_01b3
    }
    return value
  }

  /// Sixteen lowercase hex digits.
  public static func hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    let text = String(hash(bytes), radix: 16)
    return String(repeating: "0", count: 16 - text.count) + text
  }
}
