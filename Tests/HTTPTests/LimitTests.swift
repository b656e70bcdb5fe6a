import Foundation
import Testing

@testable import HTTP

/// Each limit exactly at its boundary (accepted) and one byte or field over it (refused).
@Suite struct LimitTests {
  /// A GET whose target is `length` bytes.
  private func request(targetBytes length: Int) -> [UInt8] {
    bytes("GET /" + String(repeating: "t", count: length - 1) + " HTTP/1.1\r\nHost: a\r\n\r\n")
  }

  /// A GET whose header section (field lines, CRLFs and the final empty line) is `length` bytes.
  private func request(headerSectionBytes length: Int) -> [UInt8] {
    let host = "Host: a\r\n"
    let fixed = host.utf8.count + "X: \r\n".utf8.count + 2
    return bytes("GET / HTTP/1.1\r\n" + host + "X: " + String(repeating: "v", count: length - fixed) + "\r\n\r\n")
  }

  /// A GET with `count` header fields, Host included.
  private func request(headerCount count: Int) -> [UInt8] {
    bytes("GET / HTTP/1.1\r\nHost: a\r\n" + (1..<count).map { "X-\($0): v\r\n" }.joined() + "\r\n")
  }

  private func request(contentLength length: Int) -> [UInt8] {
    bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \(length)\r\n\r\n") + Array(repeating: 0x62, count: length)
  }

  /// A chunked POST whose body is `length` bytes in chunks of at most 4000.
  private func request(chunkedBytes length: Int) -> [UInt8] {
    var text = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
    var left = length
    while left > 0 {
      let size = min(left, 4000)
      text += String(size, radix: 16) + "\r\n" + String(repeating: "c", count: size) + "\r\n"
      left -= size
    }
    return bytes(text + "0\r\n\r\n")
  }

  private func outcome(_ input: [UInt8], limits: HTTPRequestParser.Limits = .init()) -> Int {
    let events = parseAtOnce(input, limits: limits)
    if let error = events.errors.first { return error.status.code }
    return events.requests.count == 1 ? 200 : -1
  }

  @Test func defaults() {
    let limits = HTTPRequestParser.Limits()
    #expect(limits.maximumRequestTargetBytes == 8192)
    #expect(limits.maximumHeaderSectionBytes == 16_384)
    #expect(limits.maximumHeaderCount == 100)
    #expect(limits.maximumBodyBytes == 1_048_576)
  }

  @Test func requestTarget() {
    #expect(outcome(request(targetBytes: 8192)) == 200)
    #expect(outcome(request(targetBytes: 8193)) == 414)
    let small = HTTPRequestParser.Limits(maximumRequestTargetBytes: 10)
    #expect(outcome(request(targetBytes: 10), limits: small) == 200)
    #expect(outcome(request(targetBytes: 11), limits: small) == 414)
  }

  @Test func headerSectionBytes() {
    #expect(request(headerSectionBytes: 16_384).count == "GET / HTTP/1.1\r\n".utf8.count + 16_384)
    #expect(outcome(request(headerSectionBytes: 16_384)) == 200)
    #expect(outcome(request(headerSectionBytes: 16_385)) == 431)
    let small = HTTPRequestParser.Limits(maximumHeaderSectionBytes: 100)
    #expect(outcome(request(headerSectionBytes: 100), limits: small) == 200)
    #expect(outcome(request(headerSectionBytes: 101), limits: small) == 431)
  }

  @Test func headerCount() {
    #expect(outcome(request(headerCount: 100)) == 200)
    #expect(outcome(request(headerCount: 101)) == 431)
    let small = HTTPRequestParser.Limits(maximumHeaderCount: 3)
    #expect(outcome(request(headerCount: 3), limits: small) == 200)
    #expect(outcome(request(headerCount: 4), limits: small) == 431)
  }

