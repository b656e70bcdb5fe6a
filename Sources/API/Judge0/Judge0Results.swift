import Foundation
import Runners
import Sandbox
import Submissions
import Wire

/// A Judge0 submission admitted: the run service's request made from it, and the request
/// attributes Judge0 echoes back (limits filled with the defaults that apply).
struct Judge0Job: Sendable {
  var submission: Judge0Submission
  var request: ExecuteRequest
  var echo: [String: JSONValue]
}

extension Judge0API {
  /// Converts a submission to the run service's request and has it admitted: Judge0's ranges
  /// first (422 in its words), then every check a run makes (the files as the box names them, the
  /// arguments, the maxima), so what is stored is known to run.
  func admit(_ submission: Judge0Submission, context: inout RunContext) throws(Judge0Refusal) -> Judge0Job {
    let languageID = submission.languageID
    guard let language = Judge0Model.language(id: languageID) else {
      throw .field("language_id", "language with id \(languageID) doesn't exist")
    }
    let runner: Runner
    do throws(APIError) {
      runner = try service.runner(language: language.runsAs, version: nil, context: &context)
    } catch {
      // None installed is an id this server does not serve, as `GET /languages` leaves it out.
      let missing = error.code == "runtime_unavailable"
      throw .field("language_id", missing ? "language with id \(languageID) doesn't exist" : error.message)
    }
    let defaults = runner.runLimits()
    let maxima = service.settings.maxima
    func bounded(_ name: String, _ value: Double?, minimum: Double, maximum: Double) throws(Judge0Refusal) -> Double? {
      guard let value else { return nil }
      if value < minimum { throw .field(name, "must be greater than or equal to \(Self.number(minimum))") }
      if value > maximum { throw .field(name, "must be less than or equal to \(Self.number(maximum))") }
      return value
    }
    let cpu = try bounded(
      "cpu_time_limit", submission.cpuTimeLimit, minimum: 0, maximum: Double(maxima.cpuMilliseconds) / 1000)
    let extra = try bounded("cpu_extra_time", submission.cpuExtraTime, minimum: 0, maximum: 0)
    let wall = try bounded(
      "wall_time_limit", submission.wallTimeLimit, minimum: 1, maximum: Double(maxima.wallMilliseconds) / 1000)
    let memory = try bounded(
      "memory_limit", submission.memoryLimit, minimum: 2048, maximum: Double(maxima.memoryMegabytes << 10))
    let stack = try bounded(
      "stack_limit", submission.stackLimit, minimum: 0, maximum: Double(defaults.stackBytes >> 10))
    let processes = try bounded(
      "max_processes_and_or_threads", submission.maxProcessesAndOrThreads, minimum: 1,
      maximum: Double(maxima.processes))
    let fileSize = try bounded(
      "max_file_size", submission.maxFileSize, minimum: 0, maximum: Double(maxima.outputKilobytes))
    let runs = try bounded("number_of_runs", submission.numberOfRuns, minimum: 1, maximum: 1)
    var arguments: [String] = []
    if let line = submission.commandLineArguments {
      guard line.count <= 512 else { throw .field("command_line_arguments", "is too long (maximum is 512 characters)") }
      guard let split = Judge0Model.splitArguments(line) else {
        throw .field("command_line_arguments", "has a quote that is never closed")
      }
      arguments = split
    }
    if let url = submission.callbackURL {
      guard let webhooks = service.settings.webhooks else {
        throw .field("callback_url", "this server sends no callbacks (its config has no submissions.webhooks)")
      }
      if let problem = WebhookTarget.problem(with: url, settings: webhooks) { throw .field("callback_url", problem) }
    }
    var files = [SourceFile(name: "", contents: Data(submission.sourceCode.utf8))]
    if let encoded = submission.additionalFiles {
      files = try unpack(encoded, source: submission.sourceCode, language: language)
    }

    let compilerOptions = CompilerOptions.words(submission.compilerOptions ?? "")
    if !compilerOptions.isEmpty {
      guard runner.compile != nil else {
        throw .field("compiler_options", "setting compiler options is only allowed for compiled languages")
      }
      if let problem = CompilerOptions.problem(compilerOptions, runner: runner) {
        throw .field("compiler_options", problem)
      }
    }

    var ask = RunAsk(language: runner.language, files: files)
    ask.stdin = Data((submission.stdin ?? "").utf8)
    ask.arguments = arguments
    ask.compilerOptions = compilerOptions
    ask.mergesStderrIntoStdout = submission.redirectStderrToStdout ?? false
    ask.limits = AskedLimits(
      cpuMilliseconds: cpu.map { max(1, Int64(($0 * 1000).rounded(.up))) },
      wallMilliseconds: wall.map { Int64(($0 * 1000).rounded(.up)) },
      memoryMegabytes: memory.map { Int64(($0 / 1024).rounded(.up)) },
      outputKilobytes: fileSize.map { max(1, Int64($0)) },
      processes: processes.map { Int64($0) })
    let request: ExecuteRequest
    do throws(APIError) {
      request = try service.admit(ask, context: &context)
    } catch {
      // A name clash inside the zip is the zip's; anything else the program's.
      throw .field(error.message.hasPrefix("files[") ? "additional_files" : "source_code", error.message)
    }
    func seconds(_ value: Double) -> JSONValue { .string(Judge0Model.seconds(value)) }
    func whole(_ value: Double) -> JSONValue { .number(value.rounded()) }
    let echo: [String: JSONValue] = [
      "source_code": .string(submission.sourceCode), "language_id": .number(Double(language.id)),
      "language": [
        "id": .number(Double(language.id)),
        "name": .string(
          Judge0Model.runningName(
            language, version: service.probesVersions ? service.probedVersion(of: runner) : runner.version)),
      ],
      "stdin": submission.stdin.map(JSONValue.string) ?? .null,
      "expected_output": submission.expectedOutput.map(JSONValue.string) ?? .null,
      "number_of_runs": whole(runs ?? 1),
      "cpu_time_limit": seconds(cpu ?? Double(defaults.cpuTimeMilliseconds) / 1000),
      "cpu_extra_time": seconds(extra ?? 0),
      "wall_time_limit": seconds(wall ?? Double(defaults.wallTimeMilliseconds) / 1000),
      "memory_limit": whole(memory ?? Double(defaults.memoryBytes >> 10)),
      "stack_limit": whole(stack ?? Double(defaults.stackBytes >> 10)),
      "max_processes_and_or_threads": whole(processes ?? Double(defaults.processes)),
      "enable_per_process_and_thread_time_limit": false, "enable_per_process_and_thread_memory_limit": false,
      "max_file_size": whole(fileSize ?? Double(defaults.outputBytesPerStream >> 10)),
      "compiler_options": submission.compilerOptions.map(JSONValue.string) ?? .null,
      "command_line_arguments": submission.commandLineArguments.map(JSONValue.string) ?? .null,
      "redirect_stderr_to_stdout": .bool(submission.redirectStderrToStdout ?? false),
      "callback_url": submission.callbackURL.map(JSONValue.string) ?? .null,
      "additional_files": submission.additionalFiles.map(JSONValue.string) ?? .null, "enable_network": false,
    ]
    return Judge0Job(submission: submission, request: request, echo: echo)
  }

