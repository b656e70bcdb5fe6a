import Foundation
import HTTP
import Runners
import Wire

// Jobe's run_spec (docs/compat.md, "Jobe"): its fields read as Jobe's Runs controller reads them, its
// checks in its order with its exact words, and the conversion to the run service's request. Pure:
// JobeAPI.swift does the serving.

/// A refusal in Jobe's shape: a JSON string (or, for the key checks, plain text) with its status.
struct JobeRefusal: Error, Equatable {
  var status: HTTPStatus
  var message: String
  var plainText = false

  init(_ code: Int, _ message: String, plainText: Bool = false) {
    status = HTTPStatus(code: code)
    self.message = message
    self.plainText = plainText
  }

  /// A PHP error Jobe's controller turns into a 500 (a wrong type, a missing property).
  static func serverException(_ message: String) -> JobeRefusal { JobeRefusal(500, "Server exception (\(message))") }
}

/// One Jobe language: its id on the wire and the runner it runs on.
struct JobeLanguage: Sendable, Equatable {
  var id: String
  /// Our catalog's language.
  var language: String
  /// The source file name Jobe uses when the run_spec gives none; "" lets our runner choose.
  var defaultFileName: String

  /// Whether its `compileargs` reach the compiler (through the allow-list of `CompilerOptions`);
  /// other languages' are ignored (docs/compat.md, "Jobe").
  var takesCompilerOptions: Bool { language == "c" || language == "cpp" }

  /// Jobe's ids (`LanguagesModel`) we have, then ours under their own names. Jobe's others
  /// (pascal, php, octave, python2, matlab) answer as any unknown language.
  static let all: [JobeLanguage] = [
    JobeLanguage(id: "c", language: "c", defaultFileName: "prog.c"),
    JobeLanguage(id: "cpp", language: "cpp", defaultFileName: "prog.cpp"),
    JobeLanguage(id: "java", language: "java", defaultFileName: ""),
    JobeLanguage(id: "nodejs", language: "javascript", defaultFileName: "prog.js"),
    JobeLanguage(id: "python3", language: "python", defaultFileName: "prog.py"),
    JobeLanguage(id: "dart", language: "dart", defaultFileName: ""),
    JobeLanguage(id: "go", language: "go", defaultFileName: ""),
    JobeLanguage(id: "javascript", language: "javascript", defaultFileName: ""),
    JobeLanguage(id: "kotlin", language: "kotlin", defaultFileName: ""),
  ]
}

/// The parts of `parameters` we apply, in Jobe's units.
struct JobeParameters: Equatable {
  /// Jobe's defaults (`app/Config/Jobe.php`): 5 s of CPU, 2 MB per stream.
  static let defaultCPUSeconds = 5.0
  static let defaultStreamMegabytes = 2.0
  /// `cputime_upper_limit_secs`.
  static let cpuSecondsCeiling = 120

  var cpuSeconds = defaultCPUSeconds
  /// MB of 1,024,000 bytes (Jobe's RLIMIT_AS unit); nil keeps the runner's default; 0 is no limit.
  var memoryMegabytes: Double?
  var streamMegabytes = defaultStreamMegabytes
  /// RLIMIT_NPROC on Jobe, our process and thread limit; nil keeps the runner's default.
  var processes: Double?
  /// Word-split as `sh` splits them (`JobeShellWords`).
  var runArguments: [String] = []
  /// `compileargs`, word-split; nil when not given.
  var compileArguments: [String]?

  /// Reads `parameters` as Jobe does: a numeric default ignores a value that is not numeric, and
  /// keys it does not apply are ignored (docs/compat.md says which).
  static func read(_ value: JSONValue?) throws(JobeRefusal) -> JobeParameters {
    var parameters = JobeParameters()
    guard case .object(let fields)? = value else { return parameters }
    if let seconds = number(fields["cputime"]) {
      // PHP's intval: the limit is on the whole seconds.
      if seconds.rounded(.towardZero) > Double(cpuSecondsCeiling) {
        throw JobeRefusal(400, "cputime exceeds maximum allowed on this Jobe server (\(cpuSecondsCeiling) secs)")
      }
      if seconds > 0 { parameters.cpuSeconds = seconds }
    }
    if let megabytes = number(fields["memorylimit"]), megabytes >= 0 { parameters.memoryMegabytes = megabytes }
    if let megabytes = number(fields["streamsize"]), megabytes > 0 { parameters.streamMegabytes = megabytes }
    if let count = number(fields["numprocs"]), count >= 1 { parameters.processes = count }
    if let given = fields["runargs"] { parameters.runArguments = try words(given, name: "runargs") }
    if let given = fields["compileargs"] { parameters.compileArguments = try words(given, name: "compileargs") }
    return parameters
  }

