/// `lines`: the output must have the same lines as the expected answer, where CRLF reads as LF,
/// trailing spaces and tabs on a line are ignored and trailing empty lines are ignored.
/// Leading spaces and empty lines in the middle count. No options.
public struct LinesChecker: Checker {
  public static let name = "lines"

  public init(options: CheckerOptions) throws(CheckerConfigurationError) {
    try OptionReader(options, checker: Self.name).finish()
  }

  public func check(input: String, expected: String, output: String) -> CheckResult {
    let want = Text.lines(expected)
    let got = Text.lines(output)
    for index in 0..<max(want.count, got.count) {
      let expectedLine = index < want.count ? want[index] : nil
      let actualLine = index < got.count ? got[index] : nil
      if expectedLine != actualLine {
        return .wrongAnswer("line \(index + 1): expected \(describe(expectedLine)), got \(describe(actualLine))")
      }
    }
    return .accepted
  }

  private func describe(_ line: Substring?) -> String {
    guard let line else { return "end of output" }
    return line.isEmpty ? "an empty line" : Text.quote(line)
  }
}
