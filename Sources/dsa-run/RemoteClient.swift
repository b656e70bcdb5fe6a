import Foundation
import Glibc
import Runners
import Sandbox
import Wire

// dsa-run --lang ... --remote URL: the same run through a dsa-rund's POST /v1/execute, printed as a
// local run prints it. The HTTP/1.1 client is a small one of our own over a POSIX socket (http://
// and unix:/PATH, no TLS): Foundation's URLSession needs networking libraries a minimal Linux host
// may lack, and cannot reach a Unix socket.

/// A failure to talk to the server at all (exit 3).
struct RemoteFailure: Error {
  let message: String
}

/// One HTTP response: status, headers (lower-case names) and body.
struct RemoteResponse {
  var status: Int
  var headers: [String: String]
  var body: Data
}

/// `http://host[:port][/prefix]` or `unix:/path/to.sock`, split.
struct RemoteEndpoint {
  var host: String
  var port: UInt16
  var pathPrefix: String
  /// A Unix socket's path (then host is "localhost" for the Host header).
  var socketPath: String?

  init(_ text: String) throws {
    if text.hasPrefix("unix:") {
      let path = String(text.dropFirst("unix:".count))
      guard path.hasPrefix("/"), !path.contains("\0") else {
        throw UsageError(message: "--remote unix: needs an absolute socket path, e.g. unix:/run/dsa-rund.sock")
      }
      guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
        throw UsageError(message: "--remote: the socket path \(path) is too long for a Unix socket")
      }
      socketPath = path
      host = "localhost"
      port = 80
      pathPrefix = ""
      return
    }
    guard text.hasPrefix("http://") else {
      throw UsageError(
        message: "--remote needs an http:// URL or unix:/PATH (https is not supported), got \"\(text)\"")
    }
    let rest = text.dropFirst("http://".count)
    let authority = rest.prefix { $0 != "/" }
    var path = String(rest.dropFirst(authority.count))
    while path.hasSuffix("/") { path.removeLast() }
    pathPrefix = path
    var hostPart = Substring(authority)
    var portPart: Substring?
    if hostPart.hasPrefix("[") {
      guard let close = hostPart.firstIndex(of: "]") else {
        throw UsageError(message: "--remote: bad IPv6 address in \"\(text)\"")
      }
      let after = hostPart[hostPart.index(after: close)...]
      if after.hasPrefix(":") { portPart = after.dropFirst() }
      hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
    } else if let colon = hostPart.lastIndex(of: ":") {
      portPart = hostPart[hostPart.index(after: colon)...]
      hostPart = hostPart[..<colon]
    }
    guard !hostPart.isEmpty, !hostPart.contains("@") else {
      throw UsageError(message: "--remote: no host in \"\(text)\"")
    }
    host = String(hostPart)
    if let portPart {
      guard let number = UInt16(portPart), number > 0 else {
        throw UsageError(message: "--remote: bad port in \"\(text)\"")
      }
      port = number
    } else {
      port = 80
    }
  }

  /// The Host header's value.
  var hostHeader: String { (host.contains(":") ? "[\(host)]" : host) + (port == 80 ? "" : ":\(port)") }
  var display: String { socketPath.map { "unix:\($0)" } ?? "http://\(hostHeader)" }
}

/// A minimal HTTP/1.1 client: one request per connection (`Connection: close`).
enum RemoteClient {
  static let timeoutSeconds = 120

  static func post(_ endpoint: RemoteEndpoint, path: String, json body: Data, token: String? = nil) throws
    -> RemoteResponse
  {
    let descriptor = try endpoint.socketPath.map(connectUnix) ?? connect(endpoint)
    defer { close(descriptor) }
    var head = "POST \(endpoint.pathPrefix)\(path) HTTP/1.1\r\n"
    head += "Host: \(endpoint.hostHeader)\r\n"
    if let token { head += "Authorization: Bearer \(token)\r\n" }
    head += "User-Agent: dsa-run\r\nAccept: application/json\r\nContent-Type: application/json\r\n"
    head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    try writeAll(descriptor, Data(head.utf8) + body, endpoint: endpoint)
    return try readResponse(descriptor, endpoint: endpoint)
  }

  /// A connected socket to `endpoint` (TCP or Unix), with the client's timeouts.
  static func openSocket(_ endpoint: RemoteEndpoint) throws -> Int32 {
    try endpoint.socketPath.map(connectUnix) ?? connect(endpoint)
  }

