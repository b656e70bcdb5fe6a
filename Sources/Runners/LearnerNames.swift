import Foundation
import Glibc

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
    text.withUnsafeBytes { raw in
      _ = patterns.rewrite(raw.bindMemory(to: UInt8.self), after: nil, atEnd: true, into: &output)
    }
    return Data(output)
  }
}

/// Every form in which a box names the learner's files, each with the learner's name for it,
/// longest first ("file:///box/x" before "/box/x", "/box/x" before a bare "x").
struct LearnerNamePatterns: Sendable {
  private(set) var patterns: [(from: [UInt8], to: [UInt8])] = []
  /// By byte: whether some form starts with it. Live output goes through here at the pump's pace,
  /// so most bytes are passed over on two table looks (this and `startsPathAfter`).
  private var startsForm = [Bool](repeating: false, count: 256)

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
      for form in forms where !form.isEmpty { patterns.append((Array(form.utf8), learner)) }
    }
    patterns.sort { $0.from.count > $1.from.count }
    for pattern in patterns { startsForm[Int(pattern.from[0])] = true }
  }

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
  func rewrite(_ bytes: UnsafeBufferPointer<UInt8>, after previous: UInt8?, atEnd: Bool, into output: inout [UInt8])
    -> Int
  {
    guard let base = bytes.baseAddress else { return 0 }
    let count = bytes.count
    // bytes[copied..<index] are decided and not yet in `output`: copied in one go.
    var copied = 0
    var index = 0
    scan: while index < count {
      guard startsForm[Int(base[index])] else {
        index += 1
        continue
      }
      let before = index == 0 ? previous : base[index - 1]
      guard before.map({ Self.startsPathAfter[Int($0)] }) ?? true else {
        index += 1
        continue
      }
      for pattern in patterns {
        let available = min(pattern.from.count, count - index)
        let matches = pattern.from.withUnsafeBufferPointer { memcmp(base + index, $0.baseAddress!, available) == 0 }
        guard matches else { continue }
        let end = index + pattern.from.count
        if end > count || (end == count && !atEnd) {
          // Cut short, or whole with its end told by the byte after it: the next chunk decides.
          guard atEnd else {
            output.append(contentsOf: UnsafeBufferPointer(start: base + copied, count: index - copied))
            return index
          }
          continue
        }
        guard end == count || Self.endsPathBefore[Int(base[end])] else { continue }
        output.append(contentsOf: UnsafeBufferPointer(start: base + copied, count: index - copied))
        output += pattern.to
        index = end
        copied = end
        continue scan
      }
      index += 1
    }
    output.append(contentsOf: UnsafeBufferPointer(start: base + copied, count: count - copied))
    return count
  }

  /// What Dart's `Uri.file` leaves unescaped in a path.
  private static let uriPathCharacters = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/")

  /// By byte: whether a path may start right after it (a line start, white space, a quote, an
  /// opening bracket).
  private static let startsPathAfter = table(" \t\n\r(\"'[<`")
  /// By byte: whether a path may end right before it.
  private static let endsPathBefore = table(": \t\n\r)\"',]>`")

  private static func table(_ characters: String) -> [Bool] {
    var table = [Bool](repeating: false, count: 256)
    for byte in characters.utf8 { table[Int(byte)] = true }
    return table
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
  mutating func take(_ bytes: [UInt8]) -> [UInt8] {
    guard !patterns.patterns.isEmpty else { return bytes }
    // Mostly nothing is held: the chunk is read where it is.
    return held.isEmpty ? rewrite(bytes, atEnd: false) : rewrite(held + bytes, atEnd: false)
  }

  /// Everything held, decided as at the end of the stream.
  mutating func flush() -> [UInt8] {
    guard !held.isEmpty else { return [] }
    return rewrite(held, atEnd: true)
  }

  /// Rewrites `bytes` (what was held and what came) and holds what is left undecided.
  private mutating func rewrite(_ bytes: [UInt8], atEnd: Bool) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    let decided = bytes.withUnsafeBufferPointer { patterns.rewrite($0, after: previous, atEnd: atEnd, into: &output) }
    if decided > 0 { previous = bytes[decided - 1] }
    held = Array(bytes[decided...])
    return output
  }
}
