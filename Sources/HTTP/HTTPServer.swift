import Dispatch
import Foundation
import Glibc
import Synchronization
import SystemCore

/// An HTTP/1.1 server around `HTTPRequestParser`: listeners, one accept thread, and one thread per
/// open connection that reads, parses, calls the handler and writes, all with blocking-style code
/// over non-blocking sockets and poll(2) deadlines.
///
/// Why threads and not Swift concurrency or an event loop: the handler is synchronous and may
/// block for seconds (it runs a sandbox), so each connection needs a thread of its own while it
/// waits anyway. `maximumConnections` bounds the threads, every wait has a deadline, and a
/// connection's whole life reads top to bottom in `ServerConnection.run()`.
///
/// It knows nothing about routes or sandboxes: the handler gets every well-formed request and its
/// response is sent as is, plus a `Date` field. The server itself answers only what the handler
/// never sees: parse errors (400, 411, 413, 414, 431, 505, each with `Connection: close`), a request
/// that does not arrive in time (408), and connections over the limit (503 with `Retry-After`).
///
/// Once started it runs until `stop(drainingFor:)`: its threads hold it, so dropping the last
/// reference does not stop it.
public final class HTTPServer: Sendable {
  /// Turns a request into its response; called on the connection's thread, one request at a time
  /// per connection, concurrently across connections. It may block.
  public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

  /// What the server was created with.
  public let configuration: Configuration
  private let handler: Handler
  private let state = Mutex(State())
  /// Read after every response, so kept apart from the lock.
  private let stopping = Atomic<Bool>(false)
  private let acceptThread = DispatchGroup()
  private let connectionThreads = DispatchGroup()
  /// Entered by the `stop` call that does the stopping, so concurrent calls return when it does.
  private let stoppingCall = DispatchGroup()

  // At most this many connections refused with 503 linger at once (see `reject`); more are closed
  // at once, so a connection flood cannot grow the accept thread's poll set without bound.
  private static let maximumLingeringRejections = 64
  private static let rejectionLingerTimeout = Duration.seconds(1)
  // accept(2) calls per listener per wake: one busy listener cannot starve the others or the stop signal.
  private static let acceptsPerWake = 64
  // After EMFILE and friends the listener stays readable; pause instead of spinning on it.
  private static let descriptorExhaustionPause = Duration.milliseconds(100)

  private struct State {
    enum Phase { case created, running, stopping, stopped }
    var phase = Phase.created
    var addresses: [String] = []
    var tcpPorts: [UInt16] = []
    /// The stop signal, a socket pair. Closing the write end makes the read end readable for every
    /// poller at once and it stays so (level-triggered), so a thread that starts waiting later sees it too.
    /// Both ends close with the server: every thread holds the server, so none can be polling then.
    var stopSignal: OwnedPair?
    /// Open connections. A socket is closed only by removing it here, under the lock, so `stop` can
    /// shut down a registered socket from another thread without hitting a reused descriptor.
    var connections: [UInt64: Socket] = [:]
    var nextConnectionID: UInt64 = 0
    var acceptedConnections = 0
    var rejectedConnections = 0
  }

  /// A server that will listen as `configuration` says and answer with `handler` once started.
  public init(configuration: Configuration, handler: @escaping Handler) {
    self.configuration = configuration
    self.handler = handler
  }

