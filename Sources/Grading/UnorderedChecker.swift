/// `unordered`: the output must hold the same items as the expected answer, in any order, each as
/// many times (a multiset).
///
/// Options: `by` (`"lines"`, the default, or `"tokens"`). Lines are read like the `lines` checker
/// (CRLF = LF, trailing spaces and trailing empty lines ignored); tokens like `tokens`.
public struct UnorderedChecker: Checker {
  public static let name = "unordered"
  public let byTokens: Bool

  public init(options: CheckerOptions) throws(CheckerConfigurationError) {
    let reader = OptionReader(options, checker: Self.name, keys: ["by"])
    byTokens = try reader.string("by", oneOf: ["lines", "tokens"]) == "tokens"
    try reader.finish()
  }

  public func check(input: String, expected: String, output: String) -> CheckResult {
    let want = byTokens ? Text.tokens(expected).map(\.text) : Text.allLines(expected)
    let noun = byTokens ? "word" : "line"
    var wantCount: [Substring: Int] = [:]
    for item in want { wantCount[item, default: 0] += 1 }
    // Only items the answer has are counted, so the output's size does not grow the tables.
    var gotCount: [Substring: Int] = [:]
    var hasUnexpected = false
    forEachOutputItem(output) { item in
      if wantCount[item] != nil {
        gotCount[item, default: 0] += 1
      } else {
        hasUnexpected = true
      }
      return true
    }
    if !hasUnexpected, wantCount == gotCount { return .accepted }
    // The first expected item (in expected order) that is short, else the first extra one.
    for item in want where gotCount[item, default: 0] < wantCount[item]! {
      return .wrongAnswer(
        "expected the \(noun) \(describe(item)) \(times(wantCount[item]!)), got it \(times(gotCount[item, default: 0]))"
      )
    }
    var extra: CheckResult?
    forEachOutputItem(output) { item in
      guard let allowed = wantCount[item] else {
        extra = .wrongAnswer("unexpected \(noun) \(describe(item))")
        return false
      }
      guard gotCount[item]! > allowed else { return true }
      extra = .wrongAnswer("expected the \(noun) \(describe(item)) \(times(allowed)), got it \(times(gotCount[item]!))")
      return false
    }
    return extra ?? .wrongAnswer("the \(noun)s differ")
  }

  /// Calls `body` with each item of the output in order (trailing empty lines left out) until it
  /// returns false.
  private func forEachOutputItem(_ output: String, _ body: (Substring) -> Bool) {
    if byTokens {
      for token in Text.tokens(output) where !body(token.text) { return }
      return
    }
    var lines = Text.lines(output).makeIterator()
    while !lines.restIsEmpty(), let line = lines.next() {
      if !body(line) { return }
    }
  }

  private func describe(_ item: Substring) -> String { item.isEmpty ? "(empty)" : Text.quote(item) }

  private func times(_ count: Int) -> String {
    switch count {
    case 0: return "0 times"
    case 1: return "once"
    case 2: return "twice"
    default: return "\(count) times"
    }
  }
}
