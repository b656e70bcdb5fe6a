import Challenges
import Foundation
import Glibc
import Grading
import Runners
import Sandbox

// A challenge from the shell: `challenges show` (the statement and the sample tests),
// `challenges starter` (the starter code), and, when a visible test fails, its input and the
// expected output next to the program's.

/// Whether a test's input, expected output and the program's output may be shown to the learner.
///
/// The one place that decides it: a test marked `"hidden": true` in challenge.json shows nothing of
/// its data at the shell either (`challenges show`, failure details), as in the grade object.
func isVisible(_ test: ChallengeTest) -> Bool { !test.hidden }

/// Lines shown of an input or an output before "... (N more lines)".
let shownLines = 20

/// Characters shown of one line before "... (N more characters)": a 2000-character argument or a
/// 1000-node tree is one line, and would fill the terminal.
let shownLineCharacters = 200

/// `text` indented, at most `shownLines` lines of at most `shownLineCharacters` each.
func excerpt(_ text: String, indent: String = "    ") -> String {
  var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  if lines.last == "" { lines.removeLast() }
  if lines.isEmpty { return indent + "(empty)" }
  var shown = lines.prefix(shownLines).map { line in
    line.count <= shownLineCharacters
      ? indent + line
      : indent + line.prefix(shownLineCharacters) + "... (\(line.count - shownLineCharacters) more characters)"
  }
  if lines.count > shownLines { shown.append(indent + "... (\(lines.count - shownLines) more lines)") }
  return shown.joined(separator: "\n")
}

/// What the learner can see of a failed visible test: the input, then for steps the step before the
/// first difference (where the two still agreed), for output the lines around the first difference.
func visibleDetails(of grade: TestGrade, test: ChallengeTest, challenge: Challenge) -> String {
  var lines = ["", "Input of test \(test.name):", excerpt(String(decoding: test.stdin, as: UTF8.self))]
  if let transcript = grade.transcript {
    lines.append("The dialogue (> your program, < the interactor):")
    lines.append(dialogue(transcript))
    return lines.joined(separator: "\n")
  }
  let parsed = try? StepParser().parse(grade.stdout).get()
  if let difference = grade.firstDifference {
    if let number = difference.step, number > 1, let steps = parsed?.steps, steps.count >= number - 1 {
      let before = steps[number - 2]
      let fields = challenge.stepChecker?.fields ?? Array(before.fields.keys).sorted()
      lines.append("Step \(number - 1), the last one that matched: \(before.projected(on: fields).json)")
    }
    return lines.joined(separator: "\n")
  }
  guard grade.verdict == .wrongAnswer, let expected = test.expectedStdout, challenge.hasOneRightOutput
  else { return lines.joined(separator: "\n") }
  // A steps challenge compares its ordinary output: the step lines are not part of it.
  let yours = challenge.stepChecker != nil ? (parsed?.ordinaryOutput ?? grade.stdout) : grade.stdout
  lines.append(outputDifference(expected: expected, yours: yours))
  return lines.joined(separator: "\n")
}

/// An interactive test's transcript, one line per line written, marked by who wrote it; its end
/// when long, as that is where a dialogue goes wrong.
func dialogue(_ transcript: InteractionTranscript) -> String {
  var lines: [String] = []
  for turn in transcript.turns {
    var written = turn.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if written.last == "" { written.removeLast() }
    let mark = turn.from == .program ? "  > " : "  < "
    lines += written.map { mark + $0 }
  }
  if transcript.truncated { lines.append("    ... (the rest was not kept)") }
  let shown = 2 * shownLines
  guard lines.count > shown else { return lines.joined(separator: "\n") }
  return (["    ... (\(lines.count - shown) earlier lines)"] + lines.suffix(shown)).joined(separator: "\n")
}

/// Expected against yours from a little before the first line that differs: "-" expected, "+" yours.
func outputDifference(expected: String, yours: String) -> String {
  func split(_ text: String) -> [String] {
    var lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }
  let want = split(expected)
  let got = split(yours)
  let first = zip(want, got).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(want.count, got.count)
  var lines = ["Expected output (-) and yours (+), from line \(first + 1):"]
  let contextStart = max(0, first - 2)
  for index in contextStart..<first { lines.append("    \(want[index])") }
  let end = first + 5
  for index in first..<min(max(want.count, got.count), end) {
    if index < want.count, index < got.count, want[index] == got[index] {
      lines.append("    \(want[index])")
      continue
    }
    if index < want.count { lines.append("  - \(want[index])") }
    if index < got.count { lines.append("  + \(got[index])") }
  }
  if first >= want.count { lines.append("  (the expected output ends here; yours goes on)") }
  if first >= got.count { lines.append("  (your output ends here)") }
  if max(want.count, got.count) > end { lines.append("    ...") }
  return lines.joined(separator: "\n")
}

