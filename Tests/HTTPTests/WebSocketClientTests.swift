import Foundation
import Glibc
import Synchronization
import Testing

@testable import HTTP

// A real client: Python's `websockets`, pinned in scripts/requirements-test.txt, in the test venv that
// scripts/test-venv makes (scripts/test does), found at $DSA_RUN_WEBSOCKET_VENV or
// /var/cache/dsa-run/venv-test.

let webSocketPython: String = {
  let venv = ProcessInfo.processInfo.environment["DSA_RUN_WEBSOCKET_VENV"] ?? "/var/cache/dsa-run/venv-test"
  return venv + "/bin/python"
}()
let webSocketClientIsInstalled: Bool = {
  guard access(webSocketPython, X_OK) == 0 else { return false }
  return (try? runProcess(webSocketPython, ["-c", "import websockets.sync.client"]))?.status == 0
}()

/// The client side of each test, by name in `sys.argv[2]`; prints what the test checks.
let webSocketClientScript = """
  import socket, sys, time
  from websockets.sync.client import connect
  from websockets.exceptions import ConnectionClosed
  url = 'ws://127.0.0.1:' + sys.argv[1] + '/ws'
  mode = sys.argv[2]
  if mode == 'echo':
      with connect(url, max_size=None) as ws:
          ws.send('héllo'); print(ws.recv())
          ws.send(b'\\x00\\xff'); print(ws.recv().hex())
          big = bytes(range(256)) * 4096
          ws.send(big); print(ws.recv() == big)
          ws.send(['frag', 'ment', 'éd']); print(ws.recv())
          print(ws.ping(b'p').wait(5))
          ws.close(4000, 'done'); print(ws.close_code)
  elif mode == 'oversized':
      with connect(url, max_size=None) as ws:
          ws.send(b'x' * 100000)
          try:
              ws.recv(); print('no close')
          except ConnectionClosed as closed:
              print(closed.rcvd.code if closed.rcvd else 'none')
  elif mode == 'server-close':
      with connect(url) as ws:
          try:
              ws.recv(); print('no close')
          except ConnectionClosed as closed:
              print(closed.rcvd.code, closed.rcvd.reason)
  elif mode == 'bad-handshake':
      s = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=5)
      s.sendall(b'GET /ws HTTP/1.1\\r\\nHost: x\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n'
                b'Sec-WebSocket-Version: 13\\r\\n\\r\\n')
      print(s.recv(4096).decode().split('\\r\\n')[0])
  elif mode == 'slow-reader':
      # A raw socket: the websockets client reads on a thread of its own whether or not recv is called.
      s = socket.socket()
      s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
      s.settimeout(10)
      s.connect(('127.0.0.1', int(sys.argv[1])))
      s.sendall(b'GET /ws HTTP/1.1\\r\\nHost: x\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n'
                b'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n')
      buffer = b''
      while b'\\r\\n\\r\\n' not in buffer: buffer += s.recv(4096)
      buffer = buffer.split(b'\\r\\n\\r\\n', 1)[1]
      time.sleep(1.5)  # read nothing: the server's sender must be held back
      buffer, at, count = bytearray(buffer), 0, 0
      def need(n):
          global buffer, at
          while len(buffer) - at < n:
              if at > (1 << 20): del buffer[:at]; at = 0
              buffer += s.recv(1 << 20)
      while True:
          need(2)
          length, offset = buffer[at + 1] & 0x7f, 2
          if length == 126: need(4); length, offset = int.from_bytes(buffer[at + 2:at + 4], 'big'), 4
          elif length == 127: need(10); length, offset = int.from_bytes(buffer[at + 2:at + 10], 'big'), 10
          need(offset + length)
          if length == 3 and bytes(buffer[at + offset:at + offset + 3]) == b'end': break
          count += length; at += offset + length
      print(count)
  """

/// A server whose `/ws` sessions are made by `makeSession`; everything else is the HTTP echo.
func webSocketServer(_ makeSession: @escaping @Sendable () -> WebSocketSession) throws -> TestServer {
  try TestServer(handler: { request in
    request.target == "/ws" ? .webSocket(for: request, session: makeSession()) : echoHandler(request)
  })
}

/// A session that sends back what it gets.
func echoSession(_ options: WebSocketSession.Options = .init()) -> WebSocketSession {
  WebSocketSession(options: options) { session, event in
    if case .message(let message) = event { _ = session.trySend(message) }
  }
}

func runClient(_ server: TestServer, _ mode: String) throws -> [String] {
  let result = try runProcess(webSocketPython, ["-c", webSocketClientScript, String(server.port), mode])
  #expect(result.status == 0, "\(result.standardError)")
  return result.standardOutput.split(separator: "\n").map(String.init)
}

@Suite(.enabled(if: webSocketClientIsInstalled, "no websockets venv at \(webSocketPython); see the file's header"))
struct WebSocketClientTests {
  @Test func echoesTextBinaryLargeAndFragmentedMessagesAnswersPingAndCloses() throws {
    let closes = Shared<[UInt16]>([])
    let server = try webSocketServer {
      WebSocketSession { session, event in
        switch event {
        case .message(let message): _ = session.trySend(message)
        case .closed(let code, _): closes.update { $0.append(code) }
        case .opened: break
        }
      }
    }
    defer { server.shutDown() }
    let lines = try runClient(server, "echo")
    #expect(lines == ["héllo", "00ff", "True", "fragmentéd", "True", "4000"])
    server.server.stop(drainingFor: .seconds(5))
    #expect(closes.value == [4000])
  }

