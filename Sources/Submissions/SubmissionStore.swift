import Foundation

/// Which route's work a submission holds: its body is an execute body or a grade body, and its result
/// is what `POST /v1/execute` or `POST /v1/grade` answers; or a Judge0 CE job, whose body and result
/// are the API's Judge0 layer's (an execute run with what Judge0 answers around it).
public enum SubmissionKind: String, Sendable, CaseIterable {
  case execute
  case grade
  /// Stored with a kind of its own (before, as `execute` with a body recognised by its first bytes),
  /// so that the store says what a job is without reading its body.
  case judge0

  /// Whether running it is an execute run (the API layer decides what and how).
  public var runsAsExecute: Bool {
    switch self {
    case .execute, .judge0: true
    case .grade: false
    }
  }
}

/// Where a submission is in its life. `cancelled` and `done` are final.
public enum SubmissionState: String, Sendable, CaseIterable {
  case queued
  case running
  case done
  case cancelled
}

/// A submission as accepted: everything the store keeps before it runs.
public struct NewSubmission: Sendable, Equatable {
  /// 32 lowercase hex digits (`SubmissionID`).
  public var id: String
  /// Whose it is: a digest of the caller's bearer token, or "" on a server without tokens.
  public var owner: String
  public var kind: SubmissionKind
  /// The request body, opaque JSON bytes, as the route that runs it takes it.
  public var body: Data
  /// Where the result is sent when it is done (already checked by the caller); nil for none.
  public var callbackURL: String?

  public init(id: String, owner: String, kind: SubmissionKind, body: Data, callbackURL: String? = nil) {
    self.id = id
    self.owner = owner
    self.kind = kind
    self.body = body
    self.callbackURL = callbackURL
  }
}

/// A stored submission as a client may see it.
public struct SubmissionRecord: Sendable, Equatable {
  public var id: String
  public var kind: SubmissionKind
  public var state: SubmissionState
  /// Milliseconds since the Unix epoch.
  public var createdMilliseconds: Int64
  public var finishedMilliseconds: Int64?
  /// When done: the result bytes, or an error object's bytes when `resultIsError`.
  public var result: Data?
  public var resultIsError: Bool

  public init(
    id: String, kind: SubmissionKind, state: SubmissionState, createdMilliseconds: Int64,
    finishedMilliseconds: Int64?, result: Data?, resultIsError: Bool
  ) {
    self.id = id
    self.kind = kind
    self.state = state
    self.createdMilliseconds = createdMilliseconds
    self.finishedMilliseconds = finishedMilliseconds
    self.result = result
    self.resultIsError = resultIsError
  }
}

/// A job a worker holds a lease on.
public struct ClaimedSubmission: Sendable, Equatable {
  public var id: String
  /// Whose it is (`NewSubmission.owner`): its result, once recorded, is shown to that owner only.
  public var owner: String
  public var kind: SubmissionKind
  public var body: Data
  public var callbackURL: String?
  /// 1 on the first claim; more when an earlier holder's lease expired (its daemon died, perhaps
  /// before it ran the job). A claim given back with `release` does not count.
  public var attempt: Int
  /// When it was submitted (milliseconds since the epoch): claims are taken oldest first.
  public var createdMilliseconds: Int64
}

/// What one run of a job this daemon holds gave, to be recorded.
public struct FinishedRun: Sendable, Equatable {
  public var id: String
  /// The result bytes, or an error object's bytes when `isError`.
  public var result: Data
  public var isError: Bool

  public init(id: String, result: Data, isError: Bool) {
    self.id = id
    self.result = result
    self.isError = isError
  }
}

/// Jobs to claim in the same transaction as a `record`: those for the slots its results leave.
public struct ClaimRequest: Sendable, Equatable {
  /// The leases run until then (wall-clock milliseconds).
  public var leaseUntil: Int64
  /// Jobs at most; 0 claims none.
  public var limit: Int

  public init(leaseUntil: Int64, limit: Int) {
    self.leaseUntil = leaseUntil
    self.limit = limit
  }
}

/// What one `record` wrote and claimed.
public struct RecordOutcome: Sendable, Equatable {
  /// The ids of the finished runs recorded (see `record`).
  public var recorded: Set<String>
  /// The jobs claimed, oldest first, as `claim` would have leased them.
  public var claimed: [ClaimedSubmission]

  public init(recorded: Set<String>, claimed: [ClaimedSubmission]) {
    self.recorded = recorded
    self.claimed = claimed
  }
}

