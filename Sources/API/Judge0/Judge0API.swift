import Foundation
import HTTP
import Runners
import Sandbox
import Submissions
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

/// The Judge0 CE front end (docs/compat.md, "Judge0 CE"): its routes in one table, its submissions
/// read into `Judge0Submission` and converted at the edge to the run service's request, its
/// answers rendered from the run service's results (`Judge0Results.swift`). Submissions are stored
/// jobs of kind `judge0`; `wait=true` runs in the request's own slot and is stored done in one write.
struct Judge0API: FrontEnd, StoredJobRunner {
  let service: RunService
  let configuration: APIConfiguration
  let settings: Judge0Settings
  let submissions: SubmissionService?
  /// The polls held now (`Judge0Settings.pollHoldMilliseconds`).
  let holds = HeldRequests()

  /// The route table, by the path after the prefix. Labels carry `judge0:` so they never read as
  /// another front end's routes in `/metrics` and the log.
  static let table: [String: Route] = [
    "/languages": Route("judge0:/languages", ["GET"], .read),
    "/languages/{id}": Route("judge0:/languages/{id}", ["GET"], .read),
    "/statuses": Route("judge0:/statuses", ["GET"], .read),
    "/about": Route("judge0:/about", ["GET"], .read),
    "/config_info": Route("judge0:/config_info", ["GET"], .read),
    "/submissions": Route("judge0:/submissions", ["POST"], .runsCode),
    "/submissions/batch": Route("judge0:/submissions/batch", ["GET", "POST"], .runsCode),
    "/submissions/{token}": Route("judge0:/submissions/{token}", ["GET"], .read),
  ]

  func route(of path: String) -> Route? {
    guard path.hasPrefix(settings.prefix) else { return nil }
    let rest = path.dropFirst(settings.prefix.count)
    if let route = Self.table[String(rest)] { return route }
    for (prefix, pattern) in [("/languages/", "/languages/{id}"), ("/submissions/", "/submissions/{token}")]
    where rest.hasPrefix(prefix) && !rest.dropFirst(prefix.count).utf8.contains(UInt8(ascii: "/")) {
      return Self.table[pattern]
    }
    return nil
  }

  func render(_ error: APIError) -> HTTPResponse {
    var response = Self.json(error.status, ["error": .string(error.message)])
    for (name, value) in error.headers where name != "Content-Type" { response.headers.add(name: name, value: value) }
    return response
  }

  func methodNotAllowed(_ request: HTTPRequest, route: Route, path: String) -> APIError {
    let rest = path.dropFirst(settings.prefix.count)
    return APIError(
      code: "method_not_allowed", message: "\(request.method) \(rest) is not a Judge0 CE route",
      status: HTTPStatus(code: 405))
  }

  func answer(_ request: HTTPRequest, route: Route, scope: inout RequestScope) throws(APIError) -> HTTPResponse {
    do throws(Judge0Refusal) {
      return try answerJudge0(request, route: route, scope: &scope)
    } catch {
      var response = Self.json(error.status, error.body)
      for (name, value) in error.headers { response.headers.add(name: name, value: value) }
      return response
    }
  }

