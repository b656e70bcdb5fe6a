import Foundation

/// Finds a key that an object of a JSON text holds twice. Foundation's decoder keeps one of the two
/// silently, so `{"limits": {...}, "limits": {}}` would run with whichever it kept; a request that
/// says two things at once is refused instead.
///
/// A small recursive walk over the bytes that understands only what it must (strings with their
/// escapes, nesting); on anything malformed it gives up and returns nil, and the decoder that
/// follows reports the syntax error.
public enum DuplicateKeys {
  /// The path of the first key found twice (`limits.cpu_ms`, `files[1].name`), or nil.
  public static func first(in data: Data) -> String? { scan(data).duplicate }

  /// The first key found twice, and the literal text of every whole number too long for a Double to
  /// hold exactly (more than 15 digits), by path: `JSONValue` keeps numbers as Doubles, and a
  /// seccomp mask of 2^64 - 1 must still be read as exactly that.
  public static func scan(_ data: Data) -> (duplicate: String?, longWholeNumbers: [String: String]) {
    data.withUnsafeBytes { raw -> (String?, [String: String]) in
      var walker = Walker(bytes: raw.bindMemory(to: UInt8.self))
      let duplicate = (try? walker.value(path: "", depth: 0)) ?? nil
      return (duplicate, walker.longWholeNumbers)
    }
  }

  private struct Malformed: Error {}

  private struct Walker {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var longWholeNumbers: [String: String] = [:]
    static let maximumDepth = 256

    mutating func skipSpace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// Walks one value; returns the path of a duplicated key inside it, if any.
    mutating func value(path: String, depth: Int) throws -> String? {
      guard depth < Self.maximumDepth else { throw Malformed() }
      skipSpace()
      guard index < bytes.count else { throw Malformed() }
      switch bytes[index] {
      case UInt8(ascii: "{"):
        index += 1
        var seen: Set<String> = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
          index += 1
          return nil
        }
        while true {
          skipSpace()
          let key = try string()
          let keyPath = path.isEmpty ? key : path + "." + key
          if !seen.insert(key).inserted { return keyPath }
          skipSpace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw Malformed() }
          index += 1
          if let found = try value(path: keyPath, depth: depth + 1) { return found }
          skipSpace()
          guard index < bytes.count else { throw Malformed() }
          if bytes[index] == UInt8(ascii: ",") {
            index += 1
            continue
          }
          guard bytes[index] == UInt8(ascii: "}") else { throw Malformed() }
          index += 1
          return nil
        }
      case UInt8(ascii: "["):
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
          index += 1
          return nil
        }
        var element = 0
        while true {
          if let found = try value(path: "\(path)[\(element)]", depth: depth + 1) { return found }
          element += 1
          skipSpace()
          guard index < bytes.count else { throw Malformed() }
          if bytes[index] == UInt8(ascii: ",") {
            index += 1
            continue
          }
          guard bytes[index] == UInt8(ascii: "]") else { throw Malformed() }
          index += 1
          return nil
        }
      case UInt8(ascii: "\""):
        _ = try string()
        return nil
      default:
        // A number, true, false or null: up to the next delimiter.
        let start = index
        while index < bytes.count, !",]} \t\r\n".utf8.contains(bytes[index]) { index += 1 }
        guard index > start else { throw Malformed() }
        let literal = UnsafeBufferPointer(rebasing: bytes[start..<index])
        let digits = literal.first == UInt8(ascii: "-") ? literal.count - 1 : literal.count
        if digits > 15,
          literal.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") })
        {
          longWholeNumbers[path] = String(decoding: literal, as: UTF8.self)
        }
        return nil
      }
    }

    /// A string, its escapes decoded (so `"a"` and `"\u0061"` are the same key).
    mutating func string() throws -> String {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Malformed() }
      let start = index
      index += 1
      var escaped = false
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\\") {
          escaped = true
          index += 1
          continue
        }
        if byte == UInt8(ascii: "\"") {
          let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
          if !escaped { return String(decoding: text.dropFirst().dropLast(), as: UTF8.self) }
          guard let decoded = try? JSONDecoder().decode(String.self, from: Data(text)) else { throw Malformed() }
          return decoded
        }
      }
      throw Malformed()
    }
  }
}
