import Wire

/// `floats`: tokens compared like testlib's `doubleCompare`.
///
/// A number matches when `|got - expected| <= epsilon`, or `got` lies within `expected * (1 ± epsilon)`
/// (relative error), with testlib's `1e-15` slack added to epsilon. NaN matches only NaN; an infinity
/// matches only an infinity of the same sign. Numbers are decimal (`-1.5`, `2e-3`, `nan`, `inf`,
/// `infinity`, any case); hexadecimal is not a number.
///
/// Options:
/// - `epsilon` (number, default `1e-6`, finite, `0 <= epsilon < 1`).
/// - `non_numbers` (`"tokens"`, the default, or `"reject"`): with `"tokens"` an expected token that is
///   not a number must be matched exactly (so answers like `IMPOSSIBLE` or `3 1.5 YES` work); with
///   `"reject"` such an expected answer is a configuration error.
public struct FloatsChecker: Checker {
  public static let name = "floats"
  public let epsilon: Double
  public let rejectsNonNumbers: Bool

  public init(options: CheckerOptions) throws(CheckerConfigurationError) {
    let reader = OptionReader(options, checker: Self.name, keys: ["epsilon", "non_numbers"])
    let epsilon = try reader.number("epsilon") ?? 1e-6
    guard epsilon.isFinite, epsilon >= 0, epsilon < 1 else {
      throw reader.error("option epsilon must be a finite number from 0 up to (not including) 1")
    }
    self.epsilon = epsilon
    rejectsNonNumbers = try reader.string("non_numbers", oneOf: ["tokens", "reject"]) == "reject"
    try reader.finish()
  }

  public func check(input: String, expected: String, output: String) throws(CheckerConfigurationError)
    -> CheckResult
  {
    // The expected answer is bounded (the challenge loader's file limit); the output is read lazily.
    let want = Array(Text.tokens(expected))
    var got = Text.tokens(output).makeIterator()
    for index in 0..<want.count {
      let expectedToken = want[index].text
      let expectedNumber = Self.number(expectedToken)
      if expectedNumber == nil, rejectsNonNumbers {
        throw CheckerConfigurationError(
          checker: Self.name, message: "expected answer word \(index + 1) is not a number: \(Text.quote(expectedToken))"
        )
      }
      guard let actual = got.next() else {
        return .wrongAnswer(
          "expected \(Text.plural(want.count, "value")), got \(index): value \(index + 1) should be \(expectedToken)")
      }
      let place = "value \(index + 1) (line \(actual.line))"
      guard let expectedNumber else {
        if actual.text != expectedToken {
          return .wrongAnswer("\(place): expected \(Text.quote(expectedToken)), got \(Text.quote(actual.text))")
        }
        continue
      }
      guard let actualNumber = Self.number(actual.text) else {
        return .wrongAnswer("\(place): expected the number \(expectedToken), got \(Text.quote(actual.text))")
      }
      if !Self.matches(expected: expectedNumber, actual: actualNumber, epsilon: epsilon) {
        return .wrongAnswer(
          "\(place): expected \(expectedToken), got \(actual.text) (allowed error \(JSONValue.format(epsilon)))")
      }
    }
    if let extra = got.next() {
      return .wrongAnswer(
        "expected \(Text.plural(want.count, "value")), got \(want.count + 1 + got.countRest()): "
          + "extra \(Text.quote(extra.text)) on line \(extra.line)")
    }
    return .accepted
  }

  /// testlib `doubleCompare(expected, result, MAX_DOUBLE_ERROR)`.
  public static func matches(expected: Double, actual: Double, epsilon: Double) -> Bool {
    let error = epsilon + 1e-15
    if expected.isNaN { return actual.isNaN }
    if expected.isInfinite { return actual.isInfinite && (actual > 0) == (expected > 0) }
    if actual.isNaN || actual.isInfinite { return false }
    if abs(actual - expected) <= error { return true }
    let low = min(expected * (1 - error), expected * (1 + error))
    let high = max(expected * (1 - error), expected * (1 + error))
    return actual >= low && actual <= high
  }

  /// A decimal number, `nan` or `inf`/`infinity` (optionally signed, any case); nil otherwise.
  /// Decimals too large for a Double read as an infinity, as with `strtod`.
  public static func number(_ token: Substring) -> Double? {
    var rest = token.utf8[...]
    if let first = rest.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { rest = rest.dropFirst() }
    let word = String(decoding: rest, as: UTF8.self).lowercased()
    if word == "nan" { return .nan }
    if word == "inf" || word == "infinity" { return token.first == "-" ? -.infinity : .infinity }
    var digits = 0
    var index = rest.startIndex
    func skipDigits() {
      while index < rest.endIndex, rest[index] >= UInt8(ascii: "0"), rest[index] <= UInt8(ascii: "9") {
        digits += 1
        index = rest.index(after: index)
      }
    }
    skipDigits()
    if index < rest.endIndex, rest[index] == UInt8(ascii: ".") {
      index = rest.index(after: index)
      skipDigits()
    }
    guard digits > 0 else { return nil }
    if index < rest.endIndex, rest[index] == UInt8(ascii: "e") || rest[index] == UInt8(ascii: "E") {
      index = rest.index(after: index)
      if index < rest.endIndex, rest[index] == UInt8(ascii: "+") || rest[index] == UInt8(ascii: "-") {
        index = rest.index(after: index)
      }
      digits = 0
      skipDigits()
      guard digits > 0 else { return nil }
    }
    guard index == rest.endIndex else { return nil }
    return Double(String(token))
  }
}
