import Foundation
import Grading
import Runners

/// One language's side of function challenges (docs/challenges.md, "Function challenges"): the
/// starter the learner edits and the driver that runs it. The driver is the program's entry point:
/// it reads the run's nonce line and then the tests (`FunctionProtocol`) from stdin, loads the
/// learner's file, calls the function on each test's arguments and reports each result on a
/// channel of its own; the grader, never the driver, compares the results with the expected values.
///
/// A language joins by one more conforming type in `FunctionDrivers.byLanguage`.
public protocol FunctionDriver: Sendable {
  /// The runner's language name ("python").
  var language: String { get }
  /// The driver's file name in the box; the entry point.
  var driverFileName: String { get }
  /// The learner's file name in the box, which the driver loads.
  var solutionFileName: String { get }
  /// The function's name in this language (`merge_intervals`, `mergeIntervals`).
  func functionName(_ signature: FunctionSignature) -> String
  /// The starter: the idiomatic signature with a placeholder body.
  func starter(_ signature: FunctionSignature) -> String
  /// The driver's source.
  func driver(_ signature: FunctionSignature) -> String
  /// What the compiler says, about the driver's file, when the learner's file lacks the function (in
  /// languages that bind the call at compile time); nil where a missing function is found at run time.
  func missingFunctionCompileError(_ signature: FunctionSignature) -> String?
}

extension FunctionDriver {
  public func missingFunctionCompileError(_ signature: FunctionSignature) -> String? { nil }
}

/// The languages with drivers, and the way a function challenge's program is laid out for the box.
public enum FunctionDrivers {
  public static let byLanguage: [String: any FunctionDriver] = [
    "python": PythonFunctionDriver(), "javascript": JavaScriptFunctionDriver(), "cpp": CppFunctionDriver(),
    "java": JavaFunctionDriver(), "go": GoFunctionDriver(),
    "kotlin": KotlinFunctionDriver(), "dart": DartFunctionDriver(), "c": CFunctionDriver(),
  ]
  /// The languages with drivers, sorted.
  public static var languages: [String] { byLanguage.keys.sorted() }

  /// "function challenges are not yet available in Java; they are in C++, JavaScript and Python".
  public static func unavailableMessage(_ language: String) -> String {
    let available = languages.map(displayName).joined(separator: ", ")
    return "function challenges are not yet available in \(displayName(language)); they are in \(available)"
  }

  static func displayName(_ language: String) -> String {
    [
      "python": "Python", "javascript": "JavaScript", "c": "C", "cpp": "C++", "java": "Java", "kotlin": "Kotlin",
      "dart": "Dart", "go": "Go",
    ][language] ?? language
  }

  /// A compile that failed because the learner's file lacks the function fails in the driver's file,
  /// which the learner never saw; the grade says what is missing instead, as it does where a missing
  /// function is found at run time.
  public static func missingFunctionMessage(
    _ signature: FunctionSignature, language: String, compilerOutput: String
  ) -> String? {
    guard let driver = byLanguage[language], let error = driver.missingFunctionCompileError(signature),
      compilerOutput.contains(driver.driverFileName + ":"), compilerOutput.contains(error)
    else { return nil }
    return missingFunctionMessage(driver.functionName(signature))
  }

  static func missingFunctionMessage(_ name: String) -> String {
    "Your file defines no function named \(name): the tests call \(name) with the challenge's arguments."
  }

  /// The generated starters by language.
  public static func starters(_ signature: FunctionSignature) -> [String: SourceFile] {
    var starters: [String: SourceFile] = [:]
    for (language, driver) in byLanguage {
      starters[language] = SourceFile(name: driver.solutionFileName, contents: Data(driver.starter(signature).utf8))
    }
    return starters
  }

  /// The files a grade of `challenge` runs (an execute's, without one): the learner's as they are, or for a function challenge
  /// its driver and the learner's file (`programFiles(_:language:learnerFiles:)`).
  public static func programFiles(
    of challenge: Challenge?, language: String, learnerFiles: [SourceFile]
  ) throws(ExecuteError) -> [SourceFile] {
    guard let signature = challenge?.function else { return learnerFiles }
    return try programFiles(signature, language: language, learnerFiles: learnerFiles)
  }

  /// The files a function challenge's program is: the driver first (the entry point), then the
  /// learner's one file under the name the driver loads.
  public static func programFiles(
    _ signature: FunctionSignature, language: String, learnerFiles: [SourceFile]
  ) throws(ExecuteError) -> [SourceFile] {
    guard let driver = byLanguage[language] else { throw .badFiles(unavailableMessage(language)) }
    guard learnerFiles.count == 1 else {
      throw .badFiles(
        "a function challenge takes one file, the one holding \(driver.functionName(signature)); got \(learnerFiles.count)"
      )
    }
    return [
      SourceFile(name: driver.driverFileName, contents: Data(driver.driver(signature).utf8)),
      SourceFile(name: driver.solutionFileName, contents: learnerFiles[0].contents),
    ]
  }
}

/// The wire between the grader and a driver (docs/challenges.md, "How a function challenge runs").
///
/// stdin: the nonce on a line of its own, then one JSON object
/// `{"cpu_ms": n, "wall_ms": n, "tests": [{"index": k, "args": [...]}, ...]}`.
///
/// The report, on the driver's own copy of stdout (the learner's stdout goes to stderr), every line
/// after a newline of its own so that no half-written line of the learner's can run into it:
/// `@begin NONCE k` before test k (also written to stderr, where it splits the learner's prints by
/// test); `@result NONCE {"test": k, "value": v, "cpu_ms": n, "wall_ms": n}`;
/// `@result NONCE {"test": k, "raised": "...", ...}` when the function threw;
/// `@result NONCE {"test": k, "unencodable": "a set", ...}` when its result is no JSON value;
/// `@limit NONCE {"test": k, "kind": "cpu"|"wall"}` when the driver's watchdog ended test k;
/// `@missing NONCE` when the learner's file defines no such function; `@done NONCE` at the end.
public enum FunctionProtocol {
  public static let begin = "@begin"
  public static let result = "@result"
  public static let limit = "@limit"
  public static let missing = "@missing"
  public static let done = "@done"
}
