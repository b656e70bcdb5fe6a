import API
import Challenges
import Dispatch
import Foundation
import Glibc
import HTTP
import Runners
import Sandbox
import SystemCore

/// One JSON object on one line of stderr, in one write(2) so lines never interleave.
func logLine(_ event: String, _ fields: [String: Any] = [:]) {
  var object = fields
  object["event"] = event
  object["time"] = LogTime.now()
  let data = ResultEncoder.data(object)
  let bytes = Array(data) + [0x0A]
  bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
}

/// Blocks SIGTERM, SIGINT and SIGHUP in this thread, and so in every thread started after it; they
/// are then read by a dispatch signal source (signalfd under libdispatch on Linux) instead of
/// interrupting whichever thread happens to run (SIGHUP's default would end the daemon on the spot,
/// undrained). Boxes reset their mask before execve.
func blockTerminationSignals() {
  var set = sigset_t()
  sigemptyset(&set)
  sigaddset(&set, SIGTERM)
  sigaddset(&set, SIGINT)
  sigaddset(&set, SIGHUP)
  pthread_sigmask(SIG_BLOCK, &set, nil)
  // A client that goes away mid-response must not kill the daemon.
  signal(SIGPIPE, SIG_IGN)
}

/// Whether systemd passed sockets to this very process (LISTEN_PID is ours).
func systemdPassedSockets() -> Bool {
  guard let pid = getenv("LISTEN_PID").flatMap({ Int32(String(cString: $0)) }) else { return false }
  return pid == getpid() && getenv("LISTEN_FDS") != nil
}

/// `--check-config`: the config, then every runner and policy file; one line per problem.
/// The OpenAPI document beside the data: docs/openapi.json in a source tree, openapi.json in an
/// install's data folder (scripts/install puts it there).
func openAPIDocumentPath() -> String? {
  guard let root = DataDirectories.locateRoot() else { return nil }
  return [root + "/docs/openapi.json", root + "/openapi.json"].first { FileManager.default.fileExists(atPath: $0) }
}

/// What an install without challenges is told, by `--check-config` and at start.
let noChallengesWarning =
  "no challenges found (a challenges/ folder beside runners/ and policies/, or under $DSA_RUN_DATA); "
  + "POST /v1/grade can grade only inline challenges"

func checkConfiguration(_ options: DaemonOptions) -> Never {
  let (_, configProblems) = options.loadConfiguration()
  var problems = configProblems
  var runnerCount = 0
  var policyNames: [String: SeccompPolicy] = [:]
  if let directory = DataDirectories.locate("policies") {
    do {
      policyNames = try SeccompCompiler.loadDirectory(directory)
    } catch {
      problems.append("policies (\(directory)): \(error)")
    }
  } else {
    problems.append("cannot find the policies/ folder (set DSA_RUN_DATA to the folder that holds it)")
  }
  if let directory = DataDirectories.locate("runners") {
    do {
      let catalog = try RunnerCatalog.load(directory: directory)
      for name in catalog.names {
        for runner in catalog.languages[name] ?? [] {
          runnerCount += 1
          if !policyNames.isEmpty && policyNames[runner.policy] == nil {
            problems.append(
              "runners (\(directory)): \(runner.language) \(runner.version) uses policy \"\(runner.policy)\", "
                + "which policies/ does not hold")
          }
        }
      }
    } catch {
      problems.append("runners (\(directory)): \(error)")
    }
  } else {
    problems.append("cannot find the runners/ folder (set DSA_RUN_DATA to the folder that holds it)")
  }
  var challengeCount = 0
  if let root = ChallengeCatalog.locateRoot() {
    let challenges = ChallengeCatalog.load(root: root)
    challengeCount = challenges.challenges.count
    problems += challenges.problems.map { "challenges (\(root)): \($0)" }
  }
  if let path = openAPIDocumentPath() {
    let document = FileManager.default.contents(atPath: path) ?? Data()
    if OpenAPIDocument.specialized(document, languages: [], maxima: LimitMaxima()) == nil {
      problems.append("\(path): not the OpenAPI document of this version (its request and limit schemas)")
    }
  } else {
    FileHandle.standardError.write(Data("dsa-rund: warning: no openapi.json in the data folder\n".utf8))
  }
  if challengeCount == 0 {
    // Not an error (inline challenges still grade), but an install that forgot challenges/ looks
    // exactly like this, and its learners would only see unknown_challenge.
    FileHandle.standardError.write(Data("dsa-rund: warning: \(noChallengesWarning)\n".utf8))
  }
  for problem in problems {
    FileHandle.standardError.write(Data("dsa-rund: \(problem)\n".utf8))
  }
  guard problems.isEmpty else { exit(1) }
  let source = FileManager.default.fileExists(atPath: options.configPath) ? options.configPath : "defaults"
  FileHandle.standardOutput.write(
    Data(
      ("dsa-rund: config OK (\(source)); \(runnerCount) runners, \(policyNames.count) policies, "
        + "\(challengeCount) challenges\n").utf8))
  exit(0)
}

