import Foundation
import Glibc
import Sandbox
import SandboxTesting
import Synchronization
import SystemCore
import Testing

/// The repository's root, found from this file's path.
let repositoryRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return url.path
}()

/// The built `dsa-rund` next to the test bundle.
let daemonBinary: String = {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = directory.appendingPathComponent("dsa-rund").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    directory.deleteLastPathComponent()
  }
  return repositoryRoot + "/.build/debug/dsa-rund"
}()

/// The work root every daemon of these tests shares (like the other suites' fixed roots under /run);
/// each daemon's boxes are named by its pid, and a start sweeps only dead pids' leftovers.
let testWorkRoot = "/run/dsa-rund-tests"

struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A fresh directory under the temporary directory, removed by `remove()`.
func makeTemporaryDirectory() throws -> String {
  var template = Array((NSTemporaryDirectory() + "dsa-rund-tests.XXXXXX").utf8CString)
  guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
    throw TestFailure("mkdtemp failed")
  }
  return String(cString: result)
}

/// What a finished process left.
struct Finished {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Runs `executable` with `arguments` to its end, killed after `timeout`.
func runProcess(
  _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Duration = .seconds(60)
) throws -> Finished {
  let process = try startProcess(executable, arguments, environment: environment)
  return try process.finish(timeout: timeout)
}

/// A started child process with its output collected in the background.
final class Child: @unchecked Sendable {
  let process = ChildProcess()
  private let outputPipe = ProcessLaunch.pipe()
  private let errorPipe = ProcessLaunch.pipe()
  private let group = DispatchGroup()
  private var output = Data()
  private var errors = Data()

  init(_ executable: String, _ arguments: [String], environment: [String: String]?) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = outputPipe
    process.standardError = errorPipe
    try process.run()
    for (pipe, isOutput) in [(outputPipe, true), (errorPipe, false)] {
      group.enter()
      Thread.detachNewThread {
        let data = pipe.fileHandleForReading.readToEndRetryingInterrupts()
        if isOutput { self.output = data } else { self.errors = data }
        self.group.leave()
      }
    }
  }

  /// Waits for the end (killing the process after `timeout`) and returns what it printed.
  func finish(timeout: Duration) throws -> Finished {
    let deadline = ContinuousClock.now + timeout
    while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      _ = group.wait(timeout: .now() + 5)
      throw TestFailure("\(process.executableURL?.path ?? "") \(process.arguments) did not finish in \(timeout)")
    }
    process.waitUntilExit()
    _ = group.wait(timeout: .now() + 5)
    return Finished(
      status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
      stderr: String(decoding: errors, as: UTF8.self))
  }
}

