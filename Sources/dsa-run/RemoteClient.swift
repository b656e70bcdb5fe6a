import Foundation
import Glibc
import Sandbox

// dsa-run --lang ... --remote URL: the same run through a dsa-rund's POST /v1/execute, printed as a
// local run prints it. The HTTP/1.1 client is a small one of our own over a POSIX socket (http://
// only): Foundation's URLSession needs networking libraries a minimal Linux host may lack.

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

/// `http://host[:port][/prefix]`, split.
struct RemoteEndpoint {
  var host: String
  var port: UInt16
  var pathPrefix: String

  init(_ text: String) throws {
    guard text.hasPrefix("http://") else {
      throw UsageError(message: "--remote needs an http:// URL (https is not supported), got \"\(text)\"")
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
  var display: String { "http://\(hostHeader)" }
}

/// A minimal HTTP/1.1 client: one request per connection (`Connection: close`).
enum RemoteClient {
  static let timeoutSeconds = 120

  static func post(_ endpoint: RemoteEndpoint, path: String, json body: Data) throws -> RemoteResponse {
    let descriptor = try connect(endpoint)
    defer { close(descriptor) }
    var head = "POST \(endpoint.pathPrefix)\(path) HTTP/1.1\r\n"
    head += "Host: \(endpoint.hostHeader)\r\n"
    head += "User-Agent: dsa-run\r\nAccept: application/json\r\nContent-Type: application/json\r\n"
    head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    try writeAll(descriptor, Data(head.utf8) + body, endpoint: endpoint)
    return try readResponse(descriptor, endpoint: endpoint)
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
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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
func remoteFiles(_ options: RunOptions) throws -> [[String: Any]] {
  try readSources(options.files).map { file -> [String: Any] in
    guard let text = String(data: file.contents, encoding: .utf8) else {
      throw UsageError(message: "\(file.name) is not UTF-8 text (the HTTP API carries sources as text)")
    }
    return ["name": file.name, "content": text]
  }
}

/// The request body of POST /v1/execute for these options.
func remoteBody(_ options: RunOptions) throws -> Data {
  let files = try remoteFiles(options)
  let input = try readInput(path: options.stdinPath)
  guard let stdinText = String(data: input, encoding: .utf8) else {
    throw UsageError(message: "standard input is not UTF-8 text (the HTTP API carries it as text)")
  }
  var body: [String: Any] = ["language": options.language, "files": files, "stdin": stdinText]
  if let version = options.version { body["version"] = version }
  if !options.arguments.isEmpty { body["args"] = options.arguments }
  var limits: [String: Any] = [:]
  if let value = options.limits.cpuMilliseconds { limits["cpu_ms"] = value }
  if let value = options.limits.wallMilliseconds { limits["wall_ms"] = value }
  if let value = options.limits.memoryMegabytes { limits["memory_mb"] = value }
  if let value = options.limits.outputKilobytes { limits["output_kb"] = value }
  if !limits.isEmpty { body["limits"] = limits }
  return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
}

/// `--remote`: posts the run and prints what a local run prints.
func runRemote(_ options: RunOptions, url: String) -> Never {
  let endpoint: RemoteEndpoint
  let body: Data
  do {
    endpoint = try RemoteEndpoint(url)
    body = try remoteBody(options)
  } catch let error as UsageError {
    fail(error.message, code: 2)
  } catch {
    fail("\(error)", code: 2)
  }
  let (object, raw) = postToDaemon(endpoint, path: "/v1/execute", body: body)
  if options.json { printJSONBody(raw) }
  finishRun(compile: PrintedStep(json: object["compile"]), run: PrintedStep(json: object["run"]), json: options.json)
}

/// Posts `body` to the daemon and returns its 200 answer as an object and as bytes; any other answer
/// or failure ends the CLI with the daemon's own error message (exit 2 for the caller's mistakes,
/// 3 for the server's or the network's).
func postToDaemon(_ endpoint: RemoteEndpoint, path: String, body: Data) -> ([String: Any], Data) {
  let response: RemoteResponse
  do {
    response = try RemoteClient.post(endpoint, path: path, json: body)
  } catch let error as RemoteFailure {
    fail(error.message, code: 3)
  } catch {
    fail("\(error)", code: 3)
  }
  let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
  guard response.status == 200 else {
    let code: Int32 = (400..<500).contains(response.status) ? 2 : 3
    if let error = object?["error"] as? [String: Any], let message = error["message"] as? String {
      fail(message, code: code)
    }
    let text = String(decoding: response.body.prefix(200), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    fail("\(endpoint.display) answered \(response.status)\(text.isEmpty ? "" : ": \(text)")", code: code)
  }
  guard let object else { fail("\(endpoint.display) sent a result that is not JSON", code: 3) }
  return (object, response.body)
}

/// `--json` with `--remote`: the daemon's body as it came, on one line.
func printJSONBody(_ body: Data) {
  var output = body
  if output.last != UInt8(ascii: "\n") { output.append(UInt8(ascii: "\n")) }
  FileHandle.standardOutput.write(output)
}
