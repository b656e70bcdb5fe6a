import Foundation
import Wire

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
/// `maximumLineBytes`, step lines of more than `maximumTotalBytes` in all, or JSON nested deeper than
/// `maximumDepth` stop parsing with an error naming the line, before any more work is done. Lines
/// are read one at a time, so the work and memory are those of the step lines within the bounds.
public struct StepParser: Sendable {
  public static let prefix = "@step "
  public var maximumSteps: Int
  public var maximumLineBytes: Int
  public var maximumDepth: Int
  /// The step lines' bytes in all: decoded steps take several times their text, so this bounds the
  /// memory a run's steps can take whatever the output limit.
  public var maximumTotalBytes: Int

  public init(
    maximumSteps: Int = 10_000, maximumLineBytes: Int = 64 << 10, maximumDepth: Int = 32,
    maximumTotalBytes: Int = 4 << 20
  ) {
    self.maximumSteps = maximumSteps
    self.maximumLineBytes = maximumLineBytes
    self.maximumDepth = maximumDepth
    self.maximumTotalBytes = maximumTotalBytes
  }

  public func parse(_ output: String) -> Result<ParsedSteps, StepLineError> {
    var steps: [Step] = []
    var ordinary = OrdinaryOutput()
    let decoder = JSONDecoder()
    var lineNumber = 0
    var stepBytes = 0
    for rawLine in Self.lines(output) {
      lineNumber += 1
      guard Self.isStepLine(rawLine) else {
        ordinary.append(rawLine)
        continue
      }
      guard steps.count < maximumSteps else {
        return .failure(StepLineError(line: lineNumber, problem: "more than \(maximumSteps) steps"))
      }
      stepBytes += rawLine.utf8.count
      guard stepBytes <= maximumTotalBytes else {
        let problem = "the step lines pass \(maximumTotalBytes) bytes in all"
        return .failure(StepLineError(line: lineNumber, problem: problem))
      }
      switch step(rawLine, decoder: decoder) {
      case .success(let step): steps.append(step)
      case .failure(let problem): return .failure(StepLineError(line: lineNumber, problem: problem.text))
      }
    }
    return .success(ParsedSteps(steps: steps, ordinaryOutput: ordinary.text))
  }

  /// The steps a run printed, for the app's step player (`POST /v1/execute`), and why reading
  /// stopped early ("" when every step line was read).
  ///
  /// Malformed lines are left out instead of failing the result (an execution reports what
  /// happened; only grading judges it), but they count against `maximumSteps` and
  /// `maximumTotalBytes` like well-formed ones: otherwise megabytes of malformed lines would each
  /// cost a JSON decode.
  public func replayable(_ output: String) -> (steps: [Step], problem: String) {
    var steps: [Step] = []
    let decoder = JSONDecoder()
    var lineNumber = 0
    var stepLines = 0
    var stepBytes = 0
    for rawLine in Self.lines(output) {
      lineNumber += 1
      guard Self.isStepLine(rawLine) else { continue }
      stepLines += 1
      stepBytes += rawLine.utf8.count
      if stepLines > maximumSteps || stepBytes > maximumTotalBytes {
        let bound =
          stepLines > maximumSteps
          ? "more than \(maximumSteps) step lines" : "step lines of more than \(maximumTotalBytes) bytes"
        return (
          steps,
          "Stopped reading steps at line \(lineNumber): the output has \(bound) (well-formed or not); "
            + "the steps before it are shown."
        )
      }
      if case .success(let step) = step(rawLine, decoder: decoder) { steps.append(step) }
    }
    return (steps, "")
  }

  /// The well-formed steps `replayable` gives.
  public func replayableSteps(_ output: String) -> [Step] { replayable(output).steps }

  /// The output without its step lines (valid or not), lines joined by "\n": what output checkers
  /// compare, so a learner may keep printing steps for the step player on any challenge.
  public static func ordinaryOutput(_ output: String) -> String {
    var ordinary = OrdinaryOutput()
    for line in lines(output) where !isStepLine(line) { ordinary.append(line) }
    return ordinary.text
  }

  /// Lines joined by "\n" as they come, without an array of them.
  private struct OrdinaryOutput {
    var text = ""
    var isFirst = true

    mutating func append(_ line: Substring) {
      if !isFirst { text += "\n" }
      isFirst = false
      text += line
    }
  }

  private struct Problem: Error {
    var text: String
  }

  /// The lines as `split` at LF or CRLF gives them, one at a time.
  private static func lines(_ output: String) -> RawLines { RawLines(text: output) }

  struct RawLines: Sequence, IteratorProtocol {
    let text: String
    var position: String.Index?

    init(text: String) {
      self.text = text
      position = text.utf8.startIndex
    }

    mutating func next() -> Substring? {
      guard let start = position else { return nil }
      let utf8 = text.utf8
      var end = start
      while end < utf8.endIndex, utf8[end] != UInt8(ascii: "\n") { end = utf8.index(after: end) }
      position = end < utf8.endIndex ? utf8.index(after: end) : nil
      if position != nil, end > start, utf8[utf8.index(before: end)] == UInt8(ascii: "\r") {
        end = utf8.index(before: end)
      }
      return Substring(utf8[start..<end])
    }
  }

  private static func isStepLine(_ line: Substring) -> Bool {
    line.utf8.starts(with: prefix.utf8)
  }

  private func step(_ rawLine: Substring, decoder: JSONDecoder) -> Result<Step, Problem> {
    guard rawLine.utf8.count <= maximumLineBytes else {
      return .failure(Problem(text: "the step line is longer than \(maximumLineBytes) bytes"))
    }
    let body = Data(rawLine.utf8.dropFirst(Self.prefix.utf8.count))
    // Most malformed lines fail here, without a decoder.
    guard body.first(where: { !Text.isWhitespace($0) }) == UInt8(ascii: "{") else {
      return .failure(Problem(text: "\"@step \" must be followed by one JSON object, like @step {\"i\": 1}"))
    }
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
  static func depth(of bytes: Data) -> Int { JSONNesting.depth(of: bytes) }
}
