import Foundation
import Glibc
import Sandbox
import Synchronization

/// Content-addressed compile artifacts: key -> the files a compile left.
///
/// One bundle file per key under `objects/`, written to a temporary name and
/// renamed into place, so a crash or a concurrent writer never leaves a torn
/// entry (the loser of a race simply replaces an identical bundle). A hit
/// touches the bundle's mtime; when the total passes `maximumBytes` the
/// least recently used bundles are removed. Reads never follow a symlink and
/// treat anything malformed as a miss.
public final class CompileCache: Sendable {
  public let directory: String
  public let maximumBytes: UInt64
  private let approximateBytes = Atomic<UInt64>(0)
  private let hitCount = Atomic<UInt64>(0)
  private let missCount = Atomic<UInt64>(0)
  private let evictionLock = Mutex<Void>(())

  public init(directory: String, maximumBytes: UInt64 = 512 << 20) throws {
    self.directory = directory
    self.maximumBytes = maximumBytes
    for path in [directory, directory + "/objects", directory + "/tmp"] {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    // Temporary files of a crashed process are garbage.
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory + "/tmp")) ?? [] {
      unlink(directory + "/tmp/" + name)
    }
    approximateBytes.store(entries().reduce(0) { $0 + $1.size }, ordering: .relaxed)
  }

  public var hits: UInt64 { hitCount.load(ordering: .relaxed) }
  public var misses: UInt64 { missCount.load(ordering: .relaxed) }

  /// ^[0-9a-f]{64}$, without starting ICU's regular expressions.
  static func isDigest(_ key: String) -> Bool {
    key.utf8.count == 64
      && key.utf8.allSatisfy {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
      }
  }

  private func path(for key: String) -> String { directory + "/objects/" + key + ".bundle" }

  /// Whether an entry is stored under `key`, without reading it or counting a hit or a miss (a
  /// caller that only chooses its way; the way taken looks it up).
  public func contains(_ key: String) -> Bool {
    guard Self.isDigest(key) else { return false }
    var status = stat()
    return lstat(path(for: key), &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }

  /// The files stored under `key`, or nil.
  public func lookup(_ key: String) -> [(String, Data)]? {
    guard Self.isDigest(key) else { return nil }
    let path = path(for: key)
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else {
      missCount.add(1, ordering: .relaxed)
      return nil
    }
    defer { close(fd) }
    guard let data = try? readRegularFile(fd, name: path, limit: 1 << 30) else {
      missCount.add(1, ordering: .relaxed)
      return nil
    }
    guard let files = Self.decode(data) else {
      unlink(path)
      missCount.add(1, ordering: .relaxed)
      return nil
    }
    _ = futimens(fd, nil)
    hitCount.add(1, ordering: .relaxed)
    return files
  }

  /// Stores files under `key` atomically, then evicts if over budget.
  public func store(_ key: String, files: [(String, Data)]) {
    guard Self.isDigest(key) else { return }
    let bundle = Self.encode(files)
    let temporary = directory + "/tmp/\(key).\(getpid()).\(UInt64.random(in: 0...UInt64.max))"
    guard FileManager.default.createFile(atPath: temporary, contents: bundle, attributes: [.posixPermissions: 0o600])
    else { return }
    if rename(temporary, path(for: key)) != 0 {
      unlink(temporary)
      return
    }
    let total = approximateBytes.add(UInt64(bundle.count), ordering: .relaxed).newValue
    if total > maximumBytes { evict() }
  }

  private func entries() -> [(path: String, size: UInt64, used: Int)] {
    let objects = directory + "/objects"
    return ((try? FileManager.default.contentsOfDirectory(atPath: objects)) ?? []).compactMap { name in
      var info = stat()
      let path = objects + "/" + name
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
      return (path, UInt64(info.st_size), info.st_mtim.tv_sec)
    }
  }

  /// Removes least recently used bundles until the total is 90% of the budget.
  public func evict() {
    evictionLock.withLock { _ in
      var all = entries().sorted { $0.used < $1.used }
      var total = all.reduce(0) { $0 + $1.size }
      let target = maximumBytes / 10 * 9
      while total > target, !all.isEmpty {
        let oldest = all.removeFirst()
        if unlink(oldest.path) == 0 { total -= oldest.size }
      }
      approximateBytes.store(total, ordering: .relaxed)
    }
  }

  /// "DSAB" | count | (name length, name, data length, data)*, big-endian.
  static func encode(_ files: [(String, Data)]) -> Data {
    var data = Data("DSAB".utf8)
    func append(_ value: UInt64) {
      var big = value.bigEndian
      withUnsafeBytes(of: &big) { data.append(contentsOf: $0) }
    }
    append(UInt64(files.count))
    for (name, contents) in files {
      append(UInt64(name.utf8.count))
      data.append(contentsOf: name.utf8)
      append(UInt64(contents.count))
      data.append(contents)
    }
    return data
  }

  static func decode(_ data: Data) -> [(String, Data)]? {
    let bytes = [UInt8](data)
    guard bytes.count >= 12, bytes[0..<4] == [0x44, 0x53, 0x41, 0x42] else { return nil }
    var offset = 4
    func number() -> UInt64? {
      guard offset + 8 <= bytes.count else { return nil }
      let value = bytes[offset..<offset + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      offset += 8
      return value
    }
    guard let count = number(), count <= 100_000 else { return nil }
    var files: [(String, Data)] = []
    for _ in 0..<count {
      guard let nameLength = number(), nameLength <= 4096, offset + Int(nameLength) <= bytes.count else { return nil }
      let name = String(decoding: bytes[offset..<offset + Int(nameLength)], as: UTF8.self)
      offset += Int(nameLength)
      guard let size = number(), size <= UInt64(bytes.count - offset) else { return nil }
      files.append((name, Data(bytes[offset..<offset + Int(size)])))
      offset += Int(size)
    }
    return offset == bytes.count ? files : nil
  }
}
