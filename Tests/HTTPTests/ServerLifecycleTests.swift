import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

@testable import HTTP

/// start and stop, Unix socket files, and the systemd protocol.
@Suite struct ServerLifecycleTests {
  /// A handler that reports when it has begun, so a test can stop the server mid-request.
  private final class Entered: Sendable {
    let semaphore = DispatchSemaphore(value: 0)
    func handler(_ request: HTTPRequest) -> HTTPResponse {
      if request.target.hasPrefix("/sleep/") { semaphore.signal() }
      return echoHandler(request)
    }
  }

  @Test(.enabled(if: curlIsInstalled, "needs Debian's curl"))
  func stopFinishesTheRequestInProgress() throws {
    let entered = Entered()
    let server = try TestServer(unix: true, handler: entered.handler)
    defer { server.shutDown() }
    let answered = Mutex<ProcessResult?>(nil)
    let done = DispatchSemaphore(value: 0)
    let url = server.baseURL + "/sleep/1000"
    DispatchQueue.global().async {
      let result = try? curl(["--include", url])
      answered.withLock { $0 = result }
      done.signal()
    }
    #expect(entered.semaphore.wait(timeout: .now() + 5) == .success)
    let stopping = measure { server.server.stop(drainingFor: .seconds(5)) }
    done.wait()
    let output = try #require(answered.withLock { $0 }).standardOutput
    #expect(output.hasPrefix("HTTP/1.1 200 OK\r\n"))
    #expect(output.contains("Connection: close\r\n"))
    #expect(output.hasSuffix("GET /sleep/1000 0\n"))
    // It waited for the handler (about 1 s), not for the whole bound.
    #expect(stopping > .milliseconds(500) && stopping < .seconds(4))
    // Nothing listens any more, and the socket file is gone.
    #expect(throws: HTTPServerError.self) { try RawClient(port: server.port) }
    #expect(access(server.socketPath, F_OK) != 0)
  }

