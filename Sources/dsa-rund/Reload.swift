import API
import Challenges
import Foundation

/// SIGHUP (`systemctl reload`): the config file is read again, with the same strict reader and the
/// same flags over it, and what can change without a restart is put in effect for the next request
/// (`ReloadableSettings`). A config with problems changes nothing: they are logged
/// (`reload_failed`) and the daemon goes on as it was. Other changed keys are logged as needing a
/// restart and keep their old values. Runs on the signal queue, one reload at a time.
final class ConfigurationReloader: @unchecked Sendable {
  private let options: DaemonOptions
  private let router: APIRouter
  /// The configuration in effect: the start's, with every reload's reloadable keys laid over it.
  /// Only the signal queue touches it.
  private var inEffect: DaemonConfiguration
  private var challenges: ChallengeCatalog

  init(options: DaemonOptions, router: APIRouter, started: DaemonConfiguration, challenges: ChallengeCatalog) {
    self.options = options
    self.router = router
    inEffect = started
    self.challenges = challenges
  }

  /// The keys a reload puts in effect, each with how to tell it changed and how to take it over.
  private static let reloadableKeys:
    [(name: String, reload: @Sendable (inout DaemonConfiguration, DaemonConfiguration) -> Bool)] = [
      ("bearer_tokens", take(\.bearerTokens)), ("rate_limit", take(\.rateLimit)), ("limits", take(\.maxima)),
      ("grade_wall_ms", take(\.gradeWallMilliseconds)), ("cors_origins", take(\.corsOrigins)),
    ]

  /// The keys that only a restart puts in effect.
  private static let restartKeys: [(name: String, same: @Sendable (DaemonConfiguration, DaemonConfiguration) -> Bool)] =
    [
      ("listen", same(\.listen)), ("unix_socket", same(\.unixSocket)), ("unix_socket_mode", same(\.unixSocketMode)),
      ("work_root", same(\.workRoot)), ("cache_dir", same(\.cacheDirectory)),
      ("cache_size_mb", same(\.cacheSizeMegabytes)), ("cgroup_mode", same(\.cgroupMode)),
      ("cgroup_path", same(\.cgroupPath)), ("slots", same(\.slots)), ("queue_length", same(\.queueLength)),
      ("queue_wait_budget_s", same(\.queueWaitBudgetSeconds)), ("queue_timeout_s", same(\.queueTimeoutSeconds)),
      ("retry_after_s", same(\.retryAfterSeconds)), ("expose_compile_cache", same(\.exposeCompileCache)),
      ("max_body_bytes", same(\.maxBodyBytes)), ("read_timeout_s", same(\.readTimeoutSeconds)),
      ("idle_timeout_s", same(\.idleTimeoutSeconds)), ("write_timeout_s", same(\.writeTimeoutSeconds)),
      ("max_connections", same(\.maxConnections)), ("drain_s", same(\.drainSeconds)),
      ("submissions", { withoutWebhooks($0.submissions) == withoutWebhooks($1.submissions) }),
      ("page", { $0.pageEnabled == $1.pageEnabled && $0.pageJavascriptDirectory == $1.pageJavascriptDirectory }),
      ("live_sessions", same(\.liveSessions)), ("live_idle_s", same(\.liveIdleSeconds)),
      ("live_stall_s", same(\.liveStallSeconds)), ("live_wall_s", same(\.liveWallSeconds)),
      ("judge0", same(\.judge0)), ("piston", same(\.pistonEnabled)), ("prewarm", same(\.prewarmSizes)),
    ]

  private static func take<Value: Equatable & Sendable>(
    _ path: WritableKeyPath<DaemonConfiguration, Value> & Sendable
  ) -> @Sendable (inout DaemonConfiguration, DaemonConfiguration) -> Bool {
    { current, loaded in
      guard current[keyPath: path] != loaded[keyPath: path] else { return false }
      current[keyPath: path] = loaded[keyPath: path]
      return true
    }
  }

  private static func same<Value: Equatable & Sendable>(
    _ path: KeyPath<DaemonConfiguration, Value> & Sendable
  ) -> @Sendable (DaemonConfiguration, DaemonConfiguration) -> Bool {
    { $0[keyPath: path] == $1[keyPath: path] }
  }

  private static func withoutWebhooks(_ submissions: SubmissionsConfiguration) -> SubmissionsConfiguration {
    var submissions = submissions
    submissions.webhooks = nil
    return submissions
  }

  /// Reads the config again and puts what it can in effect; logs what happened.
  func reload() {
    let (loaded, problems) = options.loadConfiguration()
    guard problems.isEmpty else {
      logLine(
        "reload_failed",
        [
          "message": "the config has problems; nothing was reloaded and the daemon runs on as it was",
          "problems": problems,
        ])
      return
    }
    var next = inEffect
    var changed = Self.reloadableKeys.filter { $0.reload(&next, loaded) }.map(\.name)
    var needRestart = Self.restartKeys.filter { !$0.same(inEffect, loaded) }.map(\.name)
    // How webhooks are sent reloads; whether any are sent is fixed by the sender started or not.
    switch (inEffect.submissions.webhooks, loaded.submissions.webhooks) {
    case (let old?, let new?) where old != new:
      next.submissions.webhooks = new
      changed.append("submissions.webhooks")
    case (nil, .some), (.some, nil): needRestart.append("submissions.webhooks")
    default: break
    }
    let reloadedChallenges =
      ChallengeCatalog.locateRoot().map { ChallengeCatalog.load(root: $0, deferringTestFiles: true) }
      ?? ChallengeCatalog()
    for problem in reloadedChallenges.problems where !challenges.problems.contains(problem) {
      logLine("warning", ["message": "challenge left out: \(problem)"])
    }
    if reloadedChallenges.ids != challenges.ids || reloadedChallenges.problems != challenges.problems {
      changed.append("challenges")
    }
    var settings = ReloadableSettings(next.apiConfiguration(logSink: nil), challenges: reloadedChallenges)
    settings.webhooks = next.submissions.webhookSettings
    router.replaceSettings(settings)
    inEffect = next
    challenges = reloadedChallenges
    logLine(
      "reloaded",
      ["changed": changed, "challenges": reloadedChallenges.challenges.count, "restart_needed": needRestart])
    if !needRestart.isEmpty {
      logLine(
        "warning",
        [
          "message":
            "changed in the config but in effect only after a restart (the old values stay until then): "
            + needRestart.joined(separator: ", ")
        ])
    }
  }
}
