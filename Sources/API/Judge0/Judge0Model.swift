import Foundation
import Wire

/// Judge0 CE 1.13.1's vocabulary, pure: its language ids, statuses, the status decision of its
/// `isolate_job.rb`, its output comparison, its units and its base64 (docs/compat.md, "Judge0 CE").
public enum Judge0Model {
  /// The version `/about` answers: the judge0 SDK resolves its aliases (`judge0.PYTHON`, ...) by it,
  /// and under "1.14.0" every one of them names a language we run, Dart included.
  public static let version = "1.14.0"

  /// One Judge0 language id and the catalog language it runs as.
  public struct Language: Sendable, Equatable {
    public var id: Int
    public var name: String
    /// Our catalog's language name.
    public var runsAs: String
    /// The file Judge0 would write the source to.
    public var sourceFile: String
    /// Whether `/languages` leaves it out (Judge0 lists only active languages).
    public var isArchived: Bool
  }

  /// The 1.13.1 ids for our languages and the CE 1.14.0 ids the SDK maps to them.
  public static let languages: [Language] = [
    Language(id: 48, name: "C (GCC 7.4.0)", runsAs: "c", sourceFile: "main.c", isArchived: false),
    Language(id: 49, name: "C (GCC 8.3.0)", runsAs: "c", sourceFile: "main.c", isArchived: false),
    Language(id: 50, name: "C (GCC 9.2.0)", runsAs: "c", sourceFile: "main.c", isArchived: false),
    Language(id: 52, name: "C++ (GCC 7.4.0)", runsAs: "cpp", sourceFile: "main.cpp", isArchived: false),
    Language(id: 53, name: "C++ (GCC 8.3.0)", runsAs: "cpp", sourceFile: "main.cpp", isArchived: false),
    Language(id: 54, name: "C++ (GCC 9.2.0)", runsAs: "cpp", sourceFile: "main.cpp", isArchived: false),
    Language(id: 60, name: "Go (1.13.5)", runsAs: "go", sourceFile: "main.go", isArchived: false),
    Language(id: 62, name: "Java (OpenJDK 13.0.1)", runsAs: "java", sourceFile: "Main.java", isArchived: false),
    Language(
      id: 63, name: "JavaScript (Node.js 12.14.0)", runsAs: "javascript", sourceFile: "script.js", isArchived: false),
    Language(id: 71, name: "Python (3.8.1)", runsAs: "python", sourceFile: "script.py", isArchived: false),
    // Judge0's Clang C compiles as C here too: the same language, another compiler.
    Language(id: 75, name: "C (Clang 7.0.1)", runsAs: "c", sourceFile: "main.c", isArchived: false),
    Language(id: 78, name: "Kotlin (1.3.70)", runsAs: "kotlin", sourceFile: "Main.kt", isArchived: false),
    Language(id: 90, name: "Dart (2.19.2)", runsAs: "dart", sourceFile: "main.dart", isArchived: false),
    Language(id: 91, name: "Java (JDK 17.0.6)", runsAs: "java", sourceFile: "Main.java", isArchived: false),
    Language(id: 92, name: "Python (3.11.2)", runsAs: "python", sourceFile: "script.py", isArchived: false),
    Language(
      id: 93, name: "JavaScript (Node.js 18.15.0)", runsAs: "javascript", sourceFile: "script.js", isArchived: false),
    Language(id: 95, name: "Go (1.18.5)", runsAs: "go", sourceFile: "main.go", isArchived: false),
    Language(
      id: 102, name: "JavaScript (Node.js 22.08.0)", runsAs: "javascript", sourceFile: "script.js", isArchived: false),
    Language(id: 103, name: "C (GCC 14.1.0)", runsAs: "c", sourceFile: "main.c", isArchived: false),
    Language(id: 105, name: "C++ (GCC 14.1.0)", runsAs: "cpp", sourceFile: "main.cpp", isArchived: false),
    Language(id: 107, name: "Go (1.23.5)", runsAs: "go", sourceFile: "main.go", isArchived: false),
    Language(id: 111, name: "Kotlin (2.1.10)", runsAs: "kotlin", sourceFile: "Main.kt", isArchived: false),
    Language(id: 113, name: "Python (3.12.5)", runsAs: "python", sourceFile: "script.py", isArchived: false),
  ]

