import Foundation
import Glibc
import Testing

@testable import HTTP

/// What only a raw socket sends: pipelining, interim responses, malformed and half-closed input.
@Suite struct ServerProtocolTests {
  @Test func pipelinedRequestsAreAnsweredInOrder() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    // Four requests in one write: a GET, a slow GET, a POST with a length, a chunked POST that ends
    // the connection. The slow one must not let the next overtake it.
    client.send(
      getRequest("/a") + getRequest("/sleep/200")
        + "POST /b HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nxyz"
        + "POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        + "2\r\nhi\r\n0\r\nX-Sum: 1\r\n\r\n")
    let responses = (0..<4).compactMap { _ in client.readResponse() }
    #expect(
      responses.map(\.text) == ["GET /a 0\n", "GET /sleep/200 0\n", "POST /b 3\nxyz", "POST /c 2\nhi"])
    #expect(responses.last?.header("Connection") == "close")
    #expect(responses.last?.header("X-Trailers") == "1")
    #expect(responses.dropLast().allSatisfy { $0.header("Connection") == nil })
    #expect(client.readsEndOfInput())
    #expect(server.server.acceptedConnectionCount == 1)
  }

  @Test func pipelinedRequestsSplitAcrossWritesAtEveryByte() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    let text = Array((getRequest("/x") + "POST /y HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nok").utf8)
    for byte in text {
      client.send([byte])
      usleep(200)
    }
    #expect(client.readResponse()?.text == "GET /x 0\n")
    #expect(client.readResponse()?.text == "POST /y 2\nok")
  }

  @Test func continueIsSentBeforeTheBody() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    client.send("POST /e HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
    let interim = client.readResponse()
    #expect(interim?.status == 100)
    #expect(interim?.head == "HTTP/1.1 100 Continue")
    client.send("hello")
    #expect(client.readResponse()?.text == "POST /e 5\nhello")
  }

  @Test func noContinueWhenTheBodyCameWithTheHead() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    client.send("POST /e HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\nhello")
    let response = client.readResponse()
    #expect(response?.status == 200)
    #expect(response?.text == "POST /e 5\nhello")
  }

  @Test func continueIsNotSentForARefusedBody() throws {
    let server = try TestServer { $0.parserLimits.maximumBodyBytes = 10 }
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    client.send("POST /e HTTP/1.1\r\nHost: t\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\n")
    let response = client.readResponse()
    #expect(response?.status == 413)
    #expect(response?.header("Connection") == "close")
    #expect(client.readsEndOfInput())
  }

  @Test(arguments: [
    ("GARBAGE\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\n\r\n", 400),  // no Host
    ("GET / HTTP/1.1\nHost: t\n\n", 400),  // LF without CR
    ("GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: t\r\n\r\n", 411),
    ("GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: t\r\n\r\n", 414),
    ("GET / HTTP/2.0\r\nHost: t\r\n\r\n", 505),
  ])
  func malformedRequestsGetTheirStatusAndTheServerKeepsServing(request: String, status: Int) throws {
    let server = try TestServer()
    defer { server.shutDown() }
    // A keep-alive client connected before the bad one must be unaffected by it.
    let bystander = try RawClient(port: server.port)
    bystander.send(getRequest("/before"))
    #expect(bystander.readResponse()?.status == 200)

    let bad = try RawClient(port: server.port)
    bad.send(request + getRequest("/never-answered"))
    let response = bad.readResponse()
    #expect(response?.status == status)
    #expect(response?.header("Connection") == "close")
    #expect(response?.header("Date") != nil)
    #expect(bad.readsEndOfInput())

    bystander.send(getRequest("/after"))
    #expect(bystander.readResponse()?.text == "GET /after 0\n")
    let newcomer = try RawClient(port: server.port)
    newcomer.send(getRequest("/new"))
    #expect(newcomer.readResponse()?.status == 200)
  }

  @Test func endlessHeaderLineIs431() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    client.send("GET / HTTP/1.1\r\nHost: t\r\nX-Endless: ")
    let chunk = String(repeating: "v", count: 4096)
    // The server answers once the field is over the limit; later sends may fail, which is fine.
    for _ in 0..<8 { client.send(chunk) }
    #expect(client.readResponse()?.status == 431)
  }

  @Test func dateFieldOnEveryResponse() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    client.send(getRequest("/"))
    let date = try #require(client.readResponse()?.header("Date"))
    // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT".
    #expect(date.count == 29)
    #expect(date.hasSuffix(" GMT"))
    let now = HTTPDate.now()
    #expect(date.prefix(16) == now.prefix(16))
  }

  @Test func dateFormat() {
    #expect(HTTPDate.string(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(HTTPDate.string(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    #expect(HTTPDate.string(secondsSince1970: 951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
  }

  @Test func http10KeepAliveOnlyWhenAsked() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    client.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
    #expect(client.readResponse()?.header("Connection") == "keep-alive")
    client.send("GET /b HTTP/1.0\r\n\r\n")
    let last = client.readResponse()
    #expect(last?.text == "GET /b 0\n")
    #expect(last?.header("Connection") == "close")
    #expect(client.readsEndOfInput())
  }

  @Test func handlerCanAskToClose() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    client.send(getRequest("/close") + getRequest("/never"))
    let response = client.readResponse()
    #expect(response?.header("Connection") == "close")
    #expect(client.readsEndOfInput())
  }

  @Test func halfClosedClientStillGetsItsAnswers() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let client = try RawClient(port: server.port)
    client.send(getRequest("/one") + getRequest("/sleep/100"))
    client.shutdownOutput()
    #expect(client.readResponse()?.text == "GET /one 0\n")
    #expect(client.readResponse()?.text == "GET /sleep/100 0\n")
    #expect(client.readsEndOfInput())
  }

  @Test func clientsThatResetOrVanishDoNotHurtTheServer() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    // Each sends a request to a slow route and resets before the answer: the server's write then
    // meets EPIPE or ECONNRESET, which must not raise SIGPIPE in this (the test) process.
    for _ in 0..<10 {
      let client = try RawClient(port: server.port)
      client.send(getRequest("/sleep/50"))
      client.reset()
    }
    // Some vanish mid-request, some mid-body, some after a big response they never read.
    for partial in [
      "GET / HT", "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc", getRequest("/big/5000000"),
    ] {
      let client = try RawClient(port: server.port)
      client.send(partial)
      usleep(20_000)
      client.reset()
    }
    #expect(eventually { server.server.connectionCount == 0 })
    let client = try RawClient(port: server.port)
    client.send(getRequest("/still-here"))
    #expect(client.readResponse()?.text == "GET /still-here 0\n")
  }
}
