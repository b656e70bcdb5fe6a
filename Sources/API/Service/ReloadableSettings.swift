import Challenges
import Foundation
import Submissions
import Synchronization

/// What a running daemon takes again from its config on SIGHUP, without a restart: who may call
/// (tokens, their quotas, browser origins), what a run may ask for (limit maxima, the grade budget),
/// the challenge catalogue and how webhooks are sent. One immutable snapshot is in effect at a time
/// (`RunService.settings`); a request reads it as it goes, and a reload swaps in a whole new one.
///
/// `APIConfiguration` holds the values a router starts with; everything else in it (slots, the
/// line's bounds, the store, the routes served) lasts as long as the process.
public struct ReloadableSettings: Sendable {
  /// Accepted bearer tokens; empty means no authentication.
  public var bearerTokens: [String]
  /// Per-token run quotas; nil counts nothing. Counts of tokens that stay survive a reload.
  public var rateLimit: RateLimiter.Policy?
  /// What a request may ask for in `limits`.
  public var maxima: LimitMaxima
  /// The wall time a grade's tests share, milliseconds; nil is `maxima.wallMilliseconds`.
  public var gradeWallMilliseconds: UInt64?
  /// Origins whose pages may call the API from a browser; nil sends no CORS headers.
  public var crossOrigin: CrossOriginPolicy?
  /// The challenges a grade names by id.
  public var challenges: ChallengeCatalog
  /// How webhooks are sent; nil when the store sends none. Whether they are sent at all is fixed at
  /// start (the sender is started with the workers); how is reloaded.
  public var webhooks: WebhookSettings?

  /// The settings `configuration` starts with, and `challenges`.
  public init(_ configuration: APIConfiguration, challenges: ChallengeCatalog) {
    bearerTokens = configuration.bearerTokens
    rateLimit = configuration.rateLimit
    maxima = configuration.maxima
    gradeWallMilliseconds = configuration.gradeWallMilliseconds
    crossOrigin = configuration.crossOrigin
    self.challenges = challenges
    webhooks = configuration.submissions?.webhooks
  }

  /// The grade budget in effect.
  public var resolvedGradeWallMilliseconds: UInt64 { gradeWallMilliseconds ?? maxima.wallMilliseconds }
}

extension RunService {
  /// The tokens, quotas, maxima, origins, challenges and webhook settings in effect now. A request
  /// reads them as it goes; a reload (`replaceSettings`) never changes one snapshot.
  public var settings: ReloadableSettings { current.withLock { $0.settings } }

  /// The challenges a grade names by id, as now in effect.
  public var challenges: ChallengeCatalog { settings.challenges }

  /// The per-token run quotas in effect; nil when the settings set none.
  var rateLimiter: RateLimiter? { current.withLock { $0.rateLimiter } }

  /// Puts `settings` in effect for every request from now on. The quota counter is kept while a
  /// policy stays, with the counts of tokens still accepted (a reload hands nobody a fresh quota).
  public func replaceSettings(_ settings: ReloadableSettings) {
    current.withLock { current in
      var limiter = current.rateLimiter
      if let policy = settings.rateLimit {
        // Without tokens every caller shares the quota of "".
        let keeping = Set(settings.bearerTokens.isEmpty ? [""] : settings.bearerTokens)
        if let limiter {
          limiter.replacePolicy(policy, keeping: keeping)
        } else {
          limiter = RateLimiter(policy: policy)
        }
      } else {
        limiter = nil
      }
      current = (settings, limiter)
    }
  }
}
