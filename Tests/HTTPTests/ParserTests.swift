import Foundation
import Testing

@testable import HTTP

/// Valid inputs, each a whole connection's worth of bytes.
struct ValidCase: Sendable, CustomTestStringConvertible {
  let name: String
  let input: [UInt8]
  var testDescription: String { name }

  init(_ name: String, _ text: String) {
    self.name = name
    input = bytes(text)
  }
}

private let validCases: [ValidCase] = [
  ValidCase("GET", "GET /v1/runtimes?x=1 HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n"),
  ValidCase(
    "POST with Content-Length",
    "POST /v1/execute HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n"
      + "{\"x\": \"y\r\n\"}"),
  ValidCase(
    "chunked with extensions and trailers",
    "POST /v1/execute HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
      + "5;name=value\r\nhello\r\n6 ; a=\"q;x\" ;b\r\n world\r\n0;last\r\nX-Checksum: abc\r\n\r\n"),
  ValidCase(
    "three pipelined",
    "GET /a HTTP/1.1\r\nHost: a\r\n\r\n"
      + "POST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
      + "PUT /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nde\r\n0\r\n\r\n"),
  ValidCase(
    "100-continue", "PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\nbody"),
  ValidCase("HTTP/1.0 keep-alive", "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /2 HTTP/1.0\r\n\r\n"),
  ValidCase("empty line before request", "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"),
]

@Suite struct ParserTests {
  @Test(arguments: validCases)
  func splitPointsDoNotMatter(_ testCase: ValidCase) {
    let whole = parseAtOnce(testCase.input)
    #expect(whole.errors.isEmpty)
    #expect(!whole.requests.isEmpty)
    #expect(parseByteByByte(testCase.input) == whole)
    // Bounded and seeded: the same 300 splittings on every run.
    var generator = SeededGenerator(seed: 0x4854_5450)
    for _ in 0..<300 {
      let cuts = randomCuts(count: testCase.input.count, maximumCuts: 12, using: &generator)
      #expect(parse(testCase.input, cutAt: cuts) == whole, "cuts \(cuts)")
    }
  }

  @Test func parsesAGet() throws {
    let events = parseAtOnce(bytes("GET /v1/runtimes?x=1 HTTP/1.1\r\nHost: localhost\r\nAccept:  */* \t\r\n\r\n"))
    let request = try #require(events.requests.first)
    #expect(events.count == 1)
    #expect(request.method == "GET")
    #expect(request.target == "/v1/runtimes?x=1")
    #expect(request.version == .http11)
    #expect(request.headers["host"] == "localhost")
    #expect(request.headers["ACCEPT"] == "*/*", "OWS is trimmed on both sides")
    #expect(request.body.isEmpty)
    #expect(request.keepAlive)
  }

  @Test func headersKeepOrderAndRepeats() throws {
    let events = parseAtOnce(bytes("GET / HTTP/1.1\r\nHost: a\r\nX-B: 1\r\nx-a: 2\r\nX-B: 3\r\nEmpty:\r\n\r\n"))
    let headers = try #require(events.requests.first).headers
    #expect(headers.map(\.name) == ["Host", "X-B", "x-a", "X-B", "Empty"])
    #expect(headers.values(for: "x-b") == ["1", "3"])
    #expect(headers["X-A"] == "2")
    #expect(headers["empty"] == "")
    #expect(headers["missing"] == nil)
  }

  @Test func readsAContentLengthBody() throws {
    var parser = HTTPRequestParser()
    #expect(parser.feed(bytes("POST /v1/execute HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello")).isEmpty)
    #expect(!parser.isIdle)
    let events = parser.feed(bytes(" world"))
    let request = try #require(events.requests.first)
    #expect(request.body == Data("hello world".utf8))
    #expect(parser.isIdle)
  }