/// `dsa-run challenges show ID|DIR`.
func showChallenge(_ arguments: [String]) -> Never {
  guard arguments.count == 1, let reference = arguments.first, !reference.hasPrefix("-") else {
    fail("challenges show needs one challenge id or directory (see dsa-run challenges --help)", code: 2)
  }
  let challenge: Challenge
  do {
    challenge = try resolveChallenge(reference)
  } catch let error as UsageError {
    fail(error.message, code: 2)
  } catch {
    fail("\(error)", code: 2)
  }
  var lines = ["\(challenge.id): \(challenge.title)"]
  lines.append("topic: \(ChallengeTopics.heading(of: challenge.topic))")
  if !challenge.tags.isEmpty { lines.append("tags: \(challenge.tags.joined(separator: ", "))") }
  lines.append("")
  lines.append(challenge.statement.trimmingCharacters(in: .whitespacesAndNewlines))
  let samples = challenge.tests.filter(isVisible)
  for test in samples {
    lines.append("")
    lines.append("Sample test \(test.name) (\(points(test.points)) \(test.points == 1 ? "point" : "points")):")
    lines.append("  input:")
    lines.append(excerpt(String(decoding: test.stdin, as: UTF8.self)))
    if let expected = test.expectedStdout {
      lines.append("  expected output:")
      lines.append(excerpt(expected))
    }
    if let steps = test.expectedSteps {
      lines.append("  expected steps: \(steps.count)")
    }
  }
  let hidden = challenge.tests.count - samples.count
  if hidden > 0 { lines.append("\n\(hidden) more test(s) are hidden.") }
  let starters = challenge.starters.keys.sorted()
  lines.append("")
  if starters.isEmpty {
    lines.append("No starter code: write the program from the statement.")
  } else {
    lines.append(
      "Starter code: \(starters.joined(separator: ", ")) (dsa-run challenges starter \(challenge.id) --lang LANG)")
  }
  print(lines.joined(separator: "\n"))
  finish(0)
}

/// `dsa-run challenges starter ID|DIR --lang LANG [-o FILE] [--force]`.
func writeStarter(_ arguments: [String]) -> Never {
  var reference: String?
  var language: String?
  var output: String?
  var force = false
  var cursor = ArgumentCursor(arguments)
  do {
    while let argument = cursor.next() {
      switch argument {
      case "--lang": language = try cursor.value(for: argument)
      case "-o", "--output": output = try cursor.value(for: argument)
      case "--force": force = true
      default:
        if argument.hasPrefix("-") || reference != nil {
          throw UsageError(message: "unknown argument \"\(argument)\" (see dsa-run challenges --help)")
        }
        reference = argument
      }
    }
    guard let reference else { throw UsageError(message: "challenges starter needs a challenge id or directory") }
    guard let language else { throw UsageError(message: "challenges starter needs --lang LANG") }
    let challenge = try resolveChallenge(reference)
    let canonical = canonicalLanguage(language)
    guard let starter = challenge.starters[canonical] else {
      if challenge.function != nil, FunctionDrivers.byLanguage[canonical] == nil {
        throw UsageError(message: "\(challenge.id): " + FunctionDrivers.unavailableMessage(canonical))
      }
      throw UsageError(message: noStarter(challenge, language))
    }
    guard let output else {
      FileHandle.standardOutput.write(starter.contents)
      finish(0)
    }
    if !force && FileManager.default.fileExists(atPath: output) {
      throw UsageError(message: "\(output) exists; give --force to replace it")
    }
    let temporary = output + ".dsa-run-\(getpid()).tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: starter.contents) else {
      throw UsageError(message: "cannot write \(output): \(String(cString: strerror(errno)))")
    }
    guard rename(temporary, output) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw UsageError(message: "cannot write \(output): \(reason)")
    }
    FileHandle.standardError.write(
      Data(
        "dsa-run: wrote \(output); grade it with: dsa-run --lang \(canonical) \(output) --challenge \(challenge.id)\n"
          .utf8))
    finish(0)
  } catch let error as UsageError {
    fail(error.message, code: 2)
  } catch {
    fail("\(error)", code: 2)
  }
}

/// Why `challenges starter` gives nothing for `language`, and what there is instead: the languages
/// the challenge has starters in, or that it has none (the program is then written from scratch).
func noStarter(_ challenge: Challenge, _ language: String) -> String {
  let languages = challenge.starters.keys.sorted()
  guard !languages.isEmpty else {
    return "\(challenge.id) has no \(language) starter: it has no starter code in any language; write the program "
      + "from its statement (dsa-run challenges show \(challenge.id))"
  }
  return "\(challenge.id) has no \(language) starter; it has starters in: \(languages.joined(separator: ", "))"
    + " (dsa-run challenges starter \(challenge.id) --lang \(languages[0]))"
}

/// A language name or alias as the runner catalog spells it ("py" -> "python"); the name itself when
/// the catalog is not found or does not know it.
func canonicalLanguage(_ name: String) -> String {
  guard let directory = DataDirectories.locate("runners"), let catalog = try? RunnerCatalog.load(directory: directory),
    let runner = catalog.language(named: name)?.first
  else { return name }
  return runner.language
}
