/// Text helpers shared by the checkers.
///
/// Lines and tokens are read lazily over the text's UTF-8 bytes: a program's output can be as large
/// as the server's output limit (tens of MiB of one-byte tokens), and an array of every token or line
/// of it costs dozens of bytes per byte of output. The sequences hand out substrings of the text one
/// at a time, so a checker holds one token or line of each side at once.
enum Text {
  /// Lines with CRLF read as LF and trailing whitespace removed from each line. Trailing empty lines
  /// are the reader's to ignore (`LineSequence.Iterator.restIsEmpty`).
  static func lines(_ text: String) -> LineSequence { LineSequence(text: text) }

  /// Every line, as `lines`, with trailing empty lines dropped: for bounded text only (expected
  /// answers, which the challenge loader bounds).
  static func allLines(_ text: String) -> [Substring] {
    var lines = Array(LineSequence(text: text))
    while let last = lines.last, last.isEmpty { lines.removeLast() }
    return lines
  }

  /// The lines of a text as `split` at LF gives them (so text ending in LF has an empty last line),
  /// a CR before the LF and any trailing whitespace removed from each.
  struct LineSequence: Sequence {
    let text: String

    struct Iterator: IteratorProtocol {
      let text: String
      /// Where the next line starts; nil after the last.
      var position: String.Index?
      /// The start of a non-empty line at or after `position`, once one was seen: keeps
      /// `restIsEmpty` linear over a run of empty lines.
      var nonEmptyLineAhead: String.Index?

      mutating func next() -> Substring? {
        guard let start = position else { return nil }
        let utf8 = text.utf8
        var end = start
        while end < utf8.endIndex, utf8[end] != UInt8(ascii: "\n") { end = utf8.index(after: end) }
        position = end < utf8.endIndex ? utf8.index(after: end) : nil
        while end > start {
          let before = utf8.index(before: end)
          guard Text.isWhitespace(utf8[before]) else { break }
          end = before
        }
        return Substring(utf8[start..<end])
      }

      /// Whether every line still to come is empty (so the lines end here, trailing empty lines aside).
      mutating func restIsEmpty() -> Bool {
        guard let position else { return true }
        if let ahead = nonEmptyLineAhead, ahead >= position { return false }
        var copy = self
        while let start = copy.position, let line = copy.next() {
          if !line.isEmpty {
            nonEmptyLineAhead = start
            return false
          }
        }
        return true
      }
    }

    func makeIterator() -> Iterator { Iterator(text: text, position: text.utf8.startIndex) }
  }

  /// A whitespace-separated token and the line it is on (counting from 1).
  struct Token {
    var text: Substring
    var line: Int
  }

  /// Tokens separated by any whitespace (testlib `wcmp`).
  static func tokens(_ text: String) -> TokenSequence { TokenSequence(text: text) }

  /// The tokens of a text, one at a time.
  struct TokenSequence: Sequence {
    let text: String

    struct Iterator: IteratorProtocol {
      let text: String
      var position: String.Index
      var line = 1

      mutating func next() -> Token? {
        let utf8 = text.utf8
        while position < utf8.endIndex, Text.isWhitespace(utf8[position]) {
          if utf8[position] == UInt8(ascii: "\n") { line += 1 }
          position = utf8.index(after: position)
        }
        guard position < utf8.endIndex else { return nil }
        let start = position
        while position < utf8.endIndex, !Text.isWhitespace(utf8[position]) { position = utf8.index(after: position) }
        return Token(text: Substring(utf8[start..<position]), line: line)
      }

      /// How many tokens are left (reading them).
      mutating func countRest() -> Int {
        var count = 0
        while next() != nil { count += 1 }
        return count
      }
    }

    func makeIterator() -> Iterator { Iterator(text: text, position: text.utf8.startIndex) }
  }

  /// Space, tab, LF, CR, vertical tab and form feed: the separators of testlib's `wcmp`.
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
  }

  /// A short quoted rendering of learner output for a message.
  static func quote(_ text: Substring) -> String {
    let limit = 60
    // Counting characters of a huge token would walk all of it.
    let head = text.utf8.prefix(limit * 4)
    let short = Substring(String(decoding: head, as: UTF8.self))
    if head.count == text.utf8.count, short.count <= limit { return "\"\(short)\"" }
    return "\"\(short.prefix(limit))...\""
  }

  static func plural(_ count: Int, _ noun: String) -> String {
    count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
  }
}