  @Test func identicalRepeatedLengthsAreOneLength() throws {
    let events = parseAtOnce(
      bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\nContent-Length: 003\r\n\r\nabc"))
    #expect(try #require(events.requests.first).body == Data("abc".utf8))
  }

  @Test func chunkedWithExtensionsAndTrailers() throws {
    let input = bytes(
      "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n"
        + "5;name=value\r\nhello\r\n006 ; a=\"q;x\" ;b\r\n world\r\nA\r\n0123456789\r\n"
        + "0;last\r\nX-Checksum: abc\r\nX-Other:  1 \r\n\r\n")
    let events = parseAtOnce(input)
    let request = try #require(events.requests.first)
    #expect(events.count == 1)
    #expect(request.body == Data("hello world0123456789".utf8))
    #expect(request.trailers["x-checksum"] == "abc")
    #expect(request.trailers["X-Other"] == "1")
    #expect(request.headers["X-Checksum"] == nil, "trailers are not merged into the header fields")
  }

  @Test func chunkedWithoutTrailers() throws {
    let events = parseAtOnce(bytes("PUT / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"))
    let request = try #require(events.requests.first)
    #expect(request.body.isEmpty)
    #expect(request.trailers.isEmpty)
  }

  @Test func threePipelinedRequestsInOneFeed() {
    let input = bytes(
      "GET /a HTTP/1.1\r\nHost: a\r\n\r\n"
        + "POST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
        + "PUT /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nde\r\n0\r\n\r\n")
    var parser = HTTPRequestParser()
    let requests = parser.feed(input).requests
    #expect(requests.map(\.method) == ["GET", "POST", "PUT"])
    #expect(requests.map(\.target) == ["/a", "/b", "/c"])
    #expect(requests.map(\.body) == [Data(), Data("abc".utf8), Data("de".utf8)])
    #expect(parser.isIdle)
  }

  @Test func pipelinedRequestAfterCloseIsNotParsed() {
    // RFC 9112 §9.6: nothing after a request with Connection: close is processed.
    var parser = HTTPRequestParser()
    let events = parser.feed(
      bytes("GET /a HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n"))
    #expect(events.requests.map(\.target) == ["/a"])
    #expect(events.errors.isEmpty)
    #expect(parser.isFinished)
  }

  @Test(
    arguments: [
      ("HTTP/1.1", nil, true),
      ("HTTP/1.1", "close", false),
      ("HTTP/1.1", "Close", false),
      ("HTTP/1.1", "keep-alive", true),
      ("HTTP/1.1", "Upgrade, close", false),
      ("HTTP/1.0", nil, false),
      ("HTTP/1.0", "keep-alive", true),
      ("HTTP/1.0", "Keep-Alive", true),
      ("HTTP/1.0", "close", false),
      ("HTTP/1.0", "keep-alive, close", false),
    ] as [(String, String?, Bool)])
  func keepAliveFollowsVersionAndConnection(version: String, connection: String?, keepAlive: Bool) throws {
    let field = connection.map { "Connection: \($0)\r\n" } ?? ""
    let events = parseAtOnce(bytes("GET / \(version)\r\nHost: a\r\n\(field)\r\n"))
    let request = try #require(events.requests.first)
    #expect(request.keepAlive == keepAlive)
  }

  @Test func http10WithoutHostIsAccepted() throws {
    let request = try #require(parseAtOnce(bytes("GET / HTTP/1.0\r\n\r\n")).requests.first)
    #expect(request.version == .http10)
    #expect(!request.keepAlive)
  }

  @Test func expectContinueIsReportedBeforeTheBody() throws {
    var parser = HTTPRequestParser()
    let head = parser.feed(
      bytes("POST /v1/execute HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 4\r\n\r\n"))
    #expect(head.count == 1)
    guard case .expectContinue(let requestHead) = head.first else {
      Issue.record("expected .expectContinue, got \(head)")
      return
    }
    #expect(requestHead.target == "/v1/execute")
    let request = try #require(parser.feed(bytes("body")).requests.first)
    #expect(request.head == requestHead)
    #expect(request.body == Data("body".utf8))
  }

  @Test func expectContinueForChunked() {
    let events = parseAtOnce(
      bytes("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"))
    #expect(events.count == 2)
    #expect(events.first?.request == nil && events.first?.error == nil)
    #expect(events.last?.request != nil)
  }

  @Test(arguments: [
    "GET / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx",  // ignored in HTTP/1.0
    "GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n",  // no body to wait for
    "POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n",
    "POST / HTTP/1.1\r\nHost: a\r\nExpect: something-else\r\nContent-Length: 1\r\n\r\nx",
  ])
  func noContinueWithoutABodyToWaitFor(_ text: String) {
    let events = parseAtOnce(bytes(text))
    #expect(events.count == 1)
    #expect(events.first?.request != nil)
  }

  @Test func getWithABodyReadsIt() throws {
    // Not forbidden by HTTP; reading it keeps the connection's framing right.
    let events = parseAtOnce(
      bytes("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhiGET /2 HTTP/1.1\r\nHost: a\r\n\r\n"))
    #expect(events.requests.map(\.target) == ["/", "/2"])
  }

  @Test func idleOnlyBetweenRequests() {
    var parser = HTTPRequestParser()
    #expect(parser.isIdle)
    _ = parser.feed(bytes("G"))
    #expect(!parser.isIdle)
    _ = parser.feed(bytes("ET / HTTP/1.1\r\nHost: a\r\n\r\n"))
    #expect(parser.isIdle)
    #expect(!parser.isFinished)
  }

  @Test func feedsAnyCollection() {
    // Data, slices, arrays and non-contiguous collections all parse the same.
    let text = "GET / HTTP/1.1\r\nHost: a\r\n\r\n"
    var fromData = HTTPRequestParser()
    var fromSlice = HTTPRequestParser()
    var fromLazy = HTTPRequestParser()
    let expected = parseAtOnce(bytes(text))
    #expect(fromData.feed(Data(text.utf8)) == expected)
    #expect(fromSlice.feed(bytes("xx" + text).dropFirst(2)) == expected)
    #expect(fromLazy.feed(text.utf8.lazy.map { $0 }) == expected)
  }
}
