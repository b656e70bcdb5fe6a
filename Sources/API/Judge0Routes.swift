import Foundation
import HTTP
import Runners
import Sandbox
import Submissions
import Synchronization
import Wire

/// Where the Judge0 CE routes are served (`judge0` in the daemon's config).
public struct Judge0Settings: Sendable, Equatable {
  /// A path prefix before `/languages`, `/submissions`, ...; "" serves them at the root.
  public var prefix: String
  /// The most an `additional_files` zip may unpack to, bytes (`max_extract_size`).
  public var maximumExtractBytes = 10 << 20
  /// How long a `GET /submissions/{token}` (or batch GET) of a submission not yet final waits for
  /// it to become final before it answers its status, milliseconds; 0 answers at once, as Judge0
  /// does. A client polling every 0.1 s then learns of its result when it is recorded, not up to a
  /// poll later, and asks fewer times (docs/compat.md, "Deviations").
  public var pollHoldMilliseconds = 2000
  /// The most polls held at once; any more answer at once. Each held poll keeps its connection's
  /// thread, so this keeps held polls from taking the connections `/v1/execute` needs.
  public var maximumHeldPolls = 64

  public init(prefix: String = "") {
    self.prefix = prefix
  }
}

/// How many requests of one kind are held open now, waiting for a result: Judge0 polls, bounded by
/// `Judge0Settings.maximumHeldPolls`, and waits (`?wait=`, `wait=true`), by
/// `SubmissionSettings.maximumWaiting`.
final class HeldRequests: Sendable {
  private let held = Mutex(0)

  /// Takes a hold; false (none taken) when `maximum` are held.
  func enter(maximum: Int) -> Bool {
    held.withLock { count in
      guard count < maximum else { return false }
      count += 1
      return true
    }
  }

  func leave() {
    held.withLock { $0 -= 1 }
  }
}

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

/// A checked Judge0 submission: the `/v1/execute` body it runs as, and what Judge0 echoes back.
/// A Judge0 result as stored, and the attributes it encodes (so a poll need not decode it).
struct Judge0Result: Sendable {
  var bytes: Data
  var attributes: [String: JSONValue]
}

struct Judge0Job: Sendable {
  var execute: ExecuteBody
  /// The request attributes as Judge0 shows them (limits filled with the defaults that apply).
  var echo: [String: JSONValue]
  var callbackURL: String?
}

