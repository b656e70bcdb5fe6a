import Foundation

/// An incremental, strict HTTP/1.1 request parser: bytes in, events out, no I/O.
///
/// A pure state machine in the shape of async-http-client's connection pool: it never touches a
/// socket, a clock or a thread, so the server around it stays a thin "read, feed, act on the
/// events" loop and every framing rule is tested without a network. Feed it whatever `read`
/// returned: a request may arrive split at any byte boundary, and several pipelined requests may
/// arrive in one read.
///
/// It is strict where leniency would let two HTTP implementations disagree about where a request
/// ends (request smuggling, RFC 9112 §11.2): bare CR, LF without CR, obs-fold, whitespace before
/// a colon, conflicting Content-Length, transfer codings other than `chunked`, or both framings at
/// once are errors, not guesses.
///
/// Memory is bounded by `Limits`: nothing is buffered past the line or body limit before the
/// matching error is reported, whatever the client sends.
///
/// Time is not its business. A client that trickles one byte a minute, or opens a connection and
/// says nothing, never trips a limit here; read and idle timeouts belong to the server, which can
/// use `isIdle` to tell which of the two applies.
///
/// After an `.error` event, or after a request whose `keepAlive` is false, the parser ignores all
/// further input (`isFinished`): the server answers and closes the connection, as RFC 9112 §9.6
/// requires ("MUST NOT process any further requests").
public struct HTTPRequestParser: Sendable {
  /// Bounds on one request, each with its unit in the name; going over one yields its status.
  public struct Limits: Sendable, Equatable {
    /// The request target (path and query), in bytes; longer is 414.
    public var maximumRequestTargetBytes: Int
    /// The header section in bytes: every field line with its CRLF plus the empty line that ends
    /// the section. The request line is bounded by the target limit instead. Trailer fields of a
    /// chunked body count toward the same budget. Larger is 431.
    public var maximumHeaderSectionBytes: Int
    /// Header fields plus trailer fields; more is 431.
    public var maximumHeaderCount: Int
    /// The decoded body in bytes; larger is 413. Checked against Content-Length before any body
    /// byte is read, and against each chunk size before that chunk's data is read.
    public var maximumBodyBytes: Int

    /// Limits with the defaults: 8 KiB target, 16 KiB header section, 100 fields, 1 MiB body.
    public init(
      maximumRequestTargetBytes: Int = 8 * 1024,
      maximumHeaderSectionBytes: Int = 16 * 1024,
      maximumHeaderCount: Int = 100,
      maximumBodyBytes: Int = 1024 * 1024
    ) {
      self.maximumRequestTargetBytes = maximumRequestTargetBytes
      self.maximumHeaderSectionBytes = maximumHeaderSectionBytes
      self.maximumHeaderCount = maximumHeaderCount
      self.maximumBodyBytes = maximumBodyBytes
    }
  }

  /// What the server must act on after a feed, in order.
  public enum Event: Sendable, Equatable {
    /// The head of a request that sent `Expect: 100-continue` is complete and its body has not
    /// arrived yet. The server answers `HTTPResponse.continueHead` to have it sent, or a final
    /// status (and closes) to refuse it without reading it. The same request is later reported by
    /// `.request` unless an error comes first. Only for HTTP/1.1 requests with a body; HTTP/1.0
    /// expectations are ignored as RFC 9110 §10.1.1 requires.
    case expectContinue(HTTPRequestHead)
    /// A complete request.
    case request(HTTPRequest)
    /// The input is not acceptable; answer `error.status` with `Connection: close` and close.
    case error(HTTPParseError)
  }

  /// The limits this parser enforces.
  public let limits: Limits

  // Where the next byte goes.
  private enum State: Equatable {
    case requestLine
    case headerLine
    case body(remaining: Int)
    case chunkSizeLine
    case chunkData(remaining: Int)
    /// After chunk data: the CRLF that must follow it, one byte at a time.
    case chunkDataEnd(sawCarriageReturn: Bool)
    case trailerLine
    /// After an error or a request that closes the connection.
    case finished
  }

  private struct RequestLine {
    var method: String
    var target: String
    var version: HTTPVersion
  }

