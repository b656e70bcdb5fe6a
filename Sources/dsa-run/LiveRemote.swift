import Foundation
import Glibc
import SystemCore
import Wire

// dsa-run --lang ... --remote URL at a terminal, or with stdin from a pipe: the run goes through the
// daemon's GET /v1/connect, so what is typed (or piped) reaches the program as it comes and its
// output shows as it is produced. A small WebSocket client of our own (RFC 6455, client side: masked
// frames out, fragments and control frames in) over RemoteClient's sockets.

/// Whether `--remote` should run live: stdin is a terminal or a stream (a pipe, a socket), not a file
/// or /dev/null, and no `--stdin` file was named.
func remoteRunsLive(_ options: RunOptions) -> Bool {
  guard options.stdinPath == nil, !options.watch else { return false }
  if isatty(0) == 1 { return true }
  var info = stat()
  guard fstat(0, &info) == 0 else { return false }
  let type = info.st_mode & S_IFMT
  return type == S_IFIFO || type == S_IFSOCK
}

/// The live run: start, stdin as it comes, output as it comes; the exit code as a local run's.
func runRemoteLive(_ options: RunOptions, url: String) -> Int32 {
  let endpoint: RemoteEndpoint
  var body: ExecuteBody
  do {
    endpoint = try RemoteEndpoint(url)
    try checkToken(options.token)
    let limits = remoteLimits(options.limits)
    body = ExecuteBody(
      language: options.language, version: options.version, files: try remoteFiles(options),
      args: options.arguments.isEmpty ? nil : options.arguments, limits: limits == ExecuteBody.Limits() ? nil : limits)
  } catch let error as UsageError {
    return complain(error.message, code: 2)
  } catch {
    return complain("\(error)", code: 2)
  }
  // As a local live run (LiveTerminal.swift): a pty in the box only for a foreground terminal.
  let atTerminal = isatty(0) == 1
  let terminal = atTerminal && tcgetpgrp(0) == getpgrp() && !options.noTerminal
  let socket: WebSocketClient
  do {
    socket = try WebSocketClient.open(endpoint, path: "/v1/connect", token: options.token)
  } catch let failure as DaemonFailure {
    return complain(failure.message, code: failure.code)
  } catch let failure as RemoteFailure {
    return complain(failure.message, code: 3)
  } catch {
    return complain("\(error)", code: 3)
  }
  defer { close(socket.descriptor) }
  body.stdin = nil
  let start: JSONValue = ["type": "start", "body": body.json, "tty": .bool(terminal)]
  do {
    try socket.sendText(start.json)
  } catch {
    return complain("\(error)", code: 3)
  }
  // The box's pty echoes and edits lines; ours passes keys through. ^C raises SIGINT here, which
  // ends dsa-run (the interrupt thread restores the terminal), and the closed connection kills
  // the program at once.
  if terminal { enterRawishMode() }
  defer { restoreUserTerminal() }
  if atTerminal && !terminal && tcgetpgrp(0) != getpgrp() {
    // In the background reading the terminal would stop dsa-run: the program gets no input.
    do { try socket.sendText(#"{"type":"eof"}"#) } catch { return complain("\(error)", code: 3) }
    return pump(socket, options: options, endpoint: endpoint, inputOpen: false)
  }
  return pump(socket, options: options, endpoint: endpoint)
}

private func pump(
  _ socket: WebSocketClient, options: RunOptions, endpoint: RemoteEndpoint, inputOpen startsOpen: Bool = true
) -> Int32 {
  var inputOpen = startsOpen
  var buffer = [UInt8](repeating: 0, count: 16 * 1024)
  while true {
    var descriptors = [pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)]
    if inputOpen { descriptors.append(pollfd(fd: 0, events: Int16(POLLIN), revents: 0)) }
    if socket.hasBufferedMessage {
      descriptors[0].revents = Int16(POLLIN)
    } else if poll(&descriptors, nfds_t(descriptors.count), -1) < 0 {
      if errno == EINTR { continue }
      return complain("poll: \(String(cString: strerror(errno)))", code: 3)
    }
    do {
      if inputOpen && descriptors.count > 1 && descriptors[1].revents != 0 {
        let count = read(0, &buffer, buffer.count)
        if count > 0 {
          try sendStdin(socket, Array(buffer[0..<count]))
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
          try socket.sendText(#"{"type":"eof"}"#)
          inputOpen = false
        }
      }
      if descriptors[0].revents != 0 {
        guard let text = try socket.receiveText() else {
          return complain("\(endpoint.display) closed the live session without a result", code: 3)
        }
        if let code = try show(text, options: options, endpoint: endpoint) { return code }
      }
    } catch let failure as DaemonFailure {
      return complain(failure.message, code: failure.code)
    } catch {
      return complain("\(error)", code: 3)
    }
  }
}

/// Stdin as text: a character split between two reads waits for the rest in the daemon's words.
private func sendStdin(_ socket: WebSocketClient, _ bytes: [UInt8]) throws {
  let message: JSONValue = ["type": "stdin", "data": .string(String(decoding: bytes, as: UTF8.self))]
  try socket.sendText(message.json)
}

/// Acts on one server message; the exit code once the session is over.
private func show(_ text: String, options: RunOptions, endpoint: RemoteEndpoint) throws -> Int32? {
  guard case .object(let message)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
    case .string(let type)? = message["type"]
  else {
    throw DaemonFailure(message: "\(endpoint.display) sent a message that is not JSON: \(text.prefix(80))", code: 3)
  }
  switch type {
  case "stdout", "stderr":
    guard !options.json, case .string(let data)? = message["data"] else { return nil }
    ProgramOutput.write(Data(data.utf8), to: type == "stdout" ? 1 : 2)
    return nil
  case "result":
    guard case .some(let value) = message["result"] else { return 3 }
    let raw = Data(value.compactJSONBytes)
    let result: WireExecuteResult
    switch WireExecuteResult.read(raw) {
    case .success(let read): result = read
    case .failure(let problems):
      throw DaemonFailure(
        message: "\(endpoint.display) sent a result that is not an execute result: \(problems)", code: 3)
    }
    if options.json { printJSONBody(raw) }
    ProgramOutput.endStreams()
    // The run's output is on the screen already: only the closing line is left to print.
    var run = result.run.map(PrintedStep.init(wire:))
    run?.stdout = Data()
    run?.stderr = Data()
    return printRun(compile: result.compile.map(PrintedStep.init(wire:)), run: run, json: options.json)
  case "error":
    var words = "the live session failed"
    if case .string(let said)? = message["message"] { words = said }
    var code: Int32 = 3
    if case .string(let kind)? = message["error"], !["internal_error", "busy", "runtime_unavailable"].contains(kind) {
      code = 2
      if kind == "unauthorized" && options.token == nil { words += " (give --token or set DSA_RUN_TOKEN)" }
    }
    throw DaemonFailure(message: words, code: code)
  default:
    return nil  // stages and steps: a terminal shows the program's own output only
  }
}

/// The client side of one WebSocket: the handshake, masked text frames out, messages in.
final class WebSocketClient {
  let descriptor: Int32
  private var incoming: [UInt8]
  private var fragments: [UInt8] = []
  private let endpoint: RemoteEndpoint
  /// The most one message may be; the daemon's are an output chunk or a result.
  static let maximumMessageBytes = 256 << 20

  private init(descriptor: Int32, leftover: [UInt8], endpoint: RemoteEndpoint) {
    self.descriptor = descriptor
    incoming = leftover
    self.endpoint = endpoint
  }

  /// Whether a whole frame is already read (poll would not say so).
  var hasBufferedMessage: Bool { frameLength(incoming) != nil }

  static func open(_ endpoint: RemoteEndpoint, path: String, token: String?) throws -> WebSocketClient {
    let descriptor = try RemoteClient.openSocket(endpoint)
    // A live session waits for people: no receive timeout.
    var none = timeval(tv_sec: 0, tv_usec: 0)
    _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
    var key = [UInt8](repeating: 0, count: 16)
    for index in key.indices { key[index] = UInt8.random(in: 0...255) }
    let keyText = Digest.base64(key)
    var head = "GET \(endpoint.pathPrefix)\(path) HTTP/1.1\r\nHost: \(endpoint.hostHeader)\r\n"
    head += "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
    head += "Sec-WebSocket-Key: \(keyText)\r\nUser-Agent: dsa-run\r\n"
    if let token { head += "Authorization: Bearer \(token)\r\n" }
    head += "\r\n"
    let client = WebSocketClient(descriptor: descriptor, leftover: [], endpoint: endpoint)
    try client.write(Array(head.utf8))
    var received: [UInt8] = []
    let separator: [UInt8] = [13, 10, 13, 10]
    var headEnd: Int?
    while headEnd == nil {
      guard try client.fill(&received) else {
        throw DaemonFailure(message: "\(endpoint.display) closed the connection during the upgrade", code: 3)
      }
      if received.count >= 4 {
        headEnd = (0...(received.count - 4)).first { Array(received[$0..<$0 + 4]) == separator }
      }
      if headEnd == nil && received.count > 64 << 10 {
        throw DaemonFailure(message: "\(endpoint.display) sent an oversized response head", code: 3)
      }
    }
    let headText = String(decoding: received[..<headEnd!], as: UTF8.self)
    let lines = headText.components(separatedBy: "\r\n")
    let parts = lines[0].split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, let status = Int(parts[1]) else {
      throw DaemonFailure(message: "\(endpoint.display) did not answer in HTTP/1.1", code: 3)
    }
    guard status == 101 else {
      let code: Int32 = (400..<500).contains(status) ? 2 : 3
      let rest = String(decoding: received[(headEnd! + 4)...], as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines)
      throw DaemonFailure(
        message:
          "\(endpoint.display) refused the live session (\(status))\(rest.isEmpty ? "" : ": \(rest.prefix(200))")",
        code: code)
    }
    let expected = Digest.base64(Digest.sha1(Array((keyText + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
    let accept = lines.dropFirst().first { $0.lowercased().hasPrefix("sec-websocket-accept:") }
    guard accept?.dropFirst("sec-websocket-accept:".count).trimmingCharacters(in: .whitespaces) == expected else {
      throw DaemonFailure(
        message: "\(endpoint.display) answered the upgrade with a wrong Sec-WebSocket-Accept", code: 3)
    }
    client.incoming = Array(received[(headEnd! + 4)...])
    return client
  }

  func sendText(_ text: String) throws { try sendFrame(opcode: 0x1, Array(text.utf8)) }

  /// The next text message; nil once the server closed.
  func receiveText() throws -> String? {
    while true {
      while frameLength(incoming) == nil {
        guard try fill(&incoming) else { return nil }
      }
      let (headerLength, payloadLength) = frameLength(incoming)!
      let first = incoming[0]
      let payload = Array(incoming[headerLength..<headerLength + payloadLength])
      incoming.removeFirst(headerLength + payloadLength)
      switch first & 0x0F {
      case 0x8:
        try? sendFrame(opcode: 0x8, Array(payload.prefix(2)))
        return nil
      case 0x9:
        try sendFrame(opcode: 0xA, payload)
        continue
      case 0xA:
        continue
      default:
        fragments += payload
        guard fragments.count <= Self.maximumMessageBytes else {
          throw DaemonFailure(message: "\(endpoint.display) sent a message over 256 MiB", code: 3)
        }
        if first & 0x80 != 0 {
          defer { fragments = [] }
          return String(decoding: fragments, as: UTF8.self)
        }
      }
    }
  }

  /// The header's and the payload's lengths of the frame at the start of `bytes`, once it is whole.
  private func frameLength(_ bytes: [UInt8]) -> (Int, Int)? {
    guard bytes.count >= 2 else { return nil }
    var header = 2
    var length = Int(bytes[1] & 0x7F)
    if length == 126 {
      guard bytes.count >= 4 else { return nil }
      length = Int(bytes[2]) << 8 | Int(bytes[3])
      header = 4
    } else if length == 127 {
      guard bytes.count >= 10 else { return nil }
      length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
      header = 10
    }
    if bytes[1] & 0x80 != 0 { header += 4 }  // a server must not mask, but the length stays right
    return bytes.count >= header + length ? (header, length) : nil
  }

  private func sendFrame(opcode: UInt8, _ payload: [UInt8]) throws {
    var frame: [UInt8] = [0x80 | opcode]
    if payload.count < 126 {
      frame.append(0x80 | UInt8(payload.count))
    } else if payload.count <= 0xFFFF {
      frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    } else {
      frame.append(0x80 | 127)
      for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
    }
    // RFC 6455 §5.3: a client masks every frame with a fresh key.
    let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
    frame += mask
    frame.reserveCapacity(frame.count + payload.count)
    for (index, byte) in payload.enumerated() { frame.append(byte ^ mask[index & 3]) }
    try write(frame)
  }

  private func write(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw DaemonFailure(
          message: "lost the connection to \(endpoint.display): \(String(cString: strerror(errno)))", code: 3)
      }
      offset += written
    }
  }

  /// Reads what is there into `buffer`; false at the end of the connection.
  @discardableResult private func fill(_ buffer: inout [UInt8]) throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = recv(descriptor, &chunk, chunk.count, 0)
      if count > 0 {
        buffer += chunk[0..<count]
        return true
      }
      if count == 0 { return false }
      if errno == EINTR { continue }
      throw DaemonFailure(
        message: "lost the connection to \(endpoint.display): \(String(cString: strerror(errno)))", code: 3)
    }
  }
}
