import API
import Foundation
import HTTP
import Runners
import Sandbox
import Wire

/// Everything `dsa-rund` can be told, from its JSON config file (docs/api.md, config/dsa-rund.json)
/// and then its flags. Every value has its default here and its unit in its name.
struct DaemonConfiguration: Equatable {
  /// TCP addresses to listen on, "host:port" or "[v6]:port" (numeric; port 0 picks a free port).
  var listen = ["127.0.0.1:8080"]
  /// A Unix socket path to listen on as well (or instead, with `listen` empty).
  var unixSocket: String?
  /// Permission bits of that socket.
  var unixSocketMode = 0o660
  /// Where boxes are made (SandboxHost's work root).
  var workRoot = "/run/dsa-run"
  /// The compile cache; nil disables it.
  var cacheDirectory: String? = "/var/cache/dsa-run/compile"
  /// The compile cache's size bound, MiB.
  var cacheSizeMegabytes = 512
  /// nil detects; else forces cgroup-v2, cgroup-v1 or rlimit.
  var cgroupMode: CgroupMode?
  /// A delegated cgroup2 directory for the box groups; nil detects.
  var cgroupPath: String?
  /// Box slots (executions at once); nil is one per active processor.
  var slots: Int?
  /// Requests that may wait for a slot at most; nil leaves the wait budget alone to bound the line.
  var queueLength: Int?
  /// The longest estimated wait for a slot a request is admitted with, seconds.
  var queueWaitBudgetSeconds = 5.0
  /// The longest a request waits for a slot before it is answered 503, seconds.
  var queueTimeoutSeconds = 10.0
  /// The Retry-After of 503 answers, seconds.
  var retryAfterSeconds = 1
  /// The most a request may ask for in `limits`.
  var maxima = LimitMaxima()
  /// The wall time all tests of one grade share, milliseconds; nil is `maxima.wallMilliseconds`.
  var gradeWallMilliseconds: Int?
  /// Whether results tell a compile-cache hit (`compile_cache: "hit"`) to every client.
  var exposeCompileCache = false
  /// The largest request body, bytes.
  var maxBodyBytes = 1 << 20
  /// How long a request may take to arrive once its first byte has, seconds.
  var readTimeoutSeconds = 10.0
  /// How long a connection may wait for its next request, seconds.
  var idleTimeoutSeconds = 15.0
  /// How long one response may take to be written, seconds.
  var writeTimeoutSeconds = 10.0
  /// Open connections at most.
  var maxConnections = 256
  /// Accepted bearer tokens; empty means no authentication.
  var bearerTokens: [String] = []
  /// How long SIGTERM waits for in-flight requests, seconds.
  var drainSeconds = 30.0
  /// Per-token run quotas (`rate_limit`); nil counts nothing.
  var rateLimit: RateLimiter.Policy?
  /// Stored submissions: the store and its knobs (SubmissionsConfiguration).
  var submissions = SubmissionsConfiguration()
  /// Whether `GET /` serves the playground page (never when only a Unix socket is served).
  var pageEnabled = true
  /// Where Debian's libjs-codemirror, libjs-marked and libjs-chart.js put their files.
  var pageJavascriptDirectory = "/usr/share/javascript"
  /// Origins whose pages may show the playground in a frame; empty allows none.
  var pageFrameAncestors: [String] = []
  /// Origins whose pages may call the API from a browser (CORS); empty sends no CORS headers.
  var corsOrigins: [String] = []
  /// Live runs (`/v1/connect`) at once, apart from the box slots.
  var liveSessions = 32
  /// How long a live session may go without a message from its client or output from its program, seconds.
  var liveIdleSeconds = 60.0
  var liveStallSeconds = 30.0
  var liveWallSeconds = 600.0
  /// The Judge0 CE routes (Judge0Configuration).
  var judge0 = Judge0Configuration()
  /// Piston v2 under /api/v2 (`piston: {"enabled": bool}`).
  var pistonEnabled = true
  /// The Jobe REST API for Moodle CodeRunner (JobeConfiguration).
  var jobe = JobeConfiguration()
  /// Pre-warmed boxes per language (`prewarm`); nil is the default (`resolvedPrewarmSizes`).
  var prewarmSizes: [String: Int]?

  static let defaultPath = "/etc/dsa-run/dsa-rund.json"