  public static func language(id: Int) -> Language? { languages.first { $0.id == id } }

  /// What the language's name says runs, by our language: the name, and the toolchain when the
  /// version alone does not say it. Judge0's own names ("C++ (GCC 7.4.0)") would name a compiler
  /// this server does not have.
  static let toolchains: [String: (name: String, toolchain: String?)] = [
    "c": ("C", "GCC"), "cpp": ("C++", "GCC"), "java": ("Java", "OpenJDK"), "javascript": ("JavaScript", "Node.js"),
    "python": ("Python", nil), "kotlin": ("Kotlin", nil), "go": ("Go", nil), "dart": ("Dart", nil),
  ]

  /// The id's name as it runs here: "C++ (GCC 12.2.0)" for ids 52, 53, 54 and 105 alike.
  public static func runningName(_ language: Language, version: String) -> String {
    guard let known = toolchains[language.runsAs] else { return language.name }
    return "\(known.name) (\(known.toolchain.map { $0 + " " } ?? "")\(version))"
  }

  /// `app/enumerations/status.rb`.
  public static let statuses: [(id: Int, description: String)] = [
    (1, "In Queue"), (2, "Processing"), (3, "Accepted"), (4, "Wrong Answer"), (5, "Time Limit Exceeded"),
    (6, "Compilation Error"), (7, "Runtime Error (SIGSEGV)"), (8, "Runtime Error (SIGXFSZ)"),
    (9, "Runtime Error (SIGFPE)"), (10, "Runtime Error (SIGABRT)"), (11, "Runtime Error (NZEC)"),
    (12, "Runtime Error (Other)"), (13, "Internal Error"), (14, "Exec Format Error"),
  ]

  public static func statusObject(_ id: Int) -> JSONValue {
    let description = statuses.first { $0.id == id }?.description ?? "Internal Error"
    return ["id": .number(Double(id)), "description": .string(description)]
  }

  /// Signal numbers by the names our results carry (Linux x86-64 and arm64 agree on these).
  static let signalNumbers: [String: Int] = [
    "SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3, "SIGILL": 4, "SIGTRAP": 5, "SIGABRT": 6, "SIGBUS": 7, "SIGFPE": 8,
    "SIGKILL": 9, "SIGUSR1": 10, "SIGSEGV": 11, "SIGUSR2": 12, "SIGPIPE": 13, "SIGALRM": 14, "SIGTERM": 15,
    "SIGXCPU": 24, "SIGXFSZ": 25, "SIGSYS": 31,
  ]

  public static func signalNumber(_ name: String) -> Int? {
    signalNumbers[name] ?? Int(name.drop { !$0.isNumber })
  }

  /// What one finished run is in Judge0's terms.
  public struct Verdict: Sendable, Equatable {
    public var statusID: Int
    public var message: String?
    public var exitCode: Int?
    public var exitSignal: Int?
  }

  /// `determine_status` of `isolate_job.rb` over our run outcome: time-out, then a signal (by its
  /// number), then a non-zero exit, then a sandbox error, then the output comparison. Judge0 has no
  /// memory status, so a run that hit our memory limit lands where its death puts it, and `message`
  /// keeps our `memory_limit` (likewise `output_limit` and `forbidden`).
  public static func verdict(run: WireOutcome, expectedOutput: String?) -> Verdict {
    let signal = run.signal.flatMap(signalNumber)
    // Ours words after the status, so a Judge0 client still sees why (e.g. "memory_limit: ...").
    let ours = ["ok", "runtime_error", "time_limit"].contains(run.status) ? nil : "\(run.status): \(run.message)"
    switch run.status {
    case "time_limit":
      return Verdict(statusID: 5, message: "Time limit exceeded", exitCode: 0, exitSignal: signal)
    case "internal_error":
      return Verdict(statusID: 13, message: ours, exitCode: nil, exitSignal: nil)
    default: break
    }
    if let signal {
      let id: Int
      switch signal {
      case 11: id = 7
      case 25: id = 8
      case 8: id = 9
      case 6: id = 10
      default: id = 12
      }
      // Judge0 reports exit code 0 for a program a signal ended.
      return Verdict(statusID: id, message: ours ?? "Caught fatal signal \(signal)", exitCode: 0, exitSignal: signal)
    }
    let code = Int(run.exitCode ?? 0)
    if code != 0 {
      return Verdict(statusID: 11, message: ours ?? "Exited with error status \(code)", exitCode: code, exitSignal: nil)
    }
    if run.status != "ok" {
      // Ended by one of our limits without a signal or an exit code (e.g. output_limit).
      return Verdict(statusID: run.status == "output_limit" ? 8 : 12, message: ours, exitCode: 0, exitSignal: nil)
    }
    let accepted = expectedOutput.map { stripOutput($0) == stripOutput(run.stdout) } ?? true
    return Verdict(statusID: accepted ? 3 : 4, message: nil, exitCode: 0, exitSignal: nil)
  }

