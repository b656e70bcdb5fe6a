import Foundation
import Runners
import Sandbox

/// Jobe's result object (`{"run_id", "outcome", "cmpinfo", "stdout", "stderr"}`) from one of our
/// results, with the outcome decided as Jobe decides it: by stderr, not by the exit status.
struct JobeResult: Equatable {
  /// The ideone codes Jobe answers with.
  enum Code: Int {
    case compilationError = 11
    case runtimeError = 12
    case timeLimit = 13
    case success = 15
    case internalError = 20
    case serverOverload = 21
  }

  var outcome: Code
  var cmpinfo = ""
  var stdout = ""
  var stderr = ""
  /// `"0"` for an overload, else null (we keep no run directories, so debug runs have none either).
  var runID: String?

  static let overload = JobeResult(outcome: .serverOverload, runID: "0")

  /// The outcome of `result` under Jobe's rules (docs/compat.md, "Jobe").
  static func from(_ result: ExecuteResult, jobeLanguage: String) -> JobeResult {
    if let compile = result.compile, compile.status != .ok {
      // Jobe's cmpinfo is the compiler's stderr; ours may have said it on stdout, or only in our words.
      var info = compile.stderr.isEmpty ? compile.stdout : compile.stderr
      if info.isEmpty { info = Data(compile.message.utf8) }
      return JobeResult(outcome: .compilationError, cmpinfo: clean(info))
    }
    guard let run = result.run else { return JobeResult(outcome: .internalError) }
    if jobeLanguage == "python3", let syntaxError = pythonSyntaxError(run) {
      return JobeResult(outcome: .compilationError, cmpinfo: syntaxError)
    }
    var stderr = run.stderr
    var outcome = Code.success
    switch run.status {
    case .timeLimit, .outputLimit:
      // Jobe drops output past `streamsize` and lets the program run on: a runaway printer ends at
      // its time limit, which is what Jobe answers for it.
      outcome = .timeLimit
    case .internalError:
      // Never our words: they may name host paths.
      return JobeResult(outcome: .internalError)
    case .memoryLimit, .forbidden:
      outcome = .runtimeError
      if stderr.isEmpty { stderr = Data((run.message + "\n").utf8) }
    case .runtimeError, .compileError:
      if let signal = run.signal, stderr.isEmpty {
        // Jobe's `sh` wrapper reports a death by signal on stderr; CodeRunner shows it.
        stderr = Data((signalSentence(signal) + "\n").utf8)
      }
    case .ok:
      break
    }
    var stderrText = clean(stderr)
    if jobeLanguage == "java" { stderrText = indentingTabs(stderrText) }
    if outcome == .success && !stderrText.isEmpty { outcome = .runtimeError }
    if outcome == .timeLimit || stderrText.range(of: "time ?limit exceeded", options: .regularExpression) != nil {
      return JobeResult(outcome: .timeLimit, stdout: clean(run.stdout))
    }
    return JobeResult(outcome: outcome, stdout: clean(run.stdout), stderr: stderrText)
  }

  /// Jobe compiles Python first (`py_compile`), so a syntax error in the program's own file is
  /// outcome 11 with the compiler's words. Our Python has no compile step; CPython reports such an
  /// error before anything runs, with no traceback header (one in a module it imports, or in
  /// `exec`, comes under "Traceback"), which is how it is told apart here.
  static func pythonSyntaxError(_ run: Outcome) -> String? {
    guard run.status == .runtimeError, run.stdout.isEmpty, let text = String(validating: run.stderr, as: UTF8.self),
      text.hasPrefix("  File \""),
      let last = text.split(separator: "\n").last,
      ["SyntaxError:", "IndentationError:", "TabError:"].contains(where: { last.hasPrefix($0) })
    else { return nil }
    return text
  }

  /// What dash prints for a child killed by `signal`.
  static func signalSentence(_ signal: Int32) -> String {
    switch signal {
    case 4: return "Illegal instruction"
    case 6: return "Aborted"
    case 7: return "Bus error"
    case 8: return "Floating point exception"
    case 9: return "Killed"
    case 11: return "Segmentation fault"
    case 13: return "Broken pipe"
    case 15: return "Terminated"
    case 24: return "CPU time limit exceeded"
    case 25: return "File size limit exceeded"
    default: return "Signal \(signal)"
    }
  }

  /// Jobe's cleaning: valid UTF-8 as it is; otherwise each control byte (but tab, CR and LF) and
  /// each byte above 0x7E as `\xhh`.
  static func clean(_ bytes: Data) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    var text = ""
    for byte in bytes {
      if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte > 0x7E {
        text += "\\x" + String(byte, radix: 16).leftPadded(to: 2)
      } else {
        text.unicodeScalars.append(Unicode.Scalar(byte))
      }
    }
    return text
  }

  /// Jobe's Java stderr filter: a tab opening a line becomes eight spaces.
  static func indentingTabs(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.hasPrefix("\t") ? "        " + $0.dropFirst() : $0 }
      .joined(separator: "\n")
  }

  /// The JSON object, its keys in Jobe's order (PHP's json_encode keeps them as built).
  var json: Data {
    var data = Data("{\"run_id\":".utf8)
    data.append(runID.map { ResultEncoder.data(.string($0)) } ?? Data("null".utf8))
    data.append(Data(",\"outcome\":\(outcome.rawValue),\"cmpinfo\":".utf8))
    data.append(ResultEncoder.data(.string(cmpinfo)))
    data.append(Data(",\"stdout\":".utf8))
    data.append(ResultEncoder.data(.string(stdout)))
    data.append(Data(",\"stderr\":".utf8))
    data.append(ResultEncoder.data(.string(stderr)))
    data.append(Data("}".utf8))
    return data
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
