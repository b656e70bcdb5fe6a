/// `exact`: the output must equal the expected answer byte for byte. No options.
public struct ExactChecker: Checker {
  public static let name = "exact"

  public init(options: CheckerOptions) throws(CheckerConfigurationError) {
    try OptionReader(options, checker: Self.name).finish()
  }

  public func check(input: String, expected: String, output: String) -> CheckResult {
    let want = Array(expected.utf8)
    let got = Array(output.utf8)
    if want == got { return .accepted }
    var index = 0
    var line = 1
    var column = 1
    while index < want.count, index < got.count, want[index] == got[index] {
      if want[index] == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else {
        column += 1
      }
      index += 1
    }
    return .wrongAnswer(
      "line \(line), column \(column): expected \(describe(want, from: index)), got \(describe(got, from: index))")
  }

  private func describe(_ bytes: [UInt8], from index: Int) -> String {
    guard index < bytes.count else { return "end of output" }
    switch bytes[index] {
    case UInt8(ascii: "\n"): return "a line break"
    case UInt8(ascii: "\r"): return "a carriage return (\\r)"
    case UInt8(ascii: " "): return "a space"
    case UInt8(ascii: "\t"): return "a tab"
    default:
      let rest = bytes[index...].prefix(while: { $0 != UInt8(ascii: "\n") }).prefix(20)
      return Text.quote(Substring(String(decoding: rest, as: UTF8.self)))
    }
  }
}
