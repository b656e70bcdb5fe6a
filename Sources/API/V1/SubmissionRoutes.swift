import Foundation
import HTTP
import Runners
import Submissions
import Wire

/// `/v1/submissions` (docs/api.md, "Submissions"): execute and grade bodies stored and run by the
/// workers, each checked at submit exactly as its sync route checks it (`RunService.admit`) and
/// charged then, so a mistake is answered now, not stored.
struct SubmissionRoutes {
  let api: V1API
  let submissions: SubmissionService
  var service: RunService { api.service }

  func answer(_ request: HTTPRequest, route: Route, scope: inout RequestScope) throws(APIError) -> HTTPResponse {
    let method = request.method == "HEAD" ? "GET" : request.method
    let owner = scope.owner
    switch (route.label, method) {
    case ("/v1/submissions", "POST"):
      let wait = try waitSeconds(scope.query)
      var item = try submission(try jsonObject(of: request), received: request.body, owner: owner, scope: &scope)
      try service.charge(item.runs, context: &scope.context)
      item.submission.id = try submissions.newID(context: &scope.context, log: service)
      try submissions.insert([item.submission], context: &scope.context, log: service)
      if let wait, wait > 0 { return try view(item.submission.id, wait: wait, created: true, scope: &scope) }
      return Self.jsonResponse(HTTPStatus(code: 202), Self.queuedAnswer(item.submission.id))
    case ("/v1/submissions/batch", "POST"):
      return try batch(request, owner: owner, scope: &scope)
    case ("/v1/submissions", "GET"):
      guard let list = scope.query["ids"], !list.isEmpty else {
        throw .badRequest("give the ids to look up: GET /v1/submissions?ids=ID,ID")
      }
      let ids = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard ids.count <= submissions.settings.maximumBatch else {
        throw .badRequest("\(ids.count) ids; at most \(submissions.settings.maximumBatch) per request")
      }
      for id in ids { try Self.checkID(id) }
      let records = try submissions.fetch(ids, owner: owner, context: &scope.context, log: service)
      let byID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      let items = ids.map { id -> Data in
        guard let record = byID[id] else {
          return ResultEncoder.data([
            "id": id, "error": ["code": "unknown_submission", "message": "no submission \(id)"],
          ])
        }
        return SubmissionService.recordData(record)
      }
      return Self.jsonResponse(.ok, Self.wrap(items))
    case (V1API.submissionRoute, "GET"):
      let id = String(scope.path.dropFirst(V1API.submissionPrefix.count))
      try Self.checkID(id)
      return try view(id, wait: try waitSeconds(scope.query) ?? 0, created: false, scope: &scope)
    default:
      let id = String(scope.path.dropFirst(V1API.submissionPrefix.count))
      try Self.checkID(id)
      let outcome: CancelOutcome
      do throws(StoreError) {
        outcome = try submissions.store.cancel(id: id, owner: owner, now: wallClockMilliseconds())
      } catch {
        throw submissions.unavailable(error, context: &scope.context, log: service)
      }
      switch outcome {
      case .notFound: throw Self.unknownSubmission(id)
      case .alreadyFinished(let state):
        throw APIError(
          code: "already_finished",
          message: "submission \(id) is \(state.rawValue); only queued or running ones cancel",
          status: HTTPStatus(code: 409))
      case .cancelled:
        submissions.runningWorkers?.stopRun(of: id)
        // Final too: a request waiting for it need not find out at its next look.
        submissions.recorded.recorded(id)
        return try view(id, wait: 0, created: false, scope: &scope)
      }
    }
  }

