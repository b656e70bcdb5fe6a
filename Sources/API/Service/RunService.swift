import Challenges
import Foundation
import Grading
import HTTP
import Runners
import Sandbox
import Synchronization
import SystemCore
import Wire

/// Who asks and through which doorway: what a run is charged to and logged under, and what the
/// service noted of it for the request's log line.
public struct RunContext: Sendable {
  public var requestID: String
  /// The route's label in metrics and the request log (`/v1/execute`, `judge0:/submissions`).
  public var route: String
  /// The accepted bearer token; "" on a server without tokens (all callers share one quota) and
  /// for a caller whose token is not yet known.
  public var token: String

  // How the run waits for its slot.
  /// Whether the wait budget admits it: a stored job, which no client waits on, waits past it.
  var checksWaitBudget = true
  /// The boxes of a stored job die with it when it is cancelled.
  var boxCancellation: BoxCancellation?
  /// A stored job's last word, on the slot's thread, on whether it still runs (false: it was
  /// cancelled, or its daemon stops, while it waited; it is answered busy without running).
  var startsInSlot: (@Sendable () -> Bool)?
  /// The runs were charged already (a stored job is charged when it is submitted).
  var prepaid = false

  // What happened, for the log line.
  var language: String?
  var runStatus: String?
  var queueMilliseconds: Double?
  var runMilliseconds: Double?
  /// The operator's detail of a failure (never shown to the caller).
  var detail: String?
  /// The quota check this request was charged with, for the RateLimit fields.
  var rateLimit: RateLimiter.Decision?
  /// For the log: the presented token's digest, accepted or not (`RequestLogEntry.tokenDigest`), and the client.
  var tokenDigest: String?
  var client: String?

  public init(requestID: String, route: String, token: String = "") {
    self.requestID = requestID
    self.route = route
    self.token = token
  }
}

/// The only way to run: admission against the configured maxima, the quota charge, the box slot,
/// metrics, and the redaction of internal errors, for every doorway (docs/architecture.md, "API").
///
/// Front ends convert their wire to a `RunAsk` or `GradeAsk`, have it admitted (`admit`: every
/// check a run of it would make, before anything is stored or queued), then `execute`, `grade` or
/// start a live run, and render what comes back. None of them reaches the queue, the executor or
/// the quota any other way (`Tests/ArchitectureTests` holds them to it).
public final class RunService: Sendable {
  private let executor: Executor
  /// The executor's pre-warmed runs (RunServicePrewarm.swift).
  var prewarm: PrewarmRuns? { executor.prewarm }
  var prewarmAhead: @Sendable () -> Void { { [executor] in executor.prewarmAhead() } }
  let configuration: APIConfiguration
  /// The box slots and their line.
  let queue: WorkQueue
  /// The `/metrics` counters.
  public let metrics = APIMetrics()
  /// The settings in effect and their quota counter, swapped together by a reload (ReloadableSettings.swift).
  let current: Mutex<(settings: ReloadableSettings, rateLimiter: RateLimiter?)>
  /// Live runs at once, apart from the box slots.
  let liveSlots: LiveSlots

  public init(executor: Executor, configuration: APIConfiguration, challenges: ChallengeCatalog) {
    self.executor = executor
    self.configuration = configuration
    queue = WorkQueue(
      slots: configuration.slots, maximumWaiting: configuration.maximumQueued,
      waitBudget: configuration.queueWaitBudget)
    let settings = ReloadableSettings(configuration, challenges: challenges)
    current = Mutex((settings, settings.rateLimit.map(RateLimiter.init(policy:))))
    liveSlots = LiveSlots(limit: configuration.liveSessions)
  }

  // MARK: What can run (reads; nothing runs)

  /// The language catalog.
  public var catalog: RunnerCatalog { executor.catalog }
  /// Whether results carry probed toolchain versions.
  var probesVersions: Bool { executor.probesVersions }
  /// The toolchain's own version of `runner`, probed once.
  func probedVersion(of runner: Runner) -> String { executor.probedVersion(of: runner) }