func startProcess(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Child {
  try Child(executable, arguments, environment: environment)
}

/// A daemon started for one test: 127.0.0.1 with a free port, the test work root, a private compile
/// cache, stderr (its JSON-lines log) in a file of its own temporary directory.
final class DaemonProcess {
  let directory: String
  let process = ChildProcess()
  private(set) var port: UInt16 = 0
  var logPath: String { directory + "/stderr.log" }

  /// With `umask` (octal digits), the daemon starts under that umask, set by a shell that then
  /// execs it.
  init(arguments: [String] = [], directory existing: String? = nil, umask: String? = nil) throws {
    directory = try existing ?? makeTemporaryDirectory()
    _ = FileManager.default.createFile(atPath: directory + "/stderr.log", contents: nil)
    let daemonArguments =
      ["--config", directory + "/none.json", "--listen", "127.0.0.1:0", "--work-root", testWorkRoot]
      + ["--cache-dir", directory + "/cache", "--state-dir", directory + "/state"] + arguments
    if let umask {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", "umask \(umask) && exec \"$0\" \"$@\"", daemonBinary] + daemonArguments
    } else {
      process.executableURL = URL(fileURLWithPath: daemonBinary)
      process.arguments = daemonArguments
    }
    // A given config file that is missing is an error, so write an empty one.
    _ = FileManager.default.createFile(atPath: directory + "/none.json", contents: Data("{}".utf8))
    var environment = ProcessInfo.processInfo.environment
    environment["DSA_RUN_DATA"] = repositoryRoot
    environment.removeValue(forKey: "NOTIFY_SOCKET")
    environment.removeValue(forKey: "LISTEN_PID")
    environment.removeValue(forKey: "LISTEN_FDS")
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    try process.run()
    try waitForStart()
  }

  private func waitForStart() throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      for line in logLines() where line["event"] as? String == "started" {
        guard let address = (line["addresses"] as? [String])?.first, let colon = address.lastIndex(of: ":"),
          let port = UInt16(address[address.index(after: colon)...])
        else { throw TestFailure("started line without an address: \(line)") }
        self.port = port
        return
      }
      if !process.isRunning { throw TestFailure("dsa-rund exited at start: \(log)") }
      usleep(20_000)
    }
    throw TestFailure("dsa-rund did not start within 20 s: \(log)")
  }

  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// The log's JSON lines.
  func logLines() -> [[String: Any]] {
    log.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
  }

  var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Sends `signal` and waits up to `timeout` for the exit; returns the exit status.
  func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(40)) throws -> Int32 {
    if process.isRunning { kill(process.processIdentifier, signal) }
    let deadline = ContinuousClock.now + timeout
    while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      throw TestFailure("dsa-rund did not exit within \(timeout) of signal \(signal)")
    }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Stops the daemon if it still runs and removes its directory.
  func cleanUp(removeDirectory: Bool = true) {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    sweepIfKilled()
    if removeDirectory { try? FileManager.default.removeItem(atPath: directory) }
  }

  /// A daemon ended by a signal leaves its warm boxes' mounts and cgroups for the next start on its
  /// work root to sweep; a test that kills the last daemon it starts there would leave them on the
  /// host. At the test's end (not at `stop`, so that a restart still has its own sweep to do), a host
  /// of this process on that work root sweeps what dead processes left, as a start does.
  private func sweepIfKilled() {
    guard !process.isRunning, process.terminationReason == .uncaughtSignal else { return }
    _ = try? SandboxHost(configuration: SandboxConfiguration(workRoot: testWorkRoot))
  }
}

/// One HTTP exchange as curl saw it.
struct CurlResponse {
  var status: Int
  var headers: [String: String]
  var body: String
  var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]) ?? [:] }
}

/// `curl` with `arguments` (method, headers, data), answered head and body.
func curl(_ url: String, _ arguments: [String] = [], timeout: Int = 30) throws -> CurlResponse {
  let finished = try runProcess(
    "/usr/bin/curl", ["-sS", "-i", "-m", "\(timeout)", "-H", "Expect:"] + arguments + [url],
    timeout: .seconds(timeout + 5))
  guard finished.status == 0 else { throw TestFailure("curl \(arguments) failed: \(finished.stderr)") }
  return try parseCurl(finished.stdout)
}

func parseCurl(_ text: String) throws -> CurlResponse {
  guard let split = text.range(of: "\r\n\r\n") else { throw TestFailure("no response head in \(text)") }
  let head = text[..<split.lowerBound].split(separator: "\r\n")
  let statusParts = head.first?.split(separator: " ") ?? []
  guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw TestFailure("bad status in \(text)") }
  var headers: [String: String] = [:]
  for line in head.dropFirst() {
    guard let colon = line.firstIndex(of: ":") else { continue }
    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
  }
  return CurlResponse(status: status, headers: headers, body: String(text[split.upperBound...]))
}

/// `POST path` with a JSON body, by curl.
func post(_ daemon: DaemonProcess, _ path: String, _ body: [String: Any], timeout: Int = 120) throws -> CurlResponse {
  let data = try JSONSerialization.data(withJSONObject: body)
  return try curl(
    daemon.baseURL + path,
    ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", String(decoding: data, as: UTF8.self)],
    timeout: timeout)
}

