import Foundation

// Compilers and runtimes name files as the box holds them: `/box/main.py` (Python, Node),
// `file:///box/main.dart` (Dart), `./main.go` (Go), or a name the language forced on the file
// (`Sum.java` for a learner's `Solution.java`). Messages go back to the learner in the learner's own
// names. Only the learner's files are renamed, and only where a path starts and ends (a quote, a
// parenthesis, a colon, white space): the box's binary `/box/main`, toolchain paths and text that
// merely contains a file name stay as they are.
//
// Whole texts (a result's stderr) are rewritten at once; live output (a terminal's, where stderr is
// stdout too) chunk by chunk through a `LearnerNameStream`, which gives the same bytes whatever the
// chunks: a path cut between two chunks is renamed all the same.

/// One file as the box holds it and as the learner named it.
struct LearnerName: Sendable, Equatable {
  var box: String
  var learner: String
}

enum LearnerNames {
  /// `text` with the box's names of these files replaced by the learner's.
  static func rewrite(_ text: Data, names: [LearnerName]) -> Data {
    guard !text.isEmpty, !names.isEmpty else { return text }
    // Only the forms the text holds: most texts hold none, and are then returned as they are.
    let patterns = LearnerNamePatterns(names).present(in: text)
    guard !patterns.patterns.isEmpty else { return text }
    var output: [UInt8] = []
    output.reserveCapacity(text.count)
    _ = patterns.rewrite([UInt8](text), after: nil, atEnd: true, into: &output)
    return Data(output)
  }
}

/// Every form in which a box names the learner's files, each with the learner's name for it,
/// longest first ("file:///box/x" before "/box/x", "/box/x" before a bare "x").
struct LearnerNamePatterns: Sendable {
  private(set) var patterns: [(from: [UInt8], to: [UInt8])] = []

  init(_ names: [LearnerName]) {
    for name in names {
      let learner = Array(name.learner.utf8)
      var forms = ["/box/" + name.box, "./" + name.box, "file:///box/" + name.box]
      // Dart names a file by its URI, absolute in stack frames and relative in compile errors.
      if let encoded = name.box.addingPercentEncoding(withAllowedCharacters: Self.uriPathCharacters),
        encoded != name.box
      {
        forms += ["file:///box/" + encoded, encoded]
      }
      if name.box != name.learner { forms.append(name.box) }
      for form in forms { patterns.append((Array(form.utf8), learner)) }
    }
    patterns.sort { $0.from.count > $1.from.count }
  }

  /// The longest form: what a stream may hold back at most.
  var longestForm: Int { patterns.first?.from.count ?? 0 }

  /// These patterns less the ones `text` does not contain.
  func present(in text: Data) -> LearnerNamePatterns {
    var kept = self
    kept.patterns = patterns.filter { text.range(of: Data($0.from)) != nil }
    return kept
  }

  /// Rewrites `bytes` into `output` from their start, `previous` being the byte before them (nil
  /// at the start of the text). Returns how many bytes were decided: all of them `atEnd`, else up
  /// to the first place where a form might start whose match (or whose end) depends on bytes not
  /// yet seen, which are then fewer than the longest form.
  func rewrite(_ bytes: [UInt8], after previous: UInt8?, atEnd: Bool, into output: inout [UInt8]) -> Int {
    var index = 0
    scan: while index < bytes.count {
      let before = index == 0 ? previous : bytes[index - 1]
      if before.map(Self.startsPath(after:)) ?? true {
        for pattern in patterns {
          let end = index + pattern.from.count
          guard end <= bytes.count else {
            // Cut short: a prefix of this form may go on in the next chunk.
            if !atEnd && Self.matches(bytes[index...], prefixOf: pattern.from) { return index }
            continue
          }
          guard Self.matches(bytes[index..<end], prefixOf: pattern.from) else { continue }
          if end == bytes.count {
            // Whether the path ends here is told by the byte after it.
            if !atEnd { return index }
          } else if !Self.endsPath(before: bytes[end]) {
            continue
          }
          output += pattern.to
          index = end
          continue scan
        }
      }
      output.append(bytes[index])
      index += 1
    }
    return bytes.count
  }

  /// What Dart's `Uri.file` leaves unescaped in a path.
  private static let uriPathCharacters = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/")

  /// Whether `bytes` are the first `bytes.count` bytes of `pattern`.
  private static func matches(_ bytes: ArraySlice<UInt8>, prefixOf pattern: [UInt8]) -> Bool {
    bytes.count <= pattern.count && bytes.elementsEqual(pattern.prefix(bytes.count))
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

/// `LearnerNames.rewrite` over a stream given in chunks: what `take` and `flush` give, joined, is
/// the rewrite of the whole stream, however it was cut. Bytes that may be the start of a learner's
/// path are held until the next chunk tells (at most the longest form, a few dozen bytes); `flush`
/// gives them as the stream's end would, for a program that stops printing there (a prompt that
/// ends in "file" or "/"), so nothing waits for more output that may never come.
struct LearnerNameStream: Sendable {
  private let patterns: LearnerNamePatterns
  private var held: [UInt8] = []
  /// The last byte given out: whether a path may start right after it.
  private var previous: UInt8?

  init(names: [LearnerName]) { patterns = LearnerNamePatterns(names) }

  /// The rewritten bytes that can be told now; the rest waits for the next `take` or `flush`.
  mutating func take(_ bytes: some Collection<UInt8>) -> [UInt8] {
    guard !patterns.patterns.isEmpty else { return Array(bytes) }
    held += bytes
    return rewriteHeld(atEnd: false)
  }

  /// Everything held, decided as at the end of the stream.
  mutating func flush() -> [UInt8] {
    guard !held.isEmpty else { return [] }
    return rewriteHeld(atEnd: true)
  }

  private mutating func rewriteHeld(atEnd: Bool) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(held.count)
    let decided = patterns.rewrite(held, after: previous, atEnd: atEnd, into: &output)
    if decided > 0 { previous = held[decided - 1] }
    held.removeFirst(decided)
    return output
  }
}
