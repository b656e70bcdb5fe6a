import BenchSupport
import Foundation
import Glibc
import Runners
import Sandbox
import Synchronization

// dsa-run-loadbench: Python hello through a running dsa-rund's POST /v1/execute with 1, 2, 8 and 32
// concurrent keep-alive clients, next to the same program through the library directly (an
// Executor with a BoxPool, 2 threads) and through the one-shot CLI. Loopback only. Started by
// Benchmarks/run-daemon-bench, which starts and stops the daemon. A benchmark, not a test: it prints
// figures; it exits 1 when a response was lost or malformed (a 503 with Retry-After is counted, not
// an error: it is the daemon refusing what it cannot take).

BenchSupport.programName = "dsa-run-loadbench"

let usageText = """
  Usage: dsa-run-loadbench --port PORT --pid PID [--seconds S] [--clients N,N,...] [--dsa-run PATH]
                           [--work-root PATH]

    --port PORT        the daemon's port on 127.0.0.1
    --pid PID          the daemon's pid (for VmRSS from /proc/PID/status)
    --seconds S        seconds per load level and per comparison lane (default 20)
    --clients N,...    concurrent keep-alive clients per level (default 1,2,8,32)
    --dsa-run PATH     the CLI for the one-shot lane (default: the dsa-run next to this binary)
    --work-root PATH   where the box lane and the CLI lane make boxes (default /run/dsa-run-loadbench)
  """

struct Options {
  var port: UInt16 = 0
  var pid: Int32 = 0
  var seconds = 20.0
  var clients = [1, 2, 8, 32]
  var dsaRun: String?
  var workRoot = "/run/dsa-run-loadbench"
}

/// Writes `text` and a newline to stdout at once (unbuffered, so the table shows row by row).
func output(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

func parseOptions(_ arguments: [String]) -> Options {
  var options = Options()
  var cursor = OptionCursor(arguments)
  while let argument = cursor.next() {
    switch argument {
    case "--port":
      guard let port = UInt16(cursor.value(argument)), port > 0 else { failSetup("--port needs a port number") }
      options.port = port
    case "--pid":
      guard let pid = Int32(cursor.value(argument)), pid > 0 else { failSetup("--pid needs a process id") }
      options.pid = pid
    case "--seconds":
      guard let seconds = Double(cursor.value(argument)), seconds >= 1, seconds <= 600 else {
        failSetup("--seconds needs a number from 1 to 600")
      }
      options.seconds = seconds
    case "--clients":
      let list = cursor.value(argument).split(separator: ",").compactMap { Int($0) }
      guard !list.isEmpty, list.allSatisfy({ (1...256).contains($0) }) else {
        failSetup("--clients needs whole numbers from 1 to 256, comma-separated")
      }
      options.clients = list
    case "--dsa-run": options.dsaRun = cursor.value(argument)
    case "--work-root": options.workRoot = cursor.value(argument)
    case "--help", "-h":
      output(usageText)
      exit(0)
    default: failSetup("unknown option \"\(argument)\"\n\(usageText)")
    }
  }
  if options.port == 0 || options.pid == 0 { failSetup("--port and --pid are required\n\(usageText)") }
  return options
}

let helloSource = "print(\"Hello, World!\")\n"
let expectedStdout = "Hello, World!\n"

/// VmRSS of a process, KiB.
func residentKilobytes(_ pid: Int32) -> Int? {
  guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
  for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
  }
  return nil
}

// MARK: - A keep-alive HTTP client

enum ExchangeResult {
  case response(status: Int, retryAfter: Int?, body: [UInt8])
  /// The connection failed or closed; the text says how.
  case connectionError(String)
}

/// One keep-alive connection to 127.0.0.1:port, reconnected on demand.
final class Connection {
  let port: UInt16
  private var descriptor: Int32 = -1
  private var buffer: [UInt8] = []
  private var chunk = [UInt8](repeating: 0, count: 65_536)

  init(port: UInt16) { self.port = port }
  deinit { if descriptor >= 0 { close(descriptor) } }