  /// The runner a request names, before it waits for a slot (a caller's mistake is never queued);
  /// the catalog's name goes in `context`, so metric labels stay a closed set.
  func runner(language: String, version: String?, context: inout RunContext) throws(APIError) -> Runner {
    context.language = language
    let runner: Runner
    do throws(ExecuteError) {
      runner = try executor.runner(language: language, version: version)
    } catch {
      throw .from(error)
    }
    context.language = runner.language
    return runner
  }

  // MARK: Admission (pure: nothing charged, stored or queued; the rest in RunServiceAdmission.swift)

  /// A grade's files as its challenge runs them (a function challenge's driver first).
  func checkFiles(
    _ files: [SourceFile], runner: Runner, requestedAs language: String, challenge: Challenge? = nil
  ) throws(APIError) {
    do throws(ExecuteError) {
      let program = try FunctionDrivers.programFiles(of: challenge, language: runner.language, learnerFiles: files)
      try executor.checkFiles(program, runner: runner, requestedAs: language)
    } catch {
      throw .from(error)
    }
  }

  // MARK: The quota

  /// Takes `runs` from the caller's quota (noted in `context` for the RateLimit fields); 429 with
  /// Retry-After when they do not all fit. A context marked prepaid is not charged again.
  func charge(_ runs: Int, context: inout RunContext) throws(APIError) {
    let (settings, rateLimiter) = current.withLock { $0 }
    guard let rateLimiter, !context.prepaid, runs > 0 else { return }
    let now = Double(monotonicMicroseconds()) / 1e6
    // Without configured tokens any token a caller names is ignored: it could otherwise pick a
    // fresh one per request. All callers then share one quota.
    let token = settings.bearerTokens.isEmpty ? "" : context.token
    let decision = rateLimiter.take(token: token, cost: runs, now: now)
    context.rateLimit = decision
    guard decision.allowed else {
      throw APIError(
        code: "rate_limited",
        message:
          "\(runs == 1 ? "this run" : "these \(runs) runs") would pass this token's quota of \(decision.quota) runs "
          + "per \(rateLimiter.policy.windowSeconds) s (\(decision.remaining) left); try again in "
          + "\(decision.resetSeconds) s",
        status: HTTPStatus(code: 429),
        headers: HTTPHeaders([(name: "Retry-After", value: String(decision.resetSeconds))]))
    }
  }

  /// Gives back runs charged but not made (a grade stopped early), within the window they were
  /// charged in.
  private func refund(_ runs: Int, context: inout RunContext) {
    let (settings, rateLimiter) = current.withLock { $0 }
    guard let rateLimiter, !context.prepaid, runs > 0, let charged = context.rateLimit else { return }
    let token = settings.bearerTokens.isEmpty ? "" : context.token
    if let decision = rateLimiter.giveBack(token: token, cost: runs, chargedIn: charged) {
      context.rateLimit = decision
    }
  }

  /// The RateLimit fields for an answer to a request that was charged.
  func rateLimitHeaders(_ context: RunContext) -> [(String, String)] {
    guard let rateLimiter, let decision = context.rateLimit else { return [] }
    return RateLimiter.headers(decision, windowSeconds: rateLimiter.policy.windowSeconds)
  }

  // MARK: Running

  /// Runs an admitted request in a box slot, charged one run. `encode` turns the result into what
  /// the front end answers, on the slot's thread (inside the run's share of the daemon, not on the
  /// connection's after the slot is free).
  public func execute<Encoded: Sendable>(
    _ request: ExecuteRequest, context: inout RunContext,
    encode: @escaping @Sendable (ExecuteResult) -> Encoded
  ) throws(APIError) -> (result: ExecuteResult, encoded: Encoded) {
    try charge(1, context: &context)
    let executor = self.executor
    let (outcome, elapsed) = try inSlot(context: &context) { () throws(ExecuteError) in
      let result = try executor.execute(request)
      return (result, encode(result))
    }
    let language = context.language ?? request.language
    switch outcome {
    case .success(let ran):
      let status = Self.statusWord(ran.0)
      context.runStatus = status
      metrics.recordRun(language: language, status: status, seconds: Self.seconds(elapsed))
      return ran
    case .failure(let error):
      if case .sandbox = error {
        metrics.recordRun(language: language, status: Status.internalError.rawValue, seconds: Self.seconds(elapsed))
      }
      throw redacted(.from(error), context: &context)
    }
  }

