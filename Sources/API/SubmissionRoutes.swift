import Foundation
import HTTP
import Runners
import Sandbox
import Submissions
import Synchronization
import SystemCore
import Wire

/// The knobs of stored submissions (docs/api.md "Submissions"); the daemon fills them from its
/// config's `submissions` object.
public struct SubmissionSettings: Sendable {
  /// Where submissions live; wrapped so every call is timed and its failure shows in health.
  public var store: MonitoredStore
  /// Workers, leases, retention.
  public var workers: SubmissionWorkers.Settings
  /// Items per `POST /v1/submissions/batch` and ids per `GET /v1/submissions?ids=`.
  public var maximumBatch = 20
  /// The longest `?wait=` a request may ask for, seconds.
  public var maximumWaitSeconds = 30.0
  /// How many requests may wait for a result at once (`?wait=`, and Judge0's `wait=true` once it is
  /// queued); one past them is answered as the submission stands, as `wait=0` would be, so waits
  /// never hold every connection. The daemon sets a quarter of `max_connections`.
  public var maximumWaiting = 64
  /// Webhook delivery; nil refuses `callback_url`.
  public var webhooks: WebhookSettings?

  public init(store: any SubmissionStore, workers: SubmissionWorkers.Settings) {
    self.store = (store as? MonitoredStore) ?? MonitoredStore(store)
    self.workers = workers
  }
}

/// The running parts of stored submissions: the store, the workers (once started) and the signal
/// that wakes `?wait=` requests when this daemon records a result.
public final class SubmissionService: Sendable {
  public let settings: SubmissionSettings
  public var store: MonitoredStore { settings.store }
  private let workers = Mutex<SubmissionWorkers?>(nil)
  private let webhookSender = Mutex<WebhookSender?>(nil)
  let recorded = CompletionSignal()
  /// This daemon's results of the last minutes, so the poll that finds one done needs no store.
  let recent: RecentResults
  /// The Judge0 jobs submitted here, as checked, until a worker here runs them: it then need not
  /// parse the stored record again.
  let judge0Jobs = PreparedJobs<Judge0Job>(capacity: 4096, maximumBytes: 16 << 20)
  /// The Judge0 results this daemon's runs made, with the attributes they encode, until a poll
  /// shows one done (it then need not decode the stored bytes, when they are these).
  let judge0Results = PreparedJobs<Judge0Result>(capacity: 4096, maximumBytes: 16 << 20)
  /// The Judge0 polls held now (`Judge0Settings.pollHoldMilliseconds`).
  let judge0Holds = HeldRequests()
  /// The requests waiting for a result now (`SubmissionSettings.maximumWaiting`).
  let waits = HeldRequests()

  /// How long a result is answered from memory: a few minutes covers the polls that follow a
  /// result; never past the retention, so nothing purged is answered.
  static let recentMilliseconds: Int64 = 300_000

  init(settings: SubmissionSettings) {
    self.settings = settings
    recent = RecentResults(
      keepMilliseconds: min(Self.recentMilliseconds, settings.workers.retentionMilliseconds))
  }

  /// The submissions among `ids` of `owner`: those this daemon recorded lately from memory, the
  /// others from the store.
  func records(ids: [String], owner: String) throws(StoreError) -> [SubmissionRecord] {
    guard !ids.isEmpty else { return [] }
    let (found, missing) = recent.lookup(ids, owner: owner, now: wallClockMilliseconds())
    guard !missing.isEmpty else { return found }
    return try found + store.fetch(ids: missing, owner: owner)
  }

  /// The workers, once `APIRouter.startSubmissionWorkers()` made them.
  public var runningWorkers: SubmissionWorkers? { workers.withLock { $0 } }
  var sender: WebhookSender? { webhookSender.withLock { $0 } }

  func install(_ made: SubmissionWorkers, sender: WebhookSender?) {
    workers.withLock { $0 = made }
    webhookSender.withLock { $0 = sender }
  }
}

/// Wakes the requests waiting for a submission when this daemon records its result. Each waiter
/// watches its own ids, so a result wakes only the requests that wait for it (woken all at once, each
/// would read the store again to find its own still running).
final class CompletionSignal: Sendable {
  private let watchers = Mutex<[String: [Watch]]>([:])
  private let closed = Atomic<Bool>(false)

