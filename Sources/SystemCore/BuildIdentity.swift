import Glibc

/// Which dsa-run this is: the version, set by hand in this file when a release is made, and the
/// build, the GNU build ID the linker wrote into the running executable (a hash of its contents,
/// the one `file` and `readelf -n` print). Two binaries of one version built from different sources
/// or with other flags have different builds; the same binary always has the same one.
public enum BuildIdentity {
  /// The release version of dsa-run and dsa-rund.
  public static let version = "0.1.0"

  /// The running executable's GNU build ID in hex, or "unknown" when it was linked without one.
  public static let build: String = mainProgramBuildID() ?? "unknown"

  /// `version (build BUILD)`, as `--version` prints it.
  public static var description: String { "\(version) (build \(build))" }
}

/// The NT_GNU_BUILD_ID note of the running executable, read from the PT_NOTE segments of
/// `/proc/self/exe` (ELF64, little-endian, as every platform dsa-run runs on).
func mainProgramBuildID() -> String? {
  let descriptor = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  func bytes(at offset: Int, count: Int) -> [UInt8]? {
    guard count >= 0, count <= 1 << 20 else { return nil }
    var buffer = [UInt8](repeating: 0, count: count)
    let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
    return read == count ? buffer : nil
  }
  guard let header = bytes(at: 0, count: 64), header.starts(with: [0x7F, 0x45, 0x4C, 0x46, 2, 1]) else { return nil }
  let headerTableOffset = Int(littleEndian(header, at: 32, as: UInt64.self))
  let entrySize = Int(littleEndian(header, at: 54, as: UInt16.self))
  let entryCount = Int(littleEndian(header, at: 56, as: UInt16.self))
  guard entrySize >= 56, let table = bytes(at: headerTableOffset, count: entrySize * entryCount) else { return nil }
  for index in 0..<entryCount {
    let entry = index * entrySize
    let noteSegment: UInt32 = 4  // PT_NOTE
    guard littleEndian(table, at: entry, as: UInt32.self) == noteSegment,
      let notes = bytes(
        at: Int(littleEndian(table, at: entry + 8, as: UInt64.self)),
        count: Int(littleEndian(table, at: entry + 32, as: UInt64.self)))
    else { continue }
    // Notes are padded to their segment's alignment (4, or 8 for .note.gnu.property).
    if let found = buildIDNote(notes, alignment: max(4, Int(littleEndian(table, at: entry + 48, as: UInt64.self)))) {
      return found.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
  }
  return nil
}

private func buildIDNote(_ notes: [UInt8], alignment: Int) -> [UInt8]? {
  let buildIDType: UInt32 = 3  // NT_GNU_BUILD_ID
  func padded(_ size: Int) -> Int { (size + alignment - 1) / alignment * alignment }
  var offset = 0
  while offset + 12 <= notes.count {
    let nameSize = Int(littleEndian(notes, at: offset, as: UInt32.self))
    let descriptionSize = Int(littleEndian(notes, at: offset + 4, as: UInt32.self))
    let type = littleEndian(notes, at: offset + 8, as: UInt32.self)
    let nameOffset = offset + 12
    let descriptionOffset = nameOffset + padded(nameSize)
    guard nameSize <= notes.count, descriptionSize <= notes.count, descriptionOffset + descriptionSize <= notes.count
    else { return nil }
    if type == buildIDType && notes[nameOffset..<nameOffset + nameSize].elementsEqual(Array("GNU\0".utf8))
      && descriptionSize > 0
    {
      return Array(notes[descriptionOffset..<descriptionOffset + descriptionSize])
    }
    offset = descriptionOffset + padded(descriptionSize)
  }
  return nil
}

private func littleEndian<Value: FixedWidthInteger>(_ bytes: [UInt8], at offset: Int, as: Value.Type) -> Value {
  var value = Value.zero
  for index in (0..<MemoryLayout<Value>.size).reversed() { value = value << 8 | Value(bytes[offset + index]) }
  return value
}
