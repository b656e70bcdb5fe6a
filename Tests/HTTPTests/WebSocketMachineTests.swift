import Foundation
import Testing

@testable import HTTP

/// A client frame as RFC 6455 §5.2 lays it out, masked unless told otherwise.
func clientFrame(
  opcode: UInt8, payload: [UInt8], final: Bool = true, masked: Bool = true, rsv: UInt8 = 0,
  mask: [UInt8] = [0x37, 0xfa, 0x21, 0x3d]
) -> [UInt8] {
  var bytes: [UInt8] = [(final ? 0x80 : 0) | (rsv << 4) | opcode]
  let maskBit: UInt8 = masked ? 0x80 : 0
  if payload.count < 126 {
    bytes.append(maskBit | UInt8(payload.count))
  } else if payload.count <= 0xffff {
    bytes.append(maskBit | 126)
    bytes += [UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
  } else {
    bytes.append(maskBit | 127)
    bytes += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xff) }
  }
  if masked {
    bytes += mask
    bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
  } else {
    bytes += payload
  }
  return bytes
}

func closePayload(_ code: UInt16, _ reason: [UInt8] = []) -> [UInt8] {
  [UInt8(code >> 8), UInt8(code & 0xff)] + reason
}

/// The server's frames in `bytes` (unmasked, as a server sends them): opcode and payload each.
func serverFrames(_ bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
  var frames: [(UInt8, [UInt8])] = []
  var offset = 0
  while offset + 2 <= bytes.count {
    let opcode = bytes[offset] & 0x0f
    var length = Int(bytes[offset + 1] & 0x7f)
    offset += 2
    if length == 126 {
      length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
      offset += 2
    } else if length == 127 {
      length = (0..<8).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
      offset += 8
    }
    frames.append((opcode, Array(bytes[offset..<offset + length])))
    offset += length
  }
  return frames
}

/// Everything the machine writes until it has nothing more.
func drainOutput(_ machine: WebSocketFrameMachine) -> [UInt8] {
  var all: [UInt8] = []
  while true {
    let chunk = machine.takeOutput()
    if chunk.isEmpty { return all }
    all += chunk
  }
}

@Suite struct WebSocketHandshakeTests {
  func request(_ headers: HTTPHeaders, method: String = "GET", version: HTTPVersion = .http11) -> HTTPRequest {
    HTTPRequest(
      head: HTTPRequestHead(method: method, target: "/ws", version: version, headers: headers, keepAlive: true))
  }

  let valid: HTTPHeaders = [
    "Host": "x", "Upgrade": "websocket", "Connection": "keep-alive, Upgrade",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13",
  ]

  @Test func acceptValueIsRFC6455sExample() {
    // RFC 6455 §1.3.
    #expect(WebSocketHandshake.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }

  @Test func validHandshakeGets101WithAccept() {
    let response = HTTPResponse.webSocket(for: request(valid), session: WebSocketSession { _, _ in })
    #expect(response.status.code == 101)
    #expect(response.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    let head = String(decoding: response.head(closeConnection: false), as: UTF8.self)
    #expect(head.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
    #expect(head.contains("Connection: Upgrade\r\n"))
    #expect(head.contains("Upgrade: websocket\r\n"))
    #expect(!head.contains("Content-Length"))
  }

  @Test(
    arguments: [
      ("Upgrade", nil, "Upgrade: websocket"),
      ("Connection", "keep-alive", "Connection: Upgrade"),
      ("Sec-WebSocket-Key", nil, "Sec-WebSocket-Key"),
      ("Sec-WebSocket-Key", "c2hvcnQ=", "16 bytes"),
    ] as [(String, String?, String)])
  func badHandshakeGets400(field: String, value: String?, message: String) {
    var headers = valid
    headers.remove(name: field)
    if let value { headers.add(name: field, value: value) }
    let response = HTTPResponse.webSocket(for: request(headers), session: WebSocketSession { _, _ in })
    #expect(response.status.code == 400)
    #expect(response.webSocketSession == nil)
    #expect(String(decoding: response.body, as: UTF8.self).contains(message))
  }

  @Test func postAndHTTP10Get400() {
    let session = WebSocketSession { _, _ in }
    #expect(HTTPResponse.webSocket(for: request(valid, method: "POST"), session: session).status.code == 400)
    #expect(HTTPResponse.webSocket(for: request(valid, version: .http10), session: session).status.code == 400)
  }

  @Test func otherVersionGets426NamingVersion13() {
    var headers = valid
    headers.remove(name: "Sec-WebSocket-Version")
    headers.add(name: "Sec-WebSocket-Version", value: "8")
    let response = HTTPResponse.webSocket(for: request(headers), session: WebSocketSession { _, _ in })
    #expect(response.status.code == 426)
    #expect(response.headers["Sec-WebSocket-Version"] == "13")
  }
}

@Suite struct WebSocketMachineTests {
  @Test func maskedTextArrivesAsOneMessage() {
    let machine = WebSocketFrameMachine()
    #expect(machine.feed(clientFrame(opcode: 1, payload: Array("Hello".utf8))) == [.message(.text("Hello"))])
  }