  /// One request's watch on one or more ids (a Judge0 batch GET waits for any of its tokens).
  final class Watch: Sendable {
    let ids: Set<String>
    fileprivate let semaphore = DispatchSemaphore(value: 0)

    fileprivate init(ids: Set<String>) {
      self.ids = ids
    }

    /// Sleeps until a result of its ids is recorded here (at any time since the watch began), the
    /// signal closes, or `deadline`.
    func wait(until deadline: Date) {
      _ = semaphore.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow))
    }
  }

  /// Starts watching `id`; begin before reading its state, so a result recorded in between is seen.
  func watch(_ id: String) -> Watch { watch([id]) }

  /// Starts watching every id of `ids` with one watch, woken by the first of them recorded.
  func watch(_ ids: [String]) -> Watch {
    let watch = Watch(ids: Set(ids))
    watchers.withLock { all in
      for id in watch.ids { all[id, default: []].append(watch) }
    }
    return watch
  }

  func end(_ watch: Watch) {
    watchers.withLock { all in
      for id in watch.ids {
        all[id]?.removeAll { $0 === watch }
        if all[id]?.isEmpty == true { all.removeValue(forKey: id) }
      }
    }
  }

  /// `id`'s result is recorded.
  func recorded(_ id: String) {
    for watch in watchers.withLock({ $0[id] ?? [] }) { watch.semaphore.signal() }
  }

  /// This daemon records no more results (its workers stopped for a drain): every watch is woken
  /// once, and a wait that is only a hold (a Judge0 poll) ends rather than keep the drain waiting.
  func close() {
    closed.store(true, ordering: .sequentiallyConsistent)
    let all = watchers.withLock { all in all.values.flatMap { $0 } }
    for watch in all { watch.semaphore.signal() }
  }

  /// Whether `close()` was called.
  var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }
}

extension APIRouter {
  /// The submission routes and their methods (the other routes have one method each: `routes`).
  public static let submissionRoutes: [String: [String]] = [
    "/v1/submissions": ["GET", "POST"], "/v1/submissions/batch": ["POST"], submissionRoute: ["DELETE", "GET"],
  ]
  /// `GET` or `DELETE /v1/submissions/ID`, named as OpenAPI does.
  public static let submissionRoute = "/v1/submissions/{id}"
  static let submissionPrefix = "/v1/submissions/"

  /// Every route with its methods, for the OpenAPI check.
  public static var routeMethods: [String: [String]] {
    routes.mapValues { [$0] }.merging(submissionRoutes) { _, new in new }
  }

  static func submissionRouteName(of path: String) -> String? {
    if submissionRoutes[path] != nil { return path }
    let rest = path.dropFirst(submissionPrefix.count)
    if path.hasPrefix(submissionPrefix), !rest.isEmpty, !rest.utf8.contains(UInt8(ascii: "/")) {
      return submissionRoute
    }
    return nil
  }

  /// Starts the workers that run stored jobs through this router's routes; the daemon calls it once
  /// it serves. Does nothing without a store.
  public func startSubmissionWorkers() {
    guard let service = submissions, service.runningWorkers == nil else { return }
    let sender = service.settings.webhooks.map {
      WebhookSender(settings: $0, store: service.store, method: Self.judge0CallbackMethod) { webhook in
        if let body = Self.judge0CallbackBody(webhook) { return body }
        return Self.recordData(
          ["id": webhook.id, "kind": webhook.kind.rawValue, "status": SubmissionState.done.rawValue],
          result: webhook.result, isError: webhook.resultIsError)
      }
    }
    let signal = service.recorded
    let recent = service.recent
    let onRecorded: @Sendable (SubmissionRecord, String) -> Void = { record, owner in
      // Remembered before the waiters wake, so their next look finds it in memory.
      recent.remember(record, owner: owner)
      signal.recorded(record.id)
      sender?.wake()
    }
    let workers = SubmissionWorkers(store: service.store, settings: service.settings.workers, onRecorded: onRecorded) {
      [unowned self] job, cancellation, start in
      // The job's boxes die when it is cancelled; what they leave is not recorded (the store keeps
      // a cancelled submission cancelled).
      let boxes = BoxCancellation()
      cancellation.onCancel { boxes.cancel() }
      return runStored(job.kind, job.body, id: job.id, boxes: boxes, startsInSlot: start)
    }
    service.install(workers, sender: sender)
    workers.start()
    sender?.start()
  }