extension APIRouter {
  /// Answers a Judge0 CE route; nil when Judge0 is off or `path` is none of its routes.
  func judge0Answer(_ request: HTTPRequest, path: String, trace: inout Trace) throws(APIError) -> HTTPResponse? {
    guard let settings = configuration.judge0, path.hasPrefix(settings.prefix) else { return nil }
    let rest = String(path.dropFirst(settings.prefix.count))
    let isSubmissionPath = rest == "/submissions" || rest.hasPrefix("/submissions/")
    let isInfoPath =
      ["/languages", "/statuses", "/about", "/config_info"].contains(rest) || rest.hasPrefix("/languages/")
    guard isSubmissionPath || isInfoPath else { return nil }
    let method = request.method == "HEAD" ? "GET" : request.method
    let query = Self.queryItems(request.target)
    do throws(Judge0Refusal) {
      switch (method, rest) {
      case ("GET", "/languages"):
        return Self.judge0JSON(
          .ok, .array(judge0Languages().map { ["id": .number(Double($0.id)), "name": .string($0.name)] }))
      case ("GET", _) where rest.hasPrefix("/languages/"):
        let id = Int(rest.dropFirst("/languages/".count))
        guard let id, let language = judge0Languages().first(where: { $0.id == id }) else {
          throw .error(.notFound, "Language with id \(rest.dropFirst("/languages/".count)) doesn't exist")
        }
        return Self.judge0JSON(.ok, judge0LanguageObject(language))
      case ("GET", "/statuses"):
        return Self.judge0JSON(
          .ok,
          .array(Judge0Model.statuses.map { ["id": .number(Double($0.id)), "description": .string($0.description)] }))
      case ("GET", "/about"):
        return Self.judge0JSON(
          .ok,
          [
            "version": .string(Judge0Model.version), "homepage": "dsa-rund: docs/compat.md",
            "source_code": "dsa-run", "maintainer": "the operators of this dsa-rund",
          ])
      case ("GET", "/config_info"):
        return Self.judge0JSON(.ok, judge0ConfigInfo(settings))
      default: break
      }
      guard let service = submissions else { throw .error(.notFound, "this server keeps no submissions") }
      let owner = ownerDigest(request)
      switch (method, rest) {
      case ("POST", "/submissions"):
        let object = try judge0Object(request)
        let base64 = Self.flag("base64_encoded", query, object)
        let fields = try Self.judge0Fields(query["fields"])
        try Judge0Refusal.lifting { () throws(APIError) in try chargeRuns(1, request, trace: &trace) }
        let job = try judge0Job(object, base64: base64, service: service, settings: settings, trace: &trace)
        let waits = Self.flag("wait", query, object)
        // wait=true runs in this request, as /v1/execute does, and stores the submission done: one
        // write, no worker between. Only when the sync lane is over its wait budget is it queued
        // as any other and waited for.
        if waits,
          let (token, record) = try Judge0Refusal.lifting({ () throws(APIError) in
            try judge0RunNow(job, owner: owner, service: service, trace: &trace)
          })
        {
          return Self.judge0JSON(
            HTTPStatus(code: 201),
            Judge0Model.render(judge0Attributes(record, token: token, service: service), fields: fields, base64: base64)
          )
        }
        let token = try Judge0Refusal.lifting { () throws(APIError) in
          try judge0Insert([job], owner: owner, service: service, trace: &trace)[0]
        }
        guard waits else { return Self.judge0JSON(HTTPStatus(code: 201), ["token": .string(token)]) }
        let record = try Judge0Refusal.lifting { () throws(APIError) in
          try judge0Wait(token, owner: owner, service: service, trace: &trace)
        }
        return Self.judge0JSON(
          HTTPStatus(code: 201),
          Judge0Model.render(judge0Attributes(record, token: token, service: service), fields: fields, base64: base64))
      case ("POST", "/submissions/batch"):
        let object = try judge0Object(request)
        let base64 = Self.flag("base64_encoded", query, object)
        guard let items = object["submissions"], case .array(let list) = items else {
          throw .field("submissions", "can't be blank")
        }
        guard (1...service.settings.maximumBatch).contains(list.count) else {
          throw .error(
            .badRequest, "number of submissions in a batch should be between 1 and \(service.settings.maximumBatch)")
        }
        try Judge0Refusal.lifting { () throws(APIError) in try chargeRuns(list.count, request, trace: &trace) }
        var answers: [JSONValue?] = []
        var jobs: [Judge0Job] = []
        for item in list {
          do throws(Judge0Refusal) {
            guard case .object(let fields) = item else { throw .field("submission", "must be an object") }
            jobs.append(try judge0Job(fields, base64: base64, service: service, settings: settings, trace: &trace))
            answers.append(nil)
          } catch {
            answers.append(error.body)
          }
        }
        guard !jobs.isEmpty else { return Self.judge0JSON(HTTPStatus(code: 422), .array(answers.compactMap { $0 })) }
        var tokens = try Judge0Refusal.lifting { () throws(APIError) in
          try judge0Insert(jobs, owner: owner, service: service, trace: &trace)
        }.makeIterator()
        return Self.judge0JSON(
          HTTPStatus(code: 201), .array(answers.map { $0 ?? ["token": .string(tokens.next() ?? "")] }))
      case ("GET", "/submissions/batch"):
        let base64 = query["base64_encoded"] == "true"
        let fields = try Self.judge0Fields(query["fields"])
        let tokens = (query["tokens"] ?? "").split(separator: ",").map(String.init)
        guard (1...service.settings.maximumBatch).contains(tokens.count) else {
          throw .error(
            .badRequest, "number of tokens should be between 1 and \(service.settings.maximumBatch)")
        }
        let ids = tokens.compactMap(Self.judge0ID)
        let records = try Judge0Refusal.lifting { () throws(APIError) in
          try judge0Poll(ids, owner: owner, service: service, settings: settings, trace: &trace)
        }
        let byID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let found = tokens.map { token -> JSONValue in
          guard let id = Self.judge0ID(token), let record = byID[id], Self.isJudge0(record) else { return .null }
          return Judge0Model.render(
            judge0Attributes(record, token: token, service: service), fields: fields, base64: base64)
        }
        return Self.judge0JSON(.ok, ["submissions": .array(found)])
      case ("GET", _)
      where rest.hasPrefix("/submissions/") && !rest.dropFirst("/submissions/".count).utf8.contains(UInt8(ascii: "/")):
        let token = String(rest.dropFirst("/submissions/".count))
        let base64 = query["base64_encoded"] == "true"
        let fields = try Self.judge0Fields(query["fields"])
        guard let id = Self.judge0ID(token) else { throw .error(.notFound, "Not Found") }
        let records = try Judge0Refusal.lifting { () throws(APIError) in
          try judge0Poll([id], owner: owner, service: service, settings: settings, trace: &trace)
        }
        guard let record = records.first, Self.isJudge0(record) else { throw .error(.notFound, "Not Found") }
        return Self.judge0JSON(
          .ok,
          Judge0Model.render(judge0Attributes(record, token: token, service: service), fields: fields, base64: base64))
      default:
        throw .error(HTTPStatus(code: 405), "\(request.method) \(rest) is not a Judge0 CE route")
      }
    } catch {
      var response = Self.judge0JSON(error.status, error.body)
      for (name, value) in error.headers { response.headers.add(name: name, value: value) }
      return response
    }
  }

