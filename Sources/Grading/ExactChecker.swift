/// `exact`: the output must equal the expected answer byte for byte. No options.
public struct ExactChecker: Checker {
  public static let name = "exact"

  public init(options: CheckerOptions) throws(CheckerConfigurationError) {
    try OptionReader(options, checker: Self.name, keys: []).finish()
  }

  public func check(input: String, expected: String, output: String) -> CheckResult {
    // Compared in place over the UTF-8 views: no copy of an output as large as the output limit.
    let want = expected.utf8
    let got = output.utf8
    var wantIndex = want.startIndex
    var gotIndex = got.startIndex
    var line = 1
    var column = 1
    while wantIndex < want.endIndex, gotIndex < got.endIndex, want[wantIndex] == got[gotIndex] {
      if want[wantIndex] == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else {
        column += 1
      }
      wantIndex = want.index(after: wantIndex)
      gotIndex = got.index(after: gotIndex)
    }
    if wantIndex == want.endIndex, gotIndex == got.endIndex { return .accepted }
    return .wrongAnswer(
      "line \(line), column \(column): expected \(describe(want[wantIndex...])), got \(describe(got[gotIndex...]))")
  }

  private func describe(_ rest: Substring.UTF8View) -> String {
    guard let first = rest.first else { return "end of output" }
    switch first {
    case UInt8(ascii: "\n"): return "a line break"
    case UInt8(ascii: "\r"): return "a carriage return (\\r)"
    case UInt8(ascii: " "): return "a space"
    case UInt8(ascii: "\t"): return "a tab"
    default:
      let head = rest.prefix(while: { $0 != UInt8(ascii: "\n") }).prefix(20)
      return Text.quote(Substring(String(decoding: head, as: UTF8.self)))
    }
  }
}