  /// Stops claiming stored jobs and waits up to `timeout` for the running ones; queued jobs stay.
  public func stopSubmissionWorkers(drainingFor timeout: Duration) -> Bool {
    guard let service = submissions else { return true }
    let drained = service.runningWorkers?.stop(drainingFor: timeout) ?? true
    // The running jobs' results are recorded by now; held Judge0 polls answer as things stand.
    service.recorded.close()
    service.sender?.stop()
    return drained
  }

  /// Answers a submissions route; nil when `path` is not one.
  func submissionAnswer(_ request: HTTPRequest, path: String, trace: inout Trace) throws(APIError) -> HTTPResponse? {
    guard let route = Self.submissionRouteName(of: path), let methods = Self.submissionRoutes[route] else { return nil }
    let asked = request.method == "HEAD" && methods.contains("GET") ? "GET" : request.method
    guard methods.contains(asked) else {
      throw .methodNotAllowed(
        request.method, path: path, allowed: methods.contains("GET") ? methods + ["HEAD"] : methods)
    }
    guard let service = submissions else {
      throw APIError(code: "not_found", message: "this server keeps no submissions", status: .notFound)
    }
    let query = Self.queryItems(request.target)
    let owner = ownerDigest(request)
    switch (route, asked) {
    case ("/v1/submissions", "POST"):
      let wait = try waitSeconds(query, service)
      try chargeRuns(1, request, trace: &trace)
      let item = try submissionItem(
        try jsonObject(of: request), received: request.body, owner: owner, service: service, trace: &trace)
      try insert([item], service)
      if let wait, wait > 0 { return try view(id: item.id, owner: owner, wait: wait, service: service, created: true) }
      return Self.jsonResponse(HTTPStatus(code: 202), Self.queuedAnswer(item.id))
    case ("/v1/submissions/batch", "POST"):
      return try batch(request, owner: owner, service: service, trace: &trace)
    case ("/v1/submissions", "GET"):
      guard let list = query["ids"], !list.isEmpty else {
        throw .badRequest("give the ids to look up: GET /v1/submissions?ids=ID,ID")
      }
      let ids = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard ids.count <= service.settings.maximumBatch else {
        throw .badRequest("\(ids.count) ids; at most \(service.settings.maximumBatch) per request")
      }
      for id in ids { try checkID(id) }
      let records = try fetch(ids, owner: owner, service)
      let byID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      let items = ids.map { id -> Data in
        guard let record = byID[id] else {
          return ResultEncoder.data([
            "id": id, "error": ["code": "unknown_submission", "message": "no submission \(id)"],
          ])
        }
        return Self.recordData(record)
      }
      return Self.jsonResponse(.ok, Self.wrap(items))
    case (Self.submissionRoute, "GET"):
      let id = String(path.dropFirst(Self.submissionPrefix.count))
      try checkID(id)
      return try view(
        id: id, owner: owner, wait: try waitSeconds(query, service) ?? 0, service: service, created: false)
    default:
      let id = String(path.dropFirst(Self.submissionPrefix.count))
      try checkID(id)
      let outcome: CancelOutcome
      do throws(StoreError) {
        outcome = try service.store.cancel(id: id, owner: owner, now: wallClockMilliseconds())
      } catch {
        throw storeUnavailable(error, trace: &trace)
      }
      switch outcome {
      case .notFound: throw Self.unknownSubmission(id)
      case .alreadyFinished(let state):
        throw APIError(
          code: "already_finished",
          message: "submission \(id) is \(state.rawValue); only queued or running ones cancel",
          status: HTTPStatus(code: 409))
      case .cancelled:
        service.runningWorkers?.stopRun(of: id)
        // Final too: a request waiting for it need not find out at its next look.
        service.recorded.recorded(id)
        return try view(id: id, owner: owner, wait: 0, service: service, created: false)
      }
    }
  }

