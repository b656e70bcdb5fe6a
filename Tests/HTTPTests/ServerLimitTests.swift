import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

@testable import HTTP

/// Timeouts and the connection limit: a client that is slow, silent, greedy or not reading costs a
/// bounded time and one connection, while everyone else is served.
@Suite struct ServerLimitTests {
  @Test(.enabled(if: curlIsInstalled, "needs Debian's curl"))
  func tricklingClientIsDroppedWhileOthersAreServed() throws {
    let server = try TestServer { $0.requestReadTimeout = .milliseconds(1500) }
    defer { server.shutDown() }
    let trickler = try RawClient(port: server.port)
    let stopTrickling = Atomic<Bool>(false)
    let trickled = DispatchSemaphore(value: 0)
    // One byte every 50 ms, steadily: a per-read timeout would never fire.
    DispatchQueue.global().async {
      for byte in Array("GET / HTTP/1.1\r\nHost: t\r\nX-Slow: \(String(repeating: "z", count: 200))".utf8) {
        if stopTrickling.load(ordering: .relaxed) || !trickler.send([byte]) { break }
        usleep(50_000)
      }
      trickled.signal()
    }
    defer {
      stopTrickling.store(true, ordering: .relaxed)
      trickled.wait()
    }
    usleep(100_000)
    let result = try curl([server.baseURL + "/meanwhile"])
    #expect(result.standardOutput == "GET /meanwhile 0\n")
    // Served while the trickler was still connected and unanswered: its thread did not hold others up.
    #expect(!trickler.hasInput())
    #expect(server.server.connectionCount >= 1)

    var response: RawResponse?
    let dropped = measure { response = trickler.readResponse() }
    #expect(response?.status == 408)
    #expect(response?.header("Connection") == "close")
    // About 1.5 s after its first byte; far less than the 10 s the whole trickle would take.
    #expect(dropped < .seconds(4))
    stopTrickling.store(true, ordering: .relaxed)
    #expect(eventually { server.server.connectionCount == 0 })
  }

  @Test func silentConnectionIsClosedAfterTheIdleTimeout() throws {
    let server = try TestServer { $0.idleTimeout = .milliseconds(300) }
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    client.send(getRequest("/one"))
    #expect(client.readResponse()?.status == 200)
    let waited = measure { #expect(client.readsEndOfInput()) }
    #expect(waited > .milliseconds(200) && waited < .seconds(3))
    #expect(eventually { server.server.connectionCount == 0 })
  }

  @Test func overTheConnectionLimitIs503WithRetryAfter() throws {
    let server = try TestServer {
      $0.maximumConnections = 2
      $0.retryAfterSeconds = 7
    }
    defer { server.shutDown() }
    let first = try RawClient(port: server.port)
    let second = try RawClient(port: server.port)
    for client in [first, second] {
      client.send(getRequest("/hold"))
      #expect(client.readResponse()?.status == 200)
    }
    let third = try RawClient(port: server.port)
    third.send(getRequest("/refused"))
    let refused = third.readResponse()
    #expect(refused?.status == 503)
    #expect(refused?.header("Retry-After") == "7")
    #expect(refused?.header("Connection") == "close")
    #expect(third.readsEndOfInput())
    #expect(server.server.rejectedConnectionCount == 1)

    // A slot frees when a client leaves.
    first.close()
    #expect(eventually { server.server.connectionCount == 1 })
    let fourth = try RawClient(port: server.port)
    fourth.send(getRequest("/admitted"))
    #expect(fourth.readResponse()?.text == "GET /admitted 0\n")
    second.send(getRequest("/still"))
    #expect(second.readResponse()?.status == 200)
  }

  @Test func clientThatDoesNotReadIsDroppedAfterTheWriteTimeout() throws {
    let server = try TestServer { $0.writeTimeout = .milliseconds(500) }
    defer { server.shutDown() }
    // A small receive window and a 32 MiB response: the server's send blocks almost at once.
    let greedy = try RawClient(port: server.port, receiveBufferBytes: 4096)
    greedy.send(getRequest("/big/33554432"))
    #expect(eventually { server.server.connectionCount == 1 })
    let other = try RawClient(port: server.port)
    other.send(getRequest("/meanwhile"))
    #expect(other.readResponse()?.status == 200)
    other.close()
    #expect(eventually(within: .seconds(4)) { server.server.connectionCount == 0 })
  }

  @Test func readTimeoutCoversTheBodyToo() throws {
    let server = try TestServer { $0.requestReadTimeout = .milliseconds(400) }
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    client.send("POST /slow HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\nonly part")
    let response = client.readResponse()
    #expect(response?.status == 408)
    #expect(client.readsEndOfInput())
  }
}
