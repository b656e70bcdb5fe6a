import Glibc

/// Small, allocation-light file helpers for kernel interface files (cgroupfs,
/// procfs). These paths belong to the host, never to a box.
enum KernelFile {
  static func write(_ text: String, to path: String) throws(SandboxError) {
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    if fd < 0 { throw SandboxError(step: "open \(path)", errorNumber: errno) }
    defer { close(fd) }
    try write(text, descriptor: fd, positioned: false, path: path)
  }

  /// Writes `text` in one call to the file open as `fd` (`path` names it in the error); at
  /// offset 0 when `positioned`, for a descriptor kept for many writes (procfs files such as
  /// uid_map refuse a positioned write).
  static func write(
    _ text: String, descriptor fd: Int32, positioned: Bool = true, path: @autoclosure () -> String
  ) throws(SandboxError) {
    let written = text.withCString { pointer in
      positioned ? pwrite(fd, pointer, strlen(pointer), 0) : Glibc.write(fd, pointer, strlen(pointer))
    }
    if written < 0 { throw SandboxError(step: "write \(text.trimmingNewline) to \(path())", errorNumber: errno) }
  }

  static func read(_ path: String, limit: Int = 4_096) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 { return nil }
    defer { close(fd) }
    return read(descriptor: fd, positioned: false, limit: limit)
  }

  /// The whole file behind `fd`; from offset 0 when `positioned`, for a descriptor kept for many
  /// readings (a seq_file read from offset 0 is generated afresh).
  static func read(descriptor fd: Int32, positioned: Bool = true, limit: Int = 4_096) -> String? {
    // Grown (doubled) as the file turns out longer: zeroing the whole limit up front (4 MiB for
    // mountinfo) cost every CLI start a thousand page faults, and 64 KB for each of the dozen
    // small files a start reads was still a tenth of a millisecond.
    var bytes = [UInt8](repeating: 0, count: min(limit, 4_096))
    var total = 0
    while total < limit {
      if total == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit - total))) }
      let count = bytes.withUnsafeMutableBytes { buffer in
        positioned
          ? pread(fd, buffer.baseAddress! + total, buffer.count - total, off_t(total))
          : Glibc.read(fd, buffer.baseAddress! + total, buffer.count - total)
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      total += count
    }
    return String(decoding: bytes[0..<total], as: UTF8.self)
  }

  static func readNumber(_ path: String) -> UInt64? {
    read(path, limit: 64).flatMap(number)
  }

  /// The number a file such as memory.peak holds, nil when it holds something else.
  static func number(_ text: String) -> UInt64? { UInt64(text.trimmed) }

  /// A value from a "key value" file such as memory.events or cpu.stat.
  static func readKey(_ key: String, in path: String) -> UInt64? {
    read(path).flatMap { value(of: key, in: $0) }
  }

  /// The value of `key` in the text of a "key value" file.
  static func value(of key: String, in text: String) -> UInt64? {
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