  /// `strip_output` of `isolate_job.rb`: `output.split("\n").collect(&:rstrip).join("\n").rstrip`
  /// (Ruby's `rstrip` drops trailing whitespace and NULs; its `split` drops trailing empty fields).
  public static func stripOutput(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { rubyRstrip(Substring($0)) }
    return rubyRstrip(Substring(lines.joined(separator: "\n")))
  }

  static func rubyRstrip(_ text: Substring) -> String {
    var scalars = text.unicodeScalars[...]
    while let last = scalars.last, [" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\0"].contains(last) {
      scalars = scalars.dropLast()
    }
    return String(String.UnicodeScalarView(scalars))
  }

  /// Ruby's `Base64.encode64`, which Judge0's answers use: a newline after every 60 characters and
  /// at the end (nothing for nothing).
  public static func encode64(_ data: Data) -> String {
    let plain = data.base64EncodedString()
    guard !plain.isEmpty else { return "" }
    var out = ""
    var index = plain.startIndex
    while index < plain.endIndex {
      let end = plain.index(index, offsetBy: 60, limitedBy: plain.endIndex) ?? plain.endIndex
      out += plain[index..<end] + "\n"
      index = end
    }
    return out
  }

  /// Ruby's `Base64.decode64`, which Judge0 reads requests with: lenient about newlines and missing
  /// padding; nil for characters outside the alphabet.
  public static func decode64(_ text: String) -> Data? {
    var compact = text.filter { !$0.isWhitespace }
    while compact.count % 4 != 0 { compact += "=" }
    return Data(base64Encoded: compact)
  }

  /// `command_line_arguments` split as bash splits the words after `run_cmd`, without running a
  /// shell: Judge0 drops `$ & ; < > |` and the backquote first, then single quotes group literally,
  /// double quotes group with `\` escaping `"` and `\`, and an unquoted `\` escapes the next
  /// character. nil when a quote is left open (bash would refuse the command line).
  public static func splitArguments(_ line: String) -> [String]? {
    let dropped: Set<Character> = ["$", "&", ";", "<", ">", "|", "`"]
    var words: [String] = []
    var word = ""
    var inWord = false
    var characters = line.filter { !dropped.contains($0) }.makeIterator()
    while let character = characters.next() {
      switch character {
      case " ", "\t", "\n":
        if inWord {
          words.append(word)
          word = ""
          inWord = false
        }
      case "'":
        inWord = true
        var closed = false
        while let inner = characters.next() {
          if inner == "'" {
            closed = true
            break
          }
          word.append(inner)
        }
        if !closed { return nil }
      case "\"":
        inWord = true
        var closed = false
        while let inner = characters.next() {
          if inner == "\"" {
            closed = true
            break
          }
          if inner == "\\" {
            guard let next = characters.next() else { return nil }
            if next != "\"" && next != "\\" && next != "\n" { word.append("\\") }
            if next != "\n" { word.append(next) }
            continue
          }
          word.append(inner)
        }
        if !closed { return nil }
      case "\\":
        inWord = true
        if let next = characters.next(), next != "\n" { word.append(next) }
      default:
        inWord = true
        word.append(character)
      }
    }
    if inWord { words.append(word) }
    return words
  }