  private func batch(_ request: HTTPRequest, owner: String, service: SubmissionService, trace: inout Trace)
    throws(APIError) -> HTTPResponse
  {
    let object = try jsonObject(of: request)
    guard object.count == 1, case .array(let items)? = object["submissions"] else {
      throw .badRequest("the body must be {\"submissions\": [ITEM, ...]}, each item a body for POST /v1/submissions")
    }
    guard (1...service.settings.maximumBatch).contains(items.count) else {
      throw .badRequest("\(items.count) items; a batch holds 1 to \(service.settings.maximumBatch)")
    }
    try chargeRuns(items.count, request, trace: &trace)
    var answers: [Data] = []
    var accepted: [NewSubmission] = []
    for item in items {
      do throws(APIError) {
        guard case .object(let fields) = item else { throw .badRequest("an item must be a JSON object") }
        let submission = try submissionItem(fields, owner: owner, service: service, trace: &trace)
        accepted.append(submission)
        answers.append(Self.queuedAnswer(submission.id))
      } catch {
        answers.append(ResultEncoder.data(error.jsonObject))
      }
    }
    if !accepted.isEmpty { try insert(accepted, service) }
    return Self.jsonResponse(HTTPStatus(code: 202), Self.wrap(answers))
  }

  /// One submission from its JSON object: `callback_url` taken out, the rest checked exactly as the
  /// sync route would check it (so a mistake is answered now, not stored), and a fresh id.
  /// `received`: the object's bytes as sent, stored as they are when nothing is taken out (one
  /// encoding fewer per submit; the worker reads them as the sync route reads its body).
  private func submissionItem(
    _ given: [String: JSONValue], received: Data? = nil, owner: String, service: SubmissionService,
    trace: inout Trace
  ) throws(APIError) -> NewSubmission {
    var fields = given
    var callbackURL: String?
    if let value = fields.removeValue(forKey: "callback_url") {
      guard case .string(let text) = value else { throw .badRequest("callback_url must be a string") }
      guard let webhooks = service.settings.webhooks else {
        throw .badRequest("this server sends no webhooks (its config has no submissions.webhooks); poll instead")
      }
      if let problem = WebhookTarget.problem(with: text, settings: webhooks) {
        throw APIError(code: "bad_callback_url", message: problem, status: .badRequest)
      }
      callbackURL = text
    }
    let kind: SubmissionKind = fields["challenge"] != nil ? .grade : .execute
    // Bytes as sent only when they are UTF-8 JSON text as this server writes it (Foundation's parser
    // also takes UTF-16 and UTF-32, which the stores keep as text).
    let asSent = received.flatMap { $0.first == UInt8(ascii: "{") && !$0.contains(0) ? $0 : nil }
    let body =
      callbackURL == nil ? (asSent ?? ResultEncoder.data(.object(fields))) : ResultEncoder.data(.object(fields))
    try checkStoredBody(kind, body, trace: &trace)
    let id: String
    do throws(StoreError) {
      id = try SubmissionID.make()
    } catch {
      throw storeUnavailable(error, trace: &trace)
    }
    return NewSubmission(id: id, owner: owner, kind: kind, body: body, callbackURL: callbackURL)
  }

  /// The checks of `/v1/execute` and `/v1/grade` before a slot is taken.
  private func checkStoredBody(_ kind: SubmissionKind, _ body: Data, trace: inout Trace) throws(APIError) {
    switch kind {
    case .execute:
      let decoded = try ExecuteBody.decode(body)
      let runner = try resolveRunner(language: decoded.language, version: decoded.version, trace: &trace)
      _ = try decoded.executeRequest(
        maxima: configuration.maxima, runnerLimits: runner.run.limits.applied(to: BoxLimits()))
    case .grade:
      let decoded = try GradeBody.decode(body)
      let runner = try resolveRunner(language: decoded.language, version: decoded.version, trace: &trace)
      _ = try decoded.sourceFiles()
      let resolved = try decoded.resolveChallenge(in: challenges)
      var inline = false
      if case .object = decoded.challenge { inline = true }
      _ = try configuration.maxima.challengeLimits(
        resolved.limits, runnerLimits: runner.run.limits.applied(to: BoxLimits()), inline: inline)
    }
  }

  /// Runs a stored body through its route, for a worker: past the wait budget (no client waits on
  /// it), its boxes attached to `boxes`, and only if `startsInSlot` still agrees once it has a slot.
  func runStored(
    _ kind: SubmissionKind, _ body: Data, id: String? = nil, boxes: BoxCancellation? = nil,
    startsInSlot: (@Sendable () -> Bool)? = nil
  ) -> SubmissionWorkers.RunOutcome {
    var trace = Trace(id: "submission")
    trace.checksWaitBudget = false
    trace.boxCancellation = boxes
    trace.startsInSlot = startsInSlot
    if kind == .execute, let outcome = judge0RunStored(body, id: id, trace: &trace) { return outcome }
    return runBody(kind, body, trace: &trace)
  }