  // Not configurable because no legitimate client comes near them: the longest registered method
  // is 17 bytes, and chunk extensions are unused in practice.
  private static let maximumMethodBytes = 32
  private static let maximumChunkSizeLineBytes = 4096
  // RFC 9112 §2.2 asks servers to skip at least one empty line before a request line (some old
  // clients send CRLF after a POST body); a few more are tolerated, an endless stream is not.
  private static let maximumLeadingEmptyLines = 4
  // Reserving the whole announced Content-Length up front would let a client that announces 1 MiB
  // and sends nothing pin 1 MiB per connection.
  private static let maximumBodyReservationBytes = 64 * 1024

  private var state = State.requestLine
  /// The current line's bytes up to (not including) its LF.
  private var line: [UInt8] = []
  private var leadingEmptyLines = 0
  private var requestLine: RequestLine?
  private var headers = HTTPHeaders()
  private var head: HTTPRequestHead?
  private var fieldBytes = 0
  private var fieldCount = 0
  private var body = Data()
  private var trailers = HTTPHeaders()

  /// A parser at the start of a connection.
  public init(limits: Limits = Limits()) {
    self.limits = limits
  }

  /// True when no byte of a next request has arrived: a timeout here is an idle timeout and an
  /// end of input is a clean close; otherwise the request is partial and a timeout is a read timeout.
  public var isIdle: Bool { state == .requestLine && line.isEmpty && leadingEmptyLines == 0 }

  /// True after an error or after a request that closes the connection: further input is ignored.
  public var isFinished: Bool { state == .finished }

  /// Bytes held for the request in progress (partial line, fields, body); bounded by `limits`.
  var retainedByteCount: Int { line.count + fieldBytes + body.count }

  /// Parses `bytes`, the next bytes of the connection, and returns what they completed, in order.
  ///
  /// Bytes that do not complete anything are kept until the next call. At most one `.error` is ever
  /// returned, and it is the last event of the connection.
  public mutating func feed(_ bytes: some Collection<UInt8>) -> [Event] {
    if let events = bytes.withContiguousStorageIfAvailable({ consume($0) }) {
      return events
    }
    return Array(bytes).withUnsafeBufferPointer { consume($0) }
  }