/// Starts everything, serves until SIGTERM or SIGINT (reloading the config on SIGHUP), drains,
/// exits 0.
func runDaemon(_ configuration: DaemonConfiguration, options: DaemonOptions, sandbox: SandboxConfiguration) -> Never {
  let server: HTTPServer
  let pool: BoxPool
  var routerForStop: APIRouter?
  var reloader: ConfigurationReloader?
  do {
    let host = try SandboxHost(configuration: sandbox)
    guard let policiesDirectory = DataDirectories.locate("policies"),
      let runnersDirectory = DataDirectories.locate("runners")
    else {
      throw UsageError(
        "cannot find the runners/ and policies/ folders (set DSA_RUN_DATA to the folder that holds them)")
    }
    let policies = try SeccompCompiler.loadDirectory(policiesDirectory)
    let catalog = try RunnerCatalog.load(directory: runnersDirectory)
    if let directory = configuration.cacheDirectory {
      let problems = compileCacheProblems(directory)
      if !problems.isEmpty {
        throw UsageError("the compile cache must be private to the daemon: \(problems.joined(separator: "; "))")
      }
    }
    let cache = try configuration.cacheDirectory.map {
      try CompileCache(directory: $0, maximumBytes: UInt64(configuration.cacheSizeMegabytes) << 20)
    }
    pool = BoxPool(host: host, maximumIdlePerLayout: configuration.resolvedSlots)
    // Without a cgroup a run's CPU time cannot be counted from a handover: no pre-warmed boxes.
    let prewarmSizes = host.cgroups.mode == .rlimitOnly ? [:] : configuration.resolvedPrewarmSizes
    if host.cgroups.mode == .rlimitOnly && !configuration.resolvedPrewarmSizes.isEmpty {
      logLine(
        "warning", ["message": "prewarm is off in rlimit-only mode (no cgroup to count CPU time from a handover)"])
    }
    let executor = Executor(
      environments: pool, catalog: catalog, policies: policies, cache: cache,
      versionCache: VersionCache(directory: configuration.workRoot + "/versions"),
      prewarm: prewarmSizes.isEmpty ? nil : PrewarmRuns(host: host, sizes: prewarmSizes))
    // Every answer names its toolchain's version: probed now (or read back), so no request waits.
    executor.probeAllVersions()
    // A broken challenge is logged and left out; it never stops the daemon or gets graded.
    let challenges =
      ChallengeCatalog.locateRoot().map { ChallengeCatalog.load(root: $0, deferringTestFiles: true) }
      ?? ChallengeCatalog()
    for problem in challenges.problems { logLine("warning", ["message": "challenge left out: \(problem)"]) }
    if challenges.challenges.isEmpty { logLine("warning", ["message": noChallengesWarning]) }
    var apiConfiguration = configuration.apiConfiguration(logSink: RequestLog.standardError)
    apiConfiguration.openAPIDocument = openAPIDocumentPath().flatMap { FileManager.default.contents(atPath: $0) }
    if apiConfiguration.openAPIDocument == nil {
      logLine("warning", ["message": "no openapi.json in the data folder: GET /v1/openapi.json answers 404"])
    }
    do {
      apiConfiguration.submissions = try configuration.submissions.settings(
        slots: configuration.resolvedSlots, maximumConnections: configuration.maxConnections)
      apiConfiguration.judge0 = configuration.judge0.settings(maximumConnections: configuration.maxConnections)
    } catch {
      throw UsageError("cannot open the submission store: \(error)")
    }
    let fromSystemd = systemdPassedSockets()
    apiConfiguration.page = pageSite(configuration, tcpServed: fromSystemd || !configuration.listen.isEmpty)
    let router = APIRouter(executor: executor, configuration: apiConfiguration, challenges: challenges)
    routerForStop = router
    reloader = ConfigurationReloader(options: options, router: router, started: configuration, challenges: challenges)
    let listeners = fromSystemd ? [HTTPServer.Listener.systemd] : configuration.listeners
    // Boxes run on the router's slot threads (WorkQueue), which live as long as the daemon; the
    // connection threads only parse, decode, wait and encode.
    server = HTTPServer(
      configuration: configuration.serverConfiguration(listeners: listeners, ownAnswerObserver: router.ownAnswer),
      handler: router.handle)
    try server.start()
    router.startSubmissionWorkers()
    router.service.startPrewarming()
    logLine(
      "started",
      [
        "pid": Int(getpid()), "version": BuildIdentity.version, "build": BuildIdentity.build,
        "addresses": server.addresses, "systemd_sockets": fromSystemd,
        "cgroup_mode": host.cgroups.mode.rawValue, "work_root": configuration.workRoot,
        "slots": configuration.resolvedSlots, "queue_length": configuration.queueLength.map { $0 as Any } ?? NSNull(),
        "queue_wait_budget_s": configuration.queueWaitBudgetSeconds,
        "runtimes": catalog.names.count, "challenges": challenges.challenges.count,
        "compile_cache": configuration.cacheDirectory ?? NSNull(),
        "auth": configuration.bearerTokens.isEmpty ? "none" : "bearer",
        "submission_store": router.submissions?.store.kindName ?? NSNull(),
        "page": apiConfiguration.page != nil,
        "judge0_poll_hold_ms": apiConfiguration.judge0?.pollHoldMilliseconds ?? NSNull(),
        "prewarm": prewarmSizes,
      ])
  } catch let error as UsageError {
    logLine("error", ["message": error.message])
    exit(1)
  } catch {
    logLine("error", ["message": "cannot start: \(error)"])
    exit(1)
  }
  do {
    try HTTPServer.notifySystemdReady()
  } catch {
    logLine("warning", ["message": "cannot notify systemd: \(error)"])
  }

  let reloadOnHangUp = reloader
  let signalName = waitForTerminationSignal(onHangUp: { reloadOnHangUp?.reload() })
  let drain = DaemonConfiguration.duration(configuration.drainSeconds)
  logLine("stopping", ["signal": signalName, "drain_s": configuration.drainSeconds])
  _ = try? HTTPServer.notifySystemd(state: "STOPPING=1")
  // Stored jobs first: no new one starts, the running ones finish while GETs are still answered,
  // and the queued ones stay in the store for the next start.
  let drainStart = ContinuousClock.now
  let storedDrained = routerForStop?.stopSubmissionWorkers(drainingFor: drain) ?? true
  if !storedDrained {
    logLine("warning", ["message": "stored jobs still running after drain_s; their leases will lapse"])
  }
  server.stop(drainingFor: max(.zero, drain - (ContinuousClock.now - drainStart)))
  routerForStop?.service.stopPrewarming()
  pool.drain()
  logLine("stopped", ["open_connections": server.connectionCount])
  exit(0)
}