/// A finished job whose webhook is still to be sent.
public struct PendingWebhook: Sendable, Equatable {
  public var id: String
  public var callbackURL: String
  public var result: Data
  public var resultIsError: Bool
  public var kind: SubmissionKind
  /// When the job finished (wall-clock milliseconds): pending webhooks are listed in that order.
  public var finishedMilliseconds: Int64

  /// Where a listing that ended with this webhook goes on.
  public var position: WebhookPosition { WebhookPosition(finishedMilliseconds: finishedMilliseconds, id: id) }
}

/// A place in the list of pending webhooks (ordered by finish time, then id): a listing `after` it
/// starts with the next one, so a sender can page past webhooks it already holds.
public struct WebhookPosition: Sendable, Equatable {
  public var finishedMilliseconds: Int64
  public var id: String

  public init(finishedMilliseconds: Int64, id: String) {
    self.finishedMilliseconds = finishedMilliseconds
    self.id = id
  }

  /// Before every webhook.
  public static let start = WebhookPosition(finishedMilliseconds: Int64.min, id: "")
}

/// The gauges `/metrics` shows.
public struct SubmissionStatistics: Sendable, Equatable {
  public var queued: Int
  public var running: Int
  /// Age of the oldest queued job, seconds; 0 when none waits.
  public var oldestQueuedSeconds: Double

  public init(queued: Int, running: Int, oldestQueuedSeconds: Double) {
    self.queued = queued
    self.running = running
    self.oldestQueuedSeconds = oldestQueuedSeconds
  }
}

/// What `cancel` found.
public enum CancelOutcome: Sendable, Equatable {
  /// It was queued or running and is cancelled now.
  case cancelled
  /// It had already ended (done or cancelled); nothing changed.
  case alreadyFinished(SubmissionState)
  /// No such id for this owner.
  case notFound
}

/// A store that could not do what it was asked: the disk is full, the database is down. The message
/// is for the operator's log and health checks (it may name paths and hosts), never for a client.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was being done ("insert", "claim", "open /var/lib/dsa-run/submissions.sqlite3").
  public var operation: String
  public var message: String
  /// The store is well: the call asked for what it never stores (`resultTooLarge`), and nothing
  /// was written. Health checks leave it out.
  public var isRefusal: Bool

  public init(_ operation: String, _ message: String, isRefusal: Bool = false) {
    self.operation = operation
    self.message = message
    self.isRefusal = isRefusal
  }

  /// A result over the store's `maximumResultBytes`.
  public static func resultTooLarge(_ operation: String, id: String, bytes: Int, maximum: Int) -> StoreError {
    StoreError(
      operation,
      "the result of \(id) is \(bytes) bytes, over the \(maximum) this store keeps (maximumResultBytes); "
        + "nothing was written", isRefusal: true)
  }

  public var description: String { "\(operation): \(message)" }
}

/// The largest result a store keeps unless told otherwise, bytes (`SubmissionStore.maximumResultBytes`).
public let defaultMaximumResultBytes = 64 << 20

/// Where accepted submissions live until they are purged: the one seam between the API and a
/// database. Every method is one short transaction and may be called from any thread.
///
/// Times are wall-clock milliseconds since the epoch passed in by the caller, so leases mean the same
/// across daemons sharing a database and tests can move time without sleeping.
public protocol SubmissionStore: Sendable {
  /// A short name for logs and metrics: "sqlite" or "postgresql".
  var kindName: String { get }
  /// Whether `waitForOtherProcesses` hears other daemons queue work (so a listener thread is worth it).
  var wakesAcrossProcesses: Bool { get }
  /// The largest result, bytes, that `record` and `insertDone` store: a call with a larger one is
  /// refused whole (`StoreError.resultTooLarge`), nothing written. Callers keep results under it.
  var maximumResultBytes: Int { get }

  /// Stores all of `submissions` queued, or none of them.
  func insert(_ submissions: [NewSubmission], now: Int64) throws(StoreError)

  /// The submissions among `ids` that belong to `owner`, in no particular order.
  func fetch(ids: [String], owner: String) throws(StoreError) -> [SubmissionRecord]

  /// Cancels a queued or running submission of `owner`.
  func cancel(id: String, owner: String, now: Int64) throws(StoreError) -> CancelOutcome

  /// Stores one submission already done (it ran in the request that submitted it): one write, and
  /// from then on it is like any other done submission.
  func insertDone(_ submission: NewSubmission, result: Data, isError: Bool, now: Int64) throws(StoreError)