  /// What a grade reports while it runs (SSE streams it).
  public struct GradeProgress: Sendable {
    /// Once, when the grade's first box has its slot (a streamed answer begins then).
    public var admitted: (@Sendable () -> Void)?
    public var compiled: (@Sendable (Outcome?) -> Void)?
    public var testFinished: (@Sendable (Int, TestGrade) -> Void)?
    public init() {}
  }

  /// Grades an admitted request. Charged its planned runs up front (429 when they do not fit),
  /// the runs it did not make given back after; every box of it (the compile, each test, each
  /// growth size, each checker and generator run) takes a box slot of its own, in line with other
  /// requests, so a grade never holds a slot longer than one of its runs; and all of it is bounded
  /// by `grade_wall_ms` after the compile.
  public func grade(_ request: GradeRequest, context: inout RunContext, progress: GradeProgress = GradeProgress())
    throws(APIError) -> GradeResult
  {
    try charge(request.plannedRuns, context: &context)
    let compileMilliseconds =
      request.runner.compile.map { $0.limits.applied(to: BoxLimits()).wallTimeMilliseconds } ?? 0
    let bound = settings.resolvedGradeWallMilliseconds
    let gate = SlotGate(
      service: self, context: context,
      deadline: .now + .milliseconds(Int64(clamping: compileMilliseconds + bound)), admitted: progress.admitted)
    var options = GradeOptions(
      version: request.ask.version, parallelism: 1, stopAtFirstFailure: request.ask.stopAtFirstFailure,
      timeBoundMilliseconds: bound, checkerLimits: request.checkerLimits, runner: request.runner)
    options.onCompiled = progress.compiled
    options.onTestFinished = progress.testFinished
    let grader = Grader(executor: executor.gated(by: gate))
    let graded: Result<GradeResult, ExecuteError>
    do throws(ExecuteError) {
      graded = .success(
        try grader.grade(request.challenge, language: request.ask.language, files: request.ask.files, options: options))
    } catch {
      graded = .failure(error)
    }
    let tally = gate.tally
    context.queueMilliseconds = Self.milliseconds(tally.waited)
    context.runMilliseconds = Self.milliseconds(tally.ran)
    refund(max(0, request.plannedRuns - tally.runs), context: &context)
    if let refusal = tally.refusal { throw refusal }
    let language = context.language ?? request.ask.language
    switch graded {
    case .success(let result):
      context.runStatus = result.verdict.rawValue
      let details = result.tests.filter { !$0.operatorDetail.isEmpty }.map { "test \($0.name): \($0.operatorDetail)" }
      if !details.isEmpty { context.detail = details.joined(separator: "; ") }
      metrics.recordGrade(
        language: language, verdict: result.verdict.rawValue, testVerdicts: result.tests.map(\.verdict.rawValue),
        seconds: Self.seconds(tally.ran))
      return result
    case .failure(let error):
      if case .sandbox(let failure) = error {
        context.runStatus = Status.internalError.rawValue
        context.detail = failure.description
        metrics.recordGrade(
          language: language, verdict: Status.internalError.rawValue, testVerdicts: [], seconds: Self.seconds(tally.ran)
        )
      }
      throw redacted(.from(error), context: &context)
    }
  }

  /// Where a live run runs: a live slot (a WebSocket session, which mostly waits for its learner's
  /// typing and is not counted against the CPU slots) or a box slot (an execute answered as events).
  enum LivePlacement: Sendable {
    case liveSlot
    /// `admitted` is called on the slot's thread once it has its slot, before the run starts.
    case boxSlot(admitted: @Sendable () -> Void)
  }