  /// The program's files with a zip's entries beside the source (named as Judge0 names it).
  private func unpack(_ encoded: String, source: String, language: Judge0Model.Language) throws(Judge0Refusal)
    -> [SourceFile]
  {
    guard let archive = Judge0Model.decode64(encoded) else { throw .field("additional_files", "is not valid base64") }
    let entries: [Judge0Zip.Entry]
    do throws(Judge0Zip.Problem) {
      entries = try Judge0Zip.entries(of: archive, maximumBytes: settings.maximumExtractBytes)
    } catch {
      throw .field("additional_files", error.message)
    }
    var files = [SourceFile(name: language.sourceFile, contents: Data(source.utf8))]
    for entry in entries {
      guard entry.name != language.sourceFile else {
        throw .field("additional_files", "entry \"\(entry.name)\" would replace the source file")
      }
      guard String(data: entry.contents, encoding: .utf8) != nil else {
        throw .field("additional_files", "entry \"\(entry.name)\" is not UTF-8 text; this server takes text files")
      }
      files.append(SourceFile(name: entry.name, contents: entry.contents))
    }
    return files
  }

  // MARK: Results

  /// Judge0's result attributes of a run, from the run service's result: its verdict as Judge0's
  /// `isolate_job.rb` decides it (`Judge0Model.verdict`), outputs, times and memory.
  static func outcome(_ result: ExecuteResult, expectedOutput: String?) -> [String: JSONValue] {
    var out = emptyOutcome
    func nonEmpty(_ data: Data) -> JSONValue { data.isEmpty ? .null : .string(String(decoding: data, as: UTF8.self)) }
    if let compile = result.compile {
      let printed = String(decoding: compile.stdout + compile.stderr, as: UTF8.self)
      out["compile_output"] = printed.isEmpty ? .null : .string(printed)
      if compile.status != .ok {
        switch compile.status {
        case .compileError: out["status_id"] = 6
        case .timeLimit:
          out["status_id"] = 6
          out["compile_output"] = .string(printed.isEmpty ? "Compilation time limit exceeded." : printed)
        default:
          out["status_id"] = compile.status == .internalError ? 13 : 6
          out["message"] = .string("\(compile.status.rawValue): \(compile.message)")
        }
        return out
      }
    }
    guard let run = result.run else {
      out["status_id"] = 13
      out["message"] = "the program did not run"
      return out
    }
    let verdict = Judge0Model.verdict(run: run.wire, expectedOutput: expectedOutput)
    out["status_id"] = .number(Double(verdict.statusID))
    out["message"] = verdict.message.map(JSONValue.string) ?? .null
    out["exit_code"] = verdict.exitCode.map { .number(Double($0)) } ?? .null
    out["exit_signal"] = verdict.exitSignal.map { .number(Double($0)) } ?? .null
    out["stdout"] = nonEmpty(run.stdout)
    out["stderr"] = nonEmpty(run.stderr)
    out["time"] = .string(Judge0Model.seconds(milliseconds: Int64(run.cpuMilliseconds)))
    out["wall_time"] = .string(Judge0Model.seconds(milliseconds: Int64(run.wallMilliseconds)))
    out["memory"] = .number(Double(run.memoryKilobytes))
    return out
  }