  private func connect() -> Bool {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return false }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    var one: Int32 = 1
    _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    if !connected { reset() }
    return connected
  }

  private func reset() {
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    buffer.removeAll(keepingCapacity: true)
  }

  private func fill() -> Bool {
    while true {
      let count = recv(descriptor, &chunk, chunk.count, 0)
      if count > 0 {
        buffer.append(contentsOf: chunk[0..<count])
        return true
      }
      if count < 0 && errno == EINTR { continue }
      return false
    }
  }

  /// Sends `request` (a whole HTTP request) and reads one Content-Length response.
  func exchange(_ request: [UInt8]) -> ExchangeResult {
    if descriptor < 0 && !connect() { return .connectionError("connect: \(String(cString: strerror(errno)))") }
    var offset = 0
    while offset < request.count {
      let written = request[offset...].withUnsafeBytes {
        send(descriptor, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL))
      }
      if written <= 0 {
        reset()
        return .connectionError("send failed")
      }
      offset += written
    }
    let separator: [UInt8] = [13, 10, 13, 10]
    var headEnd: Int?
    var searchFrom = 0
    while headEnd == nil {
      if buffer.count >= 4 {
        for index in searchFrom...(buffer.count - 4) where buffer[index..<(index + 4)].elementsEqual(separator) {
          headEnd = index
          break
        }
        searchFrom = max(0, buffer.count - 3)
      }
      if headEnd == nil && !fill() {
        reset()
        return .connectionError("closed before a response head")
      }
    }
    guard let headEnd else { return .connectionError("no head") }
    let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
    let lines = head.split(separator: "\r\n")
    let parts = lines.first?.split(separator: " ") ?? []
    guard parts.count >= 2, let status = Int(parts[1]) else {
      reset()
      return .connectionError("malformed status line")
    }
    var length = 0
    var retryAfter: Int?
    var closes = false
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      switch name {
      case "content-length": length = Int(value) ?? -1
      case "retry-after": retryAfter = Int(value)
      case "connection": closes = value.lowercased() == "close"
      case "transfer-encoding":
        reset()
        return .connectionError("unexpected Transfer-Encoding in a response")
      default: break
      }
    }
    guard length >= 0 else {
      reset()
      return .connectionError("bad Content-Length")
    }
    let bodyStart = headEnd + 4
    while buffer.count < bodyStart + length {
      if !fill() {
        reset()
        return .connectionError("closed inside a body")
      }
    }
    let body = Array(buffer[bodyStart..<(bodyStart + length)])
    buffer.removeFirst(bodyStart + length)
    if closes { reset() }
    return .response(status: status, retryAfter: retryAfter, body: body)
  }
}

// MARK: - Lanes

struct LevelResult {
  var clients: Int
  var ok = 0
  var busy = 0
  var errors = 0
  var firstError: String?
  var latencies: [UInt64] = []
  var elapsed: UInt64 = 1
  var runsPerSecond: Double { Double(ok) / (Double(elapsed) / 1e9) }
}

func percentile(_ sorted: [UInt64], _ fraction: Double) -> Double {
  guard !sorted.isEmpty else { return .nan }
  return Double(nearestRank(sorted, fraction)) / 1e6
}

/// Whether a 200 body is the expected result: every body is checked against the fixed frame of the
/// daemon's sorted-key JSON, and every `fullCheckInterval`-th body of a client is parsed in full too.
/// The client shares the 2 cores with the daemon and its boxes: parsing every body with Foundation
/// took 1.7% of all CPU samples under an 8-client load (the daemon's connection threads took 2.8%),
/// a cost a remote client would not put on the server's cores.
func checkBody(_ body: [UInt8], fully: Bool) -> String? {
  if fully {
    guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
      let run = object["run"] as? [String: Any]
    else { return "a 200 body that is not a result object" }
    guard run["status"] as? String == "ok" else { return "run.status \(run["status"] ?? "none")" }
    guard run["stdout"] as? String == expectedStdout else { return "run.stdout \(run["stdout"] ?? "none")" }
    return nil
  }
  guard body.starts(with: expectedPrefix), body.last == UInt8(ascii: "}") else {
    return "a 200 body that does not start like a python result: "
      + String(decoding: body.prefix(120), as: UTF8.self)
  }
  for fragment in expectedFragments where !contains(body, fragment) {
    return "a 200 body without \(String(decoding: fragment, as: UTF8.self))"
  }
  return nil
}

let fullCheckInterval = 25
let expectedPrefix = Array(#"{"compile":null,"compile_cache":"none","language":"python","run":{"#.utf8)
let expectedFragments = [
  #""status":"ok""#, #""stdout":"Hello, World!\n""#, #""stderr":"""#, #""steps":[],"steps_message":"","version":""#,
].map { Array($0.utf8) }

func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
  guard needle.count <= haystack.count else { return false }
  return (0...(haystack.count - needle.count)).contains { start in
    haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle)
  }
}

