import Foundation
import Glibc
import Synchronization
import SystemCore

/// Sends the results of finished submissions to their `callback_url`: one thread that takes the
/// store's pending webhooks, POSTs each with its tries and backoff, and marks it delivered or given
/// up. Pending webhooks live in the store, so a daemon that dies mid-delivery leaves them for the
/// next start (a receiver may so get one twice: the `X-DSA-Run-Submission` header names it).
public final class WebhookSender: Sendable {
  public let settings: WebhookSettings
  private let store: any SubmissionStore
  private let makeBody: @Sendable (PendingWebhook) -> Data
  /// The request method per webhook: POST, or PUT for a Judge0 `callback_url` (Judge0 PUTs).
  private let method: @Sendable (PendingWebhook) -> String
  private let state = Mutex(State())
  private let signal = NSCondition()

  private struct State {
    var stopping = false
    var generation: UInt64 = 0
    var failures: UInt64 = 0
    var delivered: UInt64 = 0
  }

  /// A sender whose request bodies `makeBody` writes.
  public init(
    settings: WebhookSettings, store: any SubmissionStore,
    method: @escaping @Sendable (PendingWebhook) -> String = { _ in "POST" },
    makeBody: @escaping @Sendable (PendingWebhook) -> Data
  ) {
    self.settings = settings
    self.store = store
    self.method = method
    self.makeBody = makeBody
  }

  /// Webhooks given up on after every try.
  public var failures: UInt64 { state.withLock { $0.failures } }
  /// Webhooks a receiver took with a 2xx.
  public var deliveredCount: UInt64 { state.withLock { $0.delivered } }

  public func start() {
    let thread = Thread { [self] in serve() }
    thread.name = "dsa-run-webhooks"
    thread.start()
  }

  /// A result was recorded: look for webhooks now.
  public func wake() {
    signal.withLock {
      state.withLock { $0.generation += 1 }
      signal.broadcast()
    }
  }

  public func stop() {
    signal.withLock {
      state.withLock { $0.stopping = true }
      signal.broadcast()
    }
  }

  private var stopping: Bool { state.withLock { $0.stopping } }

  private func serve() {
    while !stopping {
      let seen = state.withLock { $0.generation }
      let pending = (try? store.pendingWebhooks(limit: 16)) ?? []
      for webhook in pending where !stopping {
        let delivered = deliverWithTries(webhook)
        // A daemon stopping mid-tries leaves the webhook pending for the next one.
        if !delivered && stopping { return }
        try? store.finishWebhook(id: webhook.id, delivered: delivered)
        state.withLock {
          if delivered { $0.delivered += 1 } else { $0.failures += 1 }
        }
      }
      if pending.isEmpty {
        signal.withLock {
          let deadline = Date(timeIntervalSinceNow: 1)
          while state.withLock({ $0.generation == seen && !$0.stopping }) {
            if !signal.wait(until: deadline) { break }
          }
        }
      }
    }
  }

  private func deliverWithTries(_ webhook: PendingWebhook) -> Bool {
    let body = makeBody(webhook)
    let method = method(webhook)
    var pause = settings.backoffMilliseconds
    for attempt in 1...max(1, settings.tries) {
      if case .success = Self.deliver(
        webhook.callbackURL, id: webhook.id, body: body, settings: settings, method: method)
      {
        return true
      }
      if attempt < settings.tries {
        usleep(UInt32(min(pause, 60_000)) * 1000)
        pause *= 2
      }
    }
    return false
  }

  /// Why a delivery failed.
  public struct DeliveryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// One try: resolve, refuse forbidden addresses, connect (checking the connected peer), POST
  /// `body`, and read the status line; success only for a 2xx. Redirects are not followed.
  public static func deliver(
    _ url: String, id: String, body: Data, settings: WebhookSettings, method: String = "POST"
  ) -> Result<
    Int, DeliveryError
  > {
    func fail(_ message: String) -> Result<Int, DeliveryError> { .failure(DeliveryError(message: message)) }
    guard case .success(let target) = WebhookTarget.parse(url) else { return fail("malformed callback_url") }
    let deadline = ContinuousClock.now + .milliseconds(settings.timeoutMilliseconds)
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_family = AF_UNSPEC
    var list: UnsafeMutablePointer<addrinfo>?
    let lookup = getaddrinfo(target.host, String(target.port), &hints, &list)
    guard lookup == 0, let list else {
      return fail("cannot resolve \(target.host): \(String(cString: gai_strerror(lookup)))")
    }
    defer { freeaddrinfo(list) }
    var reasons: [String] = []
    var entry: UnsafeMutablePointer<addrinfo>? = list
    while let current = entry {
      entry = current.pointee.ai_next
      guard let address = current.pointee.ai_addr, let bytes = addressBytes(address) else { continue }
      if let why = WebhookTarget.refusal(of: bytes, allowed: settings.allowedNetworks) {
        reasons.append("\(WebhookTarget.format(bytes)) is \(why)")
        continue
      }
      switch post(
        address: address, length: current.pointee.ai_addrlen, family: current.pointee.ai_family, target: target,
        id: id, body: body, settings: settings, deadline: deadline, method: method)
      {
      case .success(let status): return .success(status)
      case .failure(let error): reasons.append(error.message)
      }
    }
    return fail(reasons.isEmpty ? "\(target.host) has no address" : reasons.joined(separator: "; "))
  }