  /// Judge0's result attributes of a run that could not be made (Internal Error, with why).
  static func failure(_ error: APIError) -> [String: JSONValue] {
    var out = emptyOutcome
    out["status_id"] = 13
    out["message"] = .string(error.message)
    return out
  }

  private static let emptyOutcome: [String: JSONValue] = [
    "stdout": .null, "stderr": .null, "compile_output": .null, "message": .null, "exit_code": .null,
    "exit_signal": .null, "time": .null, "wall_time": .null, "memory": .null,
  ]

  /// What a Judge0 job's result is stored as: its echoed attributes with the outcome's.
  static func storedResult(echo: [String: JSONValue], outcome: [String: JSONValue]) -> Data {
    ResultEncoder.data(["judge0": .object(echo.merging(outcome) { _, new in new })] as JSONValue)
  }

  /// How a stored Judge0 result begins (every poll and callback compares with it).
  private static let resultPrefix = Data("{\"judge0\":".utf8)
  /// How the body of a Judge0 job stored before jobs had their own kind begins.
  static let legacyBodyPrefix = Data("{\"execute\":".utf8)

  /// Whether a stored record is a Judge0 submission (a /v1 one is not shown under a token). Jobs
  /// stored before the `judge0` kind were `execute` jobs whose result is Judge0's.
  static func isJudge0(_ record: SubmissionRecord) -> Bool {
    switch record.kind {
    case .judge0: return true
    case .execute:
      guard record.state == .done, let result = record.result else { return false }
      return result.starts(with: resultPrefix)
    case .grade: return false
    }
  }