  /// Leases up to `limit` of the oldest jobs no live lease holds (queued ones, and running ones whose
  /// daemon died) to `worker` until `leaseUntil`, oldest first; empty when there is none. A claimed
  /// job stays `queued` to clients until `record` says it started: a daemon may claim the job for
  /// its next free slot while its slots are still busy.
  func claim(worker: String, now: Int64, leaseUntil: Int64, limit: Int) throws(StoreError) -> [ClaimedSubmission]

  /// Extends the leases `worker` holds on `ids`; returns those it still holds (the others were
  /// cancelled, or taken over after the lease ran out), so their runs can be stopped.
  @discardableResult
  func renew(ids: [String], worker: String, leaseUntil: Int64) throws(StoreError) -> Set<String>

  /// In one transaction: the jobs of `started` that `worker` still holds become `running` (they got
  /// a box slot), each of `finished` that is still queued or running becomes `done` with its
  /// result, and with `claim`, up to `claim.limit` more jobs are leased to `worker` as `claim` does
  /// (none of those in the lists): the slots the results leave are filled in the same write. The
  /// ids of `finished` recorded come back; one missing was cancelled or another run recorded
  /// first, so a job that ran twice has one result. No id may be in both lists.
  func record(started: [String], finished: [FinishedRun], worker: String, now: Int64, claim: ClaimRequest?)
    throws(StoreError) -> RecordOutcome

  /// Puts jobs `worker` holds but never started back in the queue (a daemon that stops first).
  func release(ids: [String], worker: String) throws(StoreError)

  /// Up to `limit` finished jobs with a callback not yet delivered (or given up on), after `after`
  /// in the order of their finish time and id.
  func pendingWebhooks(limit: Int, after: WebhookPosition) throws(StoreError) -> [PendingWebhook]

  /// Marks a job's webhook as delivered (or abandoned after its tries).
  func finishWebhook(id: String, delivered: Bool) throws(StoreError)

  /// Deletes finished submissions that ended before `finishedBefore`; returns how many.
  func purge(finishedBefore: Int64) throws(StoreError) -> Int

  /// Queue gauges, as of `now`.
  func statistics(now: Int64) throws(StoreError) -> SubmissionStatistics

  /// Blocks up to `timeoutMilliseconds` or until another process may have queued work (PostgreSQL's
  /// `NOTIFY`); a store without such a signal just returns after the timeout. A call that finds the
  /// store not listening (the first, one after `stopWaitingForOtherProcesses`, one after a lost
  /// connection) starts to and returns at once: work queued before that was announced to nobody
  /// here, and the caller looks for it now.
  func waitForOtherProcesses(timeoutMilliseconds: Int) throws(StoreError)

  /// Stops hearing of other processes' work until the next `waitForOtherProcesses` (PostgreSQL's
  /// `UNLISTEN`): a daemon with no room for more jobs claims with each of its writes and needs no
  /// wake-up, and the server then signals it for nobody's insert. Nothing, for a store without
  /// such a signal.
  func stopWaitingForOtherProcesses() throws(StoreError)
}

extension SubmissionStore {
  /// The oldest claimable job, leased to `worker`; nil when there is none.
  public func claim(worker: String, now: Int64, leaseUntil: Int64) throws(StoreError) -> ClaimedSubmission? {
    try claim(worker: worker, now: now, leaseUntil: leaseUntil, limit: 1).first
  }

  /// `record` with no claim: the ids of `finished` recorded.
  public func record(started: [String], finished: [FinishedRun], worker: String, now: Int64) throws(StoreError)
    -> Set<String>
  {
    try record(started: started, finished: finished, worker: worker, now: now, claim: nil).recorded
  }

  /// Records one job's result; false when it was cancelled or another run recorded first.
  public func complete(id: String, result: Data, isError: Bool, now: Int64) throws(StoreError) -> Bool {
    try record(started: [], finished: [FinishedRun(id: id, result: result, isError: isError)], worker: "", now: now)
      .contains(id)
  }

  /// The oldest `limit` pending webhooks.
  public func pendingWebhooks(limit: Int) throws(StoreError) -> [PendingWebhook] {
    try pendingWebhooks(limit: limit, after: .start)
  }

  /// Puts one job `worker` holds back in the queue.
  public func release(id: String, worker: String) throws(StoreError) {
    try release(ids: [id], worker: worker)
  }
}

/// Wall-clock milliseconds since the Unix epoch.
public func wallClockMilliseconds() -> Int64 {
  Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
}