/// The playground page, when the config wants it, a browser can reach it (a Unix socket alone is
/// for programs), and the data folder has it; a missing page/ is logged, not fatal.
func pageSite(_ configuration: DaemonConfiguration, tcpServed: Bool) -> PageSite? {
  guard configuration.pageEnabled, tcpServed else { return nil }
  guard let directory = DataDirectories.locate("page") else {
    logLine("warning", ["message": "no page/ folder in the data folder: GET / answers 404"])
    return nil
  }
  var isDirectory: ObjCBool = false
  if !FileManager.default.fileExists(
    atPath: configuration.pageJavascriptDirectory + "/codemirror", isDirectory: &isDirectory)
  {
    logLine(
      "warning",
      [
        "message":
          "no codemirror/ in \(configuration.pageJavascriptDirectory): the page has no editor "
          + "(apt-get install libjs-codemirror libjs-marked libjs-chart.js)"
      ])
  }
  return PageSite(
    pageDirectory: directory, javascriptDirectory: configuration.pageJavascriptDirectory,
    frameAncestors: configuration.pageFrameAncestors)
}

/// Waits on a dedicated queue's signal sources for SIGTERM or SIGINT (blocked everywhere beforehand)
/// and returns its name; each SIGHUP meanwhile runs `onHangUp` on that queue, one at a time.
func waitForTerminationSignal(onHangUp: @escaping @Sendable () -> Void) -> String {
  let queue = DispatchQueue(label: "dsa-rund.signals")
  let received = DispatchSemaphore(value: 0)
  let name = SignalName()
  var sources: [any DispatchSourceSignal] = []
  for (number, text) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
    let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
    source.setEventHandler {
      if name.set(text) { received.signal() }
    }
    source.resume()
    sources.append(source)
  }
  let hangUp = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
  hangUp.setEventHandler {
    // A reload after the stop began would change settings under the drain; the stop wins.
    if name.value.isEmpty { onHangUp() }
  }
  hangUp.resume()
  sources.append(hangUp)
  received.wait()
  for source in sources { source.cancel() }
  return name.value
}

/// The first signal's name, set once from the signal queue.
private final class SignalName: @unchecked Sendable {
  private let lock = NSLock()
  private var name: String?

  /// Records `text` if nothing was recorded yet; true when it was.
  func set(_ text: String) -> Bool {
    lock.withLock {
      guard name == nil else { return false }
      name = text
      return true
    }
  }

  var value: String { lock.withLock { name ?? "" } }
}