  /// Charges a live run and, for a live slot, takes it (503 when all are taken): what a session does
  /// once its token is settled and its request admitted, before it starts anything.
  func beginLive(context: inout RunContext, placement: LivePlacement) throws(APIError) {
    guard case .liveSlot = placement else { return try charge(1, context: &context) }
    // The slot first: a session turned away for want of one is charged nothing.
    guard liveSlots.acquire() else {
      throw .busy(
        "all \(liveSlots.limit) live sessions are taken; try again shortly",
        retryAfterSeconds: configuration.retryAfterSeconds)
    }
    do throws(APIError) {
      try charge(1, context: &context)
    } catch {
      liveSlots.release()
      throw error
    }
  }

  /// Runs an admitted request live (`Executor.executeLive`) where `beginLive` placed it, and gives
  /// back its live slot after. Every outcome is counted, failures too; an internal error comes back
  /// redacted. `events` must not block: the run's limits are enforced on the thread that calls it.
  func runLive(
    _ request: ExecuteRequest, options: LiveOptions, input: LiveInput, placement: LivePlacement,
    context: inout RunContext, events: @escaping @Sendable (LiveEvent) -> Void
  ) -> Result<ExecuteResult, APIError> {
    let language = context.language ?? request.language
    let started = ContinuousClock.now
    let executor = self.executor
    let ran: Result<ExecuteResult, ExecuteError>
    var elapsed: Duration
    switch placement {
    case .liveSlot:
      defer { liveSlots.release() }
      do throws(ExecuteError) {
        ran = .success(try executor.executeLive(request, options: options, input: input, events: events))
      } catch {
        ran = .failure(error)
      }
      elapsed = ContinuousClock.now - started
      context.runMilliseconds = Self.milliseconds(elapsed)
    case .boxSlot(let admitted):
      do throws(APIError) {
        (ran, elapsed) = try inSlot(context: &context) { () throws(ExecuteError) in
          admitted()
          return try executor.executeLive(request, options: options, input: input, events: events)
        }
      } catch {
        return .failure(error)
      }
    }
    switch ran {
    case .success(let result):
      let status = Self.statusWord(result)
      context.runStatus = status
      metrics.recordRun(language: language, status: status, seconds: Self.seconds(elapsed))
      return .success(result)
    case .failure(let error):
      if case .sandbox(let failure) = error {
        context.runStatus = Status.internalError.rawValue
        context.detail = context.detail ?? failure.description
        metrics.recordRun(language: language, status: Status.internalError.rawValue, seconds: Self.seconds(elapsed))
      }
      return .failure(redacted(.from(error), context: &context))
    }
  }

  /// Runs `work` on a box slot's thread, recording the wait and the run in `context`; 503 with
  /// Retry-After when no slot can be had. Returns what the work gave and how long it ran.
  func inSlot<Value: Sendable>(
    context: inout RunContext, _ work: @escaping @Sendable () throws(ExecuteError) -> Value
  ) throws(APIError) -> (Result<Value, ExecuteError>, Duration) {
    let waitStart = ContinuousClock.now
    let boxes = context.boxCancellation
    let startsInSlot = context.startsInSlot
    let (admission, ran) = queue.withSlot(timeout: configuration.queueTimeout, checksBudget: context.checksWaitBudget) {
      () -> (ContinuousClock.Instant, ContinuousClock.Instant, Result<Value, ExecuteError>)? in
      if let startsInSlot, !startsInSlot() { return nil }
      let started = ContinuousClock.now
      do throws(ExecuteError) {
        let value: Value
        if let boxes {
          value = try boxes.within { () throws(ExecuteError) in try work() }
        } else {
          value = try work()
        }
        return (started, ContinuousClock.now, .success(value))
      } catch {
        return (started, ContinuousClock.now, .failure(error))
      }
    }
    if let refusal = busyRefusal(admission) {
      context.queueMilliseconds = Self.milliseconds(ContinuousClock.now - waitStart)
      throw refusal
    }
    guard let ran else { throw redacted(.internalError("the work queue lost a run"), context: &context) }
    guard let (runStart, runEnd, outcome) = ran else {
      throw .busy("the stored job is not to start after all", retryAfterSeconds: configuration.retryAfterSeconds)
    }
    context.queueMilliseconds = Self.milliseconds(runStart - waitStart)
    context.runMilliseconds = Self.milliseconds(runEnd - runStart)
    if case .failure(.sandbox(let failure)) = outcome {
      context.runStatus = Status.internalError.rawValue
      context.detail = failure.description
    }
    return (outcome, runEnd - runStart)
  }