  private static func setTimeouts(_ descriptor: Int32) {
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  private static func connectUnix(_ path: String) throws -> Int32 {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else {
      throw RemoteFailure(message: "cannot reach unix:\(path): \(String(cString: strerror(errno)))")
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw RemoteFailure(
        message:
          "cannot reach unix:\(path): \(reason) (is dsa-rund listening there? Its unix_socket names the socket; --daemon uses $DSA_RUN_DAEMON_SOCKET, default /run/dsa-rund.sock)"
      )
    }
    setTimeouts(descriptor)
    return descriptor
  }

  private static func connect(_ endpoint: RemoteEndpoint) throws -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
    guard status == 0, let first = list else {
      throw RemoteFailure(
        message:
          "cannot reach \(endpoint.display): cannot resolve \(endpoint.host): \(String(cString: gai_strerror(status)))"
      )
    }
    defer { freeaddrinfo(list) }
    var lastError: Int32 = 0
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let current = entry {
      entry = current.pointee.ai_next
      let descriptor = socket(current.pointee.ai_family, current.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
      if descriptor < 0 {
        lastError = errno
        continue
      }
      if Glibc.connect(descriptor, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 {
        setTimeouts(descriptor)
        var one: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return descriptor
      }
      lastError = errno
      close(descriptor)
    }
    throw RemoteFailure(message: "cannot reach \(endpoint.display): \(String(cString: strerror(lastError)))")
  }

  private static func writeAll(_ descriptor: Int32, _ data: Data, endpoint: RemoteEndpoint) throws {
    try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
      var offset = 0
      while offset < buffer.count {
        let written = send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
        if written < 0 {
          if errno == EINTR { continue }
          throw RemoteFailure(
            message: "lost the connection to \(endpoint.display) while sending: \(String(cString: strerror(errno)))")
        }
        offset += written
      }
    }
  }

  /// Reads until the response is complete: Content-Length, chunked, or the server's close.
  private static func readResponse(_ descriptor: Int32, endpoint: RemoteEndpoint) throws -> RemoteResponse {
    var buffer = Data()
    var closed = false
    func fill() throws {
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = recv(descriptor, &chunk, chunk.count, 0)
        if count > 0 {
          buffer.append(contentsOf: chunk[0..<count])
          return
        }
        if count == 0 {
          closed = true
          return
        }
        if errno == EINTR { continue }
        let reason = errno == EAGAIN ? "no answer within \(timeoutSeconds) s" : String(cString: strerror(errno))
        throw RemoteFailure(message: "lost the connection to \(endpoint.display): \(reason)")
      }
    }
    func truncated() -> RemoteFailure {
      RemoteFailure(message: "\(endpoint.display) closed the connection before a complete response")
    }
    let separator = Data("\r\n\r\n".utf8)
    var headEnd: Range<Data.Index>?
    while true {
      headEnd = buffer.range(of: separator)
      if headEnd != nil { break }
      if closed { throw truncated() }
      if buffer.count > 1 << 20 { throw RemoteFailure(message: "\(endpoint.display) sent an oversized response head") }
      try fill()
    }
    guard let headEnd else { throw truncated() }
    let head = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
    let lines = head.components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ", maxSplits: 2)
    guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
      throw RemoteFailure(message: "\(endpoint.display) did not answer in HTTP/1.1 (\"\(lines[0].prefix(60))\")")
    }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var rest = Data(buffer[headEnd.upperBound...])
    buffer = rest
    var body = Data()
    if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
      // size CRLF data CRLF ... 0 CRLF [trailers] CRLF
      while true {
        var lineEnd = buffer.range(of: Data("\r\n".utf8))
        while lineEnd == nil {
          if closed { throw truncated() }
          try fill()
          lineEnd = buffer.range(of: Data("\r\n".utf8))
        }
        guard let sizeLineEnd = lineEnd else { throw truncated() }
        let sizeText = String(decoding: buffer[buffer.startIndex..<sizeLineEnd.lowerBound], as: UTF8.self)
        guard let size = Int(sizeText.split(separator: ";").first.map(String.init) ?? "", radix: 16), size >= 0 else {
          throw RemoteFailure(message: "\(endpoint.display) sent a bad chunk size")
        }
        buffer = Data(buffer[sizeLineEnd.upperBound...])
        if size == 0 { break }
        while buffer.count < size + 2 {
          if closed { throw truncated() }
          try fill()
        }
        body.append(buffer.prefix(size))
        buffer = Data(buffer.dropFirst(size + 2))
      }
    } else if let lengthText = headers["content-length"] {
      guard let length = Int(lengthText), length >= 0 else {
        throw RemoteFailure(message: "\(endpoint.display) sent a bad Content-Length")
      }
      while buffer.count < length {
        if closed { throw truncated() }
        try fill()
      }
      body = buffer.prefix(length)
    } else {
      while !closed { try fill() }
      body = buffer
    }
    rest = Data()
    return RemoteResponse(status: status, headers: headers, body: body)
  }
}