  /// Every attribute of a stored Judge0 submission, its result decoded.
  static func attributes(_ record: SubmissionRecord, token: String) -> [String: JSONValue] {
    var attributes: [String: JSONValue] = [:]
    let statusID: Int
    switch record.state {
    case .queued: statusID = 1
    case .running: statusID = 2
    case .cancelled:
      statusID = 13
      attributes["message"] = "cancelled"
    case .done:
      // The strict reader's byte parser, not JSONDecoder: decoding the stored result through
      // Codable was half of the CPU of a poll that finds a submission done.
      if let result = record.result, let value = StrictReader().parse(result), case .object(let object) = value,
        case .object(let stored)? = object["judge0"]
      {
        attributes = stored
      }
      if case .number(let id)? = attributes["status_id"] { statusID = Int(id) } else { statusID = 13 }
    }
    attributes["token"] = .string(token)
    attributes["status_id"] = .number(Double(statusID))
    attributes["status"] = Judge0Model.statusObject(statusID)
    attributes["created_at"] = .string(Judge0Model.timestamp(milliseconds: record.createdMilliseconds))
    attributes["finished_at"] =
      record.finishedMilliseconds.map { .string(Judge0Model.timestamp(milliseconds: $0)) } ?? .null
    return attributes
  }

  // MARK: Stored jobs

  func handles(_ job: ClaimedSubmission) -> Bool {
    job.kind == .judge0 || (job.kind == .execute && job.body.starts(with: Self.legacyBodyPrefix))
  }

  /// Runs a stored Judge0 job: its submission admitted again (the maxima may have changed since),
  /// run, and its result stored in Judge0's terms, a failure as Judge0's Internal Error.
  func runStored(_ job: ClaimedSubmission, context: inout RunContext) -> SubmissionWorkers.RunOutcome {
    let admitted: Judge0Job
    if let submission = Judge0Submission.stored(job.body) {
      do throws(Judge0Refusal) {
        admitted = try admit(submission, context: &context)
      } catch {
        return .finished(
          Self.storedResult(echo: [:], outcome: Self.failure(.badRequest(error.body.json))), isError: false)
      }
    } else if let legacy = legacyJob(job.body, context: &context) {
      admitted = legacy
    } else {
      return .finished(
        Self.storedResult(echo: [:], outcome: Self.failure(.badRequest("the stored submission cannot be read"))),
        isError: false)
    }
    return run(admitted, context: &context).map { .finished($0, isError: false) } ?? .retryLater
  }

  /// Runs an admitted job: its stored result's bytes, or nil when no slot could be had.
  func run(_ job: Judge0Job, context: inout RunContext) -> Data? {
    let expected = job.submission.expectedOutput
    let bound = StoredResultBound.bytes(service.settings.maxima)
    let echo = job.echo
    do throws(APIError) {
      let (_, outcome) = try service.execute(job.request, context: &context) { result in
        // The verdict is the whole output's; only the texts kept are cut to the bound.
        var attributes = Self.outcome(result, expectedOutput: expected)
        guard Self.storedResult(echo: echo, outcome: attributes).count > bound else { return attributes }
        let fitted = StoredResultBound.fit(result, within: bound) { result in
          Self.storedResult(echo: echo, outcome: Self.outcome(result, expectedOutput: expected)).count
        }
        let cut = Self.outcome(fitted, expectedOutput: expected)
        for key in ["stdout", "stderr", "compile_output"] { attributes[key] = cut[key] ?? .null }
        return attributes
      }
      return Self.storedResult(echo: job.echo, outcome: outcome)
    } catch {
      if error.code == "busy" { return nil }
      return Self.storedResult(echo: job.echo, outcome: Self.failure(service.redacted(error, context: &context)))
    }
  }

