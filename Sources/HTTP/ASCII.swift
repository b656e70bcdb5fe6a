// Byte classes from RFC 9110 §5.6 and RFC 9112. The parser works on bytes
// until a line is complete, so these are plain table look-ups, not Strings.

/// Named bytes, so the parser reads like the grammar.
enum ASCII {
  static let tab: UInt8 = 0x09
  static let lineFeed: UInt8 = 0x0A
  static let carriageReturn: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let comma: UInt8 = 0x2C
  static let colon: UInt8 = 0x3A
  static let semicolon: UInt8 = 0x3B

  /// `tchar`: the bytes of a token (methods, field names).
  static func isTokenByte(_ byte: UInt8) -> Bool { tokenTable[Int(byte)] }

  /// `field-vchar` plus the spaces allowed inside a field value: HTAB, SP,
  /// VCHAR and obs-text. Every other control byte (NUL, CR, LF, DEL...) is out.
  static func isFieldValueByte(_ byte: UInt8) -> Bool {
    byte == tab || (byte >= space && byte != 0x7F)
  }

  /// VCHAR: what a request target may hold. Raw UTF-8 must be percent-encoded.
  static func isVisible(_ byte: UInt8) -> Bool { byte > space && byte < 0x7F }

  /// OWS / BWS.
  static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// The value of a HEXDIG, or nil.
  static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case 0x30...0x39: return Int(byte - 0x30)
    case 0x41...0x46: return Int(byte - 0x41 + 10)
    case 0x61...0x66: return Int(byte - 0x61 + 10)
    default: return nil
    }
  }

  static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

  /// Field names and connection options compare without regard to ASCII case
  /// (RFC 9110 §5.1); Foundation's locale-aware comparison is not wanted here.
  static func equalsIgnoringCase(_ left: some StringProtocol, _ right: some StringProtocol) -> Bool {
    left.utf8.count == right.utf8.count && zip(left.utf8, right.utf8).allSatisfy { lowercased($0) == lowercased($1) }
  }

  /// The elements of a comma-separated list field, trimmed of OWS, without
  /// the empty elements RFC 9110 §5.6.1 tells recipients to ignore.
  static func listElements(_ value: String) -> [Substring] {
    // Split bytes, not Characters: a comma followed by a combining mark is
    // still a comma to HTTP.
    value.utf8.split(separator: comma).compactMap { element in
      let trimmed = Substring(element).trimmingASCIIWhitespace()
      return trimmed.isEmpty ? nil : trimmed
    }
  }

  private static let tokenTable: [Bool] = (0...255).map { value in
    let byte = UInt8(value)
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }
}

extension Substring {
  /// Drops leading and trailing SP and HTAB only (OWS), never other Unicode
  /// space; works on bytes so a space followed by a combining mark still counts.
  func trimmingASCIIWhitespace() -> Substring {
    var start = utf8.startIndex
    var end = utf8.endIndex
    while start < end, ASCII.isWhitespace(utf8[start]) { start = utf8.index(after: start) }
    while end > start, ASCII.isWhitespace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
    return Substring(utf8[start..<end])
  }
}