  /// Runs an execute or grade body as `/v1/execute` or `/v1/grade` would (admitted as `trace`
  /// says): the answer's bytes, its error object's, or `.retryLater` when no slot could be had.
  func runBody(_ kind: SubmissionKind, _ body: Data, trace: inout Trace) -> SubmissionWorkers.RunOutcome {
    let target = kind == .execute ? "/v1/execute" : "/v1/grade"
    let request = HTTPRequest(
      head: HTTPRequestHead(
        method: "POST", target: target, version: .http11, headers: ["Content-Type": "application/json"],
        keepAlive: false),
      body: body)
    return runRoute(target, trace: &trace) { (trace) throws(APIError) in
      kind == .execute ? try execute(request, trace: &trace) : try grade(request, trace: &trace)
    }
  }

  /// What `answer` (a run of `target`'s route, admitted as `trace` says) gives a stored job.
  func runRoute(
    _ target: String, trace: inout Trace, _ answer: (inout Trace) throws(APIError) -> HTTPResponse
  ) -> SubmissionWorkers.RunOutcome {
    do throws(APIError) {
      let response = try answer(&trace)
      return .finished(response.body, isError: false)
    } catch {
      if error.code == "busy" { return .retryLater }
      // A cancelled job's killed box is no failure of the server's.
      if error.status == .internalServerError, trace.boxCancellation?.isCancelled != true {
        // As for a sync request: the detail is the operator's, the caller gets a plain sentence.
        if let sink = configuration.logSink {
          sink(
            RequestLogEntry(
              id: trace.id, time: LogTime.now(), method: "POST", route: target, status: 500, error: error.code,
              language: trace.language, runStatus: trace.runStatus, queueMilliseconds: trace.queueMilliseconds,
              runMilliseconds: trace.runMilliseconds, totalMilliseconds: 0, detail: trace.detail ?? error.message))
        }
        return .finished(
          ResultEncoder.data(APIError.internalError("the server could not carry out this submission").jsonObject),
          isError: true)
      }
      return .finished(ResultEncoder.data(error.jsonObject), isError: true)
    }
  }

  private func insert(_ submissions: [NewSubmission], _ service: SubmissionService) throws(APIError) {
    do throws(StoreError) {
      try service.store.insert(submissions, now: wallClockMilliseconds())
    } catch {
      var trace = Trace(id: "")
      throw storeUnavailable(error, trace: &trace)
    }
    service.runningWorkers?.wake()
  }

  private func fetch(_ ids: [String], owner: String, _ service: SubmissionService) throws(APIError)
    -> [SubmissionRecord]
  {
    do throws(StoreError) {
      return try service.records(ids: ids, owner: owner)
    } catch {
      var trace = Trace(id: "")
      throw storeUnavailable(error, trace: &trace)
    }
  }

  /// One submission's answer, after waiting up to `wait` seconds for it to end.
  private func view(id: String, owner: String, wait: Double, service: SubmissionService, created: Bool)
    throws(APIError) -> HTTPResponse
  {
    let found = try awaitFinal(id, upTo: wait, service: service) { () throws(APIError) in
      try fetch([id], owner: owner, service).first
    }
    guard let record = found else { throw Self.unknownSubmission(id) }
    let final = record.state == .done || record.state == .cancelled
    return Self.jsonResponse(created && !final ? HTTPStatus(code: 202) : .ok, Self.recordData(record))
  }