  /// The keys of the file, in documentation order. Keys starting with "//" are comments.
  static let keys = [
    "listen", "unix_socket", "unix_socket_mode", "work_root", "cache_dir", "cache_size_mb", "cgroup_mode",
    "cgroup_path", "slots", "queue_length", "queue_wait_budget_s", "queue_timeout_s", "retry_after_s", "limits",
    "max_body_bytes",
    "read_timeout_s", "idle_timeout_s", "write_timeout_s", "max_connections", "bearer_tokens", "drain_s",
    "grade_wall_ms", "expose_compile_cache", "rate_limit", "submissions", "live_sessions", "live_idle_s",
    "live_stall_s", "live_wall_s", "page",
    "cors_origins", "judge0", "piston", "jobe", "prewarm",
  ]
  /// The languages `prewarm` may name (every runner's); only those with a launcher may be above 0.
  static let prewarmLanguages = ["c", "cpp", "dart", "go", "java", "javascript", "kotlin", "python"]
  /// The most pre-warmed boxes a language may keep: each holds a started runtime's memory.
  static let maximumPrewarmPerLanguage = 8
  static let pageKeys = ["enabled", "javascript_dir", "frame_ancestors"]
  static let rateLimitKeys = ["runs", "window_s", "tokens"]
  /// The bounds of `grade_wall_ms`: below the shortest test the grader starts, nothing could run; an
  /// hour is far past any grade a learner waits for.
  static let gradeWallRange = 100...3_600_000
  static let limitKeys = ["cpu_ms", "wall_ms", "memory_mb", "output_kb", "processes"]

  var resolvedSlots: Int { max(1, slots ?? ProcessInfo.processInfo.activeProcessorCount) }

  /// The pre-warmed boxes per language: as asked, or by default one Java box, none with one slot
  /// (a refill there would take the only slot).
  var resolvedPrewarmSizes: [String: Int] {
    if let prewarmSizes { return prewarmSizes.filter { $0.value > 0 } }
    return resolvedSlots > 1 ? ["java": 1] : [:]
  }

  // MARK: Reading the file

  /// Reads `data` over the defaults; returns every problem found (unknown keys, wrong types), each
  /// as `path: message`. A null is the same as leaving the key out, except `cache_dir: null`, which
  /// turns the cache off; keys starting with "//" are comments.
  static func parse(_ data: Data) -> (DaemonConfiguration, [String]) {
    var configuration = DaemonConfiguration()
    let reader = StrictReader(nulls: .absent, allowsComments: true)
    if let value = reader.parse(data), let object = reader.object(value, at: "", keys: keys) {
      configuration.apply(object)
    }
    return (configuration, reader.problems.map(\.description))
  }