  /// Listens on every configured listener and starts accepting; returns once connections are
  /// accepted. Calling it again while running does nothing; a stopped server cannot start again.
  public func start() throws(HTTPServerError) {
    try state.withLock { (state) throws(HTTPServerError) in
      switch state.phase {
      case .running: return
      case .stopping, .stopped:
        throw HTTPServerError(step: "start", hint: "a stopped server cannot start again; create a new one")
      case .created: break
      }
      if let problem = configuration.problem() { throw HTTPServerError(step: "configuration", hint: problem) }
      var listening: [ListeningSocket] = []
      var stopSignal: OwnedPair?
      do throws(HTTPServerError) {
        for listener in configuration.listeners {
          listening += try ListeningSocket.open(listener, configuration: configuration)
        }
        // A socket pair rather than pipe2(2), which the Glibc module does not declare; either end
        // closing makes the other readable.
        var pair: [Int32] = [-1, -1]
        try systemCall("socketpair for the stop signal") {
          socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair)
        }
        let signal = OwnedPair(pair)
        stopSignal = signal
        let stopRead = signal.read.rawValue
        let sockets = listening
        acceptThread.enter()
        let started = spawnThread(name: "http-accept") { [self] in
          acceptLoop(sockets, stopSignal: stopRead)
          acceptThread.leave()
        }
        if !started {
          acceptThread.leave()
          throw HTTPServerError(
            step: "start the accept thread", errorNumber: EAGAIN, hint: "the process is at its thread limit")
        }
      } catch {
        for socket in listening { socket.closeAndRemoveFile() }
        throw error
      }
      state.stopSignal = stopSignal
      state.addresses = listening.map(\.address)
      state.tcpPorts = listening.compactMap(\.tcpPort)
      state.phase = .running
    }
  }

  /// Stops: no new connections from now on (listeners closed, Unix socket files removed), idle
  /// connections closed, requests in progress finished and answered with `Connection: close`;
  /// returns when all connections are closed or `drainingFor` has passed.
  ///
  /// Connections still open after the bound are shut down, which ends their reads and writes at
  /// once; a handler still running keeps its thread until it returns, and its response is lost.
  /// Calling it again, or concurrently, returns when the first call does and does nothing more.
  /// Not from a handler: the call would wait the whole bound for its own request to finish.
  public func stop(drainingFor drain: Duration) {
    let deadline = DispatchTime.now() + dispatchInterval(drain)
    let stopsHere = state.withLock { state -> Bool in
      switch state.phase {
      case .created:
        state.phase = .stopped
        return false
      case .running:
        state.phase = .stopping
        stoppingCall.enter()
        stopping.store(true, ordering: .releasing)
        state.stopSignal?.write.close()
        return true
      case .stopping, .stopped:
        return false
      }
    }
    guard stopsHere else {
      stoppingCall.wait()
      return
    }
    // The accept thread only ever waits in poll(2), which the stop signal ends, so this is prompt.
    acceptThread.wait()
    if connectionThreads.wait(timeout: deadline) == .timedOut {
      state.withLock { state in
        for socket in state.connections.values { socket.shutdownBothDirections() }
      }
    }
    state.withLock { $0.phase = .stopped }
    stoppingCall.leave()
  }

  /// The bound TCP ports, in listener order, once started (the chosen port for port 0).
  public var tcpPorts: [UInt16] { state.withLock { $0.tcpPorts } }

  /// Every listening address once started ("127.0.0.1:8080", "unix:/run/dsa-run.sock"), for logs.
  public var addresses: [String] { state.withLock { $0.addresses } }

  /// Connections open now.
  public var connectionCount: Int { state.withLock { $0.connections.count } }

  /// Connections accepted and served since start (not counting those refused with 503).
  public var acceptedConnectionCount: Int { state.withLock { $0.acceptedConnections } }

  /// Connections refused with 503 because `maximumConnections` were open.
  public var rejectedConnectionCount: Int { state.withLock { $0.rejectedConnections } }

  // MARK: Accepting

  private typealias Lingering = (socket: Socket, deadline: ContinuousClock.Instant)

  private func acceptLoop(_ listeners: [ListeningSocket], stopSignal: Int32) {
    var lingering: [Lingering] = []
    var pausedUntil: ContinuousClock.Instant?
    var scratch = [UInt8](repeating: 0, count: 4096)
    defer {
      for listener in listeners { listener.closeAndRemoveFile() }
      for entry in lingering { entry.socket.close() }
    }
    while true {
      if let until = pausedUntil, until <= .now { pausedUntil = nil }
      var descriptors = [pollfd(fd: stopSignal, events: Int16(POLLIN), revents: 0)]
      let firstLingering = descriptors.count
      descriptors += lingering.map { pollfd(fd: $0.socket.descriptor, events: Int16(POLLIN), revents: 0) }
      let firstListener = descriptors.count
      if pausedUntil == nil {
        descriptors += listeners.map { pollfd(fd: $0.socket.descriptor, events: Int16(POLLIN), revents: 0) }
      }
      let wakeAt = (lingering.map(\.deadline) + (pausedUntil.map { [$0] } ?? [])).min()
      if poll(&descriptors, nfds_t(descriptors.count), pollTimeoutMilliseconds(until: wakeAt)) < 0 {
        // EINTR, or ENOMEM under memory pressure: try again shortly rather than spin.
        if errno != EINTR { usleep(10_000) }
        continue
      }
      if descriptors[0].revents != 0 { return }

      let now = ContinuousClock.now
      var kept: [Lingering] = []
      for (offset, entry) in lingering.enumerated() {
        var done = entry.deadline <= now
        if !done && descriptors[firstLingering + offset].revents != 0 {
          switch entry.socket.receive(into: &scratch) {
          case .bytes, .wouldBlock: break
          case .endOfInput, .failed: done = true
          }
        }
        if done { entry.socket.close() } else { kept.append(entry) }
      }
      lingering = kept

      if pausedUntil == nil {
        for (offset, listener) in listeners.enumerated() where descriptors[firstListener + offset].revents != 0 {
          if !acceptConnections(from: listener, stopSignal: stopSignal, lingering: &lingering) {
            pausedUntil = .now + Self.descriptorExhaustionPause
          }
        }
      }
    }
  }

  /// Accepts what is waiting on `listener`; false when the process is out of descriptors or memory.
  private func acceptConnections(
    from listener: ListeningSocket, stopSignal: Int32, lingering: inout [Lingering]
  ) -> Bool {
    for _ in 0..<Self.acceptsPerWake {
      let descriptor = acceptConnection(on: listener.socket)
      if descriptor < 0 {
        switch errno {
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          return false
        case EINTR, ECONNABORTED, EPROTO, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, ENONET, EHOSTUNREACH, ENETUNREACH:
          // accept(2): errors of that one connection; the next may be fine.
          continue
        default:
          return true  // EAGAIN: nothing more waiting.
        }
      }
      let socket = Socket(descriptor: descriptor)
      if listener.tcpPort != nil {
        // Responses go out in one send each; Nagle would hold back the next pipelined one until
        // the client's delayed ACK, 40 ms later.
        socket.setOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
      }
      admit(socket, stopSignal: stopSignal, lingering: &lingering)
    }
    return true
  }

  private enum Admission {
    case admitted(UInt64)
    case full
    case closed
  }

  private func admit(_ socket: Socket, stopSignal: Int32, lingering: inout [Lingering]) {
    let admission = state.withLock { state -> Admission in
      guard state.phase == .running else { return .closed }
      guard state.connections.count < configuration.maximumConnections else {
        state.rejectedConnections += 1
        return .full
      }
      let id = state.nextConnectionID
      state.nextConnectionID += 1
      state.connections[id] = socket
      state.acceptedConnections += 1
      return .admitted(id)
    }
    switch admission {
    case .closed:
      socket.close()
    case .full:
      reject(socket, lingering: &lingering)
    case .admitted(let id):
      let connection = ServerConnection(
        socket: socket, configuration: configuration, handler: handler, stopSignal: stopSignal,
        isStopping: { [self] in stopping.load(ordering: .acquiring) }, client: socket.peerName())
      connectionThreads.enter()
      let started = spawnThread(name: "http-connection") { [self] in
        connection.run()
        closeConnection(id)
        connectionThreads.leave()
      }
      if !started {
        state.withLock { state in
          _ = state.connections.removeValue(forKey: id)
          state.acceptedConnections -= 1
          state.rejectedConnections += 1
        }
        connectionThreads.leave()
        reject(socket, lingering: &lingering)
      }
    }
  }

  private func closeConnection(_ id: UInt64) {
    state.withLock { state in state.connections.removeValue(forKey: id)?.close() }
  }

  /// Answers 503 with `Retry-After` and closes, lingering like `ServerConnection` does so the
  /// client reads the answer rather than a reset; all without ever blocking the accept thread.
  private func reject(_ socket: Socket, lingering: inout [Lingering]) {
    let retryAfter = configuration.retryAfterSeconds
    let response = configuration.observedOwnAnswer(
      HTTPResponse(
        status: .serviceUnavailable,
        headers: [
          "Retry-After": "\(retryAfter)", "Content-Type": "text/plain; charset=utf-8", "Date": HTTPDate.now(),
        ],
        body: Data(
          "the server has \(configuration.maximumConnections) connections open; retry after \(retryAfter) s\n".utf8)))
    let bytes = response.serialized(closeConnection: true)
    // One non-blocking send: a new socket's buffer takes this small response whole.
    _ = bytes.withUnsafeBytes { raw in
      send(socket.descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
    }
    socket.shutdownOutput()
    if lingering.count < Self.maximumLingeringRejections {
      lingering.append((socket, .now + Self.rejectionLingerTimeout))
    } else {
      socket.close()
    }
  }
}

/// `duration` for Dispatch, saturating instead of overflowing; negative counts as zero.
private func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
  let (seconds, attoseconds) = duration.components
  guard seconds >= 0 else { return .nanoseconds(0) }
  let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
  let nanoseconds = overflow ? Int64.max : whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
  return .nanoseconds(Int(clamping: max(nanoseconds, 0)))
}
