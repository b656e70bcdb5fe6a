import Foundation
import Glibc
import Synchronization
import SystemCore

/// Sends the results of finished submissions to their `callback_url`. Pending webhooks live in the
/// store, so a daemon that dies mid-delivery leaves them for the next start (a receiver may so get
/// one twice: the `X-DSA-Run-Submission` header names it).
///
/// One slow or silent receiver must not hold up anyone else's results, so no delivery waits behind
/// another: a dispatcher thread pages through the store's pending webhooks and starts each try on
/// a thread of its own, at most `maximumDeliveries` at once and at most
/// `maximumDeliveriesPerDestination` per destination (`host:port` as the URL spells it), each try
/// bounded by `timeoutMilliseconds` from its connect to the status line. A failed try waits out
/// its backoff holding no slot. A receiver that never answers so costs its own deliveries (its
/// destination's slots, each for one try's deadline) and nobody else's; the listing skips what is
/// already held, so the webhooks behind its backlog are found too.
public final class WebhookSender: Sendable {
  /// How webhooks are sent now; a config reload replaces it (`replaceSettings`) for every try after.
  public var settings: WebhookSettings { currentSettings.withLock { $0 } }
  private let currentSettings: Mutex<WebhookSettings>
  private let store: any SubmissionStore
  private let makeBody: @Sendable (PendingWebhook) -> Data
  /// The request method per webhook: POST, or PUT for a Judge0 `callback_url` (Judge0 PUTs).
  private let method: @Sendable (PendingWebhook) -> String
  private let state = Mutex(State())
  private let signal = NSCondition()
  /// Called with each page of the store's listing before it is taken up (tests: to finish a try
  /// between the listing and its taking up).
  let afterListingPage: (@Sendable ([PendingWebhook]) -> Void)?

  /// A webhook this sender holds: between tries, or in one.
  private struct Held {
    var webhook: PendingWebhook
    var destination: String
    var attempts = 0
    var nextTry: ContinuousClock.Instant
    var trying = false
  }

  private struct State {
    var stopping = false
    var generation: UInt64 = 0
    var failures: UInt64 = 0
    var delivered: UInt64 = 0
    var held: [String: Held] = [:]
    var heldPerDestination: [String: Int] = [:]
    var tryingPerDestination: [String: Int] = [:]
    var trying = 0
    /// How many webhooks were let go so far, and when each of those let go recently was: a page of
    /// the store read before a webhook was finished and let go may still list it, and must not
    /// take it up again (it was tried again, and given up twice).
    var letGoCount: UInt64 = 0
    var recentlyLetGo: [String: UInt64] = [:]

    mutating func hold(_ webhook: Held) {
      held[webhook.webhook.id] = webhook
      heldPerDestination[webhook.destination, default: 0] += 1
    }

    mutating func letGo(_ id: String) {
      guard let webhook = held.removeValue(forKey: id) else { return }
      letGoCount += 1
      recentlyLetGo[id] = letGoCount
      heldPerDestination[webhook.destination, default: 1] -= 1
      if heldPerDestination[webhook.destination] == 0 { heldPerDestination[webhook.destination] = nil }
    }
  }

  /// A sender whose request bodies `makeBody` writes.
  public convenience init(
    settings: WebhookSettings, store: any SubmissionStore,
    method: @escaping @Sendable (PendingWebhook) -> String = { _ in "POST" },
    makeBody: @escaping @Sendable (PendingWebhook) -> Data
  ) {
    self.init(settings: settings, store: store, method: method, afterListingPage: nil, makeBody: makeBody)
  }

  init(
    settings: WebhookSettings, store: any SubmissionStore, method: @escaping @Sendable (PendingWebhook) -> String,
    afterListingPage: (@Sendable ([PendingWebhook]) -> Void)?, makeBody: @escaping @Sendable (PendingWebhook) -> Data
  ) {
    self.afterListingPage = afterListingPage
    currentSettings = Mutex(settings)
    self.store = store
    self.method = method
    self.makeBody = makeBody
  }