  private mutating func apply(_ file: StrictObject) {
    let reader = file.reader
    if let value = file.strings("listen") { listen = value }
    if let value = file.string("unix_socket") { unixSocket = value }
    if let text = file.string("unix_socket_mode") {
      if let mode = Int(text, radix: 8), (0...0o777).contains(mode) {
        unixSocketMode = mode
      } else {
        reader.report("unix_socket_mode", "must be octal digits such as \"0660\", got \"\(text)\"")
      }
    }
    if let value = file.string("work_root") { workRoot = value }
    if file.isNull("cache_dir") {
      cacheDirectory = nil
    } else if let value = file.string("cache_dir") {
      cacheDirectory = value
    }
    if let value = file.integer("cache_size_mb", as: Int.self) { cacheSizeMegabytes = value }
    if let text = file.string("cgroup_mode") {
      var problems: [String] = []
      cgroupMode = Self.cgroupMode(text, problems: &problems)
      for problem in problems { reader.report("cgroup_mode", problem) }
    }
    if let value = file.string("cgroup_path") { cgroupPath = value }
    if let value = file.integer("slots", as: Int.self) { slots = value }
    if let value = file.integer("queue_length", as: Int.self) { queueLength = value }
    if let value = file.number("queue_wait_budget_s") { queueWaitBudgetSeconds = value }
    if let value = file.number("queue_timeout_s") { queueTimeoutSeconds = value }
    if let value = file.integer("retry_after_s", as: Int.self) { retryAfterSeconds = value }
    if let limits = file.object("limits", keys: Self.limitKeys) {
      // A maximum above what the sandbox can ever give would only be refused run by run, later.
      let ceilings = BoxLimits.ceilings
      func read(_ key: String, _ field: WritableKeyPath<LimitMaxima, UInt64>, ceiling: UInt64, unit: String) {
        guard let value = limits.integer(key, as: Int64.self) else { return }
        if value < 1 {
          reader.report(limits.path(key), "must be at least 1", kind: .outOfRange)
        } else if UInt64(value) > ceiling {
          reader.report(
            limits.path(key), "is \(value); the sandbox allows at most \(ceiling)\(unit)", kind: .outOfRange)
        } else {
          maxima[keyPath: field] = UInt64(value)
        }
      }
      read("cpu_ms", \.cpuMilliseconds, ceiling: ceilings.cpuTimeMilliseconds, unit: " ms")
      read("wall_ms", \.wallMilliseconds, ceiling: ceilings.wallTimeMilliseconds, unit: " ms")
      read("memory_mb", \.memoryMegabytes, ceiling: ceilings.memoryBytes >> 20, unit: " MB")
      read("output_kb", \.outputKilobytes, ceiling: ceilings.outputBytesPerStream >> 10, unit: " KB")
      read("processes", \.processes, ceiling: ceilings.processes, unit: "")
    }
    if let value = file.integer("max_body_bytes", as: Int.self) { maxBodyBytes = value }
    if let value = file.number("read_timeout_s") { readTimeoutSeconds = value }
    if let value = file.number("idle_timeout_s") { idleTimeoutSeconds = value }
    if let value = file.number("write_timeout_s") { writeTimeoutSeconds = value }
    if let value = file.integer("max_connections", as: Int.self) { maxConnections = value }
    if let value = file.strings("bearer_tokens") { bearerTokens = value }
    if let value = file.number("drain_s") { drainSeconds = value }
    if let value = file.integer("grade_wall_ms", as: Int.self) { gradeWallMilliseconds = value }
    if let value = file.bool("expose_compile_cache") { exposeCompileCache = value }
    if let limit = file.object("rate_limit", keys: Self.rateLimitKeys) {
      var policy = RateLimiter.Policy(
        quota: limit.integer("runs", as: Int.self, required: true) ?? 0,
        windowSeconds: limit.integer("window_s", as: Int.self) ?? 60)
      for token in limit.objects("tokens", keys: ["token", "runs"]) ?? [] {
        if let name = token.string("token", required: true),
          let runs = token.integer("runs", as: Int.self, required: true)
        {
          policy.tokenQuotas[name] = runs
        }
      }
      rateLimit = policy
    }
    if let object = file.object("submissions", keys: SubmissionsConfiguration.keys) { submissions.apply(object) }
    if let page = file.object("page", keys: Self.pageKeys) {
      if let value = page.bool("enabled") { pageEnabled = value }
      if let value = page.string("javascript_dir") { pageJavascriptDirectory = value }
      if let value = page.strings("frame_ancestors") { pageFrameAncestors = value }
    }
    if let value = file.strings("cors_origins") { corsOrigins = value }
    if let value = file.integer("live_sessions", as: Int.self) { liveSessions = value }
    if let value = file.number("live_idle_s") { liveIdleSeconds = value }
    if let value = file.number("live_stall_s") { liveStallSeconds = value }
    if let value = file.number("live_wall_s") { liveWallSeconds = value }
    if let object = file.object("judge0", keys: Judge0Configuration.keys) { judge0.apply(object) }
    if let piston = file.object("piston", keys: ["enabled"]), let enabled = piston.bool("enabled") {
      pistonEnabled = enabled
    }
    if let object = file.object("jobe", keys: JobeConfiguration.keys) { jobe.apply(object) }
    if let object = file.object("prewarm", keys: Self.prewarmLanguages) {
      var sizes: [String: Int] = [:]
      for language in Self.prewarmLanguages {
        if let size = object.integer(language, as: Int.self) { sizes[language] = size }
      }
      prewarmSizes = sizes
    }
  }

  static func cgroupMode(_ text: String, problems: inout [String]) -> CgroupMode? {
    if text == "auto" { return nil }
    guard let mode = CgroupMode(rawValue: text) else {
      problems.append("cgroup_mode must be auto, cgroup-v2, cgroup-v1 or rlimit, got \"\(text)\"")
      return nil
    }
    return mode
  }

  // MARK: Checking values