func daemonLevel(port: UInt16, clients: Int, seconds: Double) -> LevelResult {
  let body = try! JSONSerialization.data(withJSONObject: ["language": "python", "source": helloSource])
  let head =
    "POST /v1/execute HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
    + "Content-Length: \(body.count)\r\n\r\n"
  let request = Array(head.utf8) + Array(body)
  let results = Mutex<[LevelResult]>([])
  let start = nowNanoseconds()
  let deadline = start + UInt64(seconds * 1e9)
  let group = DispatchGroup()
  for _ in 0..<clients {
    group.enter()
    Thread.detachNewThread {
      var result = LevelResult(clients: clients)
      let connection = Connection(port: port)
      while nowNanoseconds() < deadline {
        let began = nowNanoseconds()
        switch connection.exchange(request) {
        case .response(let status, let retryAfter, let responseBody):
          if status == 200 {
            let fully = (result.ok + result.errors) % fullCheckInterval == 0
            if let problem = checkBody(responseBody, fully: fully) {
              result.errors += 1
              result.firstError = result.firstError ?? problem
            } else {
              result.ok += 1
              result.latencies.append(nowNanoseconds() - began)
            }
          } else if status == 503 && retryAfter != nil {
            // Refused while saturated: honour Retry-After as a well-behaved client does.
            result.busy += 1
            let wait = UInt64(retryAfter ?? 1) * 1_000_000_000
            let now = nowNanoseconds()
            if now < deadline { usleep(UInt32(min(wait, deadline - now) / 1000)) }
          } else {
            result.errors += 1
            result.firstError =
              result.firstError ?? "status \(status): \(String(decoding: responseBody.prefix(200), as: UTF8.self))"
          }
        case .connectionError(let text):
          result.errors += 1
          result.firstError = result.firstError ?? text
          usleep(10_000)
        }
      }
      results.withLock { $0.append(result) }
      group.leave()
    }
  }
  group.wait()
  var total = LevelResult(clients: clients)
  total.elapsed = nowNanoseconds() - start
  for result in results.withLock({ $0 }) {
    total.ok += result.ok
    total.busy += result.busy
    total.errors += result.errors
    total.firstError = total.firstError ?? result.firstError
    total.latencies += result.latencies
  }
  total.latencies.sort()
  return total
}

func boxLane(options: Options, threads: Int) -> LevelResult {
  guard let runners = DataDirectories.locate("runners"), let policiesDirectory = DataDirectories.locate("policies")
  else { failSetup("cannot find runners/ and policies/ (set DSA_RUN_DATA)") }
  let executor: Executor
  let pool: BoxPool
  do {
    var configuration = SandboxConfiguration()
    configuration.workRoot = options.workRoot
    let host = try SandboxHost(configuration: configuration)
    pool = BoxPool(host: host, maximumIdlePerLayout: threads)
    executor = Executor(
      environments: pool, catalog: try RunnerCatalog.load(directory: runners),
      policies: try SeccompCompiler.loadDirectory(policiesDirectory), cache: nil)
  } catch {
    failSetup("box lane set-up failed: \(error)")
  }
  defer { pool.drain() }
  let request = ExecuteRequest(
    language: "python", files: [SourceFile(name: "", contents: Data(helloSource.utf8))])
  // One warm-up run per thread (boxes made, version probed), unmeasured, as the daemon had its warm-up.
  for _ in 0..<threads { _ = try? executor.execute(request) }
  let results = Mutex<[LevelResult]>([])
  let start = nowNanoseconds()
  let deadline = start + UInt64(options.seconds * 1e9)
  let group = DispatchGroup()
  for _ in 0..<threads {
    group.enter()
    Thread.detachNewThread {
      var result = LevelResult(clients: threads)
      while nowNanoseconds() < deadline {
        let began = nowNanoseconds()
        do {
          let outcome = try executor.execute(request)
          if outcome.run?.status == .ok && outcome.run?.stdout == Data(expectedStdout.utf8) {
            result.ok += 1
            result.latencies.append(nowNanoseconds() - began)
          } else {
            result.errors += 1
            result.firstError = result.firstError ?? "run \(String(describing: outcome.run?.status))"
          }
        } catch {
          result.errors += 1
          result.firstError = result.firstError ?? "\(error)"
        }
      }
      results.withLock { $0.append(result) }
      group.leave()
    }
  }
  group.wait()
  var total = LevelResult(clients: threads)
  total.elapsed = nowNanoseconds() - start
  for result in results.withLock({ $0 }) {
    total.ok += result.ok
    total.errors += result.errors
    total.firstError = total.firstError ?? result.firstError
    total.latencies += result.latencies
  }
  total.latencies.sort()
  return total
}