  /// Submission `id` once it is final (done or cancelled), or as it stands when `seconds` run out;
  /// nil when `fetch` finds none. Past `maximumWaiting` waits at once, as it stands, so waits never
  /// hold every connection. Woken by its result recorded here, or a cancel; the short bound also
  /// catches one recorded by another daemon.
  func awaitFinal(
    _ id: String, upTo seconds: Double, service: SubmissionService,
    fetch: () throws(APIError) -> SubmissionRecord?
  ) throws(APIError) -> SubmissionRecord? {
    let holds = seconds > 0 && service.waits.enter(maximum: service.settings.maximumWaiting)
    defer { if holds { service.waits.leave() } }
    let deadline = Date(timeIntervalSinceNow: holds ? seconds : 0)
    let watch = service.recorded.watch(id)
    defer { service.recorded.end(watch) }
    while true {
      guard let record = try fetch() else { return nil }
      if record.state == .done || record.state == .cancelled || Date() >= deadline { return record }
      watch.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.2)))
    }
  }

  private func checkID(_ id: String) throws(APIError) {
    guard SubmissionID.isWellFormed(id) else {
      throw APIError(
        code: "bad_id", message: "\"\(id.prefix(80))\" is not a submission id (32 lowercase hex digits)",
        status: .badRequest)
    }
  }

  private func waitSeconds(_ query: [String: String], _ service: SubmissionService) throws(APIError) -> Double? {
    guard let text = query["wait"] else { return nil }
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
      throw .badRequest("wait must be a number of seconds, got \"\(text.prefix(40))\"")
    }
    guard seconds <= service.settings.maximumWaitSeconds else {
      throw .badRequest(
        "wait is \(text) s; this server waits at most \(Self.format(service.settings.maximumWaitSeconds)) s")
    }
    return seconds
  }

  /// The body as one JSON object, read once by the strict reader's parser, which also finds a key
  /// given twice (it was walked for duplicates, then parsed again by JSONSerialization into
  /// Foundation objects).
  private func jsonObject(of request: HTTPRequest) throws(APIError) -> [String: JSONValue] {
    let data = try jsonBody(of: request) { (data) throws(APIError) -> Data in data }
    let reader = StrictReader()
    let parsed = reader.parse(data)
    if let duplicate = reader.problems.first(where: { $0.kind == .duplicateKey }) {
      throw .badRequest("\"\(duplicate.path)\" is given twice; give each field once")
    }
    guard case .object(let object)? = parsed else { throw .badRequest("the body must be one JSON object") }
    return object
  }

  /// Whose submissions a request sees: the SHA-256 of its bearer token ("" on a server without tokens).
  func ownerDigest(_ request: HTTPRequest) -> String {
    guard !configuration.bearerTokens.isEmpty, let field = request.headers["Authorization"] else { return "" }
    let parts = field.split(separator: " ", maxSplits: 1)
    return parts.count == 2 ? hexadecimal(Digest.sha256(Array(parts[1].utf8))) : ""
  }

  func storeUnavailable(_ error: StoreError, trace: inout Trace) -> APIError {
    trace.detail = "submission store: \(error)"
    configuration.logSink?(
      RequestLogEntry(
        id: trace.id, time: LogTime.now(), method: "-", route: "submission-store", status: 503,
        error: "store_unavailable", language: nil, runStatus: nil, queueMilliseconds: nil, runMilliseconds: nil,
        totalMilliseconds: 0, detail: error.description))
    var answer = APIError.busy(
      "the submission store is not available; nothing was stored, try again shortly",
      retryAfterSeconds: configuration.retryAfterSeconds)
    answer.code = "store_unavailable"
    return answer
  }

  private static func unknownSubmission(_ id: String) -> APIError {
    APIError(code: "unknown_submission", message: "no submission \(id)", status: .notFound)
  }

  /// `{"id", "kind", "status", "created_ms", "finished_ms", "result"|"error"}`, the stored result
  /// bytes placed as they are. Built as a `JSONValue` (not a Foundation tree to be cast): every
  /// poll answers with it.
  static func recordData(_ record: SubmissionRecord) -> Data {
    let fields: [String: JSONValue] = [
      "id": .string(record.id), "kind": .string(record.kind.rawValue), "status": .string(record.state.rawValue),
      "created_ms": .number(Double(record.createdMilliseconds)),
      "finished_ms": record.finishedMilliseconds.map { .number(Double($0)) } ?? .null,
    ]
    return recordData(fields, result: record.state == .done ? record.result : nil, isError: record.resultIsError)
  }

  /// `fields` with `result` (or `error`) added as the very bytes given.
  static func recordData(_ given: [String: Any], result: Data?, isError: Bool) -> Data {
    guard case .object(let fields)? = ResultEncoder.value(given) else { return ResultEncoder.data(given) }
    return recordData(fields, result: result, isError: isError)
  }

  /// `fields` with `result` (or `error`) added as the very bytes given.
  static func recordData(_ given: [String: JSONValue], result: Data?, isError: Bool) -> Data {
    var fields = given
    guard let result else { return ResultEncoder.data(.object(fields)) }
    fields[isError ? "error" : "result"] = .null
    let envelope = ResultEncoder.data(.object(fields))
    // Splice the bytes in for the placeholder: the result is exactly what the sync route sent.
    let placeholder = Data("\"\(isError ? "error" : "result")\":null".utf8)
    guard let range = Self.firstRange(of: placeholder, in: envelope) else { return envelope }
    var spliced = envelope
    spliced.replaceSubrange(range, with: placeholder.dropLast(4) + result)
    return spliced
  }

  /// Where `needle` first occurs in `haystack` (indices of `haystack`), compared over raw bytes:
  /// Foundation's `Data.range(of:)` cost more than the rest of a poll's encoding.
  static func firstRange(of needle: Data, in haystack: Data) -> Range<Data.Index>? {
    guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
    return haystack.withUnsafeBytes { hay -> Range<Data.Index>? in
      needle.withUnsafeBytes { wanted -> Range<Data.Index>? in
        for offset in 0...(hay.count - wanted.count)
        where hay[offset] == wanted[0] && memcmp(hay.baseAddress! + offset, wanted.baseAddress!, wanted.count) == 0 {
          return (haystack.startIndex + offset)..<(haystack.startIndex + offset + wanted.count)
        }
        return nil
      }
    }
  }

  private static func wrap(_ items: [Data]) -> Data {
    var data = Data("{\"submissions\":[".utf8)
    for (index, item) in items.enumerated() {
      if index > 0 { data.append(UInt8(ascii: ",")) }
      data.append(item)
    }
    data.append(contentsOf: Array("]}".utf8))
    return data
  }

  /// What an accepted submission is answered with, alone or as a batch's item.
  private static func queuedAnswer(_ id: String) -> Data {
    ResultEncoder.data(.object(["id": .string(id), "status": .string("queued")]))
  }

  private static func jsonResponse(_ status: HTTPStatus, _ body: Data) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
  }

  /// The query of a target as name-value pairs (the first of each name); values percent-decoded.
  static func queryItems(_ target: String) -> [String: String] {
    guard let mark = target.firstIndex(of: "?") else { return [:] }
    var items: [String: String] = [:]
    // Most queries (`ids=`, `fields=`, `wait=`) have nothing to decode: Foundation's decoding is
    // skipped for them, as it costs more than the rest of a poll's parsing. Bytes, not Characters:
    // `Substring.contains("%")` went through Foundation's string search, and splitting by
    // Character walked grapheme breaks, together 2% of the daemon's CPU in a polled lane.
    func decoded(_ part: Substring.UTF8View) -> String {
      let text = String(Substring(part))
      return part.contains(UInt8(ascii: "%")) ? (text.removingPercentEncoding ?? text) : text
    }
    let query = target.utf8[target.utf8.index(after: mark)...]
    for pair in query.split(separator: UInt8(ascii: "&")) {
      let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
      let name = decoded(parts[0])
      let value = parts.count > 1 ? decoded(parts[1]) : ""
      if items[name] == nil { items[name] = value }
    }
    return items
  }

  static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }

  /// `/healthz`: 200 `{"status": "ok"}`, or 503 naming the failing part when the submission store's
  /// last operation failed (the operator's log has why).
  func healthResponse() -> HTTPResponse {
    if let service = submissions, let failure = service.store.snapshot.lastFailure {
      return Self.jsonResponse(
        .serviceUnavailable,
        ResultEncoder.data([
          "status": "degraded", "failing": ["submission_store"],
          "message": "the submission store's last operation (\(failure.operation)) failed",
        ]))
    }
    return Self.jsonResponse(.ok, ResultEncoder.data(["status": "ok"]))
  }

  /// The submission gauges and counters for `/metrics`.
  func submissionMetricsText() -> String {
    guard let service = submissions else { return "" }
    let statistics = try? service.store.statistics(now: wallClockMilliseconds())
    let snapshot = service.store.snapshot
    var text = ""
    func gauge(_ name: String, _ help: String, _ value: String) {
      text += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n\(name) \(value)\n"
    }
    gauge(
      "dsa_run_submission_store_up", "1 when the submission store's last operation succeeded.",
      snapshot.lastFailure == nil ? "1" : "0")
    if let statistics {
      gauge(
        "dsa_run_submissions_queued", "Stored submissions waiting to run (all daemons of the store).",
        String(statistics.queued))
      gauge(
        "dsa_run_submissions_running", "Stored submissions running (all daemons of the store).",
        String(statistics.running))
      gauge(
        "dsa_run_submission_oldest_queued_seconds", "Age of the oldest queued submission, seconds.",
        String(statistics.oldestQueuedSeconds))
    }
    if let workers = service.runningWorkers {
      gauge(
        "dsa_run_submissions_claimed_ahead",
        "Stored submissions this daemon claimed for its next free worker (still queued to clients).",
        String(workers.claimedAheadCount))
    }
    text += "# HELP dsa_run_submission_store_failures_total Submission store operations that failed.\n"
    text += "# TYPE dsa_run_submission_store_failures_total counter\n"
    text += "dsa_run_submission_store_failures_total \(snapshot.failures)\n"
    text += APIMetrics.histogramText(
      "dsa_run_submission_store_seconds", help: "Time of one submission store operation, seconds.",
      bounds: MonitoredStore.latencyBuckets, bucketCounts: snapshot.bucketCounts, count: snapshot.count,
      sum: snapshot.sumSeconds)
    text += "# HELP dsa_run_submissions_answered_from_memory_total Submissions shown done from this daemon's "
    text += "memory of its recent results, without the store.\n"
    text += "# TYPE dsa_run_submissions_answered_from_memory_total counter\n"
    text += "dsa_run_submissions_answered_from_memory_total \(service.recent.hits)\n"
    text += "# HELP dsa_run_webhook_failures_total Webhook deliveries given up on after every try.\n"
    text += "# TYPE dsa_run_webhook_failures_total counter\n"
    text += "dsa_run_webhook_failures_total \(service.sender?.failures ?? 0)\n"
    return text
  }
}

