import Dispatch
import Foundation
import Glibc
import SandboxTesting
import Synchronization
import SystemCore
import Testing

@testable import HTTP

// Real clients against real sockets, all on loopback or in a temporary directory, every wait
// bounded: curl and Python's http.client as separate processes, and a raw socket client for what
// those will not send (pipelining, malformed requests, trickling, not reading).

/// Debian's curl; the client tests need it (scripts/install-deps should list it).
let curlPath = "/usr/bin/curl"
/// Debian's Python, not the slow pyenv shim that may come first on PATH.
let pythonPath = "/usr/bin/python3"
let curlIsInstalled = access(curlPath, X_OK) == 0
let pythonIsInstalled = access(pythonPath, X_OK) == 0

/// Whether ::1 can be bound (containers sometimes run without IPv6).
let ipv6LoopbackWorks: Bool = {
  let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  guard descriptor >= 0 else { return false }
  defer { close(descriptor) }
  var address = sockaddr_in6()
  address.sin6_family = sa_family_t(AF_INET6)
  address.sin6_addr = in6addr_loopback
  return withSocketAddress(&address) { bind(descriptor, $0, $1) } == 0
}()

/// A fresh directory under /tmp (short, so a Unix socket path fits in 107 bytes); removed by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/dsa-http-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw HTTPServerError(step: "mkdtemp", errorNumber: errno) }
    path = String(cString: made)
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The test routes, so each test reads what it checks:
/// - `/sleep/<ms>`: waits, then echoes;
/// - `/big/<bytes>`: a body of that many bytes;
/// - `/close`: asks the server to close after the response;
/// - anything else: echoes "METHOD TARGET BODY-BYTES\n" and the body.
func echoHandler(_ request: HTTPRequest) -> HTTPResponse {
  let parts = request.target.split(separator: "/")
  if parts.count == 2, parts[0] == "sleep", let milliseconds = UInt32(parts[1]) {
    usleep(milliseconds * 1000)
  }
  if parts.count == 2, parts[0] == "big", let count = Int(parts[1]) {
    return HTTPResponse(status: .ok, body: Data(repeating: 0x78, count: count))
  }
  var headers: HTTPHeaders = ["Content-Type": "text/plain"]
  if request.target == "/close" { headers.add(name: "Connection", value: "close") }
  if !request.trailers.isEmpty { headers.add(name: "X-Trailers", value: "\(request.trailers.count)") }
  var body = Data("\(request.method) \(request.target) \(request.body.count)\n".utf8)
  body.append(request.body)
  return HTTPResponse(status: .ok, headers: headers, body: body)
}

/// An `HTTPServer` on 127.0.0.1 with an ephemeral port and, when asked, a Unix socket in a
/// temporary directory. `shutDown()` stops it and removes the directory.
struct TestServer {
  let server: HTTPServer
  let directory: TemporaryDirectory

  init(
    tcp: Bool = true, unix: Bool = false,
    configure: (inout HTTPServer.Configuration) -> Void = { _ in },
    handler: @escaping HTTPServer.Handler = echoHandler
  ) throws {
    directory = try TemporaryDirectory()
    var listeners: [HTTPServer.Listener] = []
    if tcp { listeners.append(.tcp(host: "127.0.0.1", port: 0)) }
    if unix { listeners.append(.unix(path: directory.path + "/http.sock")) }
    var configuration = HTTPServer.Configuration(listeners: listeners)
    configure(&configuration)
    server = HTTPServer(configuration: configuration, handler: handler)
    do {
      try server.start()
    } catch {
      directory.remove()
      throw error
    }
  }

  var port: UInt16 { server.tcpPorts[0] }
  var socketPath: String { directory.path + "/http.sock" }
  var baseURL: String { "http://127.0.0.1:\(port)" }

  func shutDown() {
    server.stop(drainingFor: .seconds(5))
    directory.remove()
  }
}

/// How a test reaches the server: both transports run the same client tests.
enum Transport: String, CustomTestStringConvertible, CaseIterable, Sendable {
  case tcp
  case unix

  var testDescription: String { rawValue }

