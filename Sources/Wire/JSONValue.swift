import Foundation

/// A JSON value: the fields of a step and the options of a checker.
///
/// Numbers are `Double`s, so `1` and `1.0` are equal and integers beyond 2^53 lose precision;
/// steps hold indices and small values, where this never matters.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// The value as compact JSON with sorted keys, for messages and step lines.
  public var json: String {
    var out = ""
    write(to: &out)
    return out
  }

  private func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .number(let value): out += JSONValue.format(value)
    case .string(let value): JSONValue.quote(value, into: &out)
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += ", " }
        item.write(to: &out)
      }
      out += "]"
    case .object(let fields):
      out += "{"
      for (index, key) in fields.keys.sorted().enumerated() {
        if index > 0 { out += ", " }
        JSONValue.quote(key, into: &out)
        out += ": "
        fields[key]!.write(to: &out)
      }
      out += "}"
    }
  }

  /// The value as compact JSON (no spaces) with sorted keys, as UTF-8: the wire form of API
  /// responses. Hand-written because Foundation's JSONSerialization sorts keys with ICU collation
  /// and bridges every value, which was a fifth of the daemon's CPU per request.
  public var compactJSONBytes: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    writeCompact(to: &out)
    return out
  }

  private func writeCompact(to out: inout [UInt8]) {
    switch self {
    case .null: out += "null".utf8
    case .bool(let value): out += (value ? "true" : "false").utf8
    case .number(let value): out += JSONValue.format(value).utf8
    case .string(let value): JSONValue.quote(value, into: &out)
    case .array(let items):
      out.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        item.writeCompact(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let fields):
      out.append(UInt8(ascii: "{"))
      // Keys sort by their UTF-8 bytes (Swift's String order), the same order on every platform.
      for (index, key) in fields.keys.sorted().enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        JSONValue.quote(key, into: &out)
        out.append(UInt8(ascii: ":"))
        fields[key]!.writeCompact(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  private static func quote(_ text: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += #"\""#.utf8
      case UInt8(ascii: "\\"): out += #"\\"#.utf8
      case UInt8(ascii: "\n"): out += #"\n"#.utf8
      case UInt8(ascii: "\r"): out += #"\r"#.utf8
      case UInt8(ascii: "\t"): out += #"\t"#.utf8
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out += #"\u00"#.utf8
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  /// Integral numbers print without a fraction ("3", not "3.0").
  public static func format(_ value: Double) -> String {
    if value.isNaN { return "null" }
    if value.isInfinite { return value > 0 ? "1e999" : "-1e999" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }

  private static func quote(_ text: String, into out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          out += String(format: "\\u%04x", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}

extension JSONValue: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

extension JSONValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(floatLiteral value: Double) { self = .number(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
  public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
  /// Builds a number array from integers.
  public init(_ integers: [Int]) { self = .array(integers.map { .number(Double($0)) }) }
  /// `.number`, or `.null` for nil.
  public init(_ integer: Int?) { self = integer.map { .number(Double($0)) } ?? .null }
}

extension JSONValue {
  /// What kind of value this is, for messages: "a string", "an object", "null".
  public var kind: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

extension JSONValue {
  /// A Foundation-style tree (what JSONSerialization reads: dictionaries, arrays, strings, NSNumbers,
  /// NSNull) as a value; nil when it holds something JSON cannot.
  public init?(foundation object: Any) {
    switch object {
    case let value as JSONValue: self = value
    case is NSNull: self = .null
    case let value as Bool where type(of: object) == Bool.self: self = .bool(value)
    // Every NSNumber also casts to Bool and Int, so its class decides (booleans are their own
    // NSNumber subclass).
    case let number as NSNumber where type(of: object) != Int.self && type(of: object) != Double.self:
      if type(of: number) == type(of: NSNumber(value: true)) {
        self = .bool(number.boolValue)
      } else {
        let kind = String(cString: number.objCType)
        self = .number(kind == "d" || kind == "f" ? number.doubleValue : Double(number.int64Value))
      }
    case let value as Int: self = .number(Double(value))
    case let value as Int32: self = .number(Double(value))
    case let value as Int64: self = .number(Double(value))
    case let value as UInt64: self = .number(Double(value))
    case let value as Double:
      guard value.isFinite else { return nil }
      self = .number(value)
    case let value as String: self = .string(value)
    case let value as [Any]:
      var items: [JSONValue] = []
      for item in value {
        guard let converted = JSONValue(foundation: item) else { return nil }
        items.append(converted)
      }
      self = .array(items)
    case let value as [String: Any]:
      var fields: [String: JSONValue] = [:]
      for (key, item) in value {
        guard let converted = JSONValue(foundation: item) else { return nil }
        fields[key] = converted
      }
      self = .object(fields)
    default: return nil
    }
  }
}