  @Test func binaryWith16And64BitLengths() {
    let machine = WebSocketFrameMachine(limits: .init(maximumFrameBytes: 1 << 17, maximumMessageBytes: 1 << 17))
    let medium = [UInt8](repeating: 7, count: 300)
    let large = [UInt8](repeating: 9, count: 70_000)
    #expect(
      machine.feed(clientFrame(opcode: 2, payload: medium) + clientFrame(opcode: 2, payload: large)) == [
        .message(.binary(Data(medium))), .message(.binary(Data(large))),
      ])
  }

  @Test func unmaskedClientFrameIs1002() {
    let machine = WebSocketFrameMachine()
    let events = machine.feed(clientFrame(opcode: 1, payload: Array("hi".utf8), masked: false))
    #expect(events.count == 1)
    guard case .failed(let code, _) = events.first else {
      Issue.record("no failure: \(events)")
      return
    }
    #expect(code == 1002)
    let frames = serverFrames(drainOutput(machine))
    #expect(frames.count == 1 && frames[0].opcode == 8 && Array(frames[0].payload.prefix(2)) == [0x03, 0xea])
    #expect(machine.isFinished)
  }

  @Test(arguments: [
    clientFrame(opcode: 1, payload: [0x61], rsv: 4),  // RSV1 without an extension
    clientFrame(opcode: 3, payload: []),  // reserved opcode
    clientFrame(opcode: 9, payload: [0x61], final: false),  // fragmented control frame
    clientFrame(opcode: 9, payload: [UInt8](repeating: 1, count: 126)),  // control frame over 125
    clientFrame(opcode: 0, payload: [0x61]),  // continuation with nothing to continue
    clientFrame(opcode: 8, payload: closePayload(999)),  // a close code nobody may send
  ])
  func protocolErrorsAre1002(frame: [UInt8]) {
    let machine = WebSocketFrameMachine()
    let events = machine.feed(frame)
    guard case .failed(let code, _) = events.last else {
      Issue.record("no failure: \(events)")
      return
    }
    #expect(code == 1002)
  }

  @Test func fragmentsWithAPingBetweenAreOneMessageAndThePingIsAnswered() {
    let machine = WebSocketFrameMachine()
    // "é" (C3 A9) split across the fragments.
    let events = machine.feed(
      clientFrame(opcode: 1, payload: [0x63, 0x61, 0x66, 0xc3], final: false)
        + clientFrame(opcode: 9, payload: Array("p".utf8))
        + clientFrame(opcode: 0, payload: [0xa9]))
    #expect(events == [.ping(Data("p".utf8)), .message(.text("café"))])
    let frames = serverFrames(drainOutput(machine))
    #expect(frames.count == 1 && frames[0].opcode == 0xa && frames[0].payload == Array("p".utf8))
  }

  @Test(arguments: [
    [clientFrame(opcode: 1, payload: [0xff])],
    [clientFrame(opcode: 1, payload: [0xed, 0xa0, 0x80])],  // a surrogate
    [clientFrame(opcode: 1, payload: [0xc0, 0xaf])],  // overlong
    [clientFrame(opcode: 1, payload: [0x61, 0xc3])],  // ends inside a character
    [clientFrame(opcode: 1, payload: [0xc3], final: false), clientFrame(opcode: 0, payload: [0x41])],
    [clientFrame(opcode: 8, payload: closePayload(1000, [0xff]))],
  ])
  func invalidUTF8Is1007(frames: [[UInt8]]) {
    let machine = WebSocketFrameMachine()
    let events = machine.feed(frames.flatMap { $0 })
    #expect(events.count == 1)
    guard case .failed(let code, _) = events.first else {
      Issue.record("no failure: \(events)")
      return
    }
    #expect(code == 1007)
    let frames = serverFrames(drainOutput(machine))
    #expect(frames.count == 1 && Array(frames[0].payload.prefix(2)) == [0x03, 0xef])
  }

  @Test func binaryIsNotCheckedForUTF8() {
    let machine = WebSocketFrameMachine()
    #expect(machine.feed(clientFrame(opcode: 2, payload: [0xff])) == [.message(.binary(Data([0xff])))])
  }