  func makeServer(
    configure: (inout HTTPServer.Configuration) -> Void = { _ in },
    handler: @escaping HTTPServer.Handler = echoHandler
  ) throws -> TestServer {
    try TestServer(tcp: self == .tcp, unix: self == .unix, configure: configure, handler: handler)
  }

  /// curl arguments that reach `server` at `path`.
  func curlArguments(_ server: TestServer, path: String) -> [String] {
    switch self {
    case .tcp: return [server.baseURL + path]
    case .unix: return ["--unix-socket", server.socketPath, "http://localhost" + path]
    }
  }

  /// A Python expression making an `http.client.HTTPConnection` to the server given as `sys.argv[1]`.
  var pythonConnection: String {
    switch self {
    case .tcp: return "http.client.HTTPConnection('127.0.0.1', int(sys.argv[1]), timeout=5)"
    case .unix: return "UnixConnection(sys.argv[1])"
    }
  }

  /// `sys.argv[1]` for `pythonConnection`.
  func pythonArgument(_ server: TestServer) -> String {
    self == .tcp ? String(server.port) : server.socketPath
  }
}

/// Python prelude: imports and an HTTPConnection over a Unix socket.
let pythonPrelude = """
  import http.client, socket, sys, threading
  class UnixConnection(http.client.HTTPConnection):
      def __init__(self, path):
          super().__init__('localhost', timeout=5)
          self.unix_path = path
      def connect(self):
          self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
          self.sock.settimeout(5)
          self.sock.connect(self.unix_path)

  """

struct ProcessResult {
  var status: Int32
  var standardOutput: String
  var standardError: String
}

/// Runs `executable` with `arguments`, killed if it is still running after `timeout`.
func runProcess(
  _ executable: String, _ arguments: [String], timeout: Duration = .seconds(10)
) throws -> ProcessResult {
  let process = ChildProcess()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let output = ProcessLaunch.pipe()
  let error = ProcessLaunch.pipe()
  process.standardOutput = output
  process.standardError = error
  process.standardInput = FileHandle.nullDevice
  let exited = DispatchSemaphore(value: 0)
  process.terminationHandler = { _ in exited.signal() }
  try process.run()
  // Drained while the process runs, so a chatty child never blocks on a full pipe.
  let outputData = Collected()
  let errorData = Collected()
  let drained = DispatchGroup()
  for (pipe, sink) in [(output, outputData), (error, errorData)] {
    let handle = pipe.fileHandleForReading
    DispatchQueue.global().async(group: drained) {
      let data = handle.readToEndRetryingInterrupts()
      sink.data.withLock { $0 = data }
    }
  }
  if exited.wait(timeout: .now() + .milliseconds(Int(timeout.wholeMillisecondsRoundedUp))) == .timedOut {
    kill(process.processIdentifier, SIGKILL)
    exited.wait()
  }
  drained.wait()
  return ProcessResult(
    status: process.terminationStatus,
    standardOutput: String(decoding: outputData.data.withLock { $0 }, as: UTF8.self),
    standardError: String(decoding: errorData.data.withLock { $0 }, as: UTF8.self))
}

/// What a reader thread collected from a pipe.
private final class Collected: Sendable {
  let data = Mutex(Data())
}

/// curl, silent but for errors, every transfer bounded by 5 s.
func curl(_ arguments: [String]) throws -> ProcessResult {
  try runProcess(curlPath, ["--silent", "--show-error", "--max-time", "5"] + arguments)
}

/// `/usr/bin/python3 -c pythonPrelude+script arguments...`.
func python(_ script: String, _ arguments: [String], timeout: Duration = .seconds(15)) throws -> ProcessResult {
  try runProcess(pythonPath, ["-c", pythonPrelude + script] + arguments, timeout: timeout)
}

/// A response as the raw client read it.
struct RawResponse {
  var status: Int
  var head: String
  var headers: [(name: String, value: String)]
  var body: [UInt8]

  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking socket client that sends exactly the bytes it is given; every read and write is
/// bounded by SO_RCVTIMEO / SO_SNDTIMEO.
// Unchecked: a test may send from one thread while it reads on another; `pending` is only the reader's.
final class RawClient: @unchecked Sendable {
  private(set) var descriptor: Int32
  private var pending: [UInt8] = []