  private mutating func consume(_ input: UnsafeBufferPointer<UInt8>) -> [Event] {
    var events: [Event] = []
    var index = 0
    do throws(HTTPParseError) {
      while index < input.count {
        switch state {
        case .finished:
          return events
        case .body(let remaining):
          let count = min(remaining, input.count - index)
          body.append(UnsafeBufferPointer(rebasing: input[index..<index + count]))
          index += count
          if count == remaining {
            events.append(.request(completeRequest()))
          } else {
            state = .body(remaining: remaining - count)
          }
        case .chunkData(let remaining):
          let count = min(remaining, input.count - index)
          body.append(UnsafeBufferPointer(rebasing: input[index..<index + count]))
          index += count
          state =
            count == remaining ? .chunkDataEnd(sawCarriageReturn: false) : .chunkData(remaining: remaining - count)
        case .chunkDataEnd(let sawCarriageReturn):
          let expected = sawCarriageReturn ? ASCII.lineFeed : ASCII.carriageReturn
          guard input[index] == expected else {
            throw HTTPParseError(.badChunk, "chunk data must be followed by CRLF; check the chunk size")
          }
          index += 1
          state = sawCarriageReturn ? .chunkSizeLine : .chunkDataEnd(sawCarriageReturn: true)
        case .requestLine, .headerLine, .chunkSizeLine, .trailerLine:
          // Look no further than the line's budget: an over-long line then fails with exactly its
          // first `lineBudget` bytes buffered, however the bytes were split into reads, so the
          // error (414 or 400 for a request line) cannot depend on the split.
          let start = index
          let end = min(input.count, start + max(0, lineBudget - line.count))
          while index < end && input[index] != ASCII.lineFeed { index += 1 }
          line.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<index]))
          // The LF still to come counts too, so an over-long line fails as soon as it must be over,
          // before the rest of it is buffered.
          if line.count + 1 > lineBudget {
            throw lineTooLong()
          }
          if index < input.count {
            index += 1
            let event = try completeLine()
            line.removeAll(keepingCapacity: true)
            if let event { events.append(event) }
          }
        }
      }
    } catch {
      // Drop what was buffered at once: the connection is going away.
      state = .finished
      line = []
      headers = HTTPHeaders()
      trailers = HTTPHeaders()
      body = Data()
      fieldBytes = 0
      events.append(.error(error))
    }
    return events
  }

  /// How long the current line may grow, CRLF included.
  private var lineBudget: Int {
    switch state {
    case .requestLine:
      // METHOD SP target SP HTTP/x.y CRLF
      return Self.maximumMethodBytes + 1 + limits.maximumRequestTargetBytes + 1 + 8 + 2
    case .headerLine, .trailerLine:
      return limits.maximumHeaderSectionBytes - fieldBytes
    case .chunkSizeLine:
      return Self.maximumChunkSizeLineBytes
    case .body, .chunkData, .chunkDataEnd, .finished:
      return 0
    }
  }

  private func lineTooLong() -> HTTPParseError {
    switch state {
    case .requestLine:
      // The line is over its budget; blame the target when it is the part that is too long.
      let parts = line.split(separator: ASCII.space, maxSplits: 2, omittingEmptySubsequences: false)
      if parts.count >= 2 && parts[1].count > limits.maximumRequestTargetBytes {
        return targetTooLong()
      }
      return HTTPParseError(.badRequestLine, "the request line is too long to be METHOD SP target SP HTTP/1.1")
    case .chunkSizeLine:
      return HTTPParseError(
        .badChunk, "a chunk size line is over \(Self.maximumChunkSizeLineBytes) bytes; drop the chunk extensions")
    default:
      return headerSectionTooLarge()
    }
  }

  private func targetTooLong() -> HTTPParseError {
    HTTPParseError(
      .targetTooLong,
      "the request target is over \(limits.maximumRequestTargetBytes) bytes; send the data in the body")
  }

  private func headerSectionTooLarge() -> HTTPParseError {
    HTTPParseError(
      .headerSectionTooLarge,
      "the header section is over \(limits.maximumHeaderSectionBytes) bytes; send fewer or shorter fields")
  }

  private mutating func completeLine() throws(HTTPParseError) -> Event? {
    guard line.last == ASCII.carriageReturn else {
      throw HTTPParseError(.badLineEnding, "a line ended with LF alone; end every line with CRLF")
    }
    let content = line[..<(line.count - 1)]
    // A CR that does not end a line is read as a line break by some parsers and not by others.
    if content.contains(ASCII.carriageReturn) {
      throw HTTPParseError(.badLineEnding, "a CR not followed by LF; end every line with CRLF")
    }
    switch state {
    case .requestLine:
      try requestLineCompleted(content)
      return nil
    case .headerLine:
      fieldBytes += content.count + 2
      if content.isEmpty { return try headerSectionCompleted() }
      headers.add(try field(content))
      return nil
    case .chunkSizeLine:
      try chunkSizeLineCompleted(content)
      return nil
    case .trailerLine:
      fieldBytes += content.count + 2
      if content.isEmpty { return .request(completeRequest()) }
      trailers.add(try field(content))
      return nil
    case .body, .chunkData, .chunkDataEnd, .finished:
      return nil
    }
  }

  private mutating func requestLineCompleted(_ content: ArraySlice<UInt8>) throws(HTTPParseError) {
    if content.isEmpty {
      leadingEmptyLines += 1
      if leadingEmptyLines > Self.maximumLeadingEmptyLines {
        throw HTTPParseError(.badRequestLine, "too many empty lines before the request line")
      }
      return
    }
    let parts = content.split(separator: ASCII.space, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw HTTPParseError(.badRequestLine, "the request line must be METHOD SP target SP HTTP/1.1")
    }
    let (method, target, version) = (parts[0], parts[1], parts[2])
    if target.count > limits.maximumRequestTargetBytes { throw targetTooLong() }
    guard !method.isEmpty, method.count <= Self.maximumMethodBytes, method.allSatisfy(ASCII.isTokenByte) else {
      throw HTTPParseError(.badRequestLine, "the method must be a token such as GET or POST")
    }
    guard !target.isEmpty, target.allSatisfy(ASCII.isVisible) else {
      throw HTTPParseError(
        .badRequestLine, "the request target must be visible ASCII; percent-encode spaces and non-ASCII bytes")
    }
    requestLine = RequestLine(
      method: String(decoding: method, as: UTF8.self),
      target: String(decoding: target, as: UTF8.self),
      version: try Self.version(version))
    state = .headerLine
  }

  private static func version(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPVersion {
    // HTTP-version = "HTTP/" DIGIT "." DIGIT, case-sensitive (RFC 9112 §2.3).
    let bytes = Array(bytes)
    guard bytes.count == 8, bytes[0..<5].elementsEqual("HTTP/".utf8), ASCII.isDigit(bytes[5]),
      bytes[6] == UInt8(ascii: "."), ASCII.isDigit(bytes[7])
    else {
      throw HTTPParseError(.badRequestLine, "the version must be HTTP/1.1 or HTTP/1.0")
    }
    switch (bytes[5], bytes[7]) {
    case (UInt8(ascii: "1"), UInt8(ascii: "1")): return .http11
    case (UInt8(ascii: "1"), UInt8(ascii: "0")): return .http10
    default: throw HTTPParseError(.unsupportedVersion, "only HTTP/1.1 and HTTP/1.0 are supported")
    }
  }

  /// One `field-name ":" OWS field-value OWS` line of the header or trailer section.
  private mutating func field(_ content: ArraySlice<UInt8>) throws(HTTPParseError) -> (name: String, value: String) {
    fieldCount += 1
    if fieldCount > limits.maximumHeaderCount {
      throw HTTPParseError(
        .tooManyHeaderFields, "more than \(limits.maximumHeaderCount) header fields; send fewer")
    }
    if let first = content.first, ASCII.isWhitespace(first) {
      throw HTTPParseError(
        .badHeaderField, "a field line starts with whitespace; obs-fold is not accepted, put each value on one line")
    }
    guard let colon = content.firstIndex(of: ASCII.colon) else {
      throw HTTPParseError(.badHeaderField, "a field line has no colon")
    }
    let name = content[..<colon]
    if let last = name.last, ASCII.isWhitespace(last) {
      // RFC 9112 §5.1: MUST be rejected, since proxies disagree about whose field it is.
      throw HTTPParseError(.badHeaderField, "whitespace between a field name and its colon")
    }
    guard !name.isEmpty, name.allSatisfy(ASCII.isTokenByte) else {
      throw HTTPParseError(.badHeaderField, "a field name is empty or not a token")
    }
    var value = content[(colon + 1)...]
    while let first = value.first, ASCII.isWhitespace(first) { value = value.dropFirst() }
    while let last = value.last, ASCII.isWhitespace(last) { value = value.dropLast() }
    guard value.allSatisfy(ASCII.isFieldValueByte) else {
      throw HTTPParseError(.badHeaderField, "a field value holds a control byte such as NUL")
    }
    // Values are read as UTF-8; the obs-text bytes of legacy clients that are not UTF-8 become
    // U+FFFD, which is harmless because nothing the server routes on may contain them.
    return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
  }

  /// The empty line after the header fields: decide framing, keep-alive and 100-continue.
  private mutating func headerSectionCompleted() throws(HTTPParseError) -> Event? {
    guard let requestLine else { return nil }
    let hosts = headers.values(for: "Host").count
    // RFC 9112 §3.2: an HTTP/1.1 request without exactly one Host MUST get 400.
    if hosts > 1 || (hosts == 0 && requestLine.version == .http11) {
      throw HTTPParseError(.badHost, "send exactly one Host field")
    }
    let bodyLength = try framing(requestLine)
    if let bodyLength, bodyLength > limits.maximumBodyBytes {
      throw HTTPParseError(
        .bodyTooLarge, "Content-Length is over the \(limits.maximumBodyBytes)-byte limit; send a smaller body")
    }
    let keepAlive =
      switch requestLine.version {
      case .http11: !headers.listContains("close", for: "Connection")
      case .http10:
        headers.listContains("keep-alive", for: "Connection") && !headers.listContains("close", for: "Connection")
      }
    let head = HTTPRequestHead(
      method: requestLine.method, target: requestLine.target, version: requestLine.version, headers: headers,
      keepAlive: keepAlive)
    self.head = head
    switch bodyLength {
    case 0:
      return .request(completeRequest())
    case .some(let length):
      body.reserveCapacity(min(length, Self.maximumBodyReservationBytes))
      state = .body(remaining: length)
    case nil:
      state = .chunkSizeLine
    }
    let expectsContinue =
      requestLine.version == .http11 && headers.listContains("100-continue", for: "Expect")
    return expectsContinue ? .expectContinue(head) : nil
  }

  /// The body length from Content-Length, or nil for chunked (RFC 9112 §6.3).
  private func framing(_ requestLine: RequestLine) throws(HTTPParseError) -> Int? {
    let transferEncodings = headers.values(for: "Transfer-Encoding")
    let contentLengths = headers.values(for: "Content-Length")
    if !transferEncodings.isEmpty {
      guard requestLine.version == .http11 else {
        throw HTTPParseError(.badTransferEncoding, "HTTP/1.0 has no Transfer-Encoding; send Content-Length")
      }
      // Both framings at once is the classic smuggling vector; refuse rather than pick one.
      guard contentLengths.isEmpty else {
        throw HTTPParseError(.badTransferEncoding, "send Transfer-Encoding or Content-Length, not both")
      }
      let codings = transferEncodings.flatMap(ASCII.listElements)
      guard codings.count == 1, ASCII.equalsIgnoringCase(codings[0], "chunked") else {
        throw HTTPParseError(.badTransferEncoding, "the only supported Transfer-Encoding is chunked")
      }
      return nil
    }
    if !contentLengths.isEmpty {
      return try Self.contentLength(contentLengths)
    }
    if requestLine.method == "POST" || requestLine.method == "PUT" {
      throw HTTPParseError(.lengthRequired, "send Content-Length or Transfer-Encoding: chunked with a body")
    }
    // RFC 9112 §6.3 rule 7: a request with neither has no body.
    return 0
  }

  /// One decimal length from every Content-Length value; identical repeats (`5, 5`) are accepted as
  /// RFC 9110 §8.6 allows, anything else is an error. Saturates instead of overflowing, so a
  /// 30-digit length is "too large" (413), not "invalid".
  private static func contentLength(_ values: [String]) throws(HTTPParseError) -> Int {
    var result: Int?
    for value in values {
      for element in value.utf8.split(separator: ASCII.comma, omittingEmptySubsequences: false) {
        let digits = Substring(element).trimmingASCIIWhitespace().utf8
        guard !digits.isEmpty, digits.allSatisfy(ASCII.isDigit) else {
          throw HTTPParseError(.badContentLength, "Content-Length must be a decimal number of bytes")
        }
        var length = 0
        for digit in digits {
          let (product, overflow) = length.multipliedReportingOverflow(by: 10)
          let (sum, overflow2) = product.addingReportingOverflow(Int(digit - 0x30))
          length = overflow || overflow2 ? Int.max : sum
        }
        if let result, result != length {
          throw HTTPParseError(.badContentLength, "several Content-Length values disagree; send one")
        }
        result = length
      }
    }
    return result ?? 0
  }

  /// `chunk-size [ chunk-ext ]`; extensions are checked for syntax and ignored.
  private mutating func chunkSizeLineCompleted(_ content: ArraySlice<UInt8>) throws(HTTPParseError) {
    var size = 0
    var index = content.startIndex
    while index < content.endIndex, let digit = ASCII.hexValue(content[index]) {
      let (product, overflow) = size.multipliedReportingOverflow(by: 16)
      size = overflow ? Int.max : product | digit
      index += 1
    }
    guard index > content.startIndex else {
      throw HTTPParseError(.badChunk, "a chunk size must be hexadecimal")
    }
    let extensions = content[index...]
    if !extensions.isEmpty {
      // chunk-ext = *( BWS ";" BWS name [ BWS "=" BWS value ] ); values may be quoted strings.
      guard extensions.first(where: { !ASCII.isWhitespace($0) }) == ASCII.semicolon,
        extensions.allSatisfy(ASCII.isFieldValueByte)
      else {
        throw HTTPParseError(.badChunk, "a chunk size is followed by something other than ;extension")
      }
    }
    if size == 0 {
      state = .trailerLine
      return
    }
    guard size <= limits.maximumBodyBytes - body.count else {
      throw HTTPParseError(
        .bodyTooLarge, "the chunked body is over the \(limits.maximumBodyBytes)-byte limit; send a smaller body")
    }
    state = .chunkData(remaining: size)
  }

  /// Hands out the finished request and resets for the next one on the connection.
  private mutating func completeRequest() -> HTTPRequest {
    let request = HTTPRequest(
      head: head ?? HTTPRequestHead(method: "", target: "", version: .http11, headers: [:], keepAlive: false),
      body: body, trailers: trailers)
    head = nil
    requestLine = nil
    headers = HTTPHeaders()
    trailers = HTTPHeaders()
    body = Data()
    fieldBytes = 0
    fieldCount = 0
    leadingEmptyLines = 0
    state = request.keepAlive ? .requestLine : .finished
    return request
  }
}

extension HTTPHeaders {
  fileprivate mutating func add(_ field: (name: String, value: String)) {
    add(name: field.name, value: field.value)
  }
}
