import API
import Foundation
import Submissions
import Wire

/// The config file's `submissions` object (docs/api.md "Submissions"): where accepted submissions
/// are stored and how they are run, kept and called back.
struct SubmissionsConfiguration: Equatable {
  /// nil or "sqlite": `submissions.sqlite3` in `stateDirectory`; "sqlite:/PATH": that file;
  /// "postgresql://...": a PostgreSQL database shared by every daemon that names it.
  var store: String?
  /// Where the default SQLite file lives (systemd's `StateDirectory=dsa-run`).
  var stateDirectory = "/var/lib/dsa-run"
  /// How long finished submissions are kept, seconds.
  var retentionSeconds = 86_400.0
  /// How long a daemon's claim on a running job lasts without renewal, seconds: after a crash, its
  /// jobs are run again this long after it died.
  var leaseSeconds = 15.0
  /// Items per batch and ids per `GET /v1/submissions?ids=`.
  var maxBatch = 20
  /// The longest `?wait=`, seconds.
  var maxWaitSeconds = 30.0
  /// Stored jobs this daemon runs at once; nil is the number of box slots.
  var workers: Int?
  /// Jobs claimed ahead for the next free worker; nil is `workers`. 0 claims only for idle workers
  /// (for many daemons sharing a queue of long jobs, none of which should wait behind another's).
  var claimAhead: Int?
  /// `callback_url` support; nil refuses callbacks.
  var webhooks: Webhooks?

  struct Webhooks: Equatable {
    var secret: String?
    var allow: [String] = []
    var timeoutSeconds = 5.0
    var tries = 3
    var backoffMilliseconds = 1000
    static let keys = ["secret", "allow", "timeout_s", "tries", "backoff_ms"]
  }

  static let keys = [
    "store", "state_dir", "retention_s", "lease_s", "max_batch", "max_wait_s", "workers", "claim_ahead", "webhooks",
  ]

  mutating func apply(_ object: StrictObject) {
    if let value = object.string("store") { store = value }
    if let value = object.string("state_dir") { stateDirectory = value }
    if let value = object.number("retention_s") { retentionSeconds = value }
    if let value = object.number("lease_s") { leaseSeconds = value }
    if let value = object.integer("max_batch", as: Int.self) { maxBatch = value }
    if let value = object.number("max_wait_s") { maxWaitSeconds = value }
    if let value = object.integer("workers", as: Int.self) { workers = value }
    if let value = object.integer("claim_ahead", as: Int.self) { claimAhead = value }
    if let inner = object.object("webhooks", keys: Webhooks.keys) {
      var hooks = Webhooks()
      if let value = inner.string("secret") { hooks.secret = value }
      if let value = inner.strings("allow") { hooks.allow = value }
      if let value = inner.number("timeout_s") { hooks.timeoutSeconds = value }
      if let value = inner.integer("tries", as: Int.self) { hooks.tries = value }
      if let value = inner.integer("backoff_ms", as: Int.self) { hooks.backoffMilliseconds = value }
      webhooks = hooks
    }
  }

  func problems() -> [String] {
    var problems: [String] = []
    if let store, store != "sqlite", !store.hasPrefix("sqlite:/"), !store.hasPrefix("postgresql://"),
      !store.hasPrefix("postgres://")
    {
      problems.append("submissions.store must be \"sqlite\", \"sqlite:/PATH\" or \"postgresql://...\"")
    }
    if !stateDirectory.hasPrefix("/") { problems.append("submissions.state_dir must be an absolute path") }
    if !(retentionSeconds >= 1) { problems.append("submissions.retention_s must be at least 1") }
    if !(leaseSeconds >= 1 && leaseSeconds <= 3600) { problems.append("submissions.lease_s must be from 1 to 3600") }
    if !(1...1000).contains(maxBatch) { problems.append("submissions.max_batch must be from 1 to 1000") }
    if !(maxWaitSeconds >= 0 && maxWaitSeconds <= 3600) {
      problems.append("submissions.max_wait_s must be from 0 to 3600")
    }
    if let workers, !(1...256).contains(workers) { problems.append("submissions.workers must be from 1 to 256") }
    if let claimAhead, !(0...256).contains(claimAhead) {
      problems.append("submissions.claim_ahead must be from 0 to 256")
    }
    if let webhooks {
      if webhooks.secret?.isEmpty == true { problems.append("submissions.webhooks.secret must not be empty") }
      for network in webhooks.allow where WebhookTarget.Network(network) == nil {
        problems.append("submissions.webhooks.allow: \"\(network)\" is not an address or ADDRESS/PREFIX")
      }
      if !(webhooks.timeoutSeconds > 0 && webhooks.timeoutSeconds <= 60) {
        problems.append("submissions.webhooks.timeout_s must be above 0 and at most 60")
      }
      if !(1...10).contains(webhooks.tries) { problems.append("submissions.webhooks.tries must be from 1 to 10") }
      if !(0...60_000).contains(webhooks.backoffMilliseconds) {
        problems.append("submissions.webhooks.backoff_ms must be from 0 to 60000")
      }
    }
    return problems
  }

  /// Opens the store (creating the state directory for the default file) and gathers the knobs.
  func settings(slots: Int, maximumConnections: Int) throws(StoreError) -> SubmissionSettings {
    let store: any SubmissionStore
    if let url = self.store, url.hasPrefix("postgres") {
      store = try PostgresStore(connectionString: url)
    } else {
      var path = stateDirectory + "/submissions.sqlite3"
      if let given = self.store, given.hasPrefix("sqlite:") { path = String(given.dropFirst("sqlite:".count)) }
      let directory = (path as NSString).deletingLastPathComponent
      do {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw StoreError("create \(directory)", "\(error)")
      }
      store = try SQLiteStore(path: path)
    }
    var workerSettings = SubmissionWorkers.Settings(workers: workers ?? slots, claimAhead: claimAhead)
    workerSettings.waitsInSlotLine = workerSettings.workers >= slots
    workerSettings.leaseMilliseconds = Int64(leaseSeconds * 1000)
    if store is PostgresStore { workerSettings.resultLingerMilliseconds = 20 }
    workerSettings.retentionMilliseconds = Int64(retentionSeconds * 1000)
    // Often enough that a short retention (tests, small disks) is honoured within a fraction of it.
    workerSettings.purgeIntervalMilliseconds = min(60_000, max(250, workerSettings.retentionMilliseconds / 4))
    var settings = SubmissionSettings(store: store, workers: workerSettings)
    settings.maximumBatch = maxBatch
    settings.maximumWaitSeconds = maxWaitSeconds
    settings.maximumWaiting = heldRequestBound(maximumConnections: maximumConnections)
    settings.webhooks = webhookSettings
    return settings
  }

  /// How webhooks are sent, as the sender takes it; nil when none are.
  var webhookSettings: WebhookSettings? {
    guard let webhooks else { return nil }
    var hooks = WebhookSettings()
    hooks.secret = webhooks.secret
    hooks.allowedNetworks = webhooks.allow.compactMap(WebhookTarget.Network.init)
    hooks.timeoutMilliseconds = Int(webhooks.timeoutSeconds * 1000)
    hooks.tries = webhooks.tries
    hooks.backoffMilliseconds = webhooks.backoffMilliseconds
    return hooks
  }
}

/// How many requests of one kind may be held open waiting for a result (Judge0 polls held, or
/// `?wait=` and `wait=true` waits): a quarter of the connections, so with both kinds at their bound
/// half of them stay for everything else.
func heldRequestBound(maximumConnections: Int) -> Int { max(1, maximumConnections / 4) }
