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

/// Reads checker options through `Wire.StrictReader`: unknown keys, wrong types and numbers out of
/// range are refused, every one of them in the error, each as `option KEY: problem`.
struct OptionReader {
  let checker: String
  private let object: StrictObject

  /// A reader of `options`, which may hold only `keys`.
  init(_ options: CheckerOptions, checker: String, keys: [String]) {
    self.checker = checker
    let reader = StrictReader()
    // An object by construction, so the reader always gives one back.
    object = reader.object(.object(options), at: "", keys: keys)!
  }

  func error(_ message: String) -> CheckerConfigurationError {
    CheckerConfigurationError(checker: checker, message: message)
  }

  /// Throws every problem found so far (unknown keys are found first, when the reader is made).
  private func check() throws(CheckerConfigurationError) {
    let problems = object.reader.problems
    guard problems.isEmpty else {
      throw error(problems.map { "option \($0.description)" }.joined(separator: "; "))
    }
  }

  func number(_ key: String) throws(CheckerConfigurationError) -> Double? {
    let value = object.number(key)
    try check()
    return value
  }

  func integer(_ key: String, in range: ClosedRange<Int>) throws(CheckerConfigurationError) -> Int? {
    let value = object.integer(key, as: Int.self, in: range)
    try check()
    return value
  }

  func string(_ key: String, oneOf allowed: [String]) throws(CheckerConfigurationError) -> String? {
    let text = object.string(key)
    try check()
    if let text, !allowed.contains(text) {
      throw error("option \(key): must be one of " + allowed.map { "\"\($0)\"" }.joined(separator: ", "))
    }
    return text
  }

  func strings(_ key: String) throws(CheckerConfigurationError) -> [String]? {
    let value = object.strings(key)
    try check()
    return value
  }

  /// Call last: throws what is wrong (an unknown key of an object whose options were never read).
  func finish() throws(CheckerConfigurationError) { try check() }
}