  /// Sends every try from now on with `settings` (the secret, the allowed networks, the timeout, the
  /// tries and their backoff); tries under way finish with the settings they started with.
  public func replaceSettings(_ settings: WebhookSettings) {
    currentSettings.withLock { $0 = settings }
    wake()
  }

  /// Webhooks given up on after every try.
  public var failures: UInt64 { state.withLock { $0.failures } }
  /// Webhooks a receiver took with a 2xx.
  public var deliveredCount: UInt64 { state.withLock { $0.delivered } }
  /// Tries under way now.
  public var tryingCount: Int { state.withLock { $0.trying } }

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

  /// Starts no more tries; those under way end within their deadline, and what they did not
  /// deliver stays pending for the next start.
  public func stop() {
    signal.withLock {
      state.withLock { $0.stopping = true }
      signal.broadcast()
    }
  }

  private var stopping: Bool { state.withLock { $0.stopping } }

  private func serve() {
    var listedAt: ContinuousClock.Instant?
    var listedGeneration: UInt64?
    while !stopping {
      let generation = state.withLock { $0.generation }
      // The store is read again when a result was recorded (or a try ended, which also bumps the
      // generation) and once a second, for results another daemon of a shared store recorded.
      if listedGeneration != generation || listedAt.map({ ContinuousClock.now - $0 > .seconds(1) }) ?? true {
        listedGeneration = generation
        listedAt = .now
        takeUpPending()
      }
      let next = startDueTries()
      signal.withLock {
        let deadline = Date(timeIntervalSinceNow: min(1, next.map(Self.seconds(until:)) ?? 1))
        while state.withLock({ $0.generation == generation && !$0.stopping }) {
          if !signal.wait(until: deadline) { break }
        }
      }
    }
  }

  private static func seconds(until instant: ContinuousClock.Instant) -> Double {
    let (seconds, attoseconds) = (instant - .now).components
    return max(0.001, Double(seconds) + Double(attoseconds) / 1e18)
  }

  /// Holds the store's pending webhooks this sender does not hold yet, paging past those it does,
  /// up to `maximumHeld` in all and `maximumHeldPerDestination` for one destination (a backlog for
  /// one receiver must not crowd out the others' webhooks).
  private func takeUpPending() {
    var position = WebhookPosition.start
    let letGoBeforeListing = state.withLock { $0.letGoCount }
    // A webhook let go before this listing began was finished in the store before it, so no page
    // of it lists it again: those need not be remembered past it.
    defer { state.withLock { $0.recentlyLetGo = $0.recentlyLetGo.filter { $0.value > letGoBeforeListing } } }
    while !stopping {
      guard state.withLock({ $0.held.count < settings.maximumHeld }) else { return }
      let letGoBeforePage = state.withLock { $0.letGoCount }
      guard let page = try? store.pendingWebhooks(limit: 64, after: position), let last = page.last else { return }
      afterListingPage?(page)
      position = last.position
      state.withLock { state in
        for webhook in page where state.held[webhook.id] == nil && state.held.count < settings.maximumHeld {
          if let letGo = state.recentlyLetGo[webhook.id], letGo > letGoBeforePage { continue }
          let destination = Self.destination(of: webhook.callbackURL)
          guard state.heldPerDestination[destination, default: 0] < settings.maximumHeldPerDestination else {
            continue
          }
          state.hold(Held(webhook: webhook, destination: destination, nextTry: .now))
        }
      }
      if page.count < 64 { return }
    }
  }

  /// `host:port` as the URL spells it, lowercased; the URL itself when it is malformed (its one
  /// try fails at once).
  static func destination(of url: String) -> String {
    guard case .success(let parsed) = WebhookTarget.parse(url) else { return url }
    return "\(parsed.host.lowercased()):\(parsed.port)"
  }