  // MARK: Info routes

  /// The Judge0 languages whose catalog language this server can run.
  func judge0Languages() -> [Judge0Model.Language] {
    Judge0Model.languages.filter(judge0Runs)
  }

  /// Whether this server can run `language` (a runner of its catalog language has what it needs).
  private func judge0Runs(_ language: Judge0Model.Language) -> Bool {
    (executor.catalog.languages[language.runsAs] ?? []).contains { $0.missingRequirement == nil }
  }

  private func judge0LanguageObject(_ language: Judge0Model.Language) -> JSONValue {
    let runner = try? executor.runner(language: language.runsAs, version: nil)
    return [
      "id": .number(Double(language.id)), "name": .string(language.name), "is_archived": .bool(language.isArchived),
      "source_file": .string(language.sourceFile),
      "compile_cmd": runner?.compile.map { .string($0.argv.joined(separator: " ")) } ?? .null,
      "run_cmd": runner.map { .string($0.run.argv.joined(separator: " ")) } ?? .null,
    ]
  }

  /// The defaults shown are the Python runner's (each language's own default applies to it).
  private func judge0ConfigInfo(_ settings: Judge0Settings) -> JSONValue {
    let defaults = (try? executor.runner(language: "python", version: nil))?.runLimits() ?? BoxLimits()
    let maxima = configuration.maxima
    let tries = submissions?.settings.webhooks?.tries ?? 0
    let timeout = Double(submissions?.settings.webhooks?.timeoutMilliseconds ?? 0) / 1000
    func number(_ value: Double) -> JSONValue { .number(value) }
    func whole(_ value: UInt64) -> JSONValue { .number(Double(value)) }
    return [
      "maintenance_mode": false, "enable_wait_result": true, "enable_compiler_options": false,
      "allowed_languages_for_compile_options": [], "enable_command_line_arguments": true,
      "enable_submission_delete": false, "enable_callbacks": .bool(submissions?.settings.webhooks != nil),
      "callbacks_max_tries": number(Double(tries)), "callbacks_timeout": number(timeout),
      "enable_additional_files": true, "max_queue_size": number(Double(configuration.maximumQueued ?? 0)),
      "cpu_time_limit": number(Double(defaults.cpuTimeMilliseconds) / 1000),
      "max_cpu_time_limit": number(Double(maxima.cpuMilliseconds) / 1000),
      "cpu_extra_time": number(0), "max_cpu_extra_time": number(0),
      "wall_time_limit": number(Double(defaults.wallTimeMilliseconds) / 1000),
      "max_wall_time_limit": number(Double(maxima.wallMilliseconds) / 1000),
      "memory_limit": whole(defaults.memoryBytes >> 10), "max_memory_limit": whole(maxima.memoryMegabytes << 10),
      "stack_limit": whole(defaults.stackBytes >> 10), "max_stack_limit": whole(defaults.stackBytes >> 10),
      "max_processes_and_or_threads": whole(defaults.processes),
      "max_max_processes_and_or_threads": whole(maxima.processes),
      "enable_per_process_and_thread_time_limit": false, "allow_enable_per_process_and_thread_time_limit": false,
      "enable_per_process_and_thread_memory_limit": false,
      "allow_enable_per_process_and_thread_memory_limit": false,
      "max_file_size": whole(defaults.outputBytesPerStream >> 10), "max_max_file_size": whole(maxima.outputKilobytes),
      "number_of_runs": 1, "max_number_of_runs": 1, "redirect_stderr_to_stdout": false,
      "max_extract_size": number(Double(settings.maximumExtractBytes >> 10)), "enable_batched_submissions": true,
      "max_submission_batch_size": number(Double(submissions?.settings.maximumBatch ?? 20)),
      "submission_cache_duration": number(0), "use_docs_as_homepage": false, "allow_enable_network": false,
      "enable_network": false,
    ]
  }

  // MARK: Submissions

  private func judge0Object(_ request: HTTPRequest) throws(Judge0Refusal) -> [String: JSONValue] {
    guard request.body.count <= configuration.maximumBodyBytes else {
      throw .error(
        HTTPStatus(code: 413), "the body is \(request.body.count) bytes; at most \(configuration.maximumBodyBytes)")
    }
    let reader = StrictReader()
    guard let value = reader.parse(request.body), case .object(let object) = value else {
      throw .error(.badRequest, "the body must be one JSON object: \(reader.problems.first?.message ?? "it is not")")
    }
    return object
  }

