/// How deeply a JSON text nests its arrays and objects, counted on its bytes before any decoder
/// sees it: Foundation's decoder traps (the process dies) on some documents nested past its own
/// limit, such as 513 `[` and nothing else, so a deeper text never reaches it. Every decoder of text
/// from outside (request bodies, a program's step lines) goes through this bound first.
public enum JSONNesting {
  /// The deepest nesting accepted anywhere (`DuplicateKeys`, `JSONBytes`, step lines).
  public static let maximumDepth = 256

  /// The deepest nesting of `bytes`, brackets inside strings not counted.
  public static func depth<Bytes: Sequence<UInt8>>(of bytes: Bytes) -> Int {
    var depth = 0
    var deepest = 0
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        deepest = max(deepest, depth)
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
    return deepest
  }
}