/// `POST /v1/execute` with a JSON body, by curl.
func execute(_ daemon: DaemonProcess, _ body: [String: Any], timeout: Int = 30) throws -> CurlResponse {
  try post(daemon, "/v1/execute", body, timeout: timeout)
}

/// The arguments for a background curl that posts `body`. The body goes through a file, so a marker in
/// it is not in curl's own command line (only the box's program shows it in /proc).
func executeArguments(_ daemon: DaemonProcess, _ body: [String: Any], timeout: Int = 30) throws -> [String] {
  let path = daemon.directory + "/body-\(UUID().uuidString).json"
  try JSONSerialization.data(withJSONObject: body).write(to: URL(fileURLWithPath: path))
  return ["-sS", "-i", "-m", "\(timeout)", "-H", "Expect:", "-X", "POST", "-H", "Content-Type: application/json"]
    + ["--data-binary", "@" + path, daemon.baseURL + "/v1/execute"]
}

/// The pids whose command line contains `marker`.
func processes(containing marker: String) -> [Int32] {
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  return entries.compactMap { entry -> Int32? in
    guard let pid = Int32(entry), pid != getpid(),
      let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
    else { return nil }
    return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).contains(marker) ? pid : nil
  }
}

/// Waits up to `timeout` for `condition`.
func waitUntil(timeout: Duration, _ condition: () -> Bool) -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if condition() { return true }
    usleep(20_000)
  }
  return condition()
}

/// A Python program that sleeps `seconds` and prints "slept"; its marker argument names it in /proc.
func sleeper(seconds: Double, marker: String, wallMilliseconds: Int? = nil) -> [String: Any] {
  var body: [String: Any] = [
    "language": "python", "source": "import sys, time\ntime.sleep(\(seconds))\nprint('slept', sys.argv[1])\n",
    "args": [marker],
  ]
  if let wallMilliseconds { body["limits"] = ["wall_ms": wallMilliseconds] }
  return body
}

func uniqueMarker() -> String { "dsa-rund-marker-\(UUID().uuidString.prefix(8).lowercased())" }

/// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, read, closed).
func freeLoopbackPort() throws -> UInt16 {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
  defer { close(descriptor) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
      bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
    }
  }
  guard bound else { throw TestFailure("bind 127.0.0.1:0: errno \(errno)") }
  return UInt16(bigEndian: address.sin_port)
}

/// The answers of `concurrentGets` as they come back, each with its second after the start, so a
/// failure's message can say when each came and why a curl failed.
final class ConcurrentAnswers: Sendable {
  private let started = ContinuousClock.now
  private let entries = Mutex<[(seconds: Int64, answer: Result<CurlResponse, any Error>)]>([])

  fileprivate func add(_ answer: Result<CurlResponse, any Error>) {
    let seconds = (ContinuousClock.now - started).components.seconds
    entries.withLock { $0.append((seconds, answer)) }
  }

  var count: Int { entries.withLock { $0.count } }

  /// The responses so far; nil where curl failed.
  var responses: [CurlResponse?] { entries.withLock { $0.map { try? $0.answer.get() } } }

  /// One line per answer so far: its second, and its status and the start of its body or curl's error.
  var description: String {
    entries.withLock { entries in
      entries.map { entry in
        switch entry.answer {
        case .success(let response): "\(entry.seconds) s: \(response.status) \(response.body.prefix(120))"
        case .failure(let error): "\(entry.seconds) s: curl failed: \(error)"
        }
      }.joined(separator: "\n")
    }
  }
}

/// `count` GETs of `url` at once, each on a thread of its own.
func concurrentGets(_ url: String, count: Int, timeout: Int) -> ConcurrentAnswers {
  let answers = ConcurrentAnswers()
  for _ in 0..<count {
    Thread {
      answers.add(Result { try curl(url, timeout: timeout) })
    }.start()
  }
  return answers
}
