/// `lines`: the output must have the same lines as the expected answer, where CRLF reads as LF,
/// trailing spaces and tabs on a line are ignored and trailing empty lines are ignored.
/// Leading spaces and empty lines in the middle count. No options.
public struct LinesChecker: Checker {
  public static let name = "lines"

  public init(options: CheckerOptions) throws(CheckerConfigurationError) {
    try OptionReader(options, checker: Self.name, keys: []).finish()
  }

  public func check(input: String, expected: String, output: String) -> CheckResult {
    var want = Text.lines(expected).makeIterator()
    var got = Text.lines(output).makeIterator()
    var number = 0
    while true {
      number += 1
      // Trailing empty lines do not count: a side whose rest is empty has ended.
      let expectedLine = want.restIsEmpty() ? nil : want.next()
      let actualLine = got.restIsEmpty() ? nil : got.next()
      if expectedLine == nil, actualLine == nil { return .accepted }
      if expectedLine != actualLine {
        return .wrongAnswer("line \(number): expected \(describe(expectedLine)), got \(describe(actualLine))")
      }
    }
  }

  private func describe(_ line: Substring?) -> String {
    guard let line else { return "end of output" }
    return line.isEmpty ? "an empty line" : Text.quote(line)
  }
}