  /// The 503 a refused admission is answered with; nil when it was admitted.
  func busyRefusal(_ admission: WorkQueue.Admission) -> APIError? {
    switch admission {
    case .admitted: return nil
    case .full:
      return .busy(
        "all \(queue.slots) box slots are busy and \(queue.maximumWaiting) requests are waiting; try again shortly",
        retryAfterSeconds: configuration.retryAfterSeconds)
    case .overBudget(let estimate):
      let budget = configuration.queueWaitBudget ?? .zero
      // Come back when the line ahead should have drained to within the budget.
      let excess = Int((Self.seconds(estimate - budget)).rounded(.up))
      return .busy(
        "the estimated wait for a box slot is \(Self.format(seconds: estimate)), over this server's budget of "
          + "\(Self.format(seconds: budget)); try again shortly",
        retryAfterSeconds: max(configuration.retryAfterSeconds, excess))
    case .timedOut:
      return .busy(
        "no box slot became free within \(configuration.queueTimeout); try again shortly",
        retryAfterSeconds: configuration.retryAfterSeconds)
    }
  }

  // MARK: Errors

  /// The error a caller may see: an internal error's text (it may name host paths, cgroups, config
  /// files) goes to the operator's log through `context`, and the caller gets a plain sentence with
  /// the request id to quote. Every doorway's 500 goes through here.
  public func redacted(_ error: APIError, context: inout RunContext) -> APIError {
    guard error.status == .internalServerError else { return error }
    context.detail = context.detail ?? error.message
    var answer = APIError.internalError(Self.internalErrorSentence(requestID: context.requestID))
    answer.headers = error.headers
    return answer
  }

  /// What every doorway tells a caller of an internal error.
  public static func internalErrorSentence(requestID: String) -> String {
    "the server could not carry out this request; its operators can find why under request id \(requestID)"
  }

  // MARK: Log and metrics

  /// Writes the log line of a request (or a live session, or a stored job's failure).
  func log(_ context: RunContext, method: String, status: Int, error: String?, totalMilliseconds: Double) {
    guard let sink = configuration.logSink else { return }
    sink(
      RequestLogEntry(
        id: context.requestID, time: LogTime.now(), method: method, route: context.route, status: status,
        error: error, language: context.language, runStatus: context.runStatus,
        queueMilliseconds: context.queueMilliseconds, runMilliseconds: context.runMilliseconds,
        totalMilliseconds: totalMilliseconds, detail: context.detail,
        tokenDigest: context.tokenDigest ?? (context.token.isEmpty ? nil : RequestLogEntry.tokenDigest(context.token)),
        client: context.client))
  }

  /// The gauges of the slots, the line, the compile cache, the warm boxes and the live slots.
  func metricsText(_ writer: inout PrometheusText) {
    // As the warm boxes' counts wait for the resets begun before, the figures wait for the used
    // pre-warmed boxes to be gone: what /metrics shows has no run's box left behind.
    PrewarmedBox.awaitDestroyed()
    metrics.write(
      &writer, queueDepth: queue.depth, boxesInFlight: queue.inFlight, cacheHits: executor.cache?.hits ?? 0,
      cacheMisses: executor.cache?.misses ?? 0,
      boxDiscards: Dictionary(
        uniqueKeysWithValues: executor.environments.discardCounts.map { ($0.key.rawValue, $0.value) }))
    writer.gauge(
      "dsa_run_queue_estimated_wait_seconds",
      help: "The wait a request arriving now is estimated to have for a box slot.",
      Self.seconds(queue.estimatedWait))
    writer.gauge(
      "dsa_run_queue_recent_run_seconds", help: "The moving average of how long a job held its box slot.",
      Self.seconds(queue.recentRunTime))
    writer.gauge(
      "dsa_run_live_sessions", help: "Live runs (/v1/connect, /api/v2/connect) holding a live slot.",
      Double(liveSlots.inUse))
    writer.gauge(
      "dsa_run_live_sessions_limit", help: "Live runs allowed at once (live_sessions).", Double(liveSlots.limit))
    prewarmMetricsText(&writer)
  }

