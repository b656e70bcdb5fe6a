import Foundation
import Glibc
import Synchronization
import SystemCore
import Testing

@testable import Submissions

/// Webhook deliveries from a real store to real loopback listeners: a receiver that accepts the
/// connection and never answers costs its own deliveries only.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct WebhookSenderTests {
  /// A listening TCP socket on 127.0.0.1 that never accepts: the kernel completes each handshake,
  /// takes the request into its buffers, and no answer ever comes.
  final class SilentReceiver {
    let descriptor: Int32
    let port: UInt16

    init() throws {
      (descriptor, port) = try listenOnLoopback()
    }

    /// The connections that reached it so far (taken off its queue, and kept open).
    func takeConnections() -> [Int32] {
      var taken: [Int32] = []
      while true {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 0) == 1 else { return taken }
        let connection = accept(descriptor, nil, nil)
        if connection < 0 { return taken }
        taken.append(connection)
      }
    }

    deinit { close(descriptor) }
  }

  /// An HTTP receiver that answers every request 200 at once and notes when each arrived.
  final class FastReceiver: @unchecked Sendable {
    let descriptor: Int32
    let port: UInt16
    private let arrivals = Mutex<[(String, ContinuousClock.Instant)]>([])

    init() throws {
      (descriptor, port) = try listenOnLoopback()
      let thread = Thread { [self] in serve() }
      thread.start()
    }

    var received: [(String, ContinuousClock.Instant)] { arrivals.withLock { $0 } }

    private func serve() {
      while true {
        let connection = accept(descriptor, nil, nil)
        if connection < 0 {
          if errno == EINTR { continue }
          return
        }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: request, as: UTF8.self).contains("\r\n\r\n") {
          let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
          if count <= 0 { break }
          request += buffer[0..<count]
        }
        let head = String(decoding: request, as: UTF8.self)
        let id =
          head.split(separator: "\r\n").first { $0.hasPrefix("X-DSA-Run-Submission: ") }.map {
            String($0.dropFirst("X-DSA-Run-Submission: ".count))
          } ?? ""
        arrivals.withLock { $0.append((id, .now)) }
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(connection)
      }
    }

    /// Ends the accept loop (shutdown wakes the blocked accept).
    func stop() {
      shutdown(descriptor, Int32(SHUT_RDWR))
      close(descriptor)
    }
  }

  final class Fixture {
    let directory: String
    let store: SQLiteStore

    init() throws {
      var template = Array((NSTemporaryDirectory() + "dsa-run-webhooks.XXXXXX").utf8CString)
      guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw StoreError("mkdtemp", "failed")
      }
      directory = String(cString: made)
      store = try SQLiteStore(path: directory + "/submissions.sqlite3")
    }

    /// A done submission whose result goes to `url`, finished at `finished`; its id.
    func done(to url: String, finished: Int64) throws -> String {
      let submission = NewSubmission(
        id: try SubmissionID.make(), owner: "", kind: .execute, body: Data("{}".utf8), callbackURL: url)
      try store.insertDone(submission, result: Data("{\"ok\":true}".utf8), isError: false, now: finished)
      return submission.id
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
  }

  static func settings(timeoutMilliseconds: Int) -> WebhookSettings {
    var settings = WebhookSettings()
    settings.allowedNetworks = [WebhookTarget.Network("127.0.0.1/32")!]
    settings.timeoutMilliseconds = timeoutMilliseconds
    settings.tries = 1
    return settings
  }

  static func waitUntil(_ timeout: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if condition() { return true }
      usleep(10_000)
    }
    return condition()
  }

  /// Five webhooks to a receiver that never answers, finished before one to a fast receiver: the
  /// fast one arrives within 2 s while the silent ones hang, at most two at a time, for their full
  /// deadline, and are then given up.
  @Test func aSilentReceiverDelaysNoOtherReceiversWebhook() throws {
    let fixture = try Fixture()
    let silent = try SilentReceiver()
    let fast = try FastReceiver()
    defer { fast.stop() }
    for index in 0..<5 { _ = try fixture.done(to: "http://127.0.0.1:\(silent.port)/silent", finished: Int64(index)) }
    let fastID = try fixture.done(to: "http://127.0.0.1:\(fast.port)/fast", finished: 10)
    let sender = WebhookSender(settings: Self.settings(timeoutMilliseconds: 3000), store: fixture.store) { _ in
      Data("{}".utf8)
    }
    let started = ContinuousClock.now
    sender.start()
    defer { sender.stop() }
    #expect(Self.waitUntil(.seconds(2)) { !fast.received.isEmpty })
    let arrived = try #require(fast.received.first)
    #expect(arrived.0 == fastID)
    #expect(arrived.1 - started < .seconds(2), "the fast receiver's webhook took \(arrived.1 - started)")
    // Meanwhile the silent receiver holds its two tries (no more) and nothing was given up.
    usleep(300_000)
    let connections = silent.takeConnections()
    defer { for connection in connections { close(connection) } }
    #expect(connections.count == 2, "\(connections.count) tries to the silent receiver at once")
    #expect(sender.failures == 0 && sender.deliveredCount == 1)
    #expect(try fixture.store.pendingWebhooks(limit: 10).count == 5)
    // Each silent try ends at its deadline, the next two start then: 3 rounds of 3 s.
    // 9 s when the machine is idle; a loaded one (the whole suite in parallel) stretches each round.
    // The count and the store are updated one after the other: wait for both. Each is given up
    // once (a listing read during a webhook's last try used to take it up again:
    // aPageReadBeforeAWebhookWasGivenUpDoesNotTryItAgain).
    #expect(
      Self.waitUntil(.seconds(60)) {
        sender.failures >= 5 && (try? fixture.store.pendingWebhooks(limit: 10).isEmpty) == true
      }, "\(sender.failures) given up")
    #expect(sender.failures == 5)
    #expect(ContinuousClock.now - started >= .seconds(8))
  }

  /// A listing read while a webhook's last try was under way still lists it; once that try has
  /// given it up (the store told, the webhook let go), taking up that page must not hold it again:
  /// it was tried a second time, and counted as given up twice (7 failures for 5 webhooks in the
  /// test above, under load).
  @Test func aPageReadBeforeAWebhookWasGivenUpDoesNotTryItAgain() throws {
    let fixture = try Fixture()
    let silent = try SilentReceiver()
    _ = try fixture.done(to: "http://127.0.0.1:\(silent.port)/silent", finished: 1)
    let pagesListingIt = Atomic<Int>(0)
    let failures = Mutex<(@Sendable () -> UInt64)?>(nil)
    // The second listing comes while the only try waits out its 2 s deadline (the sender lists
    // again once a second); it is held back until that try has given the webhook up.
    let sender = WebhookSender(
      settings: Self.settings(timeoutMilliseconds: 2000), store: fixture.store, method: { _ in "POST" },
      afterListingPage: { page in
        guard !page.isEmpty, pagesListingIt.add(1, ordering: .relaxed).newValue == 2 else { return }
        _ = Self.waitUntil(.seconds(20)) { (failures.withLock { $0 }?() ?? 0) >= 1 }
      },
      makeBody: { _ in Data("{}".utf8) })
    failures.withLock { $0 = { sender.failures } }
    sender.start()
    defer { sender.stop() }
    #expect(Self.waitUntil(.seconds(20)) { sender.failures >= 1 && pagesListingIt.load(ordering: .relaxed) >= 2 })
    // Long enough for a second try to start and end at its deadline, were there one.
    usleep(3_000_000)
    let connections = silent.takeConnections()
    defer { for connection in connections { close(connection) } }
    #expect(connections.count == 1, "\(connections.count) tries of one webhook with one try allowed")
    #expect(sender.failures == 1)
    #expect(try fixture.store.pendingWebhooks(limit: 10).isEmpty)
  }

  /// More webhooks for a silent receiver than a page of the store's listing (and than may be held
  /// for one destination) come before the fast receiver's: it is still found and sent at once.
  @Test func aBacklogForOneReceiverDoesNotHideTheOthers() throws {
    let fixture = try Fixture()
    let silent = try SilentReceiver()
    let fast = try FastReceiver()
    defer { fast.stop() }
    for index in 0..<100 {
      _ = try fixture.done(to: "http://127.0.0.1:\(silent.port)/silent", finished: Int64(index))
    }
    let fastID = try fixture.done(to: "http://127.0.0.1:\(fast.port)/fast", finished: 1000)
    let sender = WebhookSender(settings: Self.settings(timeoutMilliseconds: 10_000), store: fixture.store) { _ in
      Data("{}".utf8)
    }
    let started = ContinuousClock.now
    sender.start()
    defer { sender.stop() }
    #expect(Self.waitUntil(.seconds(2)) { !fast.received.isEmpty })
    #expect(fast.received.first?.0 == fastID)
    #expect((fast.received.first?.1).map { $0 - started < .seconds(2) } == true)
    // The silent receiver's two tries stay; the fast one's ends just after its receiver has the
    // body (a full suite once saw it still under way at the first look).
    #expect(Self.waitUntil(.seconds(2)) { sender.tryingCount == 2 }, "\(sender.tryingCount) tries under way")
  }
}

