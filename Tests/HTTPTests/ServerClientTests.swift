import Foundation
import Synchronization
import Testing

@testable import HTTP

/// Counts the handlers running at once, to show clients were really served side by side.
private final class InFlight: Sendable {
  private let count = Mutex((now: 0, most: 0))

  var most: Int { count.withLock { $0.most } }

  func handler(_ request: HTTPRequest) -> HTTPResponse {
    count.withLock { $0 = (now: $0.now + 1, most: max($0.most, $0.now + 1)) }
    defer { count.withLock { $0.now -= 1 } }
    return echoHandler(request)
  }
}

/// curl and Python's http.client, over TCP and a Unix socket: the clients the daemon will meet.
@Suite struct ServerClientTests {
  @Test(.enabled(if: curlIsInstalled, "needs Debian's curl"), arguments: Transport.allCases)
  func curlGetPostAndChunked(transport: Transport) throws {
    let server = try transport.makeServer()
    defer { server.shutDown() }

    let get = try curl(transport.curlArguments(server, path: "/hello?x=1"))
    #expect(get.status == 0, "\(get.standardError)")
    #expect(get.standardOutput == "GET /hello?x=1 0\n")

    let post = try curl(["--data-binary", "abc"] + transport.curlArguments(server, path: "/post"))
    #expect(post.standardOutput == "POST /post 3\nabc")

    // With this field curl sends the body in chunks of its own making.
    let chunked = try curl(
      ["-H", "Transfer-Encoding: chunked", "--data-binary", "hello chunks"]
        + transport.curlArguments(server, path: "/chunked"))
    #expect(chunked.standardOutput == "POST /chunked 12\nhello chunks")
  }

