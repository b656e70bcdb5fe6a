/// `tokens` (testlib `wcmp`): the output must have the same whitespace-separated tokens as the
/// expected answer, compared exactly; how they are spaced or split into lines does not matter.
/// No options.
public struct TokensChecker: Checker {
  public static let name = "tokens"

  public init(options: CheckerOptions) throws(CheckerConfigurationError) {
    try OptionReader(options, checker: Self.name).finish()
  }

  public func check(input: String, expected: String, output: String) -> CheckResult {
    let want = Text.tokens(expected)
    let got = Text.tokens(output)
    for index in 0..<min(want.count, got.count) where want[index].text != got[index].text {
      return .wrongAnswer(
        "word \(index + 1) (line \(got[index].line)): expected \(Text.quote(want[index].text)), "
          + "got \(Text.quote(got[index].text))")
    }
    if got.count < want.count {
      return .wrongAnswer(
        "expected \(Text.plural(want.count, "word")), got \(got.count): "
          + "word \(got.count + 1) should be \(Text.quote(want[got.count].text))")
    }
    if got.count > want.count {
      return .wrongAnswer(
        "expected \(Text.plural(want.count, "word")), got \(got.count): "
          + "extra \(Text.quote(got[want.count].text)) on line \(got[want.count].line)")
    }
    return .accepted
  }
}
