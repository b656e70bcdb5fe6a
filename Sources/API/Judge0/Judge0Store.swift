import Foundation
import Runners
import Submissions
import Wire

/// Judge0 jobs in the submission store: stored with their kind, run now for `wait=true`, and
/// polled with a hold (docs/compat.md, "Deviations").
struct Judge0Store {
  let api: Judge0API
  let submissions: SubmissionService
  var service: RunService { api.service }

  /// Stores the jobs; their tokens (UUID v4 spellings of the stored ids) in order.
  func insert(_ jobs: [Judge0Job], owner: String, context: inout RunContext) throws(APIError) -> [String] {
    var made: [NewSubmission] = []
    for job in jobs {
      let id = Judge0API.uuid4ID(try submissions.newID(context: &context, log: service))
      made.append(
        NewSubmission(
          id: id, owner: owner, kind: .judge0, body: ResultEncoder.data(job.submission.json),
          callbackURL: job.submission.callbackURL))
    }
    try submissions.insert(made, context: &context, log: service)
    return made.map { Judge0API.token($0.id) }
  }

  /// `wait=true`: run in this request's own slot, admitted by the wait budget as `/v1/execute` is,
  /// and stored done in one write; when the budget refuses it, queued as any other and waited for.
  /// The store failing after the run is 503 with nothing stored, as a submit that fails is. The
  /// caller charged the run already.
  func runNowOrWait(_ job: Judge0Job, owner: String, context: inout RunContext) throws(APIError)
    -> (token: String, record: SubmissionRecord)
  {
    let id = Judge0API.uuid4ID(try submissions.newID(context: &context, log: service))
    let created = wallClockMilliseconds()
    context.prepaid = true
    defer { context.prepaid = false }
    guard let result = api.run(job, context: &context) else {
      let token = try insert([job], owner: owner, context: &context)[0]
      let found = try submissions.awaitFinal(Judge0API.id(token)!, upTo: submissions.settings.maximumWaitSeconds) {
        () throws(APIError) in
        try submissions.fetch([Judge0API.id(token)!], owner: owner, context: &context, log: service).first
      }
      guard let record = found else { throw .internalError("a stored Judge0 submission vanished") }
      return (token, record)
    }
    let finished = wallClockMilliseconds()
    let submission = NewSubmission(
      id: id, owner: owner, kind: .judge0, body: ResultEncoder.data(job.submission.json),
      callbackURL: job.submission.callbackURL)
    do throws(StoreError) {
      try submissions.store.insertDone(submission, result: result, isError: false, now: finished)
    } catch {
      throw submissions.unavailable(error, context: &context, log: service)
    }
    if job.submission.callbackURL != nil { submissions.sender?.wake() }
    var record = SubmissionRecord(
      id: id, kind: .judge0, state: .done, createdMilliseconds: finished, finishedMilliseconds: finished,
      result: result, resultIsError: false)
    // As the store holds it (one write, created when it finished) for later looks; this answer
    // shows when it was submitted.
    submissions.recent.remember(record, owner: owner)
    record.createdMilliseconds = created
    return (Judge0API.token(id), record)
  }

  /// A poll's records: at once when one of the caller's Judge0 submissions among them is final (or
  /// none is the caller's, which answers 404 or null), else once the first of them becomes final or
  /// the hold runs out, whichever comes first. Past `maximumHeldPolls` held, or once the daemon
  /// drains, at once.
  func poll(_ ids: [String], owner: String, context: inout RunContext) throws(APIError) -> [SubmissionRecord] {
    let settings = api.settings
    guard settings.pollHoldMilliseconds > 0, !ids.isEmpty else {
      return try submissions.fetch(ids, owner: owner, context: &context, log: service)
    }
    // Watched before the first read, so a result recorded in between wakes the hold.
    let watch = submissions.recorded.watch(ids)
    defer { submissions.recorded.end(watch) }
    var records = try submissions.fetch(ids, owner: owner, context: &context, log: service)
    func nothingFinal(_ records: [SubmissionRecord]) -> Bool {
      var shown = false
      for record in records where Judge0API.isJudge0(record) || record.kind == .execute {
        if record.state == .done || record.state == .cancelled { return false }
        shown = true
      }
      return shown
    }
    guard nothingFinal(records), api.holds.enter(maximum: settings.maximumHeldPolls) else { return records }
    defer { api.holds.leave() }
    let deadline = Date(timeIntervalSinceNow: Double(settings.pollHoldMilliseconds) / 1000)
    // Woken by a result or a cancel of this daemon's. Only a store other daemons share can end a
    // submission unseen here: there it looks again every 0.2 s; a store of this daemon's alone is
    // read again only when woken (each look was a store read: most of a held poll's CPU).
    let lookEvery: TimeInterval? = submissions.store.wakesAcrossProcesses ? 0.2 : nil
    while !submissions.recorded.isClosed && Date() < deadline {
      watch.wait(until: lookEvery.map { min(deadline, Date(timeIntervalSinceNow: $0)) } ?? deadline)
      records = try submissions.fetch(ids, owner: owner, context: &context, log: service)
      if !nothingFinal(records) { break }
    }
    return records
  }
}