  /// Seconds as Judge0 writes them (`"0.012"`, `"5.0"`): Ruby's `Float#to_s` for these ranges.
  public static func seconds(_ value: Double) -> String {
    let milliseconds = (value * 1000).rounded()
    // Int64 arithmetic, not `String(format:)`: Foundation's formatter (a locale, a CFString) was 2% of
    // the daemon's CPU in the Judge0 async lane, for the two times on every result.
    guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return String(value) }
    return seconds(milliseconds: Int64(milliseconds))
  }

  /// `seconds(_:)` for a whole number of milliseconds.
  public static func seconds(milliseconds: Int64) -> String {
    let sign = milliseconds < 0 ? "-" : ""
    let magnitude = milliseconds.magnitude
    let (whole, fraction) = magnitude.quotientAndRemainder(dividingBy: 1000)
    guard fraction != 0 else { return "\(sign)\(whole).0" }
    var digits = String(fraction)
    digits = String(repeating: "0", count: 3 - digits.count) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(sign)\(whole).\(digits)"
  }

  /// A timestamp as Judge0 writes it: `2024-01-02T03:04:05.678Z`.
  public static func timestamp(milliseconds: Int64) -> String {
    // The civil date from the day number (Howard Hinnant's days_from_civil, inverted), not
    // Calendar: every poll of a finished submission shows two of these, and Calendar's
    // dateComponents cost more than the rest of the answer.
    let (days, millisecondOfDay) = milliseconds.floorDivided(by: 86_400_000)
    let shifted = days + 719_468  // days since 0000-03-01
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    let seconds = millisecondOfDay / 1000
    func digits(_ value: Int64, _ count: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, count - text.count)) + text
    }
    return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2) + "T" + digits(seconds / 3600, 2) + ":"
      + digits(seconds / 60 % 60, 2) + ":" + digits(seconds % 60, 2) + "." + digits(millisecondOfDay % 1000, 3) + "Z"
  }

  /// The 35 attributes of a submission (`fields=*`); the default 8 are `defaultFields`.
  public static let attributes = [
    "source_code", "language_id", "stdin", "expected_output", "stdout", "status_id", "created_at", "finished_at",
    "time", "memory", "stderr", "token", "number_of_runs", "cpu_time_limit", "cpu_extra_time", "wall_time_limit",
    "memory_limit", "stack_limit", "max_processes_and_or_threads", "enable_per_process_and_thread_time_limit",
    "enable_per_process_and_thread_memory_limit", "max_file_size", "compile_output", "exit_code", "exit_signal",
    "message", "wall_time", "compiler_options", "command_line_arguments", "redirect_stderr_to_stdout",
    "callback_url", "additional_files", "enable_network", "status", "language",
  ]
  public static let defaultFields = [
    "token", "time", "memory", "stdout", "stderr", "compile_output", "message", "status",
  ]
  /// The text attributes base64 mode encodes.
  public static let textAttributes: Set<String> = [
    "source_code", "stdin", "expected_output", "stdout", "stderr", "compile_output", "message",
  ]

  /// The attributes `fields` asks for, or the unknown names it gives.
  public static func fields(_ given: String?) -> Result<[String], Judge0Fields.Unknown> {
    guard let given, !given.isEmpty else { return .success(defaultFields) }
    if given == "*" { return .success(attributes) }
    let names = given.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let unknown = names.filter { !attributes.contains($0) }
    if !unknown.isEmpty { return .failure(Judge0Fields.Unknown(names: unknown)) }
    return .success(names)
  }

  /// A submission's attributes, narrowed to `fields` and, in base64 mode, its texts encoded.
  public static func render(_ attributes: [String: JSONValue], fields: [String], base64: Bool) -> JSONValue {
    var object: [String: JSONValue] = [:]
    for name in fields {
      var value = attributes[name] ?? .null
      if base64, textAttributes.contains(name), case .string(let text) = value {
        value = .string(encode64(Data(text.utf8)))
      }
      object[name] = value
    }
    return .object(object)
  }
}

/// Field-list errors.
public enum Judge0Fields {
  public struct Unknown: Error, Equatable {
    public var names: [String]
    /// Judge0's words: `invalid fields: [a, b]`.
    public var message: String { "invalid fields: [\(names.joined(separator: ", "))]" }
  }
}

extension Int64 {
  /// The quotient rounded toward minus infinity, and the remainder that goes with it (never negative
  /// for a positive divisor): times before 1970 fall on the day before, not the day after.
  fileprivate func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let remainder = ((self % divisor) + divisor) % divisor
    return ((self - remainder) / divisor, remainder)
  }
}
