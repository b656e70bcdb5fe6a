import Foundation

/// The API's knobs, with the defaults the daemon uses when its config file leaves them out.
public struct APIConfiguration: Sendable {
  /// Executions at once (box slots); default one per active processor.
  public var slots: Int
  /// Requests that may wait for a slot at most, whatever their estimated wait; nil (the default)
  /// leaves only the wait budget and the HTTP server's connection cap to bound the line.
  public var maximumQueued: Int?
  /// The longest estimated wait a request is admitted with (its place in line times the recent run
  /// time per slot); past it, 503 with Retry-After. Default 5 s; nil admits up to `maximumQueued`.
  public var queueWaitBudget: Duration? = .seconds(5)
  /// The longest a request waits in line before it is answered 503; default 10 s.
  public var queueTimeout: Duration = .seconds(10)
  /// The `Retry-After` sent with 503 busy, seconds; default 1.
  public var retryAfterSeconds = 1
  /// What a request may ask for in `limits`, and what a grade's tests get at most.
  public var maxima = LimitMaxima()
  /// The wall time all of one grade's tests (and custom checker runs) share, milliseconds; nil is the
  /// execute wall maximum, so a grade holds its slot no longer than the longest execute (compile +
  /// wall). Tests not started within it are `skipped`.
  public var gradeWallMilliseconds: UInt64?
  /// Whether results say `compile_cache: "hit"`. Off, a client cannot tell whether someone else
  /// compiled exactly this source: a successful compile reads as `"none"` with `compile` null,
  /// cached or not (failed compiles are never cached, so they are shown as they are).
  public var exposeCompileCache = false
  /// The largest execute body, bytes; default 1 MiB (the HTTP server's own limit should not be
  /// smaller, or it answers first with a plain-text 413).
  public var maximumBodyBytes = 1 << 20
  /// Accepted bearer tokens; empty means no authentication. `/healthz` is always open.
  public var bearerTokens: [String] = []
  /// Where request log lines go; nil logs nothing.
  public var logSink: RequestLogSink?
  /// The shipped docs/openapi.json, served at `GET /v1/openapi.json` with this server's languages and
  /// maxima filled in (`OpenAPIDocument`); nil serves 404 there.
  public var openAPIDocument: Data?
  /// Per-token quotas on runs (`RateLimiter`); nil counts nothing.
  public var rateLimit: RateLimiter.Policy?
  /// Stored submissions (`/v1/submissions`): the store and its knobs; nil serves 404 there.
  public var submissions: SubmissionSettings?
  /// Live runs (`GET /v1/connect`) at once, apart from the box slots: a live program mostly waits
  /// for its learner's typing, so it is not counted against the CPU slots; default 32.
  public var liveSessions = 32
  /// A live session with no message from its client and no output from its program for this long
  /// is told so and closed, its program killed; default 60 s.
  public var liveIdleTimeout: Duration = .seconds(60)
  /// A live run's wall ceiling, milliseconds, in place of the execute maximum (its CPU limit and
  /// the idle rule bound it while it waits for its learner); default 10 minutes, as the CLI's at a
  /// terminal, and at most the sandbox's live ceiling (`BoxLimits.liveCeilings`, an hour).
  public var liveWallMilliseconds: UInt64 = 600_000
  /// A live client whose output queue stays full this long (it takes nothing while its program
  /// waits to print) is closed and its program killed; default 30 s.
  public var liveStallTimeout: Duration = .seconds(30)
  /// Whether Piston v2 is served under /api/v2 (docs/compat.md); default on.
  public var pistonEnabled = true

  /// The playground page's files (`GET /`); nil serves none (404 there).
  public var page: PageSite?
  /// Origins whose pages may call the API from a browser; nil sends no CORS headers.
  public var crossOrigin: CrossOriginPolicy?

  /// The Judge0 CE routes (docs/compat.md); nil serves none. They need `submissions`.
  public var judge0: Judge0Settings?

  /// The Jobe REST API for Moodle CodeRunner (docs/compat.md, "Jobe"); nil serves none.
  public var jobe: JobeSettings?

  /// The grade budget in effect.
  public var resolvedGradeWallMilliseconds: UInt64 { gradeWallMilliseconds ?? maxima.wallMilliseconds }

  /// The defaults, with `slots` slots and a line bounded by the wait budget (and `maximumQueued`).
  public init(slots: Int = ProcessInfo.processInfo.activeProcessorCount, maximumQueued: Int? = nil) {
    self.slots = max(1, slots)
    self.maximumQueued = maximumQueued
  }
}
