import Glibc

// The server's only contact with the kernel for connections: non-blocking sockets driven by
// poll(2) with deadlines, so every wait is bounded by a clock and can be interrupted by the stop
// signal. Blocking calls with SO_RCVTIMEO would bound each call, not the request: a client sending
// one byte per timeout would stay forever.

/// A connected or listening stream socket the server owns.
struct Socket: Hashable, Sendable {
  /// The file descriptor; open while the socket is registered with the server.
  let descriptor: Int32

  /// What a wait for input ended with.
  enum Readiness: Equatable {
    /// Bytes, end of input or an error are waiting: `receive` will not block.
    case ready
    /// The deadline passed first.
    case timedOut
    /// The wake descriptor fired first (the server is stopping).
    case woken
  }

  /// What one `receive` got.
  enum Received: Equatable {
    case bytes(Int)
    case endOfInput
    case wouldBlock
    /// ECONNRESET and the like: the peer is gone.
    case failed
  }

  /// Waits until input is waiting, `deadline` passes or `wake` becomes readable.
  ///
  /// Input wins over `wake` when both are ready, so a request that arrived just as the server
  /// began to stop is still served.
  func waitForInput(until deadline: ContinuousClock.Instant?, wake: Int32? = nil) -> Readiness {
    var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
    if let wake { descriptors.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
    while true {
      let count = poll(&descriptors, nfds_t(descriptors.count), pollTimeoutMilliseconds(until: deadline))
      if count < 0 {
        if errno == EINTR { continue }
        // EINVAL or ENOMEM: let the next receive report what is wrong with the socket.
        return .ready
      }
      if descriptors[0].revents != 0 { return .ready }
      if descriptors.count > 1 && descriptors[1].revents != 0 { return .woken }
      if count == 0 { return .timedOut }
    }
  }

  /// Reads what is waiting into `buffer`, at most its size.
  func receive(into buffer: inout [UInt8]) -> Received {
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 { return .bytes(count) }
      if count == 0 { return .endOfInput }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return .wouldBlock
      default: return .failed
      }
    }
  }

  /// Writes all of `bytes` before `deadline`; false when the peer is gone or too slow to read.
  ///
  /// MSG_NOSIGNAL makes a peer that closed its end an EPIPE here instead of a SIGPIPE that would
  /// kill the whole process; the server never changes the process's signal dispositions.
  func sendAll(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { raw in
        send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
      }
      if count >= 0 {
        offset += count
        continue
      }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK:
        guard waitForOutput(until: deadline) else { return false }
      default:
        return false  // EPIPE, ECONNRESET: the client went away.
      }
    }
    return true
  }

  /// True once the socket can take more bytes; false when `deadline` passed first.
  private func waitForOutput(until deadline: ContinuousClock.Instant) -> Bool {
    var descriptors = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)]
    while true {
      let count = poll(&descriptors, 1, pollTimeoutMilliseconds(until: deadline))
      if count < 0 && errno == EINTR { continue }
      // POLLERR and POLLHUP count as ready: the next send reports them.
      return count != 0
    }
  }

  /// Sends FIN: the peer reads the response and then end of input.
  func shutdownOutput() { _ = shutdown(descriptor, Int32(SHUT_WR)) }

  /// Makes any blocked or future read and write on the socket fail at once, from another thread.
  func shutdownBothDirections() { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }

  func close() { _ = Glibc.close(descriptor) }

  /// Sets O_NONBLOCK (every wait is a poll with a deadline) and FD_CLOEXEC (boxes the handler
  /// starts must not inherit client connections).
  func makeNonBlockingAndCloseOnExec() throws(HTTPServerError) {
    let flags = try systemCall("fcntl F_GETFL") { fcntl(descriptor, F_GETFL) }
    try systemCall("fcntl F_SETFL O_NONBLOCK") { fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
    try systemCall("fcntl F_SETFD FD_CLOEXEC") { fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
  }

  /// Sets an integer socket option, ignoring failure (used for best-effort tuning only).
  func setOption(level: Int32, name: Int32, value: Int32) {
    var value = value
    _ = setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Reads an integer socket option, or nil when the descriptor is not a socket.
  func option(level: Int32, name: Int32) -> Int32? {
    var value: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    return getsockopt(descriptor, level, name, &value, &length) == 0 ? value : nil
  }
}

/// The poll(2) timeout that ends at `deadline`: rounded up so a wait never ends just before its
/// deadline and spins, -1 (forever) without one.
func pollTimeoutMilliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
  guard let deadline else { return -1 }
  let remaining = deadline - ContinuousClock.now
  guard remaining > .zero else { return 0 }
  return Int32(clamping: remaining.wholeMillisecondsRoundedUp)
}

extension Duration {
  /// This duration in milliseconds, rounded up.
  var wholeMillisecondsRoundedUp: Int64 {
    let (seconds, attoseconds) = components
    let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
    let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    if overflow { return seconds < 0 ? Int64.min : Int64.max }
    return product + (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
  }
}

/// Starts `body` on a new detached thread named `name` (visible in `top -H` and core dumps);
/// false when the system has no thread to give, so the caller can refuse the work instead of
/// crashing as Foundation's `Thread` would.
func spawnThread(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
  final class Start {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) {
      self.name = name
      self.body = body
    }
  }
  let context = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
  var thread = pthread_t()
  let result = pthread_create(
    &thread, &attributes,
    { context in
      let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
      if let setName = GNU.setThreadName {
        // Linux thread names are at most 15 bytes.
        _ = setName(pthread_self(), String(start.name.utf8.prefix(15))!)
      }
      start.body()
      return nil
    }, context)
  if result != 0 {
    Unmanaged<Start>.fromOpaque(context).release()
    return false
  }
  return true
}

/// glibc functions that the Glibc module only declares under _GNU_SOURCE, looked up at run time.
enum GNU {
  typealias Accept4 =
    @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32
  typealias SetThreadName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32

  static let accept4: Accept4? = function("accept4")
  static let setThreadName: SetThreadName? = function("pthread_setname_np")

  private static func function<Function>(_ name: String) -> Function? {
    // RTLD_DEFAULT: the symbol as the process already links it (glibc's).
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: Function.self) }
  }
}

