// Fuzzes step-line parsing: Grading's StepParser (with JSONValue), as grading and execute results use it.
// Input: a program's standard output.
//
// Every line is either ordinary output or a step, the bounds hold, and a parsed step printed back
// as JSON (`JSONValue.json`) reads back as the same value.

import Foundation
import FuzzSupport
import Grading
import Wire

// The default bounds, and bounds small enough that the fuzzer reaches each of them.
private let parsers = [
  StepParser(), StepParser(maximumSteps: 4, maximumLineBytes: 256, maximumDepth: 4),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStepLines(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let data = Data(fuzzInput(start, count))
  let output = String(decoding: data, as: UTF8.self)
  for parser in parsers { check(parser, output) }
  checkReplay(output)
  return 0
}

private func check(_ parser: StepParser, _ output: String) {
  let lines = output.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
  switch parser.parse(output) {
  case .failure(let error):
    invariant(error.line >= 1 && error.line <= lines.count, "error on line \(error.line) of \(lines.count)")
    invariant(isStepLine(lines[error.line - 1]), "an error on a line that is not a step line")
  case .success(let parsed):
    invariant(parsed.steps.count <= parser.maximumSteps, "\(parsed.steps.count) steps were accepted")
    let stepLines = lines.filter(isStepLine)
    invariant(stepLines.count == parsed.steps.count, "a step line was neither a step nor an error")
    let ordinaryLines = lines.filter { !isStepLine($0) }
    invariant(parsed.ordinaryOutput == ordinaryLines.joined(separator: "\n"), "ordinary output changed")
    for step in parsed.steps { checkRoundTrip(.object(step.fields)) }
  }
}

/// StepParser matches the prefix byte by byte (`hasPrefix` compares characters, and "@step " followed
/// by a combining mark does not start with "@step " character-wise).
private func isStepLine(_ line: Substring) -> Bool {
  line.utf8.starts(with: StepParser.prefix.utf8)
}

/// The printed form of a value must read back as the same value.
private func checkRoundTrip(_ value: JSONValue) {
  let text = value.json
  guard let back = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
    invariant(false, "JSONValue.json printed what does not read back: \(text)")
    return
  }
  invariant(back == value, "JSONValue.json changed the value: \(text)")
}

/// What an execute result replays: the well-formed step lines (at most the bound), and the output
/// without any step line is what output checkers compare.
private func checkReplay(_ output: String) {
  let lines = output.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
  let parser = StepParser()
  let replayed = parser.replayableSteps(output)
  invariant(replayed.count <= min(parser.maximumSteps, lines.filter(isStepLine).count), "too many replayed steps")
  invariant(
    StepParser.ordinaryOutput(output) == lines.filter { !isStepLine($0) }.joined(separator: "\n"),
    "ordinary output changed")
  for step in replayed { checkRoundTrip(step.object) }
}