  /// A list of arguments as the program or compiler sees it: Jobe pastes them into one `sh -c`
  /// line, so they are split into words there, and quotes may span two of them.
  static func words(_ value: JSONValue, name: String) throws(JobeRefusal) -> [String] {
    guard case .array(let items) = value else { throw .serverException("\(name) must be an array of strings") }
    var words: [String] = []
    for item in items {
      switch item {
      case .string(let text): words.append(text)
      case .number(let number): words.append(JSONValue.format(number))
      default: throw .serverException("\(name) must be an array of strings")
      }
    }
    return JobeShellWords.split(words.joined(separator: " "))
  }

  /// PHP's is_numeric: a number, or a string that reads as one.
  static func number(_ value: JSONValue?) -> Double? {
    switch value {
    case .number(let number)?: return number
    case .string(let text)?: return Double(text.trimmingCharacters(in: .whitespaces))
    default: return nil
    }
  }

  /// The limits asked of the run service, in its units, lowered to the server's maxima (Jobe has its
  /// own ceiling, and CodeRunner sends large values such as `memorylimit: 1000000` for Node).
  func askedLimits(maxima: LimitMaxima, language: String) -> AskedLimits {
    let cpu = min(UInt64((cpuSeconds * 1000).rounded(.up)), maxima.cpuMilliseconds)
    // runguard's wall-clock kill is at twice the CPU time.
    let wall = min(UInt64((cpuSeconds * 2000).rounded(.up)), maxima.wallMilliseconds)
    let output = min(UInt64((streamMegabytes * 1000).rounded(.up)), maxima.outputKilobytes)
    var memory: Int64?
    // Jobe forces Java's to 0 (no limit): its JVM flags bound the heap; ours keeps the runner's.
    if let memoryMegabytes, language != "java" {
      let megabytes =
        memoryMegabytes == 0
        ? maxima.memoryMegabytes : UInt64((memoryMegabytes * 1_024_000 / 1_048_576).rounded(.up))
      memory = Int64(clamping: max(1, min(megabytes, maxima.memoryMegabytes)))
    }
    // Jobe raises Java's to 256 whatever is asked: a JVM's threads count; ours keeps the runner's.
    let processes =
      language == "java" ? nil : self.processes.map { Int64(min($0.rounded(.down), Double(maxima.processes))) }
    return AskedLimits(
      cpuMilliseconds: Int64(clamping: max(1, cpu)), wallMilliseconds: Int64(clamping: max(1, wall)),
      memoryMegabytes: memory, outputKilobytes: Int64(clamping: max(1, output)), processes: processes)
  }
}

/// A run_spec read and checked: what the run service is asked.
struct JobeRunSpec {
  /// testsubmit.py's and CodeRunner's probe: this source is answered as an overload at once.
  static let overloadProbe = "!** TESTING OVERLOAD EXCEPTION **!"

  var language: JobeLanguage
  var sourceCode: String
  var sourceFileName: String
  var input: String
  /// `[file_id, file_name]` pairs.
  var files: [(id: String, name: String)]
  var parameters: JobeParameters

  /// The body of `POST /runs`, in the order Jobe checks it. `known` is the language list served.
  static func read(_ body: Data, known: [JobeLanguage]) throws(JobeRefusal) -> JobeRunSpec {
    let trimmed = body.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    guard !trimmed.isEmpty else { throw JobeRefusal(400, "Non-JSON post data received") }
    guard let value = StrictReader(nulls: .absent).parse(Data(trimmed)) else {
      throw JobeRefusal(500, "Server exception (Failed to parse JSON string. Error: Syntax error)")
    }
    guard case .object(let top) = value else { throw JobeRefusal(400, "Non-JSON post data received") }
    guard let specValue = top["run_spec"] else {
      throw .serverException("Undefined property: stdClass::$run_spec")
    }
    guard case .object(let spec) = specValue else { throw JobeRefusal(400, "No run_spec attribute found in post data") }
    guard let sourceValue = spec["sourcecode"] else {
      throw JobeRefusal(400, "run_spec is missing the required attribute 'sourcecode'")
    }
    guard let languageValue = spec["language_id"] else {
      throw JobeRefusal(400, "run_spec is missing the required attribute 'language_id'")
    }
    guard case .string(let languageID) = languageValue else { throw .serverException("language_id must be a string") }
    let id = languageID.lowercased()
    guard let language = known.first(where: { $0.id == id }) else {
      throw JobeRefusal(400, "Language '\(id)' is not known")
    }
    let parameters = try JobeParameters.read(spec["parameters"])
    guard case .string(let sourceCode) = sourceValue else { throw .serverException("sourcecode must be a string") }
    var fileName = language.defaultFileName
    if let given = spec["sourcefilename"] {
      guard case .string(let name) = given else { throw .serverException("sourcefilename must be a string") }
      // Jobe ignores "prog.java" on purpose (old CodeRunners send it) and finds the public class.
      if !name.isEmpty && !(language.language == "java" && name == "prog.java") {
        guard isCleanFileName(name) else { throw JobeRefusal(400, "The sourcefilename for the run_spec is illegal") }
        fileName = name
      }
    }
    var input = ""
    switch spec["input"] {
    case .string(let text)?: input = text
    case .number(let number)?: input = JSONValue.format(number)
    case .bool(let flag)?: input = flag ? "1" : ""
    default: break
    }
    // PHP's truthiness: "0", like "", gives the program no stdin at all.
    if input == "0" { input = "" }
    return JobeRunSpec(
      language: language, sourceCode: sourceCode, sourceFileName: fileName, input: input,
      files: try fileList(spec["file_list"]), parameters: parameters)
  }