  @Test func oversizedMessageIsClosedWith1009() throws {
    let server = try webSocketServer {
      echoSession(.init(limits: .init(maximumFrameBytes: 65536, maximumMessageBytes: 65536)))
    }
    defer { server.shutDown() }
    #expect(try runClient(server, "oversized") == ["1009"])
  }

  @Test func badHandshakeGets400() throws {
    let server = try webSocketServer { echoSession() }
    defer { server.shutDown() }
    #expect(try runClient(server, "bad-handshake") == ["HTTP/1.1 400 Bad Request"])
  }

  @Test func stoppingTheServerClosesSessionsWith1001() throws {
    let opened = DispatchSemaphore(value: 0)
    let server = try webSocketServer {
      WebSocketSession { _, event in if event == .opened { opened.signal() } }
    }
    defer { server.shutDown() }
    let output = Shared<[String]>([])
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let lines = (try? runClient(server, "server-close")) ?? ["client failed"]
      output.update { $0 = lines }
      done.signal()
    }
    #expect(opened.wait(timeout: .now() + 10) == .success)
    server.server.stop(drainingFor: .seconds(5))
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(output.value == ["1001 the server is stopping"])
  }

  @Test func idleSessionIsClosedWith1001() throws {
    let server = try webSocketServer { echoSession(.init(idleTimeout: .milliseconds(300))) }
    defer { server.shutDown() }
    let lines = try runClient(server, "server-close")
    #expect(lines == ["1001 idle for 300 ms"])
  }

  @Test func slowReaderHoldsTheSenderBackAndMemoryStaysBounded() throws {
    let messageBytes = 64 * 1024
    let messageCount = 256  // 16 MiB in all: four times what loopback's socket buffers can take
    let maximumQueued = 256 * 1024
    // `held`: sampled 1 s after the 101, while the client still sleeps (1.5 s) without reading.
    let counts = Shared((sent: 0, held: -1, peakQueued: 0))
    let server = try webSocketServer {
      WebSocketSession(options: .init(maximumQueuedBytes: maximumQueued)) { session, event in
        guard event == .opened else { return }
        // Threads of their own, not the global queue: the sender blocks in send(until:), and
        // libdispatch's few pool threads, blocked so, ran a sampler queued there 0.6 s late (after
        // the client had woken and read everything), which made this test fail now and then.
        Thread {
          Thread.sleep(forTimeInterval: 1)
          counts.update { $0.held = $0.sent }
        }.start()
        Thread {
          let message = WebSocketMessage.text(String(repeating: "x", count: messageBytes))
          for _ in 0..<messageCount {
            guard session.send(message, until: .now + .seconds(10)) == .queued else { return }
            let queued = session.queuedByteCount
            counts.update {
              $0.sent += 1
              $0.peakQueued = max($0.peakQueued, queued)
            }
          }
          _ = session.send(.text("end"), until: .now + .seconds(10))
        }.start()
      }
    }
    defer { server.shutDown() }
    let result = try runProcess(webSocketPython, ["-c", webSocketClientScript, String(server.port), "slow-reader"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.split(separator: "\n").last == "\(messageBytes * messageCount)")
    let (_, held, peakQueued) = counts.value
    #expect(peakQueued <= maximumQueued)
    // While the client reads nothing, a message has left the session only into bytes that are
    // bounded: the frame machine's output (64 KiB), our socket's send buffer, which the kernel
    // grows up to tcp_wmem's maximum (4 MiB by default: on its own 64 of these messages, which is
    // why a bound of a quarter of them failed now and then), and the client's receive buffer
    // (twice its SO_RCVBUF of 64 KiB). Past those, plus the session's own queue, the sender waits.
    let kernelBytes = try #require(maximumTCPSendBufferBytes(), "net.ipv4.tcp_wmem") + 2 * 65536
    let outside = kernelBytes + WebSocketFrameMachine.outputHighWater + maximumQueued
    let bound = outside / messageBytes + 2  // a message part-way into each of two buffers
    #expect(held >= 0 && held <= bound, "\(held) of \(messageCount) messages went out unread; at most \(bound) may")
    #expect(bound < messageCount / 2, "the flood must be well over what the buffers hold")
  }
}

/// The most the kernel lets a TCP socket's send buffer grow to (the third of net.ipv4.tcp_wmem).
func maximumTCPSendBufferBytes() -> Int? {
  let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/tcp_wmem", encoding: .utf8)
  return text?.split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) }
}

/// A value shared between threads (a class, so closures capture it without copying a lock).
final class Shared<Value: Sendable>: Sendable {
  private let lock: Mutex<Value>
  init(_ value: Value) { lock = Mutex(value) }
  var value: Value { lock.withLock { $0 } }
  func update(_ change: (inout Value) -> Void) { lock.withLock { change(&$0) } }
}
