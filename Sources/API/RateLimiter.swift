import Foundation
import HTTP
import Synchronization
import SystemCore

/// Per-token quotas on runs: each bearer token may start `quota` runs (an execute, a grade, a stored
/// submission, each item of a batch) per window of `windowSeconds`; past it, 429 with Retry-After.
/// Reads (polling a submission, runtimes, metrics) are not counted.
///
/// Answers carry the IETF httpapi draft's structured fields (draft-ietf-httpapi-ratelimit-headers,
/// revision 08 and later): `RateLimit-Policy: "runs";q=QUOTA;w=WINDOW` and
/// `RateLimit: "runs";r=REMAINING;t=SECONDS_TO_RESET`. Fixed windows that start at a token's first
/// run: a client sees exactly when its quota comes back, and one map entry per token is all the
/// state (several daemons behind a balancer each count on their own: the quota is per daemon).
public final class RateLimiter: Sendable {
  /// The quota every token gets, and the tokens with their own.
  public struct Policy: Sendable, Equatable {
    /// Runs per window.
    public var quota: Int
    public var windowSeconds: Int
    /// Quotas by bearer token, for tokens that get another.
    public var tokenQuotas: [String: Int] = [:]

    public init(quota: Int, windowSeconds: Int) {
      self.quota = quota
      self.windowSeconds = windowSeconds
    }
  }

  /// What one check found: the fields of the two headers.
  public struct Decision: Sendable, Equatable {
    public var allowed: Bool
    public var quota: Int
    public var remaining: Int
    /// Seconds until the window ends and the quota is whole again.
    public var resetSeconds: Int
  }

  /// The policy's name in the headers.
  public static let policyName = "runs"

  public let policy: Policy
  private let windows = Mutex<[String: (start: Double, used: Int)]>([:])

  public init(policy: Policy) {
    self.policy = policy
  }

  /// Takes `cost` runs from `token`'s quota at `now` (seconds on a monotonic clock), or none when
  /// they do not all fit.
  public func take(token: String, cost: Int, now: Double) -> Decision {
    let quota = policy.tokenQuotas[token] ?? policy.quota
    let window = Double(policy.windowSeconds)
    return windows.withLock { windows in
      var entry = windows[token] ?? (now, 0)
      if now - entry.start >= window { entry = (now, 0) }
      // Forget windows that have ended now and then, so tokens seen once do not stay forever.
      if windows.count > 4096 { windows = windows.filter { now - $0.value.start < window } }
      let allowed = entry.used + cost <= quota
      if allowed { entry.used += cost }
      windows[token] = entry
      let reset = max(1, Int((entry.start + window - now).rounded(.up)))
      return Decision(allowed: allowed, quota: quota, remaining: max(0, quota - entry.used), resetSeconds: reset)
    }
  }

  /// The two header fields of a decision.
  public static func headers(_ decision: Decision, windowSeconds: Int) -> [(String, String)] {
    [
      ("RateLimit-Policy", "\"\(policyName)\";q=\(decision.quota);w=\(windowSeconds)"),
      ("RateLimit", "\"\(policyName)\";r=\(decision.remaining);t=\(decision.resetSeconds)"),
    ]
  }
}

extension APIRouter {
  /// Takes `cost` runs from the caller's quota, noting the decision for the answer's headers;
  /// 429 with Retry-After (the seconds until the window ends) when they do not fit.
  func chargeRuns(_ cost: Int, _ request: HTTPRequest, trace: inout Trace) throws(APIError) {
    guard let rateLimiter else { return }
    let now = Double(monotonicMicroseconds()) / 1e6
    // Without configured tokens any Authorization field is ignored: a caller could otherwise pick a
    // fresh "token" per request. All callers then share one quota.
    let token = configuration.bearerTokens.isEmpty ? "" : (Self.bearerToken(request) ?? "")
    let decision = rateLimiter.take(token: token, cost: cost, now: now)
    trace.rateLimit = decision
    guard decision.allowed else {
      throw APIError(
        code: "rate_limited",
        message:
          "\(cost == 1 ? "this run" : "these \(cost) runs") would pass this token's quota of \(decision.quota) runs "
          + "per \(rateLimiter.policy.windowSeconds) s (\(decision.remaining) left); try again in "
          + "\(decision.resetSeconds) s",
        status: HTTPStatus(code: 429),
        headers: HTTPHeaders([(name: "Retry-After", value: String(decision.resetSeconds))]))
    }
  }

  /// The rate-limit fields for an answer to a request that was charged.
  func rateLimitHeaders(_ trace: Trace) -> [(String, String)] {
    guard let rateLimiter, let decision = trace.rateLimit else { return [] }
    return RateLimiter.headers(decision, windowSeconds: rateLimiter.policy.windowSeconds)
  }

  /// The admission gauges for `/metrics`: what the wait budget is compared with.
  func admissionMetricsText() -> String {
    var text = ""
    for (name, help, value) in [
      (
        "dsa_run_queue_estimated_wait_seconds", "The wait a request arriving now is estimated to have for a box slot.",
        queue.estimatedWait
      ),
      (
        "dsa_run_queue_recent_run_seconds", "The moving average of how long a job held its box slot.",
        queue.recentRunTime
      ),
    ] {
      let (whole, fraction) = value.components
      text += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n\(name) \(Double(whole) + Double(fraction) / 1e18)\n"
    }
    return text
  }

  /// The token of an `Authorization: Bearer TOKEN` field.
  static func bearerToken(_ request: HTTPRequest) -> String? {
    guard let field = request.headers["Authorization"] else { return nil }
    let parts = field.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return String(parts[1])
  }
}
