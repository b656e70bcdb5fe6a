import Foundation

/// A line that starts with `@step ` but is not a usable step, or a bound that was exceeded.
public struct StepLineError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The line number in the output, counting from 1.
  public var line: Int
  /// What is wrong, for a learner.
  public var problem: String

  public init(line: Int, problem: String) {
    self.line = line
    self.problem = problem
  }

  public var description: String { "line \(line): \(problem)" }
}

/// The steps a program printed and the rest of its output.
public struct ParsedSteps: Sendable, Hashable {
  /// The steps, in order; a `caption` field, if printed, becomes the step's caption.
  public var steps: [Step]
  /// The output without its step lines, lines joined by "\n".
  public var ordinaryOutput: String
}

/// Parses step lines (DESIGN §6): a line that starts with `@step ` followed by one JSON object.
/// Every other line is ordinary output. CRLF reads as LF; spaces after the object are allowed.
///
/// Bounds make it safe on any output: more than `maximumSteps` step lines, a step line longer than
/// `maximumLineBytes`, or JSON nested deeper than `maximumDepth` stop parsing with an error naming
/// the line, before any more work is done.
public struct StepParser: Sendable {
  public static let prefix = "@step "
  public var maximumSteps: Int
  public var maximumLineBytes: Int
  public var maximumDepth: Int

  public init(maximumSteps: Int = 10_000, maximumLineBytes: Int = 64 << 10, maximumDepth: Int = 32) {
    self.maximumSteps = maximumSteps
    self.maximumLineBytes = maximumLineBytes
    self.maximumDepth = maximumDepth
  }

  public func parse(_ output: String) -> Result<ParsedSteps, StepLineError> {
    var steps: [Step] = []
    var ordinary: [Substring] = []
    let decoder = JSONDecoder()
    var lineNumber = 0
    for rawLine in Self.lines(output) {
      lineNumber += 1
      guard Self.isStepLine(rawLine) else {
        ordinary.append(rawLine)
        continue
      }
      guard steps.count < maximumSteps else {
        return .failure(StepLineError(line: lineNumber, problem: "more than \(maximumSteps) steps"))
      }
      switch step(rawLine, decoder: decoder) {
      case .success(let step): steps.append(step)
      case .failure(let problem): return .failure(StepLineError(line: lineNumber, problem: problem.text))
      }
    }
    return .success(ParsedSteps(steps: steps, ordinaryOutput: ordinary.joined(separator: "\n")))
  }

  /// The steps a run printed, for the app's step player (`POST /v1/execute`): the well-formed step
  /// lines, up to `maximumSteps`. A malformed line is left out instead of failing the result: an
  /// execution reports what happened; only grading judges it.
  public func replayableSteps(_ output: String) -> [Step] {
    var steps: [Step] = []
    let decoder = JSONDecoder()
    for rawLine in Self.lines(output) where Self.isStepLine(rawLine) {
      guard steps.count < maximumSteps else { break }
      if case .success(let step) = step(rawLine, decoder: decoder) { steps.append(step) }
    }
    return steps
  }

  /// The output without its step lines (valid or not), lines joined by "\n": what output checkers
  /// compare, so a learner may keep printing steps for the step player on any challenge.
  public static func ordinaryOutput(_ output: String) -> String {
    lines(output).filter { !isStepLine($0) }.joined(separator: "\n")
  }

  private struct Problem: Error {
    var text: String
  }

  private static func lines(_ output: String) -> [Substring] {
    output.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
  }

  private static func isStepLine(_ line: Substring) -> Bool {
    line.utf8.starts(with: prefix.utf8)
  }

  private func step(_ rawLine: Substring, decoder: JSONDecoder) -> Result<Step, Problem> {
    guard rawLine.utf8.count <= maximumLineBytes else {
      return .failure(Problem(text: "the step line is longer than \(maximumLineBytes) bytes"))
    }
    let body = Data(rawLine.utf8.dropFirst(Self.prefix.utf8.count))
    guard Self.depth(of: body) <= maximumDepth else {
      return .failure(Problem(text: "the step is nested deeper than \(maximumDepth) levels"))
    }
    guard let value = try? decoder.decode(JSONValue.self, from: body), case .object(var fields) = value else {
      return .failure(Problem(text: "\"@step \" must be followed by one JSON object, like @step {\"i\": 1}"))
    }
    var caption: String?
    if case .string(let text) = fields["caption"] {
      caption = text
      fields["caption"] = nil
    }
    return .success(Step(fields, caption: caption))
  }

  /// The deepest bracket nesting outside strings; cheap, and keeps the decoder's recursion shallow.
  static func depth(of bytes: Data) -> Int {
    var depth = 0
    var deepest = 0
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        deepest = max(deepest, depth)
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
    return deepest
  }
}