  @Test func frameOverTheLimitIs1009FromItsHeader() {
    let machine = WebSocketFrameMachine(limits: .init(maximumFrameBytes: 100, maximumMessageBytes: 1000))
    // The header and one byte of a 101-byte frame: the limit is known before the rest of the payload.
    let header = Array(clientFrame(opcode: 2, payload: [UInt8](repeating: 0, count: 101)).prefix(7))
    guard case .failed(let code, _) = machine.feed(header).last else {
      Issue.record("no failure")
      return
    }
    #expect(code == 1009)
  }

  @Test func messageOverTheLimitAcrossFragmentsIs1009() {
    let machine = WebSocketFrameMachine(limits: .init(maximumFrameBytes: 100, maximumMessageBytes: 150))
    let part = [UInt8](repeating: 0x61, count: 100)
    let events = machine.feed(
      clientFrame(opcode: 1, payload: part, final: false) + clientFrame(opcode: 0, payload: part))
    guard case .failed(let code, _) = events.last else {
      Issue.record("no failure: \(events)")
      return
    }
    #expect(code == 1009)
    #expect(!machine.wantsInput)
  }

  @Test func messageAtTheLimitIsFine() {
    let machine = WebSocketFrameMachine(limits: .init(maximumFrameBytes: 100, maximumMessageBytes: 150))
    let events = machine.feed(
      clientFrame(opcode: 1, payload: [UInt8](repeating: 0x61, count: 100), final: false)
        + clientFrame(opcode: 0, payload: [UInt8](repeating: 0x61, count: 50)))
    #expect(events == [.message(.text(String(repeating: "a", count: 150)))])
  }

  @Test func peerCloseIsEchoedAndFinishes() {
    let machine = WebSocketFrameMachine()
    #expect(
      machine.feed(clientFrame(opcode: 8, payload: closePayload(4000, Array("bye".utf8))))
        == [.peerClosed(code: 4000, reason: "bye")])
    let frames = serverFrames(drainOutput(machine))
    #expect(frames.count == 1 && frames[0].opcode == 8 && Array(frames[0].payload.prefix(2)) == [0x0f, 0xa0])
    #expect(machine.isFinished)
    #expect(!machine.send(.text("late")))
  }

  @Test func closeWithoutCodeIs1005() {
    let machine = WebSocketFrameMachine()
    #expect(machine.feed(clientFrame(opcode: 8, payload: [])) == [.peerClosed(code: 1005, reason: "")])
  }

  @Test func serverCloseWaitsForThePeers() {
    let machine = WebSocketFrameMachine()
    #expect(machine.send(.text("last")))
    #expect(machine.close(code: 1001, reason: "stopping"))
    let frames = serverFrames(drainOutput(machine))
    #expect(frames.map(\.opcode) == [1, 8])
    #expect(frames[1].payload == closePayload(1001, Array("stopping".utf8)))
    #expect(!machine.isFinished)
    #expect(machine.feed(clientFrame(opcode: 8, payload: closePayload(1001))) == [.peerClosed(code: 1001, reason: "")])
    #expect(machine.isFinished)
  }

  @Test func bytewiseFeedGivesTheSameEvents() {
    let stream =
      clientFrame(opcode: 1, payload: Array("héllo".utf8), final: false)
      + clientFrame(opcode: 0, payload: Array(" wörld".utf8))
      + clientFrame(opcode: 10, payload: [1]) + clientFrame(opcode: 2, payload: [0, 1, 2])
      + clientFrame(opcode: 8, payload: closePayload(1000))
    let whole = WebSocketFrameMachine().feed(stream)
    let bytewise = WebSocketFrameMachine()
    let events = stream.flatMap { bytewise.feed([$0]) }
    #expect(events == whole)
    #expect(whole.count == 4)
  }

  @Test func largeOutputComesOutInBoundedPieces() {
    let machine = WebSocketFrameMachine()
    machine.send(.binary(Data(repeating: 1, count: 1 << 20)))
    var total = 0
    while true {
      let chunk = machine.takeOutput()
      if chunk.isEmpty { break }
      #expect(chunk.count <= WebSocketFrameMachine.outputHighWater)
      total += chunk.count
    }
    #expect(total == (1 << 20) + 10)
  }
}

/// A 125-byte ping payload that names its place in a flood.
func numberedPayload(_ index: Int) -> [UInt8] {
  withUnsafeBytes(of: UInt32(index).bigEndian) { Array($0) } + [UInt8](repeating: 0x70, count: 121)
}

