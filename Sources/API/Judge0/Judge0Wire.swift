import Foundation
import HTTP
import Wire

/// A Judge0 answer other than 2xx, in Judge0's shapes: 422 `{"field": ["message"]}`, else
/// `{"error": "message"}`.
struct Judge0Refusal: Error {
  var status: HTTPStatus
  var body: JSONValue
  var headers = HTTPHeaders()

  init(status: HTTPStatus, body: JSONValue) {
    self.status = status
    self.body = body
  }

  /// One of ours (busy, store unavailable, over quota) in Judge0's `{"error"}` shape, its headers kept.
  init(_ error: APIError) {
    status = error.status
    body = ["error": .string(error.message)]
    headers = error.headers
  }

  /// Runs `work`, its `APIError` answered in Judge0's shape.
  static func lifting<Value>(_ work: () throws(APIError) -> Value) throws(Judge0Refusal) -> Value {
    do throws(APIError) {
      return try work()
    } catch {
      throw Judge0Refusal(error)
    }
  }

  static func field(_ name: String, _ message: String) -> Judge0Refusal {
    Judge0Refusal(status: HTTPStatus(code: 422), body: [name: [.string(message)]])
  }

  static func error(_ status: HTTPStatus, _ message: String) -> Judge0Refusal {
    Judge0Refusal(status: status, body: ["error": .string(message)])
  }
}

/// A Judge0 CE submission as its API takes it (`POST /submissions` and each batch item): every
/// attribute a client may send, read as Judge0's model reads it (a number may come as a string, a
/// flag as "true"), text decoded from base64 when the request says so. It is what a Judge0 job is
/// stored as (`json`, its texts plain), and what the run service's request is made from at the edge.
struct Judge0Submission: Sendable, Equatable {
  var sourceCode: String
  var languageID: Int
  var stdin: String?
  var expectedOutput: String?
  /// Seconds.
  var cpuTimeLimit: Double?
  var cpuExtraTime: Double?
  var wallTimeLimit: Double?
  /// KB.
  var memoryLimit: Double?
  var stackLimit: Double?
  var maxProcessesAndOrThreads: Double?
  /// KB.
  var maxFileSize: Double?
  var numberOfRuns: Double?
  var compilerOptions: String?
  /// One stream for the program's stdout and stderr, in the order written.
  var redirectStderrToStdout: Bool?
  var commandLineArguments: String?
  var callbackURL: String?
  /// A zip, base64 whatever `base64_encoded` says.
  var additionalFiles: String?

  /// The attributes a stored job keeps, in `json`'s names.
  static let storedKeys = [
    "source_code", "language_id", "stdin", "expected_output", "cpu_time_limit", "cpu_extra_time", "wall_time_limit",
    "memory_limit", "stack_limit", "max_processes_and_or_threads", "max_file_size", "number_of_runs",
    "compiler_options", "command_line_arguments", "callback_url", "additional_files", "redirect_stderr_to_stdout",
  ]