  /// Jobe's `clean_filename`: a name it would change is refused.
  static func isCleanFileName(_ name: String) -> Bool {
    let refused = Set("<>:\"/|?*#[]@!$&'()+,;={}^~`")
    for scalar in name.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xA0 || scalar.value == 0xAD { return false }
      if refused.contains(Character(scalar)) { return false }
    }
    return !(name.hasPrefix(".") || name.hasPrefix("-"))
  }

  /// `file_list`: entries of 2 or 3 elements, an id of at least 8 alphanumerics, a name of
  /// alphanumerics and `-_.`.
  static func fileList(_ value: JSONValue?) throws(JobeRefusal) -> [(id: String, name: String)] {
    guard case .array(let entries)? = value else { return [] }
    var files: [(id: String, name: String)] = []
    for entry in entries {
      guard case .array(let parts) = entry, (2...3).contains(parts.count), case .string(let id) = parts[0],
        case .string(let name) = parts[1], id.count >= 8, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
        !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
      else {
        throw JobeRefusal(400, "Invalid file specifier: " + printR(entry))
      }
      files.append((id, name))
    }
    return files
  }

  /// PHP's print_r of a file_list entry, as Jobe quotes it.
  static func printR(_ value: JSONValue) -> String {
    guard case .array(let items) = value else { return scalarText(value) }
    var text = "Array\n(\n"
    for (index, item) in items.enumerated() { text += "    [\(index)] => \(scalarText(item))\n" }
    return text + ")\n"
  }

  private static func scalarText(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): return text
    case .number(let number): return JSONValue.format(number)
    case .bool(let flag): return flag ? "1" : ""
    case .null: return ""
    case .array: return "Array"
    case .object: return "stdClass Object"
    }
  }

  /// The run service's request. `cached` reads a file of `file_list`; nil when it is gone (404).
  func runAsk(maxima: LimitMaxima, cached: (String) -> Data?) throws(JobeRefusal) -> RunAsk {
    var files = [SourceFile(name: sourceFileName, contents: Data(sourceCode.utf8))]
    for file in self.files {
      guard let contents = cached(file.id) else {
        throw JobeRefusal(404, "One or more of the specified files is missing/unavailable")
      }
      // Jobe writes them after the source: one of the source's name replaces it.
      if let index = files.firstIndex(where: { $0.name == file.name }) {
        files[index].contents = contents
      } else {
        files.append(SourceFile(name: file.name, contents: contents))
      }
    }
    var ask = RunAsk(language: language.language, files: files)
    ask.stdin = Data(input.utf8)
    ask.arguments = parameters.runArguments
    if language.takesCompilerOptions { ask.compilerOptions = parameters.compileArguments ?? [] }
    ask.limits = parameters.askedLimits(maxima: maxima, language: language.language)
    ask.limitsField = "parameters."
    return ask
  }
}

/// How `sh` splits one command line into words: blanks separate them, single quotes keep
/// everything, double quotes keep all but `\` before `$`, backquote, `"`, `\` and newline, and a
/// backslash outside quotes keeps the next character. Nothing is expanded: no variables, globs or
/// operators (docs/compat.md, "Jobe").
enum JobeShellWords {
  static func split(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var inWord = false
    var characters = Array(line)[...]
    while let character = characters.popFirst() {
      switch character {
      case " ", "\t", "\n":
        if inWord { words.append(current) }
        current = ""
        inWord = false
      case "'":
        inWord = true
        while let next = characters.popFirst(), next != "'" { current.append(next) }
      case "\"":
        inWord = true
        while let next = characters.popFirst(), next != "\"" {
          if next == "\\", let escaped = characters.first, "$`\"\\\n".contains(escaped) {
            characters.removeFirst()
            if escaped != "\n" { current.append(escaped) }
          } else {
            current.append(next)
          }
        }
      case "\\":
        inWord = true
        if let next = characters.popFirst(), next != "\n" { current.append(next) }
      default:
        inWord = true
        current.append(character)
      }
    }
    if inWord { words.append(current) }
    return words
  }
}