  private func batch(_ request: HTTPRequest, owner: String, scope: inout RequestScope) throws(APIError)
    -> HTTPResponse
  {
    let object = try jsonObject(of: request)
    guard object.count == 1, case .array(let items)? = object["submissions"] else {
      throw .badRequest("the body must be {\"submissions\": [ITEM, ...]}, each item a body for POST /v1/submissions")
    }
    let maximum = submissions.settings.maximumBatch
    guard (1...maximum).contains(items.count) else {
      throw .badRequest("\(items.count) items; a batch holds 1 to \(maximum)")
    }
    var answers: [Data?] = []
    var accepted: [NewSubmission] = []
    var runs = 0
    for item in items {
      do throws(APIError) {
        guard case .object(let fields) = item else { throw .badRequest("an item must be a JSON object") }
        var submission = try self.submission(fields, owner: owner, scope: &scope)
        submission.submission.id = try submissions.newID(context: &scope.context, log: service)
        accepted.append(submission.submission)
        runs += submission.runs
        answers.append(nil)
      } catch {
        answers.append(ResultEncoder.data(error.jsonObject))
      }
    }
    // The items that would run are charged together: a batch over the quota stores none of them.
    try service.charge(runs, context: &scope.context)
    if !accepted.isEmpty { try submissions.insert(accepted, context: &scope.context, log: service) }
    var ids = accepted.map(\.id).makeIterator()
    return Self.jsonResponse(
      HTTPStatus(code: 202), Self.wrap(answers.map { $0 ?? Self.queuedAnswer(ids.next() ?? "") }))
  }

  /// One submission from its JSON object: `callback_url` taken out, the rest admitted exactly as
  /// the sync route admits it, and the runs it will be charged (its id is made once it is accepted).
  /// `received`: the object's bytes as sent, stored as they are when nothing is taken out (one
  /// encoding fewer per submit; the worker reads them as the sync route reads its body).
  private func submission(
    _ given: [String: JSONValue], received: Data? = nil, owner: String, scope: inout RequestScope
  ) throws(APIError) -> (submission: NewSubmission, runs: Int) {
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
    let runs: Int
    switch kind {
    case .grade:
      let ask = try GradeBody.decode(body).gradeAsk(in: service.challenges)
      runs = try service.admit(ask, context: &scope.context).plannedRuns
    default:
      _ = try service.admit(try ExecuteBody.decode(body).runAsk(), context: &scope.context)
      runs = 1
    }
    return (NewSubmission(id: "", owner: owner, kind: kind, body: body, callbackURL: callbackURL), runs)
  }

  /// One submission's answer, after waiting up to `wait` seconds for it to end.
  private func view(_ id: String, wait: Double, created: Bool, scope: inout RequestScope) throws(APIError)
    -> HTTPResponse
  {
    var context = scope.context
    let owner = scope.owner
    let found = try submissions.awaitFinal(id, upTo: wait) { () throws(APIError) in
      try submissions.fetch([id], owner: owner, context: &context, log: service).first
    }
    scope.context = context
    guard let record = found else { throw Self.unknownSubmission(id) }
    let final = record.state == .done || record.state == .cancelled
    return Self.jsonResponse(created && !final ? HTTPStatus(code: 202) : .ok, SubmissionService.recordData(record))
  }

  private static func checkID(_ id: String) throws(APIError) {
    guard SubmissionID.isWellFormed(id) else {
      throw APIError(
        code: "bad_id", message: "\"\(id.prefix(80))\" is not a submission id (32 lowercase hex digits)",
        status: .badRequest)
    }
  }

  private func waitSeconds(_ query: [String: String]) throws(APIError) -> Double? {
    guard let text = query["wait"] else { return nil }
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
      throw .badRequest("wait must be a number of seconds, got \"\(text.prefix(40))\"")
    }
    let maximum = submissions.settings.maximumWaitSeconds
    guard seconds <= maximum else {
      throw .badRequest("wait is \(text) s; this server waits at most \(Self.format(maximum)) s")
    }
    return seconds
  }

  /// The body as one JSON object, read once by the strict reader's parser, which also finds a key
  /// given twice.
  private func jsonObject(of request: HTTPRequest) throws(APIError) -> [String: JSONValue] {
    let data = try api.jsonBody(of: request) { (data) throws(APIError) -> Data in data }
    let reader = StrictReader()
    let parsed = reader.parse(data)
    if let duplicate = reader.problems.first(where: { $0.kind == .duplicateKey }) {
      throw .badRequest("\"\(duplicate.path)\" is given twice; give each field once")
    }
    guard case .object(let object)? = parsed else { throw .badRequest("the body must be one JSON object") }
    return object
  }

  private static func unknownSubmission(_ id: String) -> APIError {
    APIError(code: "unknown_submission", message: "no submission \(id)", status: .notFound)
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

  static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }
}