func cliLane(options: Options, cli: String) -> LevelResult {
  var template = "/tmp/dsa-run-loadbench.XXXXXX".utf8CString
  let scratch: String = template.withUnsafeMutableBufferPointer { buffer in
    guard let made = mkdtemp(buffer.baseAddress!) else { failSetup("mkdtemp failed") }
    return String(cString: made)
  }
  defer { try? FileManager.default.removeItem(atPath: scratch) }
  let source = scratch + "/hello.py"
  _ = FileManager.default.createFile(atPath: source, contents: Data(helloSource.utf8))
  var result = LevelResult(clients: 1)
  let start = nowNanoseconds()
  let deadline = start + UInt64(options.seconds * 1e9)
  while nowNanoseconds() < deadline {
    let began = nowNanoseconds()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: cli)
    process.arguments = [
      "--lang", "python", source, "--work-root", options.workRoot, "--cache-dir", scratch + "/cache",
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      failSetup("cannot start \(cli): \(error)")
    }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if process.terminationStatus == 0 && output == Data(expectedStdout.utf8) {
      result.ok += 1
      result.latencies.append(nowNanoseconds() - began)
    } else {
      result.errors += 1
      result.firstError = result.firstError ?? "exit \(process.terminationStatus)"
    }
  }
  result.elapsed = nowNanoseconds() - start
  result.latencies.sort()
  return result
}

// MARK: - Main

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
let cli =
  options.dsaRun
  ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
  .appendingPathComponent("dsa-run").path
guard FileManager.default.isExecutableFile(atPath: cli) else { failSetup("no dsa-run CLI at \(cli)") }

func row(_ lane: String, _ result: LevelResult, rss: String = "") -> String {
  let columns = [
    lane.padding(toLength: 22, withPad: " ", startingAt: 0),
    String(format: "%9.1f", result.runsPerSecond),
    String(format: "%9.1f", percentile(result.latencies, 0.50)),
    String(format: "%9.1f", percentile(result.latencies, 0.99)),
    String(format: "%7d", result.ok), String(format: "%6d", result.busy), String(format: "%6d", result.errors),
    rss,
  ]
  return columns.joined(separator: " ")
}

func megabytes(_ kilobytes: Int?) -> String { kilobytes.map { String(format: "%.1f MB", Double($0) / 1024) } ?? "?" }

// One unmeasured request warms the daemon (version probe, first box).
_ = daemonLevel(port: options.port, clients: 1, seconds: 0.01)
let idleRSS = residentKilobytes(options.pid)
var lines = [
  "dsa-run-loadbench: python hello, \(Int(options.seconds)) s per row, 127.0.0.1:\(options.port), "
    + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs",
  "",
  "lane                     runs/s   p50 ms   p99 ms      ok    503  errors  daemon RSS",
]
output(lines.joined(separator: "\n"))
var failures: [String] = []
var daemonResults: [LevelResult] = []
for clients in options.clients {
  let result = daemonLevel(port: options.port, clients: clients, seconds: options.seconds)
  daemonResults.append(result)
  if let problem = result.firstError { failures.append("daemon, \(clients) clients: \(problem)") }
  output(
    row("daemon, \(clients) client\(clients == 1 ? "" : "s")", result, rss: megabytes(residentKilobytes(options.pid))))
}
let afterRSS = residentKilobytes(options.pid)
let box = boxLane(options: options, threads: 2)
if let problem = box.firstError { failures.append("box: \(problem)") }
output(row("box (Executor+pool, 2)", box))
let oneShot = cliLane(options: options, cli: cli)
if let problem = oneShot.firstError { failures.append("CLI: \(problem)") }
output(row("CLI one-shot, serial", oneShot))
output("")
output("daemon RSS: idle \(megabytes(idleRSS)), after the load \(megabytes(afterRSS)) (target: idle under 30 MB)")
let best = daemonResults.max { $0.runsPerSecond < $1.runsPerSecond }
for result in daemonResults {
  output(
    String(
      format: "daemon/box at %d client%@: %.2f", result.clients, result.clients == 1 ? "" : "s",
      result.runsPerSecond / box.runsPerSecond))
}
if let best {
  output(
    String(
      format: "daemon/box, best level (%d clients): %.2f (target: at least 0.90)", best.clients,
      best.runsPerSecond / box.runsPerSecond))
}
let lost = daemonResults.reduce(0) { $0 + $1.errors }
output("lost or malformed daemon responses: \(lost); 503s: \(daemonResults.reduce(0) { $0 + $1.busy })")
if !failures.isEmpty {
  for failure in failures { FileHandle.standardError.write(Data("dsa-run-loadbench: \(failure)\n".utf8)) }
  exit(1)
}