  @Test(.enabled(if: curlIsInstalled, "needs Debian's curl"), arguments: Transport.allCases)
  func curlReusesOneConnection(transport: Transport) throws {
    let server = try transport.makeServer()
    defer { server.shutDown() }
    // Several URLs in one curl: it keeps the connection; num_connects is 0 for a reused one.
    let result = try curl(
      ["--write-out", " connects=%{num_connects} status=%{http_code}\n"]
        + transport.curlArguments(server, path: "/1") + transport.curlArguments(server, path: "/2").suffix(1)
        + transport.curlArguments(server, path: "/3").suffix(1))
    #expect(
      result.standardOutput
        == "GET /1 0\n connects=1 status=200\nGET /2 0\n connects=0 status=200\nGET /3 0\n connects=0 status=200\n")
    #expect(server.server.acceptedConnectionCount == 1)
  }

  @Test(.enabled(if: curlIsInstalled, "needs Debian's curl"))
  func curlGetsContinueBeforeSendingALargeBody() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let file = server.directory.path + "/body"
    try Data(repeating: 0x61, count: 200_000).write(to: URL(fileURLWithPath: file))
    // Named explicitly: the size at which curl adds it by itself differs between versions.
    let result = try curl(
      ["--verbose", "-H", "Expect: 100-continue", "--data-binary", "@" + file, server.baseURL + "/upload"])
    #expect(result.status == 0)
    #expect(result.standardError.contains("< HTTP/1.1 100 Continue"))
    #expect(result.standardOutput.hasPrefix("POST /upload 200000\naaaa"))
  }

  @Test(.enabled(if: curlIsInstalled, "needs Debian's curl"))
  func curlOversizedBodyIs413WithoutSendingIt() throws {
    let server = try TestServer { $0.parserLimits.maximumBodyBytes = 65_536 }
    defer { server.shutDown() }
    let file = server.directory.path + "/body"
    try Data(repeating: 0x61, count: 1_000_000).write(to: URL(fileURLWithPath: file))
    let result = try curl(
      ["--verbose", "--write-out", "%{http_code}", "--data-binary", "@" + file, server.baseURL + "/upload"])
    #expect(result.standardOutput.hasSuffix("413"))
    #expect(result.standardError.contains("< Connection: close"))
    #expect(!result.standardError.contains("100 Continue"))
  }

  @Test(.enabled(if: pythonIsInstalled, "needs Debian's python3"), arguments: Transport.allCases)
  func pythonKeepAliveWithLengthAndChunkedBodies(transport: Transport) throws {
    let server = try transport.makeServer()
    defer { server.shutDown() }
    let script = """
      c = \(transport.pythonConnection)
      ports = set()
      def show(r):
          print(r.status, r.getheader('Connection'), r.read().decode().replace('\\n', '|'))
          ports.add(c.sock.getsockname())
      c.request('GET', '/first'); show(c.getresponse())
      c.request('POST', '/length', body=b'12345'); show(c.getresponse())
      c.request('POST', '/chunked', body=iter([b'ab', b'cde', b'f']), encode_chunked=True); show(c.getresponse())
      for i in range(3):
          c.request('GET', '/again/%d' % i); show(c.getresponse())
      print('sockets', len(ports))
      """
    let result = try python(script, [transport.pythonArgument(server)])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput == """
        200 None GET /first 0|
        200 None POST /length 5|12345
        200 None POST /chunked 6|abcdef
        200 None GET /again/0 0|
        200 None GET /again/1 0|
        200 None GET /again/2 0|
        sockets 1

        """)
    #expect(server.server.acceptedConnectionCount == 1)
  }

  @Test(.enabled(if: pythonIsInstalled, "needs Debian's python3"))
  func pythonOversizedBodyIs413AfterSendingIt() throws {
    let server = try TestServer { $0.parserLimits.maximumBodyBytes = 65_536 }
    defer { server.shutDown() }
    // http.client sends the whole body before it reads: the lingering close lets it read the 413
    // instead of a reset.
    let script = """
      c = \(Transport.tcp.pythonConnection)
      c.request('POST', '/upload', body=b'a' * 1000000)
      r = c.getresponse()
      print(r.status, r.getheader('Connection'))
      """
    let result = try python(script, [String(server.port)])
    #expect(result.standardOutput == "413 close\n", "\(result.standardError)")
  }

  @Test(.enabled(if: pythonIsInstalled, "needs Debian's python3"))
  func headGetsTheHeadOnlyAndTheConnectionStaysInStep() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    // A body after HEAD's head would be read as the next response's status line.
    let script = """
      c = \(Transport.tcp.pythonConnection)
      c.request('HEAD', '/probe'); r = c.getresponse()
      print(r.status, r.getheader('Content-Length'), len(r.read()))
      c.request('GET', '/probe'); r = c.getresponse()
      print(r.status, r.getheader('Content-Length'), r.read().decode().strip())
      """
    let result = try python(script, [String(server.port)])
    #expect(result.standardOutput == "200 14 0\n200 13 GET /probe 0\n", "\(result.standardError)")
  }

  @Test(.enabled(if: pythonIsInstalled, "needs Debian's python3"))
  func theServersOwnAnswersPassThroughTheObserver() throws {
    let seen = Mutex<[Int]>([])
    let server = try TestServer {
      $0.parserLimits.maximumHeaderCount = 10
      $0.ownAnswerObserver = { response in
        seen.withLock { $0.append(response.status.code) }
        var response = response
        response.headers.add(name: "X-Request-Id", value: "own-1")
        return response
      }
    }
    defer { server.shutDown() }
    let script = """
      c = \(Transport.tcp.pythonConnection)
      c.putrequest('GET', '/flood')
      for i in range(20):
          c.putheader('X-Flood-%d' % i, 'v')
      c.endheaders()
      r = c.getresponse()
      print(r.status, r.getheader('X-Request-Id'))
      """
    let result = try python(script, [String(server.port)])
    #expect(result.standardOutput == "431 own-1\n", "\(result.standardError)")
    #expect(seen.withLock { $0 } == [431])
  }

  @Test(.enabled(if: pythonIsInstalled, "needs Debian's python3"))
  func pythonHeaderFloodIs431() throws {
    let server = try TestServer()
    defer { server.shutDown() }
    let script = """
      c = \(Transport.tcp.pythonConnection)
      c.putrequest('GET', '/flood')
      for i in range(500):
          c.putheader('X-Flood-%d' % i, 'v' * 20)
      c.endheaders()
      r = c.getresponse()
      print(r.status, r.getheader('Connection'))
      """
    let result = try python(script, [String(server.port)])
    #expect(result.standardOutput == "431 close\n", "\(result.standardError)")
  }

  @Test(.enabled(if: pythonIsInstalled, "needs Debian's python3"))
  func fiftyConcurrentClientsAllGetTheirOwnAnswers() throws {
    let inFlight = InFlight()
    let server = try TestServer(handler: inFlight.handler)
    defer { server.shutDown() }
    // 50 threads, each with its own keep-alive connection and bodies only it sends; every fifth
    // request waits in the handler, so the clients really overlap.
    let script = """
      errors = []
      def client(n):
          try:
              c = http.client.HTTPConnection('127.0.0.1', int(sys.argv[1]), timeout=10)
              for i in range(4):
                  body = ('client %d request %d ' % (n, i)).encode() * (n + 1)
                  path = '/sleep/100' if i == 1 else '/c/%d/%d' % (n, i)
                  c.request('POST', path, body=body)
                  r = c.getresponse()
                  got = r.read()
                  want = ('POST %s %d\\n' % (path, len(body))).encode() + body
                  if r.status != 200 or got != want:
                      errors.append('client %d request %d: %d %r' % (n, i, r.status, got[:60]))
          except Exception as e:
              errors.append('client %d: %r' % (n, e))
      threads = [threading.Thread(target=client, args=(n,)) for n in range(50)]
      for t in threads: t.start()
      for t in threads: t.join()
      print('errors', len(errors)); print('\\n'.join(errors[:5]))
      """
    let result = try python(script, [String(server.port)], timeout: .seconds(30))
    #expect(result.standardOutput.hasPrefix("errors 0\n"), "\(result.standardOutput) \(result.standardError)")
    #expect(server.server.acceptedConnectionCount == 50)
    // Each client's second request waits 100 ms in the handler; one connection at a time would
    // never have two handlers running.
    #expect(inFlight.most >= 10)
  }
}
