import Glibc

/// Small, allocation-light file helpers for kernel interface files (cgroupfs,
/// procfs). These paths belong to the host, never to a box.
enum KernelFile {
  static func write(_ text: String, to path: String) throws(SandboxError) {
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    if fd < 0 { throw SandboxError(step: "open \(path)", errorNumber: errno) }
    defer { close(fd) }
    let written = text.withCString { pointer in Glibc.write(fd, pointer, strlen(pointer)) }
    if written < 0 { throw SandboxError(step: "write \(text.trimmingNewline) to \(path)", errorNumber: errno) }
  }

  static func read(_ path: String, limit: Int = 4_096) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 { return nil }
    defer { close(fd) }
    // Grown (doubled) as the file turns out longer: zeroing the whole limit up front (4 MiB for
    // mountinfo) cost every CLI start a thousand page faults, and 64 KB for each of the dozen
    // small files a start reads was still a tenth of a millisecond.
    var bytes = [UInt8](repeating: 0, count: min(limit, 4_096))
    var total = 0
    while total < limit {
      if total == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit - total))) }
      let count = bytes.withUnsafeMutableBytes { buffer in
        Glibc.read(fd, buffer.baseAddress! + total, buffer.count - total)
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      total += count
    }
    return String(decoding: bytes[0..<total], as: UTF8.self)
  }

  static func readNumber(_ path: String) -> UInt64? {
    guard let text = read(path, limit: 64) else { return nil }
    return UInt64(text.trimmed)
  }

  /// A value from a "key value" file such as memory.events or cpu.stat.
  static func readKey(_ key: String, in path: String) -> UInt64? {
    guard let text = read(path) else { return nil }
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: " ")
      if parts.count == 2, parts[0] == key { return UInt64(parts[1]) }
    }
    return nil
  }

  static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}

extension String {
  var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }

  /// Without surrounding spaces, tabs and newlines.
  var trimmed: String {
    var characters = Substring(self)
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    while let first = characters.first, blank(first) { characters.removeFirst() }
    while let last = characters.last, blank(last) { characters.removeLast() }
    return String(characters)
  }
}

extension Substring {
  var trimmed: String { String(self).trimmed }
}
