import Foundation
import Grading
import Runners
import Sandbox

/// Why a custom checker gave no usable answer: the challenge's fault, reported as `internal_error`.
public struct CheckerFailure: Error, Sendable, CustomStringConvertible {
  /// For the learner: what failed, never a host path.
  public var message: String
  /// For the operator's log: the whole error, which may name host paths (cgroups, toolchains).
  public var detail: String
  public init(_ message: String, detail: String = "") {
    self.message = message
    self.detail = detail
  }
  public var description: String { detail.isEmpty ? message : "\(message) (\(detail))" }
}

/// A custom checker program (testlib protocol), compiled once and run in a box per test as
/// `checker input.txt output.txt answer.txt` with the three files in /box:
///
/// | exit | meaning |
/// |---|---|
/// | 0 | accepted |
/// | 1 | wrong answer |
/// | 2 | presentation error, reported as wrong answer |
/// | 3 | the checker failed: internal_error |
/// | 7 | partial: the score (0 to 1) is the first token of its stdout; 1 is accepted |
///
/// Anything else (another exit code, a signal, a limit, an unreadable score) is `internal_error`,
/// never a wrong answer: a broken checker must not fail a learner. The message is the checker's
/// stderr (testlib writes its verdict line there), else its stdout, at most `maximumMessageBytes`.
public struct CheckerProgramRunner: Sendable {
  /// Limits of one checker run, unless the grade's options say otherwise.
  public static let defaultLimits: StepLimits = {
    var limits = StepLimits()
    limits.cpuMilliseconds = 5_000
    limits.wallMilliseconds = 10_000
    limits.outputKilobytes = 64
    return limits
  }()
  public static let maximumMessageBytes = 500
  /// The names of the files the checker reads, in the order of its arguments.
  public static let fileNames = ["input.txt", "output.txt", "answer.txt"]

  public let executor: Executor
  public let program: PreparedProgram
  public let limits: StepLimits

  /// Compiles the checker through the executor's compile cache.
  public init(_ checker: CheckerProgram, executor: Executor, limits: StepLimits = defaultLimits)
    throws(CheckerFailure)
  {
    self.executor = executor
    self.limits = limits
    do {
      program = try executor.prepare(language: checker.language, version: nil, files: [checker.source])
    } catch {
      throw CheckerFailure("the challenge's checker cannot be prepared", detail: "\(error)")
    }
    if !program.isRunnable {
      let compile = program.compile
      let messages = compile.map { String(decoding: $0.stderr + $0.stdout, as: UTF8.self) } ?? ""
      throw CheckerFailure(
        "the challenge's checker did not compile (\(compile?.status.rawValue ?? "?")): "
          + Self.excerpt(messages.isEmpty ? compile?.message ?? "" : messages))
    }
  }

  /// Runs the checker on one test, with `limits` (default: the runner's `limits`).
  public func check(input: Data, output: Data, answer: Data, limits: StepLimits? = nil)
    -> Result<CheckResult, CheckerFailure>
  {
    let files = zip(Self.fileNames, [input, output, answer]).map { SourceFile(name: $0, contents: $1) }
    let outcome: Outcome
    do {
      outcome = try executor.run(
        program, stdin: Data(), arguments: Self.fileNames, limits: limits ?? self.limits, extraFiles: files)
    } catch {
      return .failure(CheckerFailure("the checker could not run (the sandbox failed)", detail: "\(error)"))
    }
    let stdout = String(decoding: outcome.stdout, as: UTF8.self)
    let stderr = String(decoding: outcome.stderr, as: UTF8.self)
    let said = Self.excerpt(stderr.isEmpty ? stdout : stderr)
    switch (outcome.status, outcome.exitCode) {
    case (.ok, 0?): return .success(.accepted)
    case (.runtimeError, 1?): return .success(.wrongAnswer(said.isEmpty ? "The checker says: wrong answer." : said))
    case (.runtimeError, 2?):
      return .success(.wrongAnswer("The output is not in the expected form" + (said.isEmpty ? "." : ": " + said)))
    case (.runtimeError, 3?):
      return .failure(CheckerFailure("the checker reported its own failure" + (said.isEmpty ? "" : ": " + said)))
    case (.runtimeError, 7?):
      let token = stdout.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
      guard let score = Double(token), score.isFinite, (0...1).contains(score) else {
        return .failure(
          CheckerFailure("the checker exited 7 (partial) without a score from 0 to 1 first on its stdout"))
      }
      if score == 1 { return .success(.accepted) }
      let rest = Self.excerpt(
        stderr.isEmpty ? String(stdout.dropFirst(stdout.prefix(while: \.isWhitespace).count + token.count)) : stderr)
      return .success(
        CheckResult(
          verdict: .wrongAnswer, score: score,
          message: "Partly right (score \(score))" + (rest.isEmpty ? "." : ": " + rest)))
    case (.ok, _), (.runtimeError, _):
      if let signal = outcome.signal {
        return .failure(CheckerFailure("the checker crashed (\(signalName(signal)))"))
      }
      return .failure(
        CheckerFailure(
          "the checker exited with code \(outcome.exitCode.map(String.init) ?? "?"), which the testlib protocol does not define"
            + (said.isEmpty ? "" : ": " + said)))
    case (.timeLimit, _): return .failure(CheckerFailure("the checker ran out of time: \(outcome.message)"))
    default: return .failure(CheckerFailure("the checker failed (\(outcome.status.rawValue)): \(outcome.message)"))
    }
  }

  static func excerpt(_ text: String) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard trimmed.utf8.count > maximumMessageBytes else { return trimmed }
    return String(decoding: trimmed.utf8.prefix(maximumMessageBytes), as: UTF8.self) + "..."
  }
}
