internal import CZlib
import Foundation
import Sandbox

/// A bounded reader of the zip archives Judge0's `additional_files` carries: the central directory
/// is read, each entry must be stored or deflated, its name must pass our box path rules (no `..`,
/// no absolute path), and the sum of what it unpacks to is capped before and while it inflates, so
/// a zip bomb is refused without being expanded.
public enum Judge0Zip {
  /// One unpacked file.
  public struct Entry: Sendable, Equatable {
    public var name: String
    public var contents: Data
  }

  /// Why an archive is refused; `message` is the 422's sentence.
  public struct Problem: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// The files of `archive` (directories left out), at most `maximumEntries` of them unpacking to at
  /// most `maximumBytes` together.
  public static func entries(of archive: Data, maximumBytes: Int, maximumEntries: Int = 256) throws(Problem)
    -> [Entry]
  {
    let bytes = [UInt8](archive)
    func fail(_ message: String) -> Problem { Problem(message: "additional_files: \(message)") }
    func u16(_ at: Int) throws(Problem) -> Int {
      guard at >= 0, at + 2 <= bytes.count else { throw fail("is not a zip archive (truncated)") }
      return Int(bytes[at]) | Int(bytes[at + 1]) << 8
    }
    func u32(_ at: Int) throws(Problem) -> Int { try u16(at) | (try u16(at + 2)) << 16 }

    // The end-of-central-directory record is within the last 64 KiB + 22 bytes (its comment).
    var end = -1
    var probe = bytes.count - 22
    while probe >= max(0, bytes.count - 22 - 65_535) {
      if bytes[probe] == 0x50, bytes[probe + 1] == 0x4B, bytes[probe + 2] == 0x05, bytes[probe + 3] == 0x06 {
        end = probe
        break
      }
      probe -= 1
    }
    guard end >= 0 else { throw fail("is not a zip archive (no end of central directory)") }
    let count = try u16(end + 10)
    guard count <= maximumEntries else { throw fail("holds \(count) entries; at most \(maximumEntries)") }
    var offset = try u32(end + 16)
    var total = 0
    var entries: [Entry] = []
    var seen: Set<String> = []
    for _ in 0..<count {
      guard try u32(offset) == 0x0201_4B50 else { throw fail("has a damaged central directory") }
      let flags = try u16(offset + 8)
      let method = try u16(offset + 10)
      let crc = UInt32(try u32(offset + 16))
      let compressedSize = try u32(offset + 20)
      let size = try u32(offset + 24)
      let nameLength = try u16(offset + 28)
      let extraLength = try u16(offset + 30)
      let commentLength = try u16(offset + 32)
      let localOffset = try u32(offset + 42)
      guard offset + 46 + nameLength <= bytes.count else { throw fail("is not a zip archive (truncated)") }
      let name = String(decoding: bytes[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self)
      offset += 46 + nameLength + extraLength + commentLength
      if name.hasSuffix("/") { continue }
      if flags & 1 != 0 { throw fail("entry \"\(name)\" is encrypted") }
      if let problem = BoxDirectory.validate(name: name) { throw fail("entry \"\(name)\": \(problem)") }
      guard seen.insert(name).inserted else { throw fail("entry \"\(name)\" is given twice") }
      total += size
      guard total <= maximumBytes else {
        throw fail("unpacks to more than \(maximumBytes) bytes (max_extract_size); refused as a zip bomb")
      }
      guard try u32(localOffset) == 0x0403_4B50 else { throw fail("entry \"\(name)\" has no local header") }
      let start = localOffset + 30 + (try u16(localOffset + 26)) + (try u16(localOffset + 28))
      guard start + compressedSize <= bytes.count else { throw fail("entry \"\(name)\" is truncated") }
      let packed = Array(bytes[start..<(start + compressedSize)])
      let contents: [UInt8]
      switch method {
      case 0:
        guard compressedSize == size else { throw fail("entry \"\(name)\" has inconsistent sizes") }
        contents = packed
      case 8:
        guard let inflated = inflate(packed, limit: size) else {
          throw fail("entry \"\(name)\" does not inflate to its stated \(size) bytes")
        }
        contents = inflated
      default:
        throw fail("entry \"\(name)\" uses compression method \(method); only stored (0) and deflate (8) are read")
      }
      guard UInt32(truncatingIfNeeded: crc32(0, contents, UInt32(contents.count))) == crc else {
        throw fail("entry \"\(name)\" fails its CRC check")
      }
      entries.append(Entry(name: name, contents: Data(contents)))
    }
    return entries
  }

  /// Raw deflate of `packed` into at most `limit` bytes: nil when it is damaged or unpacks to
  /// anything but exactly `limit` (a header that understates its size is a bomb's trick).
  static func inflate(_ packed: [UInt8], limit: Int) -> [UInt8]? {
    var stream = z_stream()
    guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    defer { inflateEnd(&stream) }
    // One byte of room past the limit, to see whether the data goes on.
    var output = [UInt8](repeating: 0, count: limit + 1)
    var input = packed
    let status = input.withUnsafeMutableBufferPointer { inputBuffer in
      output.withUnsafeMutableBufferPointer { outputBuffer in
        stream.next_in = inputBuffer.baseAddress
        stream.avail_in = UInt32(inputBuffer.count)
        stream.next_out = outputBuffer.baseAddress
        stream.avail_out = UInt32(outputBuffer.count)
        return CZlib.inflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END, Int(stream.total_out) == limit else { return nil }
    return Array(output.prefix(limit))
  }
}