  /// Starts every due try that has room, oldest webhook first; returns when the next one not yet
  /// due will be.
  private func startDueTries() -> ContinuousClock.Instant? {
    let now = ContinuousClock.now
    let (starting, next) = state.withLock { state -> ([Held], ContinuousClock.Instant?) in
      guard !state.stopping else { return ([], nil) }
      var starting: [Held] = []
      var next: ContinuousClock.Instant?
      let waiting = state.held.values.filter { !$0.trying }.sorted {
        ($0.webhook.finishedMilliseconds, $0.webhook.id) < ($1.webhook.finishedMilliseconds, $1.webhook.id)
      }
      for held in waiting {
        guard held.nextTry <= now else {
          next = min(next ?? held.nextTry, held.nextTry)
          continue
        }
        guard state.trying < settings.maximumDeliveries else { break }
        guard state.tryingPerDestination[held.destination, default: 0] < settings.maximumDeliveriesPerDestination
        else { continue }
        state.trying += 1
        state.tryingPerDestination[held.destination, default: 0] += 1
        state.held[held.webhook.id]?.trying = true
        state.held[held.webhook.id]?.attempts += 1
        starting.append(state.held[held.webhook.id]!)
      }
      return (starting, next)
    }
    for held in starting {
      let thread = Thread { [self] in tryOnce(held) }
      thread.name = "dsa-run-webhook"
      thread.start()
    }
    return next
  }

  /// One try of `held`, then its bookkeeping: delivered or out of tries, the store is told and
  /// the webhook let go; else it waits out its backoff.
  private func tryOnce(_ held: Held) {
    let id = held.webhook.id
    let delivered: Bool
    if case .success = Self.deliver(
      held.webhook.callbackURL, id: id, body: makeBody(held.webhook), settings: settings, method: method(held.webhook))
    {
      delivered = true
    } else {
      delivered = false
    }
    let tries = max(1, settings.tries)
    let finished = delivered || held.attempts >= tries
    let stopping = self.stopping
    // A daemon stopping mid-tries leaves the webhook pending for the next one.
    if finished && (delivered || !stopping) {
      try? store.finishWebhook(id: id, delivered: delivered)
    }
    signal.withLock {
      state.withLock { state in
        state.trying -= 1
        state.tryingPerDestination[held.destination, default: 1] -= 1
        if state.tryingPerDestination[held.destination] == 0 { state.tryingPerDestination[held.destination] = nil }
        if finished {
          state.letGo(id)
          if delivered { state.delivered += 1 } else if !stopping { state.failures += 1 }
        } else {
          let pause = min(60_000, settings.backoffMilliseconds << min(20, held.attempts - 1))
          state.held[id]?.trying = false
          state.held[id]?.nextTry = .now + .milliseconds(pause)
        }
        state.generation += 1
      }
      signal.broadcast()
    }
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
    guard let hostAddresses = WebhookTarget.hostAddresses() else { return fail("cannot list this host's addresses") }
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
      guard let address = current.pointee.ai_addr, let bytes = WebhookTarget.addressBytes(address) else { continue }
      if let why = WebhookTarget.refusal(of: bytes, allowed: settings.allowedNetworks, hostAddresses: hostAddresses) {
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
        return WebhookTarget.addressBytes(pointer)
      }
    }
    guard let peerBytes else { return fail("getpeername: \(String(cString: strerror(errno)))") }
    if let why = WebhookTarget.refusal(of: peerBytes, allowed: settings.allowedNetworks) {
      return fail("connected to \(WebhookTarget.format(peerBytes)), which is \(why)")
    }
    // Our own end tells what no address list does: a connection the kernel delivered locally
    // (through loopback, from the peer's own address) reached this host, also at an address no
    // interface holds (a local route, AnyIP).
    var local = sockaddr_storage()
    var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let localBytes = withUnsafeMutablePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> [UInt8]? in
        guard getsockname(descriptor, pointer, &localLength) == 0 else { return nil }
        return WebhookTarget.addressBytes(pointer)
      }
    }
    guard let localBytes else { return fail("getsockname: \(String(cString: strerror(errno)))") }
    if WebhookTarget.reachesThisHost(local: localBytes, peer: peerBytes),
      !settings.allowedNetworks.contains(where: { $0.isExactly(peerBytes) })
    {
      return fail("connected to \(WebhookTarget.format(peerBytes)), which is \(WebhookTarget.hostAddressRefusal)")
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