  // MARK: Units

  /// The status word a run ends with: the compile's when it stopped there.
  static func statusWord(_ result: ExecuteResult) -> String {
    if let run = result.run { return run.status.rawValue }
    return result.compile?.status.rawValue ?? Status.internalError.rawValue
  }

  static func milliseconds(_ duration: Duration) -> Double {
    (seconds(duration) * 1_000_000).rounded() / 1000
  }

  static func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) + Double(fraction) / 1e18
  }

  static func format(seconds duration: Duration) -> String {
    String(format: "%.1f s", seconds(duration))
  }
}

/// A grade's boxes, each in a box slot of its own (`Executor.gated(by:)`): the first waits in line as
/// any request does (the wait budget, the queue timeout), the later ones until the grade's deadline.
/// A first box refused leaves the refusal for the grade to answer (503); later boxes that find no
/// slot in time are `notStarted`, which the grader reports as tests not run.
private final class SlotGate: RunGate {
  struct Tally: Sendable {
    var runs = 0
    var waited = Duration.zero
    var ran = Duration.zero
    var refusal: APIError?
    var first = true
  }

  private let service: RunService
  private let checksWaitBudget: Bool
  private let boxes: BoxCancellation?
  private let startsInSlot: (@Sendable () -> Bool)?
  private let deadline: ContinuousClock.Instant
  private let state = Mutex(Tally())

  private let admitted: (@Sendable () -> Void)?

  init(
    service: RunService, context: RunContext, deadline: ContinuousClock.Instant, admitted: (@Sendable () -> Void)?
  ) {
    self.admitted = admitted
    self.service = service
    checksWaitBudget = context.checksWaitBudget
    boxes = context.boxCancellation
    startsInSlot = context.startsInSlot
    self.deadline = deadline
  }

  var tally: Tally { state.withLock { $0 } }

  func run<Value: Sendable>(_ work: @escaping @Sendable () throws(ExecuteError) -> Value) throws(ExecuteError)
    -> Value
  {
    try run(boxCount: 1, work)
  }

  /// An interactive test's two boxes share one slot and count as two runs (both were charged).
  func run<Value: Sendable>(boxCount: Int, _ work: @escaping @Sendable () throws(ExecuteError) -> Value)
    throws(ExecuteError) -> Value
  {
    let first = state.withLock { tally -> Bool? in
      guard tally.refusal == nil else { return nil }
      defer { tally.first = false }
      return tally.first
    }
    guard let first else { throw .notStarted("this server is too busy to run it now") }
    let timeout = first ? service.configuration.queueTimeout : max(.zero, deadline - .now)
    let waitStart = ContinuousClock.now
    let boxes = self.boxes
    let startsInSlot = first ? self.startsInSlot : nil
    let admitted = first ? self.admitted : nil
    let (admission, ran) = service.queue.withSlot(timeout: timeout, checksBudget: first && checksWaitBudget) {
      () -> (Duration, Duration, Result<Value, ExecuteError>)? in
      if let startsInSlot, !startsInSlot() { return nil }
      admitted?()
      let started = ContinuousClock.now
      let result: Result<Value, ExecuteError>
      do throws(ExecuteError) {
        if let boxes {
          result = .success(try boxes.within { () throws(ExecuteError) in try work() })
        } else {
          result = .success(try work())
        }
      } catch {
        result = .failure(error)
      }
      return (started - waitStart, ContinuousClock.now - started, result)
    }
    if let refusal = service.busyRefusal(admission) {
      if first { state.withLock { $0.refusal = refusal } }
      throw .notStarted("no box slot became free before the grade's bound")
    }
    guard let ran, let (waited, running, result) = ran else {
      let refusal = APIError.busy(
        "the stored job is not to start after all", retryAfterSeconds: service.configuration.retryAfterSeconds)
      state.withLock { $0.refusal = refusal }
      throw .notStarted("the job is not to start after all")
    }
    state.withLock { tally in
      tally.runs += boxCount
      tally.waited += waited
      tally.ran += running
    }
    return try result.get()
  }
}