  @Test func contentLengthBody() {
    #expect(outcome(request(contentLength: 1_048_576)) == 200)
    #expect(outcome(request(contentLength: 1_048_577)) == 413)
    let small = HTTPRequestParser.Limits(maximumBodyBytes: 5)
    #expect(outcome(request(contentLength: 5), limits: small) == 200)
    #expect(outcome(request(contentLength: 6), limits: small) == 413)
  }

  @Test func chunkedBody() {
    #expect(outcome(request(chunkedBytes: 1_048_576)) == 200)
    #expect(outcome(request(chunkedBytes: 1_048_577)) == 413)
    let small = HTTPRequestParser.Limits(maximumBodyBytes: 5)
    #expect(outcome(request(chunkedBytes: 5), limits: small) == 200)
    #expect(outcome(request(chunkedBytes: 6), limits: small) == 413)
  }

  @Test func trailersShareTheHeaderBudget() {
    let limits = HTTPRequestParser.Limits(maximumHeaderCount: 4)
    let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
    #expect(outcome(bytes(head + "A: 1\r\nB: 2\r\n\r\n"), limits: limits) == 200)
    #expect(outcome(bytes(head + "A: 1\r\nB: 2\r\nC: 3\r\n\r\n"), limits: limits) == 431)
  }

  @Test func limitsApplyAgainToEachPipelinedRequest() {
    // Budgets are per request, not per connection: 100 fields twice is fine.
    let one = request(headerCount: 100)
    #expect(parseAtOnce(one + one).requests.count == 2)
  }

  @Test func headerFloodFailsFastInBoundedMemory() {
    // 10,000 fields: the 101st is refused; the rest is never looked at or buffered.
    let flood = bytes("GET / HTTP/1.1\r\nHost: a\r\n" + (0..<10_000).map { "X-\($0): v\r\n" }.joined() + "\r\n")
    #expect(parseAtOnce(flood).errors.map(\.kind) == [.tooManyHeaderFields])

    var parser = HTTPRequestParser()
    var consumed = 0
    var largestRetained = 0
    var events: [HTTPRequestParser.Event] = []
    while events.isEmpty && consumed < flood.count {
      let piece = flood[consumed..<min(consumed + 64, flood.count)]
      events = parser.feed(piece)
      consumed += piece.count
      largestRetained = max(largestRetained, parser.retainedByteCount)
    }
    #expect(events.errors.map(\.status) == [.requestHeaderFieldsTooLarge])
    // 101 fields of at most 12 bytes each, plus the request line and one feed.
    #expect(consumed < 101 * 12 + 64 + 64)
    #expect(largestRetained <= parser.limits.maximumHeaderSectionBytes)
    #expect(parser.retainedByteCount == 0)
  }

  @Test func endlessHeaderLineFailsFastInBoundedMemory() {
    // One field line that never ends: refused once it passes the section limit, not at its end.
    var parser = HTTPRequestParser()
    var events = parser.feed(bytes("GET / HTTP/1.1\r\nHost: a\r\nX: "))
    let piece = [UInt8](repeating: 0x76, count: 1024)
    var fed = 0
    var largestRetained = 0
    while events.isEmpty && fed < 1024 * 1024 {
      events = parser.feed(piece)
      fed += piece.count
      largestRetained = max(largestRetained, parser.retainedByteCount)
    }
    #expect(events.errors.map(\.status) == [.requestHeaderFieldsTooLarge])
    #expect(fed <= parser.limits.maximumHeaderSectionBytes + piece.count)
    #expect(largestRetained <= parser.limits.maximumHeaderSectionBytes + piece.count)
  }

  @Test func endlessRequestLineFailsFast() {
    var parser = HTTPRequestParser()
    var events = parser.feed(bytes("GET /"))
    var fed = 0
    while events.isEmpty && fed < 1024 * 1024 {
      events = parser.feed([UInt8](repeating: 0x61, count: 1024))
      fed += 1024
    }
    #expect(events.errors.map(\.status) == [.uriTooLong])
    #expect(fed <= parser.limits.maximumRequestTargetBytes + 2048)
  }
}
