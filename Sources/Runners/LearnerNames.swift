import Foundation

// Compilers and runtimes name files as the box holds them: `/box/main.py` (Python, Node),
// `file:///box/main.dart` (Dart), `./main.go` (Go), or a name the language forced on the file
// (`Sum.java` for a learner's `Solution.java`). Messages go back to the learner in the learner's own
// names. Only the learner's files are renamed, and only where a path starts and ends (a quote, a
// parenthesis, a colon, white space): the box's binary `/box/main`, toolchain paths and text that
// merely contains a file name stay as they are.

/// One file as the box holds it and as the learner named it.
struct LearnerName: Sendable, Equatable {
  var box: String
  var learner: String
}

enum LearnerNames {
  /// `text` with the box's names of these files replaced by the learner's.
  static func rewrite(_ text: Data, names: [LearnerName]) -> Data {
    guard !text.isEmpty, !names.isEmpty else { return text }
    var patterns: [(from: [UInt8], to: [UInt8])] = []
    for name in names {
      let learner = Array(name.learner.utf8)
      var forms = ["/box/" + name.box, "./" + name.box, "file:///box/" + name.box]
      // Dart names a file by its URI, absolute in stack frames and relative in compile errors.
      if let encoded = name.box.addingPercentEncoding(withAllowedCharacters: uriPathCharacters), encoded != name.box {
        forms += ["file:///box/" + encoded, encoded]
      }
      if name.box != name.learner { forms.append(name.box) }
      for form in forms where text.range(of: Data(form.utf8)) != nil {
        patterns.append((Array(form.utf8), learner))
      }
    }
    guard !patterns.isEmpty else { return text }
    // The longest form first: "file:///box/x" before "/box/x", "/box/x" before a bare "x".
    patterns.sort { $0.from.count > $1.from.count }
    let bytes = [UInt8](text)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    scan: while index < bytes.count {
      if index == 0 || startsPath(after: bytes[index - 1]) {
        for pattern in patterns where matches(pattern.from, in: bytes, at: index) {
          let end = index + pattern.from.count
          guard end == bytes.count || endsPath(before: bytes[end]) else { continue }
          output += pattern.to
          index = end
          continue scan
        }
      }
      output.append(bytes[index])
      index += 1
    }
    return Data(output)
  }

  /// What Dart's `Uri.file` leaves unescaped in a path.
  private static let uriPathCharacters = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/")

  private static func matches(_ pattern: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
    guard pattern.count <= bytes.count - index else { return false }
    for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
    return true
  }

  private static func startsPath(after byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "("),
      UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "["), UInt8(ascii: "<"), UInt8(ascii: "`"):
      return true
    default: return false
    }
  }

  private static func endsPath(before byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
      UInt8(ascii: ")"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ","), UInt8(ascii: "]"),
      UInt8(ascii: ">"), UInt8(ascii: "`"):
      return true
    default: return false
    }
  }
}