/// Jobs kept as checked at submit, for the worker of this daemon that runs them; the oldest go
/// first past `capacity` jobs or `maximumBytes` of their stored bodies (one run by another daemon
/// is never taken here, and ages out). Only a cache: a job not here is read from the store.
final class PreparedJobs<Job: Sendable>: Sendable {
  let capacity: Int
  let maximumBytes: Int

  private struct State {
    var jobs: [String: (job: Job, bytes: Int)] = [:]
    /// Ids in the order kept (some taken since); `first` is the oldest not yet dropped.
    var order: [String] = []
    var first = 0
    var bytes = 0
  }

  private let state = Mutex(State())

  init(capacity: Int, maximumBytes: Int) {
    self.capacity = max(1, capacity)
    self.maximumBytes = max(0, maximumBytes)
  }

  /// Keeps `job` (its stored body `bytes` long) for `id`; one larger than the whole bound is not kept.
  func keep(_ job: Job, id: String, bytes: Int) {
    guard bytes <= maximumBytes else { return }
    state.withLock { state in
      if let old = state.jobs.removeValue(forKey: id) { state.bytes -= old.bytes }
      while state.jobs.count >= capacity || state.bytes + bytes > maximumBytes, state.first < state.order.count {
        if let dropped = state.jobs.removeValue(forKey: state.order[state.first]) { state.bytes -= dropped.bytes }
        state.first += 1
      }
      // Ids taken or dropped are let go of once they are most of the list (amortized: after at
      // least `capacity` keeps), so the list stays within three times the capacity.
      if state.first > capacity || state.order.count - state.first > 2 * capacity {
        state.order = state.order[state.first...].filter { state.jobs[$0] != nil }
        state.first = 0
      }
      state.jobs[id] = (job, bytes)
      state.bytes += bytes
      state.order.append(id)
    }
  }

  /// The job kept for `id`, no longer kept; nil when there is none.
  func take(_ id: String) -> Job? {
    state.withLock { state in
      guard let kept = state.jobs.removeValue(forKey: id) else { return nil }
      state.bytes -= kept.bytes
      return kept.job
    }
  }

  /// Jobs kept now.
  var count: Int { state.withLock { $0.jobs.count } }
  /// Ids in the order list now, dropped ones included (tests: it must not grow with the jobs seen).
  var trackedCount: Int { state.withLock { $0.order.count } }
}
