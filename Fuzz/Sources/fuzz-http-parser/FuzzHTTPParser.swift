// Fuzzes HTTPRequestParser: the bytes of a connection fed whole, in fuzzer-chosen chunks and one byte
// at a time must give the same events, and every event sequence must keep the parser's promises.
//
// Input: byte 0 = flags (bit 7: the small limits; bits 0-3: how many chunk lengths follow), then
// that many chunk lengths (used in turn, 0 = an empty feed), then the connection's bytes.

import FuzzSupport
// @testable for `retainedByteCount`, the parser's memory bound (the fuzz build enables testing).
@testable import HTTP

// Small enough that the fuzzer reaches every limit with inputs of a few KiB.
private let smallLimits = HTTPRequestParser.Limits(
  maximumRequestTargetBytes: 64, maximumHeaderSectionBytes: 256, maximumHeaderCount: 8, maximumBodyBytes: 512)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPParser(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let input = fuzzInput(start, count)
  guard let flags = input.first else { return 0 }
  let limits = flags & 0x80 != 0 ? smallLimits : HTTPRequestParser.Limits()
  let lengthCount = min(Int(flags & 0x0f), input.count - 1)
  let chunkLengths = input[1..<1 + lengthCount].map(Int.init)
  let connection = UnsafeBufferPointer(rebasing: input[(1 + lengthCount)...])

  let whole = feedAll(connection, limits: limits, chunkLengths: [])
  checkEvents(whole.events, parser: whole.parser)
  let chunked = feedAll(connection, limits: limits, chunkLengths: chunkLengths)
  invariant(chunked.events == whole.events, "chunks \(chunkLengths) gave other events than one feed")
  let bytewise = feedAll(connection, limits: limits, chunkLengths: [1])
  invariant(bytewise.events == whole.events, "one byte at a time gave other events than one feed")
  invariant(
    chunked.parser.isIdle == whole.parser.isIdle && bytewise.parser.isIdle == whole.parser.isIdle,
    "isIdle depends on how the bytes were split")
  return 0
}

/// Feeds `bytes` in chunks of the given lengths, used in turn (all at once when there are none),
/// checking after every feed what must hold whatever the split.
private func feedAll(
  _ bytes: UnsafeBufferPointer<UInt8>, limits: HTTPRequestParser.Limits, chunkLengths: [Int]
) -> (events: [HTTPRequestParser.Event], parser: HTTPRequestParser) {
  var parser = HTTPRequestParser(limits: limits)
  var events: [HTTPRequestParser.Event] = []
  // Every feed that makes no progress still counts, so all-zero lengths cannot loop forever.
  let lengths = chunkLengths.contains { $0 > 0 } ? chunkLengths : [bytes.count]
  var offset = 0
  var turn = 0
  while offset < bytes.count {
    let length = min(lengths[turn % lengths.count], bytes.count - offset)
    turn += 1
    let wasFinished = parser.isFinished
    let new = parser.feed(UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]))
    offset += length
    invariant(!wasFinished || new.isEmpty, "a finished parser returned events")
    invariant(parser.retainedByteCount <= retentionBound(limits), "the parser holds more than its limits allow")
    events += new
  }
  return (events, parser)
}

/// The most a parser may buffer: one line of the longest kind, the header section, and the body.
private func retentionBound(_ limits: HTTPRequestParser.Limits) -> Int {
  let requestLine = 32 + 1 + limits.maximumRequestTargetBytes + 1 + 8 + 2
  let chunkSizeLine = 4096
  return max(requestLine, limits.maximumHeaderSectionBytes, chunkSizeLine) + limits.maximumHeaderSectionBytes
    + limits.maximumBodyBytes
}

private func checkEvents(_ events: [HTTPRequestParser.Event], parser: HTTPRequestParser) {
  let limits = parser.limits
  for (index, event) in events.enumerated() {
    let isLast = index == events.count - 1
    switch event {
    case .error(let error):
      invariant(isLast, "an error was not the last event")
      invariant(parser.isFinished, "the parser reads on after an error")
      invariant(error.status.code >= 400 && error.status.code < 600, "an error with status \(error.status)")
    case .request(let request):
      invariant(!request.method.isEmpty, "a request without a method")
      invariant(
        request.target.utf8.count <= limits.maximumRequestTargetBytes, "a target over the limit was accepted")
      invariant(
        request.headers.count + request.trailers.count <= limits.maximumHeaderCount,
        "more fields than the limit were accepted")
      invariant(request.body.count <= limits.maximumBodyBytes, "a body over the limit was accepted")
      if !request.keepAlive {
        invariant(isLast, "a request after one that closes the connection")
        invariant(parser.isFinished, "the parser reads on after a request that closes the connection")
      }
    case .expectContinue(let head):
      // The same request completes next, or an error ends the connection, or the input ran out.
      if !isLast {
        switch events[index + 1] {
        case .request(let request): invariant(request.head == head, "100-continue for another request")
        case .error: break
        case .expectContinue: invariant(false, "two 100-continue events in a row")
        }
      }
    }
  }
}