  /// Reads one submission's attributes; `base64`: its texts are base64 (`base64_encoded=true`).
  /// Refuses, in Judge0's words and shape, what Judge0's model validations refuse and what this
  /// server does not do (per-process limits, network, redirecting stderr, compiler options).
  static func read(_ object: [String: JSONValue], base64: Bool) throws(Judge0Refusal) -> Judge0Submission {
    func text(_ name: String) throws(Judge0Refusal) -> String? {
      switch object[name] {
      case nil, .null: return nil
      case .string(let value):
        guard base64 else { return value }
        guard let data = Judge0Model.decode64(value) else { throw .field(name, "is not valid base64") }
        guard let decoded = String(data: data, encoding: .utf8) else { throw .field(name, "is not UTF-8 text") }
        return decoded
      default: throw .field(name, "must be a string")
      }
    }
    func plain(_ name: String) throws(Judge0Refusal) -> String? {
      switch object[name] {
      case nil, .null: return nil
      case .string(let value): return value
      default: throw .field(name, "must be a string")
      }
    }
    func number(_ name: String) throws(Judge0Refusal) -> Double? {
      switch object[name] {
      case nil, .null: return nil
      case .number(let value): return value
      case .string(let value):
        guard let parsed = Double(value), parsed.isFinite else { throw .field(name, "is not a number") }
        return parsed
      default: throw .field(name, "is not a number")
      }
    }
    func flag(_ name: String) throws(Judge0Refusal) -> Bool? {
      switch object[name] {
      case nil, .null: return nil
      case .bool(let value): return value
      case .string("true"): return true
      case .string("false"): return false
      default: throw .field(name, "must be true or false")
      }
    }

    guard let source = try text("source_code"), !source.isEmpty else { throw .field("source_code", "can't be blank") }
    let languageID: Int
    switch object["language_id"] {
    case .number(let value) where value == value.rounded() && abs(value) < 1e9: languageID = Int(value)
    case .string(let value) where Int(value) != nil: languageID = Int(value)!
    case nil, .null: throw .field("language_id", "can't be blank")
    default: throw .field("language_id", "is not a number")
    }
    var submission = Judge0Submission(sourceCode: source, languageID: languageID)
    submission.stdin = try text("stdin")
    submission.expectedOutput = try text("expected_output")
    submission.cpuTimeLimit = try number("cpu_time_limit")
    submission.cpuExtraTime = try number("cpu_extra_time")
    submission.wallTimeLimit = try number("wall_time_limit")
    submission.memoryLimit = try number("memory_limit")
    submission.stackLimit = try number("stack_limit")
    submission.maxProcessesAndOrThreads = try number("max_processes_and_or_threads")
    submission.maxFileSize = try number("max_file_size")
    submission.numberOfRuns = try number("number_of_runs")
    for name in ["enable_per_process_and_thread_time_limit", "enable_per_process_and_thread_memory_limit"] {
      if try flag(name) == true { throw .field(name, "this server does not allow \(name)") }
    }
    if try flag("enable_network") == true { throw .field("enable_network", "enabling network is not allowed") }
    submission.redirectStderrToStdout = try flag("redirect_stderr_to_stdout")
    submission.compilerOptions = try plain("compiler_options")
    if let options = submission.compilerOptions, options.count > 512 {
      throw .field("compiler_options", "is too long (maximum is 512 characters)")
    }
    submission.commandLineArguments = try plain("command_line_arguments")
    submission.callbackURL = try plain("callback_url")
    submission.additionalFiles = try plain("additional_files")
    return submission
  }

  init(sourceCode: String, languageID: Int) {
    self.sourceCode = sourceCode
    self.languageID = languageID
  }

  /// The submission as a stored job keeps it: its texts plain (never base64), only what was given.
  var json: JSONValue {
    var object: [String: JSONValue] = [
      "source_code": .string(sourceCode), "language_id": .number(Double(languageID)),
    ]
    object["stdin"] = stdin.map(JSONValue.string)
    object["expected_output"] = expectedOutput.map(JSONValue.string)
    object["cpu_time_limit"] = cpuTimeLimit.map(JSONValue.number)
    object["cpu_extra_time"] = cpuExtraTime.map(JSONValue.number)
    object["wall_time_limit"] = wallTimeLimit.map(JSONValue.number)
    object["memory_limit"] = memoryLimit.map(JSONValue.number)
    object["stack_limit"] = stackLimit.map(JSONValue.number)
    object["max_processes_and_or_threads"] = maxProcessesAndOrThreads.map(JSONValue.number)
    object["max_file_size"] = maxFileSize.map(JSONValue.number)
    object["number_of_runs"] = numberOfRuns.map(JSONValue.number)
    object["compiler_options"] = compilerOptions.map(JSONValue.string)
    object["redirect_stderr_to_stdout"] = redirectStderrToStdout.map(JSONValue.bool)
    object["command_line_arguments"] = commandLineArguments.map(JSONValue.string)
    object["callback_url"] = callbackURL.map(JSONValue.string)
    object["additional_files"] = additionalFiles.map(JSONValue.string)
    return .object(object)
  }

  /// A stored job's submission, as `json` wrote it.
  static func stored(_ body: Data) -> Judge0Submission? {
    let reader = StrictReader()
    guard let value = reader.parse(body), case .object(let object) = value,
      object.keys.allSatisfy(storedKeys.contains)
    else { return nil }
    return try? read(object, base64: false)
  }
}