  @Test func stopClosesIdleConnectionsAtOnce() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let idle = try RawClient(port: server.port)
    idle.send(getRequest("/one"))
    #expect(idle.readResponse()?.status == 200)
    let silent = try RawClient(port: server.port)
    #expect(eventually { server.server.connectionCount == 2 })
    let stopping = measure { server.server.stop(drainingFor: .seconds(10)) }
    #expect(stopping < .seconds(2))
    #expect(idle.readsEndOfInput())
    #expect(silent.readsEndOfInput())
    #expect(server.server.connectionCount == 0)
  }

  @Test func stopIsBoundedWhenAHandlerRunsLong() throws {
    let entered = Entered()
    let server = try TestServer(handler: entered.handler)
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    client.send(getRequest("/sleep/3000"))
    #expect(entered.semaphore.wait(timeout: .now() + 5) == .success)
    let stopping = measure { server.server.stop(drainingFor: .milliseconds(200)) }
    #expect(stopping < .seconds(2))
    // The connection was shut down: the client sees its end, never a response.
    #expect(client.readResponse() == nil)
  }

  @Test func stopAndStartAreIdempotent() throws {
    // A port below the ephemeral range: the other tests' servers (port 0) never take it once it is
    // freed, so a refused connection below says this server's listener is closed.
    let port = try #require((0..<100).lazy.map { _ in UInt16.random(in: 20_000..<32_000) }.first(where: isFree))
    let server = try TestServer { $0.listeners = [.tcp(host: "127.0.0.1", port: port)] }
    defer { server.shutDown() }
    try server.server.start()  // already running: nothing happens
    #expect(server.port == port)
    server.server.stop(drainingFor: .seconds(1))
    server.server.stop(drainingFor: .seconds(1))
    #expect(throws: HTTPServerError.self) { try server.server.start() }
    #expect(throws: HTTPServerError.self) { try RawClient(port: port) }

    let neverStarted = HTTPServer(configuration: .init(listeners: [.tcp(port: 0)]), handler: echoHandler)
    neverStarted.stop(drainingFor: .seconds(1))
    #expect(neverStarted.tcpPorts.isEmpty)
  }

  @Test func concurrentStopsBothReturnAfterTheDrain() throws {
    let entered = Entered()
    let server = try TestServer(handler: entered.handler)
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    client.send(getRequest("/sleep/300"))
    #expect(entered.semaphore.wait(timeout: .now() + 5) == .success)
    let group = DispatchGroup()
    for _ in 0..<2 {
      DispatchQueue.global().async(group: group) { server.server.stop(drainingFor: .seconds(5)) }
    }
    #expect(group.wait(timeout: .now() + 5) == .success)
    #expect(client.readResponse()?.text == "GET /sleep/300 0\n")
  }

  @Test func unixSocketHasMode0660AndIsRemovedAtStop() throws {
    let server = try TestServer(tcp: false, unix: true)
    defer { server.shutDown() }
    var status = stat()
    #expect(stat(server.socketPath, &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFSOCK)
    #expect(status.st_mode & 0o7777 == 0o660)
    #expect(server.server.addresses == ["unix:\(server.socketPath)"])
    #expect(server.server.tcpPorts.isEmpty)
    server.server.stop(drainingFor: .seconds(1))
    #expect(access(server.socketPath, F_OK) != 0)
  }

  @Test func staleSocketIsReplacedButLiveOnesAndOtherFilesAreNot() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/http.sock"
    let configuration = HTTPServer.Configuration(listeners: [.unix(path: path)])

    // A socket file whose server is gone: bound, then closed without unlinking.
    var (address, length) = try unixSocketAddress(path, step: "test")
    let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #expect(withSocketAddress(&address) { pointer, _ in bind(stale, pointer, length) } == 0)
    close(stale)
    let server = HTTPServer(configuration: configuration, handler: echoHandler)
    try server.start()
    defer { server.stop(drainingFor: .seconds(1)) }
    let client = try RawClient(unixPath: path)
    client.send(getRequest("/replaced"))
    #expect(client.readResponse()?.status == 200)

    // A second server on the same path must not steal the live one's socket.
    let second = HTTPServer(configuration: configuration, handler: echoHandler)
    #expect(throws: HTTPServerError.self) { try second.start() }
    let again = try RawClient(unixPath: path)
    again.send(getRequest("/first-still-serves"))
    #expect(again.readResponse()?.status == 200)

    // A regular file is never deleted.
    let file = directory.path + "/not-a-socket"
    #expect(FileManager.default.createFile(atPath: file, contents: Data("keep".utf8)))
    let third = HTTPServer(configuration: .init(listeners: [.unix(path: file)]), handler: echoHandler)
    let error = #expect(throws: HTTPServerError.self) { try third.start() }
    #expect(error?.errorNumber == EEXIST)
    #expect(FileManager.default.contents(atPath: file) == Data("keep".utf8))
  }

  @Test(
    .enabled(if: curlIsInstalled, "needs Debian's curl"),
    .enabled(if: ipv6LoopbackWorks, "needs an IPv6 loopback (::1)"))
  func listensOnIPv6Loopback() throws {
    let server = HTTPServer(configuration: .init(listeners: [.tcp(host: "::1", port: 0)]), handler: echoHandler)
    try server.start()
    defer { server.stop(drainingFor: .seconds(1)) }
    let port = try #require(server.tcpPorts.first)
    #expect(server.addresses == ["[::1]:\(port)"])
    #expect(try curl(["http://[::1]:\(port)/six"]).standardOutput == "GET /six 0\n")
  }

  @Test func startFailsCleanlyOnAPortInUse() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let clash = HTTPServer(
      configuration: .init(listeners: [.unix(path: server.socketPath), .tcp(port: server.port)]),
      handler: echoHandler)
    let error = #expect(throws: HTTPServerError.self) { try clash.start() }
    #expect(error?.errorNumber == EADDRINUSE)
    // The Unix socket opened before the failure was closed and removed again.
    #expect(access(server.socketPath, F_OK) != 0)
  }

  @Test(arguments: [
    HTTPServer.Configuration(listeners: []),
    HTTPServer.Configuration(listeners: [.tcp(port: 0)], maximumConnections: 0),
    HTTPServer.Configuration(listeners: [.tcp(port: 0)], idleTimeout: .zero),
    HTTPServer.Configuration(listeners: [.tcp(host: "localhost", port: 0)]),
    HTTPServer.Configuration(listeners: [.unix(path: "/tmp/" + String(repeating: "p", count: 120))]),
  ])
  func badConfigurationsAreRefusedAtStart(configuration: HTTPServer.Configuration) {
    let server = HTTPServer(configuration: configuration, handler: echoHandler)
    #expect(throws: HTTPServerError.self) { try server.start() }
  }

  // MARK: systemd

  @Test func listenVariables() throws {
    let pid: Int32 = 4242
    func passed(_ environment: [String: String]) throws -> [Int32] {
      try SystemdActivation.passedDescriptors(environment: environment, processID: pid, firstDescriptor: 3)
    }
    #expect(try passed([:]) == [])
    #expect(try passed(["LISTEN_PID": "4242", "LISTEN_FDS": "2"]) == [3, 4])
    #expect(try passed(["LISTEN_PID": "4242", "LISTEN_FDS": "0"]) == [])
    // Meant for another process (inherited through a wrapper): not ours to take.
    #expect(try passed(["LISTEN_PID": "1", "LISTEN_FDS": "2"]) == [])
    #expect(throws: HTTPServerError.self) { try passed(["LISTEN_PID": "abc", "LISTEN_FDS": "1"]) }
    #expect(throws: HTTPServerError.self) { try passed(["LISTEN_PID": "4242"]) }
    #expect(throws: HTTPServerError.self) { try passed(["LISTEN_PID": "4242", "LISTEN_FDS": "-1"]) }
  }

  @Test func refusesADescriptorThatIsNotAListeningSocket() throws {
    var descriptors: [Int32] = [-1, -1]
    #expect(pipe(&descriptors) == 0)
    defer { for descriptor in descriptors { close(descriptor) } }
    let listener = HTTPServer.Listener.systemd(
      environment: ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "1"], processID: getpid(),
      firstDescriptor: descriptors[0])
    let server = HTTPServer(configuration: .init(listeners: [listener]), handler: echoHandler)
    let error = #expect(throws: HTTPServerError.self) { try server.start() }
    #expect(error?.errorNumber == ENOTSOCK)
  }

  @Test(arguments: [false, true])
  func notifiesReadinessOverPathAndAbstractSockets(abstract: Bool) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let name = abstract ? "@dsa-run-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" : directory.path + "/notify"
    var (address, length) = try unixSocketAddress(name, step: "test")
    let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    defer { close(receiver) }
    #expect(withSocketAddress(&address) { pointer, _ in bind(receiver, pointer, length) } == 0)
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(receiver, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

    try HTTPServer.notifySystemd(state: "READY=1", socketAddress: name)
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = buffer.withUnsafeMutableBytes { recv(receiver, $0.baseAddress, $0.count, 0) }
    #expect(count == 7)
    #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "READY=1")
  }

  @Test func notifyRefusesUnsupportedAddresses() {
    #expect(throws: HTTPServerError.self) { try HTTPServer.notifySystemd(state: "READY=1", socketAddress: "vsock:2:1") }
    #expect(throws: HTTPServerError.self) {
      try HTTPServer.notifySystemd(state: "READY=1", socketAddress: "/nonexistent/notify")
    }
  }
}

/// Whether 127.0.0.1:`port` can be bound (nobody holds it).
private func isFree(_ port: UInt16) -> Bool {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { return false }
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = port.bigEndian
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
  } == 0
}
