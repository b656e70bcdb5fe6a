/// `tokens` (testlib `wcmp`): the output must have the same whitespace-separated tokens as the
/// expected answer, compared exactly; how they are spaced or split into lines does not matter.
/// No options.
public struct TokensChecker: Checker {
  public static let name = "tokens"

  public init(options: CheckerOptions) throws(CheckerConfigurationError) {
    try OptionReader(options, checker: Self.name, keys: []).finish()
  }

  public func check(input: String, expected: String, output: String) -> CheckResult {
    var want = Text.tokens(expected).makeIterator()
    var got = Text.tokens(output).makeIterator()
    var index = 0
    while true {
      switch (want.next(), got.next()) {
      case (nil, nil): return .accepted
      case (let expectedToken?, let actualToken?):
        if expectedToken.text != actualToken.text {
          return .wrongAnswer(
            "word \(index + 1) (line \(actualToken.line)): expected \(Text.quote(expectedToken.text)), "
              + "got \(Text.quote(actualToken.text))")
        }
      case (let expectedToken?, nil):
        let wanted = index + 1 + want.countRest()
        return .wrongAnswer(
          "expected \(Text.plural(wanted, "word")), got \(index): word \(index + 1) should be \(Text.quote(expectedToken.text))"
        )
      case (nil, let actualToken?):
        let gotCount = index + 1 + got.countRest()
        return .wrongAnswer(
          "expected \(Text.plural(index, "word")), got \(gotCount): "
            + "extra \(Text.quote(actualToken.text)) on line \(actualToken.line)")
      }
      index += 1
    }
  }
}
