/// `yes_no`: each answer is YES or NO in any case (`yes`, `Yes`, `NO`...); the output must give the
/// same answers in the same order, separated by any whitespace.
///
/// An expected answer that is not YES or NO is a configuration error. No options.
public struct YesNoChecker: Checker {
  public static let name = "yes_no"

  public init(options: CheckerOptions) throws(CheckerConfigurationError) {
    try OptionReader(options, checker: Self.name, keys: []).finish()
  }

  public func check(input: String, expected: String, output: String) throws(CheckerConfigurationError)
    -> CheckResult
  {
    let want = Array(Text.tokens(expected))
    var answers: [Bool] = []
    for (index, token) in want.enumerated() {
      guard let answer = Self.answer(token.text) else {
        throw CheckerConfigurationError(
          checker: Self.name, message: "expected answer word \(index + 1) is not YES or NO: \(Text.quote(token.text))")
      }
      answers.append(answer)
    }
    // Whether the output has more than one token decides the message's form; a copy looks ahead.
    var lookahead = Text.tokens(output).makeIterator()
    let severalGot = lookahead.next() != nil && lookahead.next() != nil
    var gotCount = 0
    for (index, token) in Text.tokens(output).enumerated() {
      gotCount = index + 1
      let place = want.count > 1 || severalGot ? "answer \(index + 1) (line \(token.line)): " : ""
      guard let answer = Self.answer(token.text) else {
        return .wrongAnswer("\(place)expected YES or NO, got \(Text.quote(token.text))")
      }
      guard index < answers.count else {
        return .wrongAnswer(
          "expected \(Text.plural(answers.count, "answer")), got more: extra \(Text.quote(token.text))")
      }
      if answer != answers[index] {
        return .wrongAnswer("\(place)expected \(answers[index] ? "YES" : "NO"), got \(Text.quote(token.text))")
      }
    }
    if gotCount < answers.count {
      return .wrongAnswer(
        "expected \(Text.plural(answers.count, "answer")), got \(gotCount): answer \(gotCount + 1) is missing")
    }
    return .accepted
  }

  private static func answer(_ token: Substring) -> Bool? {
    switch token.lowercased() {
    case "yes": return true
    case "no": return false
    default: return nil
    }
  }
}