  private func answerJudge0(_ request: HTTPRequest, route: Route, scope: inout RequestScope) throws(Judge0Refusal)
    -> HTTPResponse
  {
    let method = request.method == "HEAD" ? "GET" : request.method
    let query = scope.query
    let rest = String(scope.path.dropFirst(settings.prefix.count))
    switch route.label {
    case "judge0:/languages":
      return Self.json(
        .ok, .array(languages().map { ["id": .number(Double($0.id)), "name": .string(runningName($0))] }))
    case "judge0:/languages/{id}":
      let given = rest.dropFirst("/languages/".count)
      guard let id = Int(given), let language = languages().first(where: { $0.id == id }) else {
        throw .error(.notFound, "Language with id \(given) doesn't exist")
      }
      return Self.json(.ok, languageObject(language))
    case "judge0:/statuses":
      return Self.json(
        .ok,
        .array(Judge0Model.statuses.map { ["id": .number(Double($0.id)), "description": .string($0.description)] }))
    case "judge0:/about":
      return Self.json(
        .ok,
        [
          "version": .string(Judge0Model.version), "homepage": "dsa-rund: docs/compat.md",
          "source_code": "dsa-run", "maintainer": "the operators of this dsa-rund",
        ])
    case "judge0:/config_info":
      return Self.json(.ok, configInfo())
    default: break
    }
    guard let submissions else { throw .error(.notFound, "this server keeps no submissions") }
    let stored = Judge0Store(api: self, submissions: submissions)
    switch (method, route.label) {
    case ("POST", "judge0:/submissions"):
      let object = try bodyObject(request)
      let base64 = Self.flag("base64_encoded", query, object)
      let fields = try Self.fields(query["fields"])
      let job = try admit(try Judge0Submission.read(object, base64: base64), context: &scope.context)
      try Judge0Refusal.lifting { () throws(APIError) in try service.charge(1, context: &scope.context) }
      if Self.flag("wait", query, object) {
        let (token, record) = try Judge0Refusal.lifting { () throws(APIError) in
          try stored.runNowOrWait(job, owner: scope.owner, context: &scope.context)
        }
        return Self.json(
          HTTPStatus(code: 201),
          Judge0Model.render(Self.attributes(record, token: token), fields: fields, base64: base64))
      }
      let token = try Judge0Refusal.lifting { () throws(APIError) in
        try stored.insert([job], owner: scope.owner, context: &scope.context)[0]
      }
      return Self.json(HTTPStatus(code: 201), ["token": .string(token)])
    case ("POST", "judge0:/submissions/batch"):
      let object = try bodyObject(request)
      let base64 = Self.flag("base64_encoded", query, object)
      guard let items = object["submissions"], case .array(let list) = items else {
        throw .field("submissions", "can't be blank")
      }
      let maximum = submissions.settings.maximumBatch
      guard (1...maximum).contains(list.count) else {
        throw .error(.badRequest, "number of submissions in a batch should be between 1 and \(maximum)")
      }
      var answers: [JSONValue?] = []
      var jobs: [Judge0Job] = []
      for item in list {
        do throws(Judge0Refusal) {
          guard case .object(let fields) = item else { throw .field("submission", "must be an object") }
          jobs.append(try admit(try Judge0Submission.read(fields, base64: base64), context: &scope.context))
          answers.append(nil)
        } catch {
          answers.append(error.body)
        }
      }
      guard !jobs.isEmpty else { return Self.json(HTTPStatus(code: 422), .array(answers.compactMap { $0 })) }
      try Judge0Refusal.lifting { () throws(APIError) in try service.charge(jobs.count, context: &scope.context) }
      var tokens = try Judge0Refusal.lifting { () throws(APIError) in
        try stored.insert(jobs, owner: scope.owner, context: &scope.context)
      }.makeIterator()
      return Self.json(
        HTTPStatus(code: 201), .array(answers.map { $0 ?? ["token": .string(tokens.next() ?? "")] }))
    case ("GET", "judge0:/submissions/batch"):
      let base64 = query["base64_encoded"] == "true"
      let fields = try Self.fields(query["fields"])
      let tokens = (query["tokens"] ?? "").split(separator: ",").map(String.init)
      let maximum = submissions.settings.maximumBatch
      guard (1...maximum).contains(tokens.count) else {
        throw .error(.badRequest, "number of tokens should be between 1 and \(maximum)")
      }
      let records = try Judge0Refusal.lifting { () throws(APIError) in
        try stored.poll(tokens.compactMap(Self.id), owner: scope.owner, context: &scope.context)
      }
      let byID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      let found = tokens.map { token -> JSONValue in
        guard let id = Self.id(token), let record = byID[id], Self.isJudge0(record) else { return .null }
        return Judge0Model.render(Self.attributes(record, token: token), fields: fields, base64: base64)
      }
      return Self.json(.ok, ["submissions": .array(found)])
    default:
      let token = String(rest.dropFirst("/submissions/".count))
      let base64 = query["base64_encoded"] == "true"
      let fields = try Self.fields(query["fields"])
      guard let id = Self.id(token) else { throw .error(.notFound, "Not Found") }
      let records = try Judge0Refusal.lifting { () throws(APIError) in
        try stored.poll([id], owner: scope.owner, context: &scope.context)
      }
      guard let record = records.first, Self.isJudge0(record) else { throw .error(.notFound, "Not Found") }
      return Self.json(.ok, Judge0Model.render(Self.attributes(record, token: token), fields: fields, base64: base64))
    }
  }

  // MARK: Info routes

  /// The Judge0 languages whose catalog language this server can run.
  func languages() -> [Judge0Model.Language] {
    Judge0Model.languages.filter { language in
      (service.catalog.languages[language.runsAs] ?? []).contains { $0.missingRequirement == nil }
    }
  }

  /// The id's name with the version of what runs it.
  func runningName(_ language: Judge0Model.Language) -> String {
    guard let runner = defaultRunner(language.runsAs) else { return language.name }
    return Judge0Model.runningName(
      language, version: service.probesVersions ? service.probedVersion(of: runner) : runner.version)
  }

  private func defaultRunner(_ language: String) -> Runner? {
    var context = RunContext(requestID: "", route: "")
    return try? service.runner(language: language, version: nil, context: &context)
  }

  private func languageObject(_ language: Judge0Model.Language) -> JSONValue {
    let runner = defaultRunner(language.runsAs)
    return [
      "id": .number(Double(language.id)), "name": .string(runningName(language)),
      "is_archived": .bool(language.isArchived),
      "source_file": .string(language.sourceFile),
      "compile_cmd": runner?.compile.map { .string($0.argv.joined(separator: " ")) } ?? .null,
      "run_cmd": runner.map { .string($0.run.argv.joined(separator: " ")) } ?? .null,
    ]
  }

  /// The defaults shown are the Python runner's (each language's own default applies to it).
  private func configInfo() -> JSONValue {
    let defaults = defaultRunner("python")?.runLimits() ?? BoxLimits()
    let maxima = service.settings.maxima
    let webhooks = service.settings.webhooks
    func number(_ value: Double) -> JSONValue { .number(value) }
    func whole(_ value: UInt64) -> JSONValue { .number(Double(value)) }
    return [
      "maintenance_mode": false, "enable_wait_result": true, "enable_compiler_options": true,
      "allowed_languages_for_compile_options": [], "enable_command_line_arguments": true,
      "enable_submission_delete": false, "enable_callbacks": .bool(webhooks != nil),
      "callbacks_max_tries": number(Double(webhooks?.tries ?? 0)),
      "callbacks_timeout": number(Double(webhooks?.timeoutMilliseconds ?? 0) / 1000),
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

  // MARK: Requests

  private func bodyObject(_ request: HTTPRequest) throws(Judge0Refusal) -> [String: JSONValue] {
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

  private static func fields(_ given: String?) throws(Judge0Refusal) -> [String] {
    switch Judge0Model.fields(given) {
    case .success(let fields): return fields
    case .failure(let unknown): throw .error(.badRequest, unknown.message)
    }
  }

  static func json(_ status: HTTPStatus, _ value: JSONValue) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: ResultEncoder.data(value))
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() ? String(format: "%.1f", value) : String(value)
  }
}