  static func addressBytes(_ address: UnsafePointer<sockaddr>) -> [UInt8]? {
    switch Int32(address.pointee.sa_family) {
    case AF_INET:
      return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
        var v4 = pointer.pointee.sin_addr
        return [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + withUnsafeBytes(of: &v4) { Array($0) }
      }
    case AF_INET6:
      return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
        var v6 = pointer.pointee.sin6_addr
        return withUnsafeBytes(of: &v6) { Array($0) }
      }
    default: return nil
    }
  }

  private static func remainingMilliseconds(_ deadline: ContinuousClock.Instant) -> Int32 {
    let (seconds, attoseconds) = (deadline - ContinuousClock.now).components
    return Int32(max(0, min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000)))
  }

  private static func post(
    address: UnsafePointer<sockaddr>, length: socklen_t, family: Int32, target: WebhookTarget.Parsed, id: String,
    body: Data, settings: WebhookSettings, deadline: ContinuousClock.Instant, method: String
  ) -> Result<Int, DeliveryError> {
    func fail(_ message: String) -> Result<Int, DeliveryError> { .failure(DeliveryError(message: message)) }
    let descriptor = socket(
      family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard descriptor >= 0 else { return fail("socket: \(String(cString: strerror(errno)))") }
    defer { close(descriptor) }
    if connect(descriptor, address, length) != 0 && errno != EINPROGRESS {
      return fail("connect: \(String(cString: strerror(errno)))")
    }
    var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    guard poll(&poller, 1, remainingMilliseconds(deadline)) == 1 else { return fail("connect timed out") }
    var socketError: Int32 = 0
    var errorLength = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &socketError, &errorLength)
    guard socketError == 0 else { return fail("connect: \(String(cString: strerror(socketError)))") }
    // The peer the kernel really connected to, checked again: what was resolved is not trusted.
    var peer = sockaddr_storage()
    var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let peerBytes = withUnsafeMutablePointer(to: &peer) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> [UInt8]? in
        guard getpeername(descriptor, pointer, &peerLength) == 0 else { return nil }
        return addressBytes(pointer)
      }
    }
    guard let peerBytes else { return fail("getpeername: \(String(cString: strerror(errno)))") }
    if let why = WebhookTarget.refusal(of: peerBytes, allowed: settings.allowedNetworks) {
      return fail("connected to \(WebhookTarget.format(peerBytes)), which is \(why)")
    }
    let hostField = target.host.contains(":") ? "[\(target.host)]" : target.host
    var head = "\(method) \(target.target) HTTP/1.1\r\nHost: \(hostField):\(target.port)\r\n"
    head += "User-Agent: dsa-rund\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
    head += "X-DSA-Run-Submission: \(id)\r\n"
    if let secret = settings.secret {
      let signature = hexadecimal(Digest.hmacSHA256(key: Array(secret.utf8), message: Array(body)))
      head += "X-DSA-Run-Signature: sha256=\(signature)\r\n"
    }
    head += "Connection: close\r\n\r\n"
    var request = Array(head.utf8) + Array(body)
    var sent = 0
    while sent < request.count {
      let count = request.withUnsafeMutableBytes {
        send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
      }
      if count > 0 {
        sent += count
        continue
      }
      guard count < 0, errno == EAGAIN || errno == EINTR else {
        return fail("send: \(String(cString: strerror(errno)))")
      }
      poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
      guard poll(&poller, 1, remainingMilliseconds(deadline)) == 1 else { return fail("send timed out") }
    }
    request.removeAll()
    // The status line is all that matters; a redirect is an answer, not an instruction to follow.
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1024)
    while !answer.contains(0x0A) && answer.count < 8192 {
      poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, remainingMilliseconds(deadline)) == 1 else { return fail("no answer in time") }
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count == 0 { break }
      if count < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        return fail("recv: \(String(cString: strerror(errno)))")
      }
      answer += buffer[0..<count]
    }
    let line = String(decoding: answer.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
      return fail("not an HTTP answer")
    }
    guard (200..<300).contains(status) else { return fail("the receiver answered \(status)") }
    return .success(status)
  }
}