@Suite struct WebSocketOutputBoundTests {
  /// Takes output and goes on with the held input until nothing is held; the events, the output,
  /// and the most unsent output seen.
  func drainWhileHeld(_ machine: WebSocketFrameMachine) -> (
    events: [WebSocketFrameMachine.Event], output: [UInt8], peak: Int
  ) {
    var events: [WebSocketFrameMachine.Event] = []
    var output: [UInt8] = []
    var peak = machine.unsentByteCount
    var turns = 0
    while machine.isWaitingForOutputRoom && turns < 100_000 {
      turns += 1
      output += machine.takeOutput()
      events += machine.feedHeldInput()
      peak = max(peak, machine.unsentByteCount)
    }
    output += drainOutput(machine)
    return (events, output, peak)
  }

  @Test func pingsPastTheBoundWaitUntilOutputIsTakenAndThenAllAreAnswered() {
    let bound = 16 * 1024
    let machine = WebSocketFrameMachine(maximumUnsentBytes: bound)
    let count = 2_000
    let first = machine.feed((0..<count).flatMap { clientFrame(opcode: 9, payload: numberedPayload($0)) })
    #expect(machine.isWaitingForOutputRoom)
    #expect(machine.unsentByteCount <= bound, "\(machine.unsentByteCount) bytes unsent")
    // 125 bytes of pong and the per-message overhead each: about 85 fit in 16 KiB.
    #expect(first.count > 10 && first.count < 200, "\(first.count) pings answered at once")
    let rest = drainWhileHeld(machine)
    #expect(rest.peak <= bound, "\(rest.peak) bytes unsent at most")
    #expect(first + rest.events == (0..<count).map { .ping(Data(numberedPayload($0))) })
    let frames = serverFrames(rest.output)
    #expect(frames.map(\.opcode) == [UInt8](repeating: 10, count: count))
    #expect(frames.map(\.payload) == (0..<count).map(numberedPayload))
    // The close handshake after it is as ever.
    #expect(machine.feed(clientFrame(opcode: 8, payload: closePayload(1000))) == [.peerClosed(code: 1000, reason: "")])
    #expect(serverFrames(drainOutput(machine)).map(\.opcode) == [8])
    #expect(machine.isFinished)
  }

  @Test func aFloodOfEmptyPingsIsBoundedToo() {
    let machine = WebSocketFrameMachine()
    let count = 100_000
    let events = machine.feed((0..<count).flatMap { _ in clientFrame(opcode: 9, payload: []) })
    #expect(machine.unsentByteCount <= machine.maximumUnsentBytes)
    #expect(events.count < count)
    #expect(machine.isWaitingForOutputRoom)
    let rest = drainWhileHeld(machine)
    #expect(rest.peak <= machine.maximumUnsentBytes)
    #expect(events.count + rest.events.count == count)
    #expect(serverFrames(rest.output).count == count)
  }

  @Test func theClientsDataWaitsOnlyBehindAPingThatWaits() {
    // A message sent to the peer may take the machine past its bound; the peer's data still comes in.
    let machine = WebSocketFrameMachine(maximumUnsentBytes: 1024)
    #expect(machine.send(.binary(Data(repeating: 1, count: 4096))))
    #expect(machine.feed(clientFrame(opcode: 2, payload: [1, 2, 3])) == [.message(.binary(Data([1, 2, 3])))])
    #expect(!machine.isWaitingForOutputRoom)
    // A ping now waits for the message to go out, and the data after it waits behind it, in order.
    #expect(machine.feed(clientFrame(opcode: 9, payload: [7]) + clientFrame(opcode: 1, payload: [0x61])) == [])
    #expect(machine.isWaitingForOutputRoom)
    _ = drainOutput(machine)
    #expect(machine.feedHeldInput() == [.ping(Data([7])), .message(.text("a"))])
    #expect(!machine.isWaitingForOutputRoom)
  }

  @Test func heldInputGivesTheSameEventsWholeAndBytewise() {
    let flood = (0..<300).flatMap { clientFrame(opcode: 9, payload: numberedPayload($0)) }
    let whole = WebSocketFrameMachine(maximumUnsentBytes: 8 * 1024)
    let first = whole.feed(flood)
    let wholeRest = drainWhileHeld(whole)
    let bytewise = WebSocketFrameMachine(maximumUnsentBytes: 8 * 1024)
    let byteEvents = flood.flatMap { bytewise.feed([$0]) }
    let bytewiseRest = drainWhileHeld(bytewise)
    #expect(byteEvents == first)
    #expect(first + wholeRest.events == byteEvents + bytewiseRest.events)
    #expect(wholeRest.output == bytewiseRest.output)
  }
}