  /// Whether `text` is an origin as a browser sends it: `http://` or `https://`, then a host (a
  /// name, an IPv4 address or a bracketed IPv6 one) and an optional port, nothing after.
  static func isOrigin(_ text: String) -> Bool {
    let rest: Substring
    if text.hasPrefix("https://") {
      rest = text.dropFirst(8)
    } else if text.hasPrefix("http://") {
      rest = text.dropFirst(7)
    } else {
      return false
    }
    guard let first = rest.utf8.first, first != UInt8(ascii: ":") else { return false }
    return rest.utf8.allSatisfy {
      (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
        || [UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]")].contains($0)
    }
  }

  /// What is wrong with the values themselves, whatever their source.
  func problems() -> [String] {
    var problems: [String] = []
    for address in listen where Self.parseAddress(address) == nil {
      problems.append("listen: \"\(address)\" is not a numeric host:port such as 127.0.0.1:8080 or [::1]:8080")
    }
    if listen.isEmpty && unixSocket == nil {
      problems.append("nothing to listen on: give listen addresses or unix_socket")
    }
    if let unixSocket, unixSocket.isEmpty || unixSocket.utf8.count > 107 {
      problems.append("unix_socket must be a path of 1 to 107 bytes")
    }
    if !workRoot.hasPrefix("/") { problems.append("work_root must be an absolute path, got \"\(workRoot)\"") }
    if let cacheDirectory, !cacheDirectory.hasPrefix("/") {
      problems.append("cache_dir must be an absolute path or null, got \"\(cacheDirectory)\"")
    }
    if let cgroupPath, !cgroupPath.hasPrefix("/") { problems.append("cgroup_path must be an absolute path") }
    if cacheSizeMegabytes < 1 { problems.append("cache_size_mb must be at least 1") }
    if let slots, slots < 1 { problems.append("slots must be at least 1") }
    if let queueLength, queueLength < 0 { problems.append("queue_length must not be negative") }
    if !(queueTimeoutSeconds > 0) { problems.append("queue_timeout_s must be positive") }
    if !(queueWaitBudgetSeconds >= 0 && queueWaitBudgetSeconds <= 3600) {
      problems.append("queue_wait_budget_s must be from 0 to 3600")
    }
    if retryAfterSeconds < 0 { problems.append("retry_after_s must not be negative") }
    if maxBodyBytes < 1 { problems.append("max_body_bytes must be at least 1") }
    for (name, value) in [
      ("read_timeout_s", readTimeoutSeconds), ("idle_timeout_s", idleTimeoutSeconds),
      ("write_timeout_s", writeTimeoutSeconds),
    ] where !(value > 0) {
      problems.append("\(name) must be positive")
    }
    if maxConnections < 1 { problems.append("max_connections must be at least 1") }
    if bearerTokens.contains(where: \.isEmpty) { problems.append("bearer_tokens must not hold an empty token") }
    if !(drainSeconds >= 0) { problems.append("drain_s must not be negative") }
    if let gradeWallMilliseconds, !Self.gradeWallRange.contains(gradeWallMilliseconds) {
      problems.append(
        "grade_wall_ms must be from \(Self.gradeWallRange.lowerBound) to \(Self.gradeWallRange.upperBound), got \(gradeWallMilliseconds)"
      )
    }
    if !pageJavascriptDirectory.hasPrefix("/") {
      problems.append("page.javascript_dir must be an absolute path, got \"\(pageJavascriptDirectory)\"")
    }
    // The browser sends exactly scheme://host[:port]; anything else would never match.
    for origin in corsOrigins where !Self.isOrigin(origin) {
      problems.append("cors_origins: \"\(origin)\" is not an origin such as https://app.example.org")
    }
    // Written into the page's Content-Security-Policy: a space, `;` or a keyword such as `*` would
    // change what the policy says, so only plain origins pass.
    for origin in pageFrameAncestors where !Self.isOrigin(origin) {
      problems.append("page.frame_ancestors: \"\(origin)\" is not an origin such as https://app.example.org")
    }
    if liveSessions < 1 { problems.append("live_sessions must be at least 1") }
    for (language, size) in (prewarmSizes ?? [:]).sorted(by: { $0.key < $1.key }) {
      if !(0...Self.maximumPrewarmPerLanguage).contains(size) {
        problems.append(
          "prewarm.\(language) must be from 0 to \(Self.maximumPrewarmPerLanguage) (each box holds a started runtime), got \(size)"
        )
      } else if size > 0 && !PrewarmRuns.languages.contains(language) {
        problems.append(
          "prewarm.\(language): \(language) has no pre-warmed runtime yet (only \(PrewarmRuns.languages.sorted().joined(separator: " and ")) have one); set it to 0 or leave it out"
        )
      }
    }
    if !(liveIdleSeconds > 0) { problems.append("live_idle_s must be positive") }
    if !(liveStallSeconds > 0) { problems.append("live_stall_s must be positive") }
    let wallCeiling = Double(BoxLimits.liveCeilings.wallTimeMilliseconds) / 1000
    if !(liveWallSeconds >= 1 && liveWallSeconds <= wallCeiling) {
      problems.append(
        "live_wall_s must be from 1 to \(Int(wallCeiling)) (the sandbox's wall-time ceiling for live runs)")
    }
    if let rateLimit {
      if rateLimit.quota < 1 { problems.append("rate_limit.runs must be at least 1") }
      if !(1...86_400).contains(rateLimit.windowSeconds) {
        problems.append("rate_limit.window_s must be from 1 to 86400")
      }
      for (token, runs) in rateLimit.tokenQuotas.sorted(by: { $0.key < $1.key }) {
        if runs < 0 { problems.append("rate_limit.tokens: a token's runs must not be negative") }
        if !bearerTokens.contains(token) {
          // Never echo the token: the message goes to logs.
          problems.append("rate_limit.tokens: a token with \(runs) runs is not among bearer_tokens")
        }
      }
    }
    problems += submissions.problems()
    problems += judge0.problems(maximumWaitSeconds: submissions.maxWaitSeconds)
    problems += jobe.problems
    return problems
  }

  /// "127.0.0.1:8080" or "[::1]:8080" as host and port; nil when malformed.
  static func parseAddress(_ text: String) -> (host: String, port: UInt16)? {
    let host: Substring
    let portText: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
      host = text[text.index(after: text.startIndex)..<close]
      portText = text[text.index(close, offsetBy: 2)...]
    } else {
      guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
    }
    guard let port = UInt16(portText), !host.isEmpty else { return nil }
    var buffer = in6_addr()
    let numeric = String(host).withCString {
      inet_pton(AF_INET, $0, &buffer) == 1 || inet_pton(AF_INET6, $0, &buffer) == 1
    }
    return numeric ? (String(host), port) : nil
  }

