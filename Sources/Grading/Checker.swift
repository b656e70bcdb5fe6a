import Wire

/// Checker options as they appear in a challenge file.
public typealias CheckerOptions = [String: JSONValue]

/// The one signature every checker shares (DMOJ style: one checker per file).
///
/// Options are validated once, when the checker is made, so a broken challenge is found by
/// `--check-config` before anything is graded. `check` throws only when the expected answer itself
/// is unusable (the challenge's fault); everything the program printed gives a `CheckResult`.
public protocol Checker: Sendable {
  /// The name a challenge file uses ("lines").
  static var name: String { get }
  init(options: CheckerOptions) throws(CheckerConfigurationError)
  func check(input: String, expected: String, output: String) throws(CheckerConfigurationError) -> CheckResult
}

/// The built-in checkers by name.
public enum Checkers {
  /// Every built-in checker's name.
  public static let names = [
    ExactChecker.name, LinesChecker.name, TokensChecker.name, FloatsChecker.name, UnorderedChecker.name,
    YesNoChecker.name, StepChecker.name,
  ]

  /// Makes the checker a challenge names, with its options.
  // A switch, not a table of metatypes: Swift 6.3 crashes lowering a typed-throws initializer
  // called through an existential metatype.
  public static func make(name: String, options: CheckerOptions = [:]) throws(CheckerConfigurationError)
    -> any Checker
  {
    switch name {
    case ExactChecker.name: return try ExactChecker(options: options)
    case LinesChecker.name: return try LinesChecker(options: options)
    case TokensChecker.name: return try TokensChecker(options: options)
    case FloatsChecker.name: return try FloatsChecker(options: options)
    case UnorderedChecker.name: return try UnorderedChecker(options: options)
    case YesNoChecker.name: return try YesNoChecker(options: options)
    case StepChecker.name: return try StepChecker(options: options)
    default:
      throw CheckerConfigurationError(
        checker: name, message: "unknown checker; known checkers: " + names.joined(separator: ", "))
    }
  }
}

/// Reads checker options, refusing wrong types and, at the end, unknown keys.
struct OptionReader {
  let checker: String
  private var options: CheckerOptions

  init(_ options: CheckerOptions, checker: String) {
    self.options = options
    self.checker = checker
  }

  func error(_ message: String) -> CheckerConfigurationError {
    CheckerConfigurationError(checker: checker, message: message)
  }

  mutating func number(_ key: String) throws(CheckerConfigurationError) -> Double? {
    guard let value = options.removeValue(forKey: key) else { return nil }
    guard case .number(let number) = value else { throw error("option \(key) must be a number") }
    return number
  }

  mutating func integer(_ key: String) throws(CheckerConfigurationError) -> Int? {
    guard let number = try number(key) else { return nil }
    guard number == number.rounded(), abs(number) < 1e15 else { throw error("option \(key) must be an integer") }
    return Int(number)
  }

  mutating func string(_ key: String, oneOf allowed: [String]) throws(CheckerConfigurationError) -> String? {
    guard let value = options.removeValue(forKey: key) else { return nil }
    guard case .string(let text) = value, allowed.contains(text) else {
      throw error("option \(key) must be one of " + allowed.map { "\"\($0)\"" }.joined(separator: ", "))
    }
    return text
  }

  mutating func strings(_ key: String) throws(CheckerConfigurationError) -> [String]? {
    guard let value = options.removeValue(forKey: key) else { return nil }
    guard case .array(let items) = value else { throw error("option \(key) must be an array of strings") }
    var result: [String] = []
    for item in items {
      guard case .string(let text) = item else { throw error("option \(key) must be an array of strings") }
      result.append(text)
    }
    return result
  }

  /// Call last: any key not read is unknown.
  func finish() throws(CheckerConfigurationError) {
    if let key = options.keys.sorted().first {
      throw error("unknown option \(key)")
    }
  }
}
