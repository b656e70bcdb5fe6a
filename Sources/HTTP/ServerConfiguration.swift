extension HTTPServer {
  /// Where the server listens and how much it takes; every value has its unit in its name or type.
  public struct Configuration: Sendable {
    /// Where to accept connections; at least one.
    public var listeners: [Listener]
    /// Bounds on each request (target, header section, field count, body); over one is 414, 431 or 413.
    public var parserLimits: HTTPRequestParser.Limits
    /// Open connections at most, each served by its own thread. A connection over the limit is
    /// accepted, answered 503 with `Retry-After` and closed: a client learns at once that it should
    /// come back, where one left in the kernel's backlog would only see a hang.
    public var maximumConnections: Int
    /// How long a request may take to arrive once its first byte has: head and body together.
    /// Counted from the first byte, not between reads, so a client that trickles bytes is answered
    /// 408 and dropped however steadily it trickles.
    public var requestReadTimeout: Duration
    /// How long a connection may wait for its next request (or its first) before it is closed
    /// without a response, as RFC 9112 §9.8 allows.
    public var idleTimeout: Duration
    /// How long one response (or a 100 Continue) may take to be written; a client that stops
    /// reading is dropped after it.
    public var writeTimeout: Duration
    /// The `Retry-After` value, in seconds, of the 503 sent when `maximumConnections` are open.
    public var retryAfterSeconds: Int
    /// The listen(2) backlog of the sockets the server creates (the kernel caps it at somaxconn).
    public var listenBacklog: Int
    /// Permission bits of a Unix socket the server creates: who may connect.
    public var unixSocketPermissions: Int
    /// Sees every answer the server sends on its own, without the handler (parse errors, 408, and the
    /// 503 over `maximumConnections`), and returns it, possibly with fields added: the service logs
    /// and counts them and gives them a request id like its own answers. Called on the connection's
    /// thread, or on the accept thread for the 503, so it must not block.
    public var ownAnswerObserver: (@Sendable (HTTPResponse) -> HTTPResponse)?

    /// A configuration with the defaults: 256 connections, 10 s to read a request, 15 s idle,
    /// 10 s to write a response, `Retry-After: 1`, a backlog of 128, Unix sockets 0660.
    public init(
      listeners: [Listener],
      parserLimits: HTTPRequestParser.Limits = .init(),
      maximumConnections: Int = 256,
      requestReadTimeout: Duration = .seconds(10),
      idleTimeout: Duration = .seconds(15),
      writeTimeout: Duration = .seconds(10),
      retryAfterSeconds: Int = 1,
      listenBacklog: Int = 128,
      unixSocketPermissions: Int = 0o660,
      ownAnswerObserver: (@Sendable (HTTPResponse) -> HTTPResponse)? = nil
    ) {
      self.listeners = listeners
      self.parserLimits = parserLimits
      self.maximumConnections = maximumConnections
      self.requestReadTimeout = requestReadTimeout
      self.idleTimeout = idleTimeout
      self.writeTimeout = writeTimeout
      self.retryAfterSeconds = retryAfterSeconds
      self.listenBacklog = listenBacklog
      self.unixSocketPermissions = unixSocketPermissions
      self.ownAnswerObserver = ownAnswerObserver
    }

    /// `response` as the observer returns it, or unchanged without one.
    func observedOwnAnswer(_ response: HTTPResponse) -> HTTPResponse {
      ownAnswerObserver?(response) ?? response
    }

    /// Why this configuration cannot run, or nil when it can.
    func problem() -> String? {
      if listeners.isEmpty { return "listeners is empty; give at least one" }
      if maximumConnections < 1 { return "maximumConnections must be at least 1" }
      if requestReadTimeout <= .zero || idleTimeout <= .zero || writeTimeout <= .zero {
        return "requestReadTimeout, idleTimeout and writeTimeout must be positive"
      }
      if retryAfterSeconds < 0 { return "retryAfterSeconds must not be negative" }
      if listenBacklog < 1 { return "listenBacklog must be at least 1" }
      if !(0...0o777).contains(unixSocketPermissions) { return "unixSocketPermissions must be within 0...0o777" }
      let limits = parserLimits
      if min(limits.maximumRequestTargetBytes, limits.maximumHeaderSectionBytes, limits.maximumHeaderCount) < 1
        || limits.maximumBodyBytes < 0
      {
        return "parserLimits must be positive (maximumBodyBytes may be 0)"
      }
      return nil
    }
  }

  /// One place to accept connections.
  public struct Listener: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
      case tcp(host: String, port: UInt16)
      case unix(path: String)
      /// `environment` nil means the process's own; tests pass their own values and descriptors.
      case systemd(environment: [String: String]?, processID: Int32?, firstDescriptor: Int32)
    }

    let kind: Kind

    /// TCP on `host`, a numeric IPv4 or IPv6 address (no name look-up), and `port`; port 0 picks a
    /// free port, read back from `HTTPServer.tcpPorts` after `start()`.
    public static func tcp(host: String = "127.0.0.1", port: UInt16) -> Listener {
      Listener(kind: .tcp(host: host, port: port))
    }

    /// A Unix stream socket at `path` (at most 107 bytes), created with `unixSocketPermissions` and
    /// removed at `stop`. A stale socket file left by a crashed server is replaced; a live server's
    /// socket, or a file that is not a socket, is an error rather than something to delete.
    public static func unix(path: String) -> Listener {
      Listener(kind: .unix(path: path))
    }

    /// Every socket systemd passed to this process (a `.socket` unit: `LISTEN_FDS` descriptors from
    /// 3, for this process when `LISTEN_PID` is its pid). The variables are removed from the
    /// environment once adopted, as `sd_listen_fds(1)` does, so programs the handler starts do not
    /// think the sockets are theirs; so start the server before other threads read the environment.
    /// Starting without such sockets is an error.
    public static let systemd = Listener(kind: .systemd(environment: nil, processID: nil, firstDescriptor: 3))

    /// `systemd` with the variables, pid and first descriptor given, so tests can pass sockets of
    /// their own without taking over descriptor 3.
    static func systemd(environment: [String: String], processID: Int32, firstDescriptor: Int32) -> Listener {
      Listener(kind: .systemd(environment: environment, processID: processID, firstDescriptor: firstDescriptor))
    }

    /// "tcp 127.0.0.1:8080", "unix /run/dsa-run.sock" or "systemd sockets".
    public var description: String {
      switch kind {
      case .tcp(let host, let port): return "tcp \(host.contains(":") ? "[\(host)]" : host):\(port)"
      case .unix(let path): return "unix \(path)"
      case .systemd: return "systemd sockets"
      }
    }
  }
}
