/// `unordered`: the output must hold the same items as the expected answer, in any order, each as
/// many times (a multiset).
///
/// Options: `by` (`"lines"`, the default, or `"tokens"`). Lines are read like the `lines` checker
/// (CRLF = LF, trailing spaces and trailing empty lines ignored); tokens like `tokens`.
public struct UnorderedChecker: Checker {
  public static let name = "unordered"
  public let byTokens: Bool

  public init(options: CheckerOptions) throws(CheckerConfigurationError) {
    var reader = OptionReader(options, checker: Self.name)
    byTokens = try reader.string("by", oneOf: ["lines", "tokens"]) == "tokens"
    try reader.finish()
  }

  public func check(input: String, expected: String, output: String) -> CheckResult {
    let want = byTokens ? Text.tokens(expected).map(\.text) : Text.lines(expected)
    let got = byTokens ? Text.tokens(output).map(\.text) : Text.lines(output)
    let noun = byTokens ? "word" : "line"
    var wantCount: [Substring: Int] = [:]
    var gotCount: [Substring: Int] = [:]
    for item in want { wantCount[item, default: 0] += 1 }
    for item in got { gotCount[item, default: 0] += 1 }
    if wantCount == gotCount { return .accepted }
    // The first expected item (in expected order) that is short, else the first extra one.
    for item in want where gotCount[item, default: 0] < wantCount[item]! {
      return .wrongAnswer(
        "expected the \(noun) \(describe(item)) \(times(wantCount[item]!)), got it \(times(gotCount[item, default: 0]))"
      )
    }
    for item in got where gotCount[item]! > wantCount[item, default: 0] {
      let allowed = wantCount[item, default: 0]
      if allowed == 0 { return .wrongAnswer("unexpected \(noun) \(describe(item))") }
      return .wrongAnswer("expected the \(noun) \(describe(item)) \(times(allowed)), got it \(times(gotCount[item]!))")
    }
    return .wrongAnswer("the \(noun)s differ")
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
