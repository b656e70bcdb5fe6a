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
    /// When the window the runs were taken from began (seconds on the clock `take` was given).
    public var windowStart: Double = 0
  }

  /// The policy's name in the headers.
  public static let policyName = "runs"

  private struct State {
    var policy: Policy
    var windows: [String: (start: Double, used: Int)] = [:]
  }

  private let state: Mutex<State>

  public init(policy: Policy) {
    state = Mutex(State(policy: policy))
  }

  /// The policy in effect.
  public var policy: Policy { state.withLock { $0.policy } }

  /// Puts `policy` in effect (a config reload). What the tokens in `keeping` used of their windows
  /// stays counted, against their new quota: a reload is no way to a fresh quota. Other tokens'
  /// counts are forgotten (a token no longer accepted cannot run).
  public func replacePolicy(_ policy: Policy, keeping: Set<String>) {
    state.withLock { state in
      state.policy = policy
      state.windows = state.windows.filter { keeping.contains($0.key) }
    }
  }

  /// Takes `cost` runs from `token`'s quota at `now` (seconds on a monotonic clock), or none when
  /// they do not all fit.
  public func take(token: String, cost: Int, now: Double) -> Decision {
    state.withLock { state in
      let quota = state.policy.tokenQuotas[token] ?? state.policy.quota
      let window = Double(state.policy.windowSeconds)
      var entry = state.windows[token] ?? (now, 0)
      if now - entry.start >= window { entry = (now, 0) }
      // Forget windows that have ended now and then, so tokens seen once do not stay forever.
      if state.windows.count > 4096 { state.windows = state.windows.filter { now - $0.value.start < window } }
      let allowed = entry.used + cost <= quota
      if allowed { entry.used += cost }
      state.windows[token] = entry
      let reset = max(1, Int((entry.start + window - now).rounded(.up)))
      return Decision(
        allowed: allowed, quota: quota, remaining: max(0, quota - entry.used), resetSeconds: reset,
        windowStart: entry.start)
    }
  }

  /// Gives back `cost` runs taken by the check that answered `charged`, if that window still runs (a
  /// grade charged its planned runs and made fewer); the decision as it stands after, or nil when
  /// the window has ended since (its runs came back with the new one).
  public func giveBack(token: String, cost: Int, chargedIn charged: Decision) -> Decision? {
    state.withLock { state in
      guard var entry = state.windows[token], entry.start == charged.windowStart else { return nil }
      entry.used = max(0, entry.used - cost)
      state.windows[token] = entry
      return Decision(
        allowed: charged.allowed, quota: charged.quota, remaining: max(0, charged.quota - entry.used),
        resetSeconds: charged.resetSeconds, windowStart: entry.start)
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
