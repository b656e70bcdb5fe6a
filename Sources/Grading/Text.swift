/// Text helpers shared by the checkers.
enum Text {
  /// Lines with CRLF read as LF, trailing spaces and tabs removed from each line, and trailing empty
  /// lines dropped. Empty text has no lines.
  static func lines(_ text: String) -> [Substring] {
    var lines: [Substring] = text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
    ).map(trimmingTrailingWhitespace)
    while let last = lines.last, last.isEmpty { lines.removeLast() }
    return lines
  }

  static func trimmingTrailingWhitespace(_ line: Substring) -> Substring {
    var end = line.endIndex
    while end > line.startIndex {
      let before = line.index(before: end)
      guard isWhitespace(line[before]) else { break }
      end = before
    }
    return line[line.startIndex..<end]
  }

  /// A whitespace-separated token and the line it is on (counting from 1).
  struct Token {
    var text: Substring
    var line: Int
  }

  /// Tokens separated by any whitespace (testlib `wcmp`).
  static func tokens(_ text: String) -> [Token] {
    var tokens: [Token] = []
    var line = 1
    var start: String.Index?
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if isWhitespace(character) {
        if let begin = start {
          tokens.append(Token(text: text[begin..<index], line: line))
          start = nil
        }
        if character == "\n" || character == "\r\n" { line += 1 }
      } else if start == nil {
        start = index
      }
      index = text.index(after: index)
    }
    if let begin = start { tokens.append(Token(text: text[begin...], line: line)) }
    return tokens
  }

  static func isWhitespace(_ character: Character) -> Bool {
    character == " " || character == "\t" || character == "\n" || character == "\r" || character == "\r\n"
      || character == "\u{0B}" || character == "\u{0C}"
  }

  /// A short quoted rendering of learner output for a message.
  static func quote(_ text: Substring) -> String {
    let limit = 60
    if text.count <= limit { return "\"\(text)\"" }
    return "\"\(text.prefix(limit))...\""
  }

  static func plural(_ count: Int, _ noun: String) -> String {
    count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
  }
}