/// The program's files as the HTTP API carries them.
func remoteFiles(_ options: RunOptions) throws -> [ExecuteBody.File] {
  try readSources(options.files).map { file -> ExecuteBody.File in
    guard let text = String(data: file.contents, encoding: .utf8) else {
      throw UsageError(message: "\(file.name) is not UTF-8 text (the HTTP API carries sources as text)")
    }
    return ExecuteBody.File(name: file.name, content: text)
  }
}

/// The request body of POST /v1/execute for these options.
func remoteBody(_ options: RunOptions) throws -> Data {
  let files = try remoteFiles(options)
  let input = try readInput(path: options.stdinPath)
  guard let stdinText = String(data: input, encoding: .utf8) else {
    throw UsageError(message: "standard input is not UTF-8 text (the HTTP API carries it as text)")
  }
  let limits = remoteLimits(options.limits)
  let body = ExecuteBody(
    language: options.language, version: options.version, files: files, stdin: stdinText,
    args: options.arguments.isEmpty ? nil : options.arguments, limits: limits == ExecuteBody.Limits() ? nil : limits)
  return Data(body.json.compactJSONBytes)
}

/// `--remote`: posts the run and prints what a local run prints; returns the exit code. At a
/// terminal, or with stdin from a pipe, the run is live instead (`runRemoteLive`).
func runRemote(_ options: RunOptions, url: String) -> Int32 {
  if remoteRunsLive(options) { return runRemoteLive(options, url: url) }
  let endpoint: RemoteEndpoint
  let body: Data
  do {
    endpoint = try RemoteEndpoint(url)
    try checkToken(options.token)
    body = try remoteBody(options)
  } catch let error as UsageError {
    return complain(error.message, code: 2)
  } catch {
    return complain("\(error)", code: 2)
  }
  switch postToDaemon(endpoint, path: "/v1/execute", body: body, token: options.token) {
  case .failure(let failure): return complain(failure.message, code: failure.code)
  case .success(let raw):
    let result: WireExecuteResult
    switch WireExecuteResult.read(raw) {
    case .success(let read): result = read
    case .failure(let problems):
      return complain("\(endpoint.display) sent a result that is not an execute result: \(problems)", code: 3)
    }
    if options.json { printJSONBody(raw) }
    return printRun(
      compile: result.compile.map(PrintedStep.init(wire:)), run: result.run.map(PrintedStep.init(wire:)),
      json: options.json)
  }
}

/// A token goes into a header line: printable ASCII only.
func checkToken(_ token: String?) throws {
  guard let token else { return }
  guard !token.isEmpty, token.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
    throw UsageError(message: "--token (or DSA_RUN_TOKEN) must be printable ASCII without spaces")
  }
}

/// Why a daemon call gave no result, and the exit code it means.
struct DaemonFailure: Error {
  var message: String
  var code: Int32
}

/// Posts `body` to the daemon and returns its 200 answer's bytes; any other answer or failure is the
/// daemon's own error message (exit 2 for the caller's mistakes, 3 for the server's or the network's).
func postToDaemon(_ endpoint: RemoteEndpoint, path: String, body: Data, token: String?) -> Result<
  Data, DaemonFailure
> {
  let response: RemoteResponse
  do {
    response = try RemoteClient.post(endpoint, path: path, json: body, token: token)
  } catch let error as RemoteFailure {
    return .failure(DaemonFailure(message: error.message, code: 3))
  } catch {
    return .failure(DaemonFailure(message: "\(error)", code: 3))
  }
  guard response.status == 200 else {
    let code: Int32 = (400..<500).contains(response.status) ? 2 : 3
    if case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: response.body),
      case .object(let error)? = object["error"], case .string(let message)? = error["message"]
    {
      let hint = response.status == 401 && token == nil ? " (give --token or set DSA_RUN_TOKEN)" : ""
      return .failure(DaemonFailure(message: message + hint, code: code))
    }
    let text = String(decoding: response.body.prefix(200), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return .failure(
      DaemonFailure(
        message: "\(endpoint.display) answered \(response.status)\(text.isEmpty ? "" : ": \(text)")", code: code))
  }
  return .success(response.body)
}

/// `--json` with `--remote`: the daemon's body as it came, on one line.
func printJSONBody(_ body: Data) {
  var output = body
  if output.last != UInt8(ascii: "\n") { output.append(UInt8(ascii: "\n")) }
  FileHandle.standardOutput.write(output)
}

/// The limits the user asked for, as the execute body carries them.
func remoteLimits(_ asked: StepLimits) -> ExecuteBody.Limits {
  ExecuteBody.Limits(
    cpuMilliseconds: asked.cpuMilliseconds.map { Int64(clamping: $0) },
    wallMilliseconds: asked.wallMilliseconds.map { Int64(clamping: $0) },
    memoryMegabytes: asked.memoryMegabytes.map { Int64(clamping: $0) },
    outputKilobytes: asked.outputKilobytes.map { Int64(clamping: $0) })
}
