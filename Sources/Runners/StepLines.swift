import Foundation

/// Step lines (DESIGN §6): a stdout line that starts with "@step " followed
/// by one JSON object. Every other line is ordinary output.
public enum StepLines {
  public static let prefix = "@step "
  /// More steps than this, or longer lines, are not parsed (grading reports
  /// them; execute results just stop).
  public static let maximumSteps = 100_000
  public static let maximumLineBytes = 64 << 10

  public struct Parsed {
    /// The step objects, in order.
    public var steps: [[String: Any]]
    /// Lines that start with "@step " but are not one JSON object: (line
    /// number counting from 1, the problem).
    public var malformed: [(Int, String)]
    /// stdout without the step lines.
    public var ordinaryOutput: String
  }

  public static func parse(_ stdout: Data) -> Parsed {
    var parsed = Parsed(steps: [], malformed: [], ordinaryOutput: "")
    let text = String(decoding: stdout, as: UTF8.self)
    var ordinary: [Substring] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      guard line.hasPrefix(prefix) else {
        ordinary.append(line)
        continue
      }
      guard parsed.steps.count < maximumSteps else {
        parsed.malformed.append((index + 1, "more than \(maximumSteps) steps"))
        break
      }
      guard line.utf8.count <= maximumLineBytes else {
        parsed.malformed.append((index + 1, "longer than \(maximumLineBytes) bytes"))
        continue
      }
      let body = line.dropFirst(prefix.count)
      if let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] {
        parsed.steps.append(object)
      } else {
        parsed.malformed.append((index + 1, "not one JSON object"))
      }
    }
    parsed.ordinaryOutput = ordinary.joined(separator: "\n")
    return parsed
  }
}