  /// A job stored before jobs had their own kind: `{"execute": /v1 body, "judge0": echo}`.
  private func legacyJob(_ body: Data, context: inout RunContext) -> Judge0Job? {
    guard let value = StrictReader().parse(body), case .object(let object) = value,
      let executeValue = object["execute"], case .object(let echo)? = object["judge0"],
      case .success(let read) = StrictReader.read(executeValue, keys: ExecuteBody.keys, ExecuteBody.init(reading:)),
      let ask = try? read.runAsk(), let request = try? service.admit(ask, context: &context)
    else { return nil }
    var submission = Judge0Submission(sourceCode: read.source ?? "", languageID: 0)
    if case .string(let expected)? = echo["expected_output"] { submission.expectedOutput = expected }
    return Judge0Job(submission: submission, request: request, echo: echo)
  }

  func callback(_ webhook: PendingWebhook) -> (method: String, body: Data)? {
    guard webhook.kind == .judge0 || webhook.result.starts(with: Self.resultPrefix) else { return nil }
    let record = SubmissionRecord(
      id: webhook.id, kind: webhook.kind, state: .done, createdMilliseconds: 0, finishedMilliseconds: nil,
      result: webhook.result, resultIsError: webhook.resultIsError)
    var attributes = Self.attributes(record, token: Self.token(webhook.id))
    attributes.removeValue(forKey: "created_at")
    // Judge0 calls back with PUT and the default fields, base64-encoded.
    return ("PUT", ResultEncoder.data(Judge0Model.render(attributes, fields: Judge0Model.defaultFields, base64: true)))
  }

  // MARK: Tokens

  /// A stored id made a UUID v4's bits (version 4, variant 10), so its spelling is a valid token.
  static func uuid4ID(_ id: String) -> String {
    // Bytes, not Characters and radix conversions: every submit makes one (they were 1% of a
    // submit's CPU).
    var bytes = Array(id.utf8)
    guard bytes.count > 16 else { return id }
    bytes[12] = UInt8(ascii: "4")
    let variant: UInt8
    switch bytes[16] {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): variant = bytes[16] - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): variant = bytes[16] - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): variant = bytes[16] - UInt8(ascii: "A") + 10
    default: variant = 0
    }
    bytes[16] = Array("89ab".utf8)[Int(variant & 0x3)]
    return String(decoding: bytes, as: UTF8.self)
  }

  static func token(_ id: String) -> String {
    // One pass over the bytes (splitting into Strings and joining them was 3% of a submit's CPU).
    var token: [UInt8] = []
    token.reserveCapacity(id.utf8.count + 4)
    for (offset, byte) in id.utf8.enumerated() {
      if offset == 8 || offset == 12 || offset == 16 || offset == 20 { token.append(UInt8(ascii: "-")) }
      token.append(byte)
    }
    return String(decoding: token, as: UTF8.self)
  }

  /// The stored id a token names; nil when it is no token.
  static func id(_ token: String) -> String? {
    // One pass over the bytes: every poll reads its token, and splitting, joining and lowercasing
    // Strings was 1.6% of the daemon's CPU in the Judge0 async lane.
    guard token.utf8.count == 36 else { return nil }
    var id: [UInt8] = []
    id.reserveCapacity(SubmissionID.length)
    for (offset, byte) in token.utf8.enumerated() {
      switch (offset, byte) {
      case (8, UInt8(ascii: "-")), (13, UInt8(ascii: "-")), (18, UInt8(ascii: "-")), (23, UInt8(ascii: "-")):
        continue
      case (8, _), (13, _), (18, _), (23, _):
        return nil
      case (_, UInt8(ascii: "0")...UInt8(ascii: "9")), (_, UInt8(ascii: "a")...UInt8(ascii: "f")):
        id.append(byte)
      case (_, UInt8(ascii: "A")...UInt8(ascii: "F")):
        id.append(byte + 0x20)
      default:
        return nil
      }
    }
    return String(decoding: id, as: UTF8.self)
  }
}