/// A TCP socket listening on 127.0.0.1 at a port the kernel picks.
func listenOnLoopback() throws -> (Int32, UInt16) {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  guard descriptor >= 0 else { throw StoreError("socket", String(cString: strerror(errno))) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard bound == 0, listen(descriptor, 128) == 0 else {
    close(descriptor)
    throw StoreError("bind", String(cString: strerror(errno)))
  }
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
  }
  return (descriptor, UInt16(bigEndian: address.sin_port))
}

/// The host's own addresses, in a network namespace of the test's own: an interface (one end of a
/// veth pair: this kernel has no dummy driver) holds a public IPv4 and IPv6 address (outside every refused range), and a local route makes a public
/// /24 this host's without any interface holding it (AnyIP). A thread that entered the namespace
/// checks and delivers there, with listeners on every address of it.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct WebhookHostAddressTests {
  static let ownIPv4 = "100.128.0.1"
  static let ownIPv6 = "2001:db9::1"

  /// Runs `body` on a thread of its own inside the namespace `name` and waits for it.
  static func inNamespace(_ name: String, _ body: @escaping @Sendable () -> Void) throws {
    typealias SetNamespace = @convention(c) (Int32, Int32) -> Int32
    // CLONE_NEWNET: Glibc's Swift module exports neither it nor setns (GNU extensions).
    let cloneNewNet: Int32 = 0x4000_0000
    let setns = try #require(dlsym(nil, "setns").map { unsafeBitCast($0, to: SetNamespace.self) })
    let entered = Mutex<Int32?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let fd = open("/run/netns/\(name)", O_RDONLY | O_CLOEXEC)
      let status = fd >= 0 && setns(fd, cloneNewNet) == 0 ? 0 : errno
      if fd >= 0 { close(fd) }
      entered.withLock { $0 = status }
      if status == 0 { body() }
      done.signal()
    }
    thread.start()
    done.wait()
    #expect(entered.withLock { $0 } == 0, "setns into \(name)")
  }

  static func ip(_ arguments: [String]) throws {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "ip \(arguments.joined(separator: " "))")
  }

  /// A TCP listener on the wildcard address of `family` in the calling thread's namespace.
  static func listenEverywhere(_ family: Int32, port: UInt16) -> Int32 {
    let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var result: Int32
    if family == AF_INET6 {
      setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    return result == 0 && listen(descriptor, 16) == 0 ? descriptor : -1
  }

  static func hasConnection(_ listener: Int32) -> Bool {
    var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
    return poll(&ready, 1, 0) == 1
  }

  @Test func theHostsOwnAddressesAreRefusedInEverySpelling() throws {
    let name = "dsa-leaks-\(UInt32.random(in: 0...UInt32.max))"
    try Self.ip(["netns", "add", name])
    defer { try? Self.ip(["netns", "del", name]) }
    for command in [
      ["link", "set", "lo", "up"], ["link", "add", "own0", "type", "veth", "peer", "name", "own1"],
      ["link", "set", "own0", "up"],
      ["link", "set", "own1", "up"],
      ["addr", "add", "\(Self.ownIPv4)/32", "dev", "own0"],
      ["addr", "add", "\(Self.ownIPv6)/128", "dev", "own0", "nodad"],
      ["route", "add", "local", "100.129.0.0/24", "dev", "lo"],
    ] {
      try Self.ip(["-n", name] + command)
    }
    let failures = Mutex<[String]>([])
    try Self.inNamespace(name) {
      func fail(_ text: String) { failures.withLock { $0.append(text) } }
      let port: UInt16 = 18_080
      let v4 = Self.listenEverywhere(AF_INET, port: port)
      let v6 = Self.listenEverywhere(AF_INET6, port: port)
      defer {
        close(v4)
        close(v6)
      }
      guard v4 >= 0, v6 >= 0 else { return fail("cannot listen in the namespace: \(errno)") }
      guard let own = WebhookTarget.hostAddresses(), own.contains(WebhookTarget.parseAddress(Self.ownIPv4)!) else {
        return fail("getifaddrs in the namespace does not list \(Self.ownIPv4)")
      }
      var settings = WebhookSettings()
      settings.timeoutMilliseconds = 1000
      // The same address in each spelling a URL may give it, numeric forms refused at submit too.
      let spellings = [
        Self.ownIPv4, "[::ffff:\(Self.ownIPv4)]", "[::ffff:6480:1]", "1686110209", "0x64800001", "0144.0200.0.01",
        "100.128.1", "[\(Self.ownIPv6)]", "[2001:0db9:0000::0001]",
      ]
      for allowed in [[], ["100.128.0.0/16", "2001:db9::/32"]] {
        settings.allowedNetworks = allowed.compactMap(WebhookTarget.Network.init)
        for host in spellings {
          let url = "http://\(host):\(port)/hook"
          let problem = WebhookTarget.problem(with: url, settings: settings) ?? "nil"
          if !problem.contains("an address of this host") { fail("\(url) allowed \(allowed) at submit: \(problem)") }
          switch WebhookSender.deliver(url, id: "x", body: Data("{}".utf8), settings: settings) {
          case .success(let status): fail("\(url) allowed \(allowed) delivered: \(status)")
          case .failure(let error):
            if !error.message.contains("an address of this host") { fail("\(url): \(error.message)") }
          }
        }
        // An address no interface holds but a local route makes this host's: allowed at submit
        // (nothing tells), refused once the connection shows it ended here.
        let anyIP = "http://100.129.0.7:\(port)/hook"
        if let problem = WebhookTarget.problem(with: anyIP, settings: settings) { fail("\(anyIP): \(problem)") }
        switch WebhookSender.deliver(anyIP, id: "x", body: Data("{}".utf8), settings: settings) {
        case .success(let status): fail("\(anyIP) delivered: \(status)")
        case .failure(let error):
          if !error.message.contains("an address of this host") { fail("\(anyIP): \(error.message)") }
        }
      }
      if Self.hasConnection(v6) { fail("a connection reached the IPv6 listener") }
      // Only the AnyIP try may have connected (it is refused after connecting); take it off.
      var anyIPConnections = 0
      while Self.hasConnection(v4) {
        let connection = accept(v4, nil, nil)
        if connection < 0 { break }
        anyIPConnections += 1
        close(connection)
      }
      if anyIPConnections != 2 { fail("\(anyIPConnections) connections reached the IPv4 listener, not 2 (AnyIP)") }
      // Named exactly, the address is reachable: the refusals above were the rule, not the network.
      settings.allowedNetworks = [WebhookTarget.Network("\(Self.ownIPv4)/32")!]
      let answer = Thread {
        let connection = accept(v4, nil, nil)
        guard connection >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        let reply = Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)
        _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(connection)
      }
      answer.start()
      let url = "http://\(Self.ownIPv4):\(port)/hook"
      if case .failure(let error) = WebhookSender.deliver(url, id: "x", body: Data("{}".utf8), settings: settings) {
        fail("\(url) allowed exactly: \(error.message)")
      }
    }
    #expect(failures.withLock { $0 } == [])
  }
}