extension Socket {
  /// The peer's address as logs show it: `ADDRESS:PORT`, `[ADDRESS]:PORT` for IPv6, `unix` on a Unix
  /// socket; nil when the peer is gone already.
  func peerName() -> String? {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let found = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) == 0 }
    }
    guard found else { return nil }
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    func written() -> String { String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    switch Int32(storage.ss_family) {
    case AF_INET:
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
          var host = address.pointee.sin_addr
          inet_ntop(AF_INET, &host, &text, socklen_t(text.count))
          return "\(written()):\(UInt16(bigEndian: address.pointee.sin_port))"
        }
      }
    case AF_INET6:
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
          var host = address.pointee.sin6_addr
          inet_ntop(AF_INET6, &host, &text, socklen_t(text.count))
          return "[\(written())]:\(UInt16(bigEndian: address.pointee.sin6_port))"
        }
      }
    case AF_UNIX: return "unix"
    default: return nil
    }
  }
}

/// accept(2) that returns a non-blocking, close-on-exec socket, or -1 with errno.
///
/// accept4 sets both atomically, so a process the handler starts on another thread between the
/// accept and an fcntl can never inherit a client's connection; plain accept then fcntl is the
/// fallback only for a libc without accept4.
func acceptConnection(on listening: Socket) -> Int32 {
  if let accept4 = GNU.accept4 {
    return accept4(listening.descriptor, nil, nil, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
  }
  let descriptor = accept(listening.descriptor, nil, nil)
  if descriptor >= 0 && (try? Socket(descriptor: descriptor).makeNonBlockingAndCloseOnExec()) == nil {
    let error = errno
    close(descriptor)
    errno = error
    return -1
  }
  return descriptor
}