  // MARK: What the modules take

  var sandboxConfiguration: SandboxConfiguration {
    SandboxConfiguration(workRoot: workRoot, cgroupV2Path: cgroupPath, cgroupMode: cgroupMode)
  }

  func apiConfiguration(logSink: RequestLogSink?) -> APIConfiguration {
    var api = APIConfiguration(slots: resolvedSlots, maximumQueued: queueLength)
    api.queueWaitBudget = Self.duration(queueWaitBudgetSeconds)
    api.queueTimeout = Self.duration(queueTimeoutSeconds)
    api.retryAfterSeconds = retryAfterSeconds
    api.maxima = maxima
    api.gradeWallMilliseconds = gradeWallMilliseconds.map { UInt64($0) }
    api.exposeCompileCache = exposeCompileCache
    api.maximumBodyBytes = maxBodyBytes
    api.bearerTokens = bearerTokens
    api.rateLimit = rateLimit
    api.logSink = logSink
    if !corsOrigins.isEmpty { api.crossOrigin = CrossOriginPolicy(allowedOrigins: Set(corsOrigins)) }
    api.liveSessions = liveSessions
    api.liveIdleTimeout = Self.duration(liveIdleSeconds)
    api.liveStallTimeout = Self.duration(liveStallSeconds)
    api.liveWallMilliseconds = UInt64(liveWallSeconds * 1000)
    api.pistonEnabled = pistonEnabled
    api.jobe = jobe.settings
    return api
  }

  func serverConfiguration(
    listeners: [HTTPServer.Listener], ownAnswerObserver: (@Sendable (HTTPResponse) -> HTTPResponse)? = nil
  ) -> HTTPServer.Configuration {
    // The parser reads a little more than the API takes, so a body just over the limit gets the API's
    // JSON 413 and a far larger one is refused (plain 413) before it is read.
    let parserLimits = HTTPRequestParser.Limits(maximumBodyBytes: maxBodyBytes + 64 * 1024)
    return HTTPServer.Configuration(
      listeners: listeners, parserLimits: parserLimits, maximumConnections: maxConnections,
      requestReadTimeout: Self.duration(readTimeoutSeconds), idleTimeout: Self.duration(idleTimeoutSeconds),
      writeTimeout: Self.duration(writeTimeoutSeconds), retryAfterSeconds: retryAfterSeconds,
      unixSocketPermissions: unixSocketMode, ownAnswerObserver: ownAnswerObserver)
  }

  /// The configured listeners (systemd's sockets are chosen by the caller).
  var listeners: [HTTPServer.Listener] {
    var listeners = listen.compactMap(Self.parseAddress).map { HTTPServer.Listener.tcp(host: $0.host, port: $0.port) }
    if let unixSocket { listeners.append(.unix(path: unixSocket)) }
    return listeners
  }

  static func duration(_ seconds: Double) -> Duration {
    .milliseconds(Int64((seconds * 1000).rounded()))
  }
}
