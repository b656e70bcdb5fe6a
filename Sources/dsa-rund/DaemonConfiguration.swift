import API
import Foundation
import HTTP
import Sandbox

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
  /// Requests that may wait for a slot; nil is twice the slots.
  var queueLength: Int?
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
  /// Stored submissions: the store and its knobs (SubmissionsConfiguration).
  var submissions = SubmissionsConfiguration()

  static let defaultPath = "/etc/dsa-run/dsa-rund.json"

  /// The keys of the file, in documentation order. Keys starting with "//" are comments.
  static let keys = [
    "listen", "unix_socket", "unix_socket_mode", "work_root", "cache_dir", "cache_size_mb", "cgroup_mode",
    "cgroup_path", "slots", "queue_length", "queue_timeout_s", "retry_after_s", "limits", "max_body_bytes",
    "read_timeout_s", "idle_timeout_s", "write_timeout_s", "max_connections", "bearer_tokens", "drain_s",
    "grade_wall_ms", "expose_compile_cache", "submissions",
  ]
  /// The bounds of `grade_wall_ms`: below the shortest test the grader starts, nothing could run; an
  /// hour is far past any grade a learner waits for.
  static let gradeWallRange = 100...3_600_000
  static let limitKeys = ["cpu_ms", "wall_ms", "memory_mb", "output_kb", "processes"]

  var resolvedSlots: Int { max(1, slots ?? ProcessInfo.processInfo.activeProcessorCount) }
  var resolvedQueueLength: Int { queueLength ?? 2 * resolvedSlots }

  // MARK: Reading the file

  /// Reads `data` over the defaults; returns every problem found (unknown keys, wrong types).
  static func parse(_ data: Data) -> (DaemonConfiguration, [String]) {
    var configuration = DaemonConfiguration()
    let value: JSONValue
    do {
      value = try JSONDecoder().decode(JSONValue.self, from: data)
    } catch {
      return (configuration, ["not valid JSON: \(JSONValue.describe(error))"])
    }
    guard case .object(let object) = value else { return (configuration, ["the top level must be a JSON object"]) }
    var reader = ObjectReader(object: object, path: "", known: keys)
    configuration.apply(&reader)
    return (configuration, reader.problems)
  }

  private mutating func apply(_ reader: inout ObjectReader) {
    if let value = reader.strings("listen") { listen = value }
    if let value = reader.string("unix_socket") { unixSocket = value }
    if let text = reader.string("unix_socket_mode") {
      if let mode = Int(text, radix: 8), (0...0o777).contains(mode) {
        unixSocketMode = mode
      } else {
        reader.problems.append("unix_socket_mode must be octal digits such as \"0660\", got \"\(text)\"")
      }
    }
    if let value = reader.string("work_root") { workRoot = value }
    if reader.isNull("cache_dir") {
      cacheDirectory = nil
    } else if let value = reader.string("cache_dir") {
      cacheDirectory = value
    }
    if let value = reader.integer("cache_size_mb") { cacheSizeMegabytes = value }
    if let text = reader.string("cgroup_mode") { cgroupMode = Self.cgroupMode(text, problems: &reader.problems) }
    if let value = reader.string("cgroup_path") { cgroupPath = value }
    if let value = reader.integer("slots") { slots = value }
    if let value = reader.integer("queue_length") { queueLength = value }
    if let value = reader.number("queue_timeout_s") { queueTimeoutSeconds = value }
    if let value = reader.integer("retry_after_s") { retryAfterSeconds = value }
    if let object = reader.object("limits") {
      var limits = ObjectReader(object: object, path: "limits.", known: Self.limitKeys)
      // A maximum above what the sandbox can ever give would only be refused run by run, later.
      let ceilings = BoxLimits.ceilings
      func read(_ key: String, _ field: WritableKeyPath<LimitMaxima, UInt64>, ceiling: UInt64, unit: String) {
        guard let value = limits.integer(key) else { return }
        if value < 1 {
          limits.problems.append("limits.\(key) must be at least 1")
        } else if UInt64(value) > ceiling {
          limits.problems.append("limits.\(key) is \(value); the sandbox allows at most \(ceiling)\(unit)")
        } else {
          maxima[keyPath: field] = UInt64(value)
        }
      }
      read("cpu_ms", \.cpuMilliseconds, ceiling: ceilings.cpuTimeMilliseconds, unit: " ms")
      read("wall_ms", \.wallMilliseconds, ceiling: ceilings.wallTimeMilliseconds, unit: " ms")
      read("memory_mb", \.memoryMegabytes, ceiling: ceilings.memoryBytes >> 20, unit: " MB")
      read("output_kb", \.outputKilobytes, ceiling: ceilings.outputBytesPerStream >> 10, unit: " KB")
      read("processes", \.processes, ceiling: ceilings.processes, unit: "")
      limits.finish()
      reader.problems += limits.problems
    }
    if let value = reader.integer("max_body_bytes") { maxBodyBytes = value }
    if let value = reader.number("read_timeout_s") { readTimeoutSeconds = value }
    if let value = reader.number("idle_timeout_s") { idleTimeoutSeconds = value }
    if let value = reader.number("write_timeout_s") { writeTimeoutSeconds = value }
    if let value = reader.integer("max_connections") { maxConnections = value }
    if let value = reader.strings("bearer_tokens") { bearerTokens = value }
    if let value = reader.number("drain_s") { drainSeconds = value }
    if let value = reader.integer("grade_wall_ms") { gradeWallMilliseconds = value }
    if let value = reader.bool("expose_compile_cache") { exposeCompileCache = value }
    if let object = reader.object("submissions") {
      var inner = ObjectReader(object: object, path: "submissions.", known: SubmissionsConfiguration.keys)
      submissions.apply(&inner)
      reader.problems += inner.problems
    }
    reader.finish()
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
    problems += submissions.problems()
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
    var api = APIConfiguration(slots: resolvedSlots, maximumQueued: resolvedQueueLength)
    api.queueTimeout = Self.duration(queueTimeoutSeconds)
    api.retryAfterSeconds = retryAfterSeconds
    api.maxima = maxima
    api.gradeWallMilliseconds = gradeWallMilliseconds.map { UInt64($0) }
    api.exposeCompileCache = exposeCompileCache
    api.maximumBodyBytes = maxBodyBytes
    api.bearerTokens = bearerTokens
    api.logSink = logSink
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

/// Reads typed values out of one JSON object, collecting problems and remembering which keys were used.
struct ObjectReader {
  let object: [String: JSONValue]
  let path: String
  let known: [String]
  var problems: [String] = []

  init(object: [String: JSONValue], path: String, known: [String]) {
    self.object = object
    self.path = path
    self.known = known
  }

  /// Reports the keys that are neither known nor comments ("//...").
  mutating func finish() {
    for key in object.keys.sorted() where !known.contains(key) && !key.hasPrefix("//") {
      problems.append("unknown key \"\(path)\(key)\" (known: \(known.joined(separator: ", ")))")
    }
  }

  func isNull(_ key: String) -> Bool {
    if case .null = object[key] { return true }
    return false
  }

  /// The value, or nil when absent or null; a wrong type is a problem.
  private mutating func value<T>(_ key: String, _ expected: String, _ extract: (JSONValue) -> T?) -> T? {
    guard let value = object[key] else { return nil }
    if case .null = value { return nil }
    guard let result = extract(value) else {
      problems.append("\(path)\(key) must be \(expected), got \(value.kind)")
      return nil
    }
    return result
  }

  mutating func string(_ key: String) -> String? {
    value(key, "a string") {
      if case .string(let text) = $0 { return text }
      return nil
    }
  }

  mutating func bool(_ key: String) -> Bool? {
    value(key, "true or false") {
      if case .bool(let flag) = $0 { return flag }
      return nil
    }
  }

  mutating func number(_ key: String) -> Double? {
    value(key, "a number") {
      if case .number(let number) = $0 { return number }
      return nil
    }
  }

  mutating func integer(_ key: String) -> Int? {
    value(key, "a whole number") {
      if case .number(let number) = $0, number == number.rounded(), abs(number) < 1e15 { return Int(number) }
      return nil
    }
  }

  mutating func strings(_ key: String) -> [String]? {
    value(key, "an array of strings") {
      guard case .array(let items) = $0 else { return nil }
      var strings: [String] = []
      for item in items {
        guard case .string(let text) = item else { return nil }
        strings.append(text)
      }
      return strings
    }
  }

  mutating func object(_ key: String) -> [String: JSONValue]? {
    value(key, "an object") {
      if case .object(let object) = $0 { return object }
      return nil
    }
  }
}

/// Any JSON value, so the file can be checked key by key with exact messages.
enum JSONValue: Decodable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  var kind: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  static func describe(_ error: any Error) -> String {
    if case DecodingError.dataCorrupted(let context) = error {
      let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
      return underlying ?? context.debugDescription
    }
    return "\(error)"
  }
}