  /// `base64_encoded` and `wait`: on only when exactly "true", from the query or (as Rails reads
  /// parameters) the body.
  private static func flag(_ name: String, _ query: [String: String], _ body: [String: JSONValue]) -> Bool {
    if let value = query[name] { return value == "true" }
    switch body[name] {
    case .bool(true), .string("true"): return true
    default: return false
    }
  }

  private static func judge0Fields(_ given: String?) throws(Judge0Refusal) -> [String] {
    switch Judge0Model.fields(given) {
    case .success(let fields): return fields
    case .failure(let unknown): throw .error(.badRequest, unknown.message)
    }
  }

  /// Checks one submission as Judge0's model validations would, and builds what it runs as.
  private func judge0Job(
    _ object: [String: JSONValue], base64: Bool, service: SubmissionService, settings: Judge0Settings,
    trace: inout Trace
  ) throws(Judge0Refusal) -> Judge0Job {
    func text(_ name: String, alwaysBase64: Bool = false) throws(Judge0Refusal) -> String? {
      switch object[name] {
      case nil, .null: return nil
      case .string(let value):
        guard base64 || alwaysBase64 else { return value }
        guard let data = Judge0Model.decode64(value) else { throw .field(name, "is not valid base64") }
        guard let decoded = String(data: data, encoding: .utf8) else { throw .field(name, "is not UTF-8 text") }
        return decoded
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
    func bounded(_ name: String, minimum: Double, maximum: Double) throws(Judge0Refusal) -> Double? {
      guard let value = try number(name) else { return nil }
      if value < minimum { throw .field(name, "must be greater than or equal to \(Self.judge0Number(minimum))") }
      if value > maximum { throw .field(name, "must be less than or equal to \(Self.judge0Number(maximum))") }
      return value
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
    case .number(let value) where value == value.rounded(): languageID = Int(value)
    case .string(let value) where Int(value) != nil: languageID = Int(value)!
    case nil, .null: throw .field("language_id", "can't be blank")
    default: throw .field("language_id", "is not a number")
    }
    guard let language = Judge0Model.languages.first(where: { $0.id == languageID }) else {
      throw .field("language_id", "language with id \(languageID) doesn't exist")
    }
    // One look for this language's toolchain (each looks for files on disk, and every submit asks):
    // none installed is an id this server does not serve, as `GET /languages` leaves it out.
    let runner: Runner
    do throws(APIError) {
      runner = try resolveRunner(language: language.runsAs, version: nil, trace: &trace)
    } catch {
      let missing = error.code == "runtime_unavailable"
      throw .field("language_id", missing ? "language with id \(languageID) doesn't exist" : error.message)
    }
    let defaults = runner.runLimits()
    let maxima = configuration.maxima
    let cpu = try bounded("cpu_time_limit", minimum: 0, maximum: Double(maxima.cpuMilliseconds) / 1000)
    let extra = try bounded("cpu_extra_time", minimum: 0, maximum: 0)
    let wall = try bounded("wall_time_limit", minimum: 1, maximum: Double(maxima.wallMilliseconds) / 1000)
    let memory = try bounded("memory_limit", minimum: 2048, maximum: Double(maxima.memoryMegabytes << 10))
    let stack = try bounded("stack_limit", minimum: 0, maximum: Double(defaults.stackBytes >> 10))
    let processes = try bounded("max_processes_and_or_threads", minimum: 1, maximum: Double(maxima.processes))
    let fileSize = try bounded("max_file_size", minimum: 0, maximum: Double(maxima.outputKilobytes))
    let runs = try bounded("number_of_runs", minimum: 1, maximum: 1)
    for name in ["enable_per_process_and_thread_time_limit", "enable_per_process_and_thread_memory_limit"] {
      if try flag(name) == true { throw .field(name, "this server does not allow \(name)") }
    }
    if try flag("enable_network") == true { throw .field("enable_network", "enabling network is not allowed") }
    if try flag("redirect_stderr_to_stdout") == true {
      throw .field("redirect_stderr_to_stdout", "this server keeps stdout and stderr apart; it cannot redirect")
    }
    let compilerOptions = try text("compiler_options", alwaysBase64: false)
    if let compilerOptions, !compilerOptions.isEmpty {
      throw .field("compiler_options", "setting compiler options is not allowed on this server")
    }
    var arguments: [String] = []
    let argumentLine: String?
    switch object["command_line_arguments"] {
    case nil, .null: argumentLine = nil
    case .string(let line):
      guard line.count <= 512 else { throw .field("command_line_arguments", "is too long (maximum is 512 characters)") }
      guard let split = Judge0Model.splitArguments(line) else {
        throw .field("command_line_arguments", "has a quote that is never closed")
      }
      argumentLine = line
      arguments = split
    default: throw .field("command_line_arguments", "must be a string")
    }
    var callbackURL: String?
    switch object["callback_url"] {
    case nil, .null: break
    case .string(let url):
      guard let webhooks = service.settings.webhooks else {
        throw .field("callback_url", "this server sends no callbacks (its config has no submissions.webhooks)")
      }
      if let problem = WebhookTarget.problem(with: url, settings: webhooks) { throw .field("callback_url", problem) }
      callbackURL = url
    default: throw .field("callback_url", "must be a string")
    }
    var files: [ExecuteBody.File]?
    let additional: String?
    switch object["additional_files"] {
    case nil, .null: additional = nil
    case .string(let encoded):
      // Always base64, whatever base64_encoded says (it is a zip).
      guard let archive = Judge0Model.decode64(encoded) else { throw .field("additional_files", "is not valid base64") }
      let entries: [Judge0Zip.Entry]
      do throws(Judge0Zip.Problem) {
        entries = try Judge0Zip.entries(of: archive, maximumBytes: settings.maximumExtractBytes)
      } catch {
        throw .field("additional_files", error.message)
      }
      var unpacked = [ExecuteBody.File(name: language.sourceFile, content: source)]
      for entry in entries {
        guard entry.name != language.sourceFile else {
          throw .field("additional_files", "entry \"\(entry.name)\" would replace the source file")
        }
        guard let content = String(data: entry.contents, encoding: .utf8) else {
          throw .field("additional_files", "entry \"\(entry.name)\" is not UTF-8 text; this server takes text files")
        }
        unpacked.append(ExecuteBody.File(name: entry.name, content: content))
      }
      files = unpacked
      additional = encoded
    default: throw .field("additional_files", "must be a string")
    }
    let stdin = try text("stdin")
    let expected = try text("expected_output")

    var limits = ExecuteBody.Limits()
    limits.cpuMilliseconds = cpu.map { max(1, Int64(($0 * 1000).rounded(.up))) }
    limits.wallMilliseconds = wall.map { Int64(($0 * 1000).rounded(.up)) }
    limits.memoryMegabytes = memory.map { Int64(($0 / 1024).rounded(.up)) }
    limits.processes = processes.map { Int64($0) }
    limits.outputKilobytes = fileSize.map { max(1, Int64($0)) }
    let execute = ExecuteBody(
      language: runner.language, files: files, source: files == nil ? source : nil, stdin: stdin,
      args: arguments.isEmpty ? nil : arguments, limits: limits)
    // The /v1 checks too, so what is stored is known to run.
    do throws(APIError) {
      _ = try execute.executeRequest(maxima: maxima, runnerLimits: defaults)
    } catch {
      throw .field("source_code", error.message)
    }
    func seconds(_ value: Double) -> JSONValue { .string(Judge0Model.seconds(value)) }
    func whole(_ value: Double) -> JSONValue { .number(value.rounded()) }
    let echo: [String: JSONValue] = [
      "source_code": .string(source), "language_id": .number(Double(language.id)),
      "language": ["id": .number(Double(language.id)), "name": .string(language.name)],
      "stdin": stdin.map(JSONValue.string) ?? .null, "expected_output": expected.map(JSONValue.string) ?? .null,
      "number_of_runs": whole(runs ?? 1),
      "cpu_time_limit": seconds(cpu ?? Double(defaults.cpuTimeMilliseconds) / 1000),
      "cpu_extra_time": seconds(extra ?? 0),
      "wall_time_limit": seconds(wall ?? Double(defaults.wallTimeMilliseconds) / 1000),
      "memory_limit": whole(memory ?? Double(defaults.memoryBytes >> 10)),
      "stack_limit": whole(stack ?? Double(defaults.stackBytes >> 10)),
      "max_processes_and_or_threads": whole(processes ?? Double(defaults.processes)),
      "enable_per_process_and_thread_time_limit": false, "enable_per_process_and_thread_memory_limit": false,
      "max_file_size": whole(fileSize ?? Double(defaults.outputBytesPerStream >> 10)),
      "compiler_options": compilerOptions.map(JSONValue.string) ?? .null,
      "command_line_arguments": argumentLine.map(JSONValue.string) ?? .null,
      "redirect_stderr_to_stdout": false, "callback_url": callbackURL.map(JSONValue.string) ?? .null,
      "additional_files": additional.map(JSONValue.string) ?? .null, "enable_network": false,
    ]
    return Judge0Job(execute: execute, echo: echo, callbackURL: callbackURL)
  }

  /// The body a Judge0 job is stored with: its `/v1/execute` body and what Judge0 echoes back.
  private static func judge0StoredBody(_ job: Judge0Job) -> Data {
    ResultEncoder.data(["execute": job.execute.json, "judge0": .object(job.echo)] as JSONValue)
  }

  /// A fresh stored id, its bits a UUID v4's.
  private func judge0NewID(trace: inout Trace) throws(APIError) -> String {
    do throws(StoreError) {
      return Self.uuid4ID(try SubmissionID.make())
    } catch {
      throw storeUnavailable(error, trace: &trace)
    }
  }

  /// `wait=true` run in the request's own slot, admitted by the wait budget like `/v1/execute`,
  /// and stored done in one write; nil when the budget refuses it (the caller queues it instead).
  /// The store failing after the run is 503 with nothing stored, as a submit that fails is.
  private func judge0RunNow(_ job: Judge0Job, owner: String, service: SubmissionService, trace: inout Trace)
    throws(APIError) -> (token: String, record: SubmissionRecord)?
  {
    let id = try judge0NewID(trace: &trace)
    let created = wallClockMilliseconds()
    let outcome = runRoute("/v1/execute", trace: &trace) { (trace) throws(APIError) in
      try execute(job.execute, trace: &trace)
    }
    guard case .finished(let data, let isError) = outcome else { return nil }
    let kept = Self.judge0StoredResultKept(data, isError: isError, echo: job.echo, value: trace.resultValue)
    let result = kept.bytes
    let finished = wallClockMilliseconds()
    let submission = NewSubmission(
      id: id, owner: owner, kind: .execute, body: Self.judge0StoredBody(job), callbackURL: job.callbackURL)
    do throws(StoreError) {
      try service.store.insertDone(submission, result: result, isError: false, now: finished)
    } catch {
      throw storeUnavailable(error, trace: &trace)
    }
    if job.callbackURL != nil { service.sender?.wake() }
    var record = SubmissionRecord(
      id: id, kind: .execute, state: .done, createdMilliseconds: finished, finishedMilliseconds: finished,
      result: result, resultIsError: false)
    // As the store holds it (one write, created when it finished) for later looks; this answer
    // shows when it was submitted.
    service.recent.remember(record, owner: owner)
    service.judge0Results.keep(kept, id: id, bytes: result.count)
    record.createdMilliseconds = created
    return (Self.judge0Token(id), record)
  }

  /// Stores the jobs; their tokens (UUID v4 spellings of the stored ids) in order.
  private func judge0Insert(_ jobs: [Judge0Job], owner: String, service: SubmissionService, trace: inout Trace)
    throws(APIError) -> [String]
  {
    var made: [NewSubmission] = []
    var tokens: [String] = []
    for job in jobs {
      let id = try judge0NewID(trace: &trace)
      made.append(
        NewSubmission(
          id: id, owner: owner, kind: .execute, body: Self.judge0StoredBody(job), callbackURL: job.callbackURL))
      tokens.append(Self.judge0Token(id))
    }
    do throws(StoreError) {
      try service.store.insert(made, now: wallClockMilliseconds())
    } catch {
      throw storeUnavailable(error, trace: &trace)
    }
    for (job, submission) in zip(jobs, made) {
      service.judge0Jobs.keep(job, id: submission.id, bytes: submission.body.count)
    }
    service.runningWorkers?.wake()
    return tokens
  }

  private func judge0Fetch(_ ids: [String], owner: String, service: SubmissionService, trace: inout Trace)
    throws(APIError) -> [SubmissionRecord]
  {
    guard !ids.isEmpty else { return [] }
    do throws(StoreError) {
      return try service.records(ids: ids, owner: owner)
    } catch {
      throw storeUnavailable(error, trace: &trace)
    }
  }

  /// A poll's records: at once when one of the caller's Judge0 submissions among them is final (or
  /// none is the caller's, which answers 404 or null), else once the first of them becomes final or
  /// the hold runs out, whichever comes first. Past `maximumHeldPolls` held, or once the daemon
  /// drains, at once.
  private func judge0Poll(
    _ ids: [String], owner: String, service: SubmissionService, settings: Judge0Settings, trace: inout Trace
  ) throws(APIError) -> [SubmissionRecord] {
    guard settings.pollHoldMilliseconds > 0, !ids.isEmpty else {
      return try judge0Fetch(ids, owner: owner, service: service, trace: &trace)
    }
    // Watched before the first read, so a result recorded in between wakes the hold.
    let watch = service.recorded.watch(ids)
    defer { service.recorded.end(watch) }
    var records = try judge0Fetch(ids, owner: owner, service: service, trace: &trace)
    func nothingFinal(_ records: [SubmissionRecord]) -> Bool {
      var shown = false
      for record in records where Self.isJudge0(record) {
        if record.state == .done || record.state == .cancelled { return false }
        shown = true
      }
      return shown
    }
    guard nothingFinal(records), service.judge0Holds.enter(maximum: settings.maximumHeldPolls) else { return records }
    defer { service.judge0Holds.leave() }
    let deadline = Date(timeIntervalSinceNow: Double(settings.pollHoldMilliseconds) / 1000)
    // Woken by a result or a cancel of this daemon's. Only a store other daemons share can end a
    // submission unseen here: there it looks again every 0.2 s; a store of this daemon's alone is
    // read again only when woken (each look was a store read: most of a held poll's CPU).
    let lookEvery: TimeInterval? = service.store.wakesAcrossProcesses ? 0.2 : nil
    while !service.recorded.isClosed && Date() < deadline {
      watch.wait(until: lookEvery.map { min(deadline, Date(timeIntervalSinceNow: $0)) } ?? deadline)
      records = try judge0Fetch(ids, owner: owner, service: service, trace: &trace)
      if !nothingFinal(records) { break }
    }
    return records
  }

  /// `wait=true`: the record once it is final, or as it is when the longest wait runs out.
  private func judge0Wait(_ token: String, owner: String, service: SubmissionService, trace: inout Trace)
    throws(APIError) -> SubmissionRecord
  {
    let id = Self.judge0ID(token)!
    let found = try awaitFinal(id, upTo: service.settings.maximumWaitSeconds, service: service) {
      () throws(APIError) in try judge0Fetch([id], owner: owner, service: service, trace: &trace).first
    }
    guard let record = found else { throw .internalError("a stored Judge0 submission vanished") }
    return record
  }

  // MARK: Running and results

  /// The worker's hook: a stored Judge0 body runs as its `/v1/execute` body (admitted as `trace`
  /// says) and its result is kept in Judge0's terms; nil for any other body.
  func judge0RunStored(_ body: Data, id: String? = nil, trace: inout Trace) -> SubmissionWorkers.RunOutcome? {
    let executeBody: ExecuteBody
    let echo: [String: JSONValue]
    if let id, let job = submissions?.judge0Jobs.take(id) {
      // Submitted here: the job as it was checked, the very one its stored record encodes.
      (executeBody, echo) = (job.execute, job.echo)
    } else {
      guard body.starts(with: Data("{\"execute\":".utf8)),
        let value = StrictReader().parse(body), case .object(let object) = value,
        let executeValue = object["execute"], case .object(let storedEcho)? = object["judge0"]
      else { return nil }
      // Read from the value just parsed, not encoded and parsed again: it was checked when submitted.
      guard
        case .success(let read) = StrictReader.read(executeValue, keys: ExecuteBody.keys, ExecuteBody.init(reading:))
      else { return runBody(.execute, ResultEncoder.data(executeValue), trace: &trace) }
      (executeBody, echo) = (read, storedEcho)
    }
    let outcome = runRoute("/v1/execute", trace: &trace) { (trace) throws(APIError) in
      try execute(executeBody, trace: &trace)
    }
    guard case .finished(let data, let isError) = outcome else { return outcome }
    let kept = Self.judge0StoredResultKept(data, isError: isError, echo: echo, value: trace.resultValue)
    // For the poll that finds it done; used only if these are the bytes the store recorded.
    if let id { submissions?.judge0Results.keep(kept, id: id, bytes: kept.bytes.count) }
    return .finished(kept.bytes, isError: false)
  }

  /// What a Judge0 submission's result is stored as: its echoed attributes with the outcome's.
  /// `value` is the result object `data` encodes, when the run left it (it is then not parsed).
  static func judge0StoredResult(_ data: Data, isError: Bool, echo: [String: JSONValue], value: JSONValue? = nil)
    -> Data
  {
    judge0StoredResultKept(data, isError: isError, echo: echo, value: value).bytes
  }

  /// `judge0StoredResult`, with the attributes it encodes.
  static func judge0StoredResultKept(
    _ data: Data, isError: Bool, echo: [String: JSONValue], value: JSONValue? = nil
  ) -> Judge0Result {
    var attributes = echo
    let expected: String?
    if case .string(let text)? = echo["expected_output"] { expected = text } else { expected = nil }
    for (key, value) in judge0Outcome(data, isError: isError, expectedOutput: expected, value: value) {
      attributes[key] = value
    }
    return Judge0Result(bytes: ResultEncoder.data(["judge0": .object(attributes)] as JSONValue), attributes: attributes)
  }

  /// Judge0's result attributes from a `/v1/execute` answer (or its error); `value` is the
  /// answer's object when it is at hand.
  static func judge0Outcome(_ data: Data, isError: Bool, expectedOutput: String?, value: JSONValue? = nil)
    -> [String: JSONValue]
  {
    var out: [String: JSONValue] = [
      "stdout": .null, "stderr": .null, "compile_output": .null, "message": .null, "exit_code": .null,
      "exit_signal": .null, "time": .null, "wall_time": .null, "memory": .null,
    ]
    func nonEmpty(_ text: String) -> JSONValue { text.isEmpty ? .null : .string(text) }
    let read =
      value.map {
        StrictReader.read(
          $0, keys: WireExecuteResult.keys, reader: StrictReader(nulls: .absent), WireExecuteResult.init(reading:))
      } ?? WireExecuteResult.read(data)
    guard !isError, case .success(let result) = read else {
      var message = "the server could not run this submission"
      if let value = StrictReader().parse(data), case .object(let object) = value,
        case .object(let error)? = object["error"], case .string(let text)? = error["message"]
      {
        message = text
      }
      out["status_id"] = 13
      out["message"] = .string(message)
      return out
    }
    if let compile = result.compile {
      let printed = compile.stdout + compile.stderr
      out["compile_output"] = nonEmpty(printed)
      if compile.status != "ok" {
        switch compile.status {
        case "compile_error": out["status_id"] = 6
        case "time_limit":
          out["status_id"] = 6
          out["compile_output"] = .string(printed.isEmpty ? "Compilation time limit exceeded." : printed)
        default:
          out["status_id"] = compile.status == "internal_error" ? 13 : 6
          out["message"] = .string("\(compile.status): \(compile.message)")
        }
        return out
      }
    }
    guard let run = result.run else {
      out["status_id"] = 13
      out["message"] = "the program did not run"
      return out
    }
    let verdict = Judge0Model.verdict(run: run, expectedOutput: expectedOutput)
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

  /// How a stored Judge0 result begins (made once: every poll and callback compares with it).
  private static let judge0ResultPrefix = Data("{\"judge0\":".utf8)

  /// Whether a stored record is a Judge0 submission (a /v1 one is not shown under a token).
  static func isJudge0(_ record: SubmissionRecord) -> Bool {
    guard record.kind == .execute else { return false }
    guard record.state == .done, let result = record.result else { return true }
    return result.starts(with: judge0ResultPrefix)
  }

  /// Every attribute of a stored Judge0 submission; a done one's result decoded once at most: the
  /// attributes this daemon's run encoded it from, when it is their bytes the store holds.
  func judge0Attributes(_ record: SubmissionRecord, token: String, service: SubmissionService) -> [String: JSONValue] {
    guard record.state == .done, let result = record.result, let kept = service.judge0Results.take(record.id),
      kept.bytes == result
    else { return Self.judge0Attributes(record, token: token) }
    return Self.judge0Attributes(record, token: token, stored: kept.attributes)
  }

  /// Every attribute of a stored Judge0 submission; `stored`: a done one's result already decoded.
  static func judge0Attributes(_ record: SubmissionRecord, token: String, stored: [String: JSONValue]? = nil)
    -> [String: JSONValue]
  {
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
      if let stored {
        attributes = stored
      } else if let result = record.result, let value = StrictReader().parse(result),
        case .object(let object) = value, case .object(let stored)? = object["judge0"]
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

  /// The method of a webhook: PUT for a Judge0 submission, as Judge0 calls back.
  @Sendable static func judge0CallbackMethod(_ webhook: PendingWebhook) -> String {
    webhook.result.starts(with: judge0ResultPrefix) ? "PUT" : "POST"
  }

  /// A Judge0 callback's body: the default fields, base64-encoded; nil for a /v1 submission.
  static func judge0CallbackBody(_ webhook: PendingWebhook) -> Data? {
    guard judge0CallbackMethod(webhook) == "PUT" else { return nil }
    let record = SubmissionRecord(
      id: webhook.id, kind: webhook.kind, state: .done, createdMilliseconds: 0, finishedMilliseconds: nil,
      result: webhook.result, resultIsError: webhook.resultIsError)
    var attributes = judge0Attributes(record, token: judge0Token(webhook.id))
    attributes.removeValue(forKey: "created_at")
    return ResultEncoder.data(Judge0Model.render(attributes, fields: Judge0Model.defaultFields, base64: true))
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

  static func judge0Token(_ id: String) -> String {
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
  static func judge0ID(_ token: String) -> String? {
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

  static func judge0Number(_ value: Double) -> String {
    value == value.rounded() ? String(format: "%.1f", value) : String(value)
  }

  private static func judge0JSON(_ status: HTTPStatus, _ value: JSONValue) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: ResultEncoder.data(value))
  }
}
