import Foundation

/// The strict reader's own JSON parser: one pass over the bytes that builds the `JSONValue`, finds
/// the first key given twice and keeps the text of long whole numbers, all that `JSONDecoder` plus
/// `DuplicateKeys.scan` gave, in a tenth of their time (Foundation's decoder decoded every value
/// through `Codable`, trying each JSON type in turn and building an error for each miss: about
/// 1.3 ms of a one-shot CLI's start for the 900-byte runners/python.json).
///
/// It accepts only what it is sure Foundation's decoder accepts alike: an object or an array at
/// the top, RFC 8259 numbers that are finite Doubles, strings of valid UTF-8 without raw control
/// characters, at most `DuplicateKeys`' nesting. On anything else it returns nil and the reader
/// falls back to Foundation's decoder, whose message names the syntax error, so a document that is
/// not JSON is reported exactly as before.
enum JSONBytes {
  /// What one pass found.
  struct Parsed {
    var value: JSONValue
    /// The path of the first key an object holds twice, as `DuplicateKeys` names it.
    var duplicate: String?
    /// The literal text of every whole number of more than 15 digits, by path.
    var longWholeNumbers: [String: String]
  }

  /// One pass over `bytes`; nil when the text is not plain JSON of the kind this parser takes.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Parsed? {
    var parser = Parser(bytes: bytes)
    parser.skipSpace()
    guard parser.index < bytes.count,
      bytes[parser.index] == UInt8(ascii: "{") || bytes[parser.index] == UInt8(ascii: "[")
    else { return nil }
    guard let value = parser.value(depth: 0) else { return nil }
    parser.skipSpace()
    guard parser.index == bytes.count else { return nil }
    return Parsed(value: value, duplicate: parser.duplicate, longWholeNumbers: parser.longWholeNumbers)
  }

  /// One step of a path: an object's key or an array's index.
  private enum Step {
    case key(String)
    case index(Int)
  }

  private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var duplicate: String?
    var longWholeNumbers: [String: String] = [:]
    /// Where the parser is, built into a path string only when one is needed.
    var steps: [Step] = []

    /// `DuplicateKeys.Walker.maximumDepth`: deeper documents go to Foundation's decoder, as before.
    static let maximumDepth = 256

    mutating func skipSpace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D: index += 1
        default: return
        }
      }
    }

    /// The path of where the parser is, written as `DuplicateKeys` writes it.
    func path() -> String {
      var path = ""
      for step in steps {
        switch step {
        case .key(let key): path = path.isEmpty ? key : path + "." + key
        case .index(let element): path += "[\(element)]"
        }
      }
      return path
    }

    mutating func value(depth: Int) -> JSONValue? {
      guard depth < Self.maximumDepth else { return nil }
      skipSpace()
      guard index < bytes.count else { return nil }
      switch bytes[index] {
      case UInt8(ascii: "{"): return object(depth: depth)
      case UInt8(ascii: "["): return array(depth: depth)
      case UInt8(ascii: "\""): return string().map(JSONValue.string)
      case UInt8(ascii: "t"): return literal("true", .bool(true))
      case UInt8(ascii: "f"): return literal("false", .bool(false))
      case UInt8(ascii: "n"): return literal("null", .null)
      default: return number()
      }
    }

    mutating func literal(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
      let count = text.utf8CodeUnitCount
      guard bytes.count - index >= count else { return nil }
      for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return nil }
      index += count
      return value
    }

    mutating func object(depth: Int) -> JSONValue? {
      index += 1
      var fields: [String: JSONValue] = [:]
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(fields)
      }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        steps.append(.key(key))
        if duplicate == nil, fields[key] != nil { duplicate = path() }
        guard let item = value(depth: depth + 1) else { return nil }
        steps.removeLast()
        fields[key] = item
        skipSpace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "}") else { return nil }
        index += 1
        return .object(fields)
      }
    }

    mutating func array(depth: Int) -> JSONValue? {
      index += 1
      var items: [JSONValue] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      while true {
        steps.append(.index(items.count))
        guard let item = value(depth: depth + 1) else { return nil }
        steps.removeLast()
        items.append(item)
        skipSpace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "]") else { return nil }
        index += 1
        return .array(items)
      }
    }

    /// A string at `index` (its opening quote), escapes decoded.
    mutating func string() -> String? {
      index += 1
      let start = index
      var plainASCII = true
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
          index += 1
          return plainASCII ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
        }
        if byte == UInt8(ascii: "\\") {
          index = start
          return escapedString()
        }
        if byte < 0x20 { return nil }
        if byte >= 0x80 { plainASCII = false }
        index += 1
      }
      return nil
    }

    /// The slow way, for a string with escapes: byte by byte into a buffer.
    mutating func escapedString() -> String? {
      var decoded: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          return String(validating: decoded, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard index < bytes.count else { return nil }
          let escape = bytes[index]
          index += 1
          switch escape {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
          case UInt8(ascii: "b"): decoded.append(0x08)
          case UInt8(ascii: "f"): decoded.append(0x0C)
          case UInt8(ascii: "n"): decoded.append(0x0A)
          case UInt8(ascii: "r"): decoded.append(0x0D)
          case UInt8(ascii: "t"): decoded.append(0x09)
          case UInt8(ascii: "u"):
            guard var scalar = hex4() else { return nil }
            if (0xD800...0xDBFF).contains(scalar) {
              // A UTF-16 surrogate pair; a lone half goes to Foundation's decoder.
              guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
              else { return nil }
              index += 2
              guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { return nil }
            decoded.append(contentsOf: UTF8.encode(unicode)!)
          default: return nil
          }
        default:
          if byte < 0x20 { return nil }
          decoded.append(byte)
        }
      }
      return nil
    }

    mutating func hex4() -> UInt32? {
      guard bytes.count - index >= 4 else { return nil }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[index]
        index += 1
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: return nil
        }
        value = value << 4 | UInt32(digit)
      }
      return value
    }

    /// An RFC 8259 number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    mutating func number() -> JSONValue? {
      let start = index
      func isDigit(_ at: Int) -> Bool {
        at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9")
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard isDigit(index) else { return nil }
      if bytes[index] == UInt8(ascii: "0") {
        index += 1
      } else {
        while isDigit(index) { index += 1 }
      }
      let integerEnd = index
      var whole = true
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        whole = false
        index += 1
        guard isDigit(index) else { return nil }
        while isDigit(index) { index += 1 }
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
        whole = false
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        let exponentStart = index
        guard isDigit(index) else { return nil }
        while isDigit(index) { index += 1 }
        // Exponents that long are left to Foundation's own rules.
        guard index - exponentStart <= 4 else { return nil }
      }
      let literal = UnsafeBufferPointer(rebasing: bytes[start..<index])
      guard literal.count <= 64 else { return nil }
      let negative = bytes[start] == UInt8(ascii: "-")
      let digits = integerEnd - start - (negative ? 1 : 0)
      if whole, digits <= 15 {
        var magnitude: Int64 = 0
        for byte in bytes[(negative ? start + 1 : start)..<integerEnd] {
          magnitude = magnitude * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return .number(negative ? -Double(magnitude) : Double(magnitude))
      }
      if whole { longWholeNumbers[path()] = String(decoding: literal, as: UTF8.self) }
      guard let number = Double(String(decoding: literal, as: UTF8.self)), number.isFinite else { return nil }
      // An underflow to zero (1e-400) is left to Foundation's decoder too.
      if number == 0, literal.contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }) { return nil }
      return .number(number)
    }
  }
}

extension JSONBytes {
  /// Foundation's reason for refusing a text, in one line.
  struct NotJSON: Error {
    var explanation: String
  }

  /// What `parse` leaves, read as every document was before it: Foundation's decoder, then
  /// `DuplicateKeys.scan` for what the decoder does not say.
  static func parseWithFoundation(_ data: Data) -> Result<Parsed, NotJSON> {
    guard JSONNesting.depth(of: data) <= JSONNesting.maximumDepth else {
      return .failure(NotJSON(explanation: "nested deeper than \(JSONNesting.maximumDepth) levels"))
    }
    let value: JSONValue
    do {
      value = try JSONDecoder().decode(JSONValue.self, from: data)
    } catch {
      return .failure(NotJSON(explanation: StrictReader.explain(error)))
    }
    let scan = DuplicateKeys.scan(data)
    return .success(Parsed(value: value, duplicate: scan.duplicate, longWholeNumbers: scan.longWholeNumbers))
  }
}