  /// Connects to 127.0.0.1:`port`.
  init(port: UInt16, timeout: Duration = .seconds(5), receiveBufferBytes: Int32? = nil) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw HTTPServerError(step: "socket", errorNumber: errno) }
    if let receiveBufferBytes {
      // Before connect, so the window the server sees is small from the start.
      var size = receiveBufferBytes
      setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    setTimeout(timeout)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let result = withSocketAddress(&address) { connect(descriptor, $0, $1) }
    guard result == 0 else {
      let error = errno
      Glibc.close(descriptor)
      throw HTTPServerError(step: "connect 127.0.0.1:\(port)", errorNumber: error)
    }
  }

  /// Connects to the Unix socket at `path`.
  init(unixPath path: String, timeout: Duration = .seconds(5)) throws {
    descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw HTTPServerError(step: "socket", errorNumber: errno) }
    setTimeout(timeout)
    var (address, length) = try unixSocketAddress(path, step: "connect")
    let result = withSocketAddress(&address) { pointer, _ in connect(descriptor, pointer, length) }
    guard result == 0 else {
      let error = errno
      Glibc.close(descriptor)
      throw HTTPServerError(step: "connect unix \(path)", errorNumber: error)
    }
  }

  deinit { close() }

  func close() {
    if descriptor >= 0 { Glibc.close(descriptor) }
    descriptor = -1
  }

  private func setTimeout(_ timeout: Duration) {
    let milliseconds = Int(timeout.wholeMillisecondsRoundedUp)
    var value = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
  }

  /// Sends all of `bytes`; false when the server has closed or reset the connection.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { raw in
        Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return false }
      offset += count
    }
    return true
  }

  @discardableResult
  func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  /// Reads more into `pending`; false at end of input, on error or timeout.
  private func fill() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return false }
      pending += buffer[0..<count]
      return true
    }
  }

  /// The next response (an interim 1xx included), or nil if the connection ended first.
  func readResponse() -> RawResponse? {
    let separator: [UInt8] = [13, 10, 13, 10]
    var end: Int?
    while end == nil {
      if pending.count >= 4 {
        end = (0...(pending.count - 4)).first { Array(pending[$0..<$0 + 4]) == separator }
      }
      if end == nil && !fill() { return nil }
    }
    let headEnd = end! + 4
    let head = String(decoding: pending[0..<end!], as: UTF8.self)
    pending.removeFirst(headEnd)
    let lines = head.components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
    let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    var response = RawResponse(status: status, head: head, headers: headers, body: [])
    let length = Int(response.header("Content-Length") ?? "0") ?? 0
    while pending.count < length {
      if !fill() { return nil }
    }
    response.body = Array(pending[0..<length])
    pending.removeFirst(length)
    return response
  }

  /// True when the server closed the connection (end of input or a reset) with nothing more to read.
  func readsEndOfInput() -> Bool {
    if !pending.isEmpty { return false }
    var byte: UInt8 = 0
    while true {
      let count = recv(descriptor, &byte, 1, 0)
      if count < 0 && errno == EINTR { continue }
      return count == 0 || (count < 0 && errno == ECONNRESET)
    }
  }

  /// Whether the server has sent anything (or closed) that is not read yet, without waiting.
  func hasInput() -> Bool {
    if !pending.isEmpty { return true }
    var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
    return poll(&descriptors, 1, 0) > 0
  }

  /// Half-closes: the server reads end of input, the client can still read.
  func shutdownOutput() { shutdown(descriptor, Int32(SHUT_WR)) }

  /// Closes with RST instead of FIN (SO_LINGER 0), as a crashing client does.
  func reset() {
    var option = linger(l_onoff: 1, l_linger: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    close()
  }
}

/// Waits until `condition` holds, checking every 10 ms; false if `timeout` passed first.
func eventually(within timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if condition() { return true }
    usleep(10_000)
  }
  return condition()
}

/// How long `body` took.
func measure(_ body: () throws -> Void) rethrows -> Duration {
  let start = ContinuousClock.now
  try body()
  return ContinuousClock.now - start
}

/// The request text for a GET of `path` with CRLF line ends.
func getRequest(_ path: String, extra: String = "") -> String {
  "GET \(path) HTTP/1.1\r\nHost: test\r\n\(extra)\r\n"
}
