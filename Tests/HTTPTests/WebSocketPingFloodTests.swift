import Foundation
import Glibc
import Testing

@testable import HTTP

// Pings on a real socket: the pongs a client makes the server queue are bounded whether or not it
// reads them (wslay queues one per ping without limit; a client that pinged without reading grew
// the server by hundreds of MB), and a client that reads gets every one.

/// The upgrade request of a raw client.
let rawUpgradeRequest =
  "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
  + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

/// Reads the server's frames from a raw client's socket (after its 101, whose head `RawClient`
/// read and past which the server had sent nothing yet).
struct ServerFrameReader {
  let descriptor: Int32
  private var buffer: [UInt8] = []
  private var start = 0

  init(descriptor: Int32) { self.descriptor = descriptor }

  /// The next frame's opcode and payload; nil at end of input, on error or timeout.
  mutating func next() -> (opcode: UInt8, payload: [UInt8])? {
    guard need(2) else { return nil }
    let opcode = buffer[start] & 0x0f
    var length = Int(buffer[start + 1] & 0x7f)
    var header = 2
    if length == 126 {
      guard need(4) else { return nil }
      length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
      header = 4
    } else if length == 127 {
      guard need(10) else { return nil }
      length = (0..<8).reduce(0) { $0 << 8 | Int(buffer[start + 2 + $1]) }
      header = 10
    }
    guard need(header + length) else { return nil }
    let payload = Array(buffer[(start + header)..<(start + header + length)])
    start += header + length
    return (opcode, payload)
  }

  private mutating func need(_ count: Int) -> Bool {
    while buffer.count - start < count {
      if start > 1 << 20 {
        buffer.removeFirst(start)
        start = 0
      }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if received < 0 && errno == EINTR { continue }
      guard received > 0 else { return false }
      buffer += chunk[0..<received]
    }
    return true
  }
}

@Suite struct WebSocketPingFloodTests {
  @Test func aClientThatPingsAndNeverReadsHoldsABoundedQueueAndIsClosed() throws {
    let maximumQueued = 64 * 1024
    let session = Shared<WebSocketSession?>(nil)
    let closes = Shared<[UInt16]>([])
    let closed = DispatchSemaphore(value: 0)
    let server = try webSocketServer {
      let made = WebSocketSession(
        options: .init(maximumQueuedBytes: maximumQueued, idleTimeout: .seconds(1), closeTimeout: .seconds(1))
      ) { _, event in
        guard case .closed(let code, _) = event else { return }
        closes.update { $0.append(code) }
        closed.signal()
      }
      session.update { $0 = made }
      return made
    }
    defer { server.shutDown() }
    // A small receive buffer, never read: the server's pongs stop at once.
    let client = try RawClient(port: server.port, timeout: .seconds(3), receiveBufferBytes: 4096)
    #expect(client.send(rawUpgradeRequest))
    #expect(client.readResponse()?.status == 101)
    // 200,000 pings of 125 bytes, 26 MB in all, in batches of 1,000, until the server stops
    // taking them (a send then times out) or closes.
    let ping = clientFrame(opcode: 9, payload: [UInt8](repeating: 0x70, count: 125))
    let batch = Array([[UInt8]](repeating: ping, count: 1_000).joined())
    var batches = 0
    while batches < 200 && client.send(batch) { batches += 1 }
    #expect(closed.wait(timeout: .now() + 30) == .success, "the connection was not closed")
    #expect(closes.value == [WebSocketCloseCode.policyViolation])
    let made = try #require(session.value)
    // The machine's bound, plus a buffer's worth taken from it and not yet written to the socket.
    let bound =
      WebSocketFrameMachine.maximumUnsentBytes(queuedBytes: maximumQueued) + WebSocketFrameMachine.outputHighWater
    #expect(
      made.peakUnsentOutputByteCount <= bound,
      "the server held \(made.peakUnsentOutputByteCount) bytes for a client that read none; at most \(bound) may")
    #expect(made.peakUnsentOutputByteCount > 0)
  }

  @Test func aClientThatReadsWhileItPingsGetsEveryPongInOrder() throws {
    let server = try webSocketServer { echoSession(.init(maximumQueuedBytes: 64 * 1024)) }
    defer { server.shutDown() }
    let client = try RawClient(port: server.port, timeout: .seconds(10))
    #expect(client.send(rawUpgradeRequest))
    #expect(client.readResponse()?.status == 101)
    let count = 20_000
    let pongs = Shared<(count: Int, inOrder: Bool)>((0, true))
    let readerDone = DispatchSemaphore(value: 0)
    let reader = Thread {
      defer { readerDone.signal() }
      var frames = ServerFrameReader(descriptor: client.descriptor)
      var seen = 0
      var inOrder = true
      while seen < count, let frame = frames.next() {
        guard frame.opcode == 10 else { continue }
        if frame.payload != numberedPayload(seen) { inOrder = false }
        seen += 1
      }
      pongs.update { $0 = (seen, inOrder) }
    }
    reader.start()
    // 2.6 MB of pings, far past the server's bound of about 192 KiB: it holds back while the
    // reader is behind, and answers all.
    for first in stride(from: 0, to: count, by: 500) {
      let batch = (first..<first + 500).flatMap { clientFrame(opcode: 9, payload: numberedPayload($0)) }
      #expect(client.send(batch), "the server stopped taking pings at \(first)")
    }
    #expect(readerDone.wait(timeout: .now() + 30) == .success)
    #expect(pongs.value.count == count)
    #expect(pongs.value.inOrder)
  }
}
