import Glibc

// Listening sockets: created here for TCP and Unix paths, or adopted from systemd. All of them are
// non-blocking (the accept thread polls them with the stop signal) and close-on-exec.

/// A socket the accept thread takes connections from.
struct ListeningSocket: Sendable {
  let socket: Socket
  /// "127.0.0.1:8080", "[::1]:8080" or "unix:/run/dsa-run.sock", for logs.
  let address: String
  /// The bound port of a TCP socket, nil for a Unix one.
  let tcpPort: UInt16?
  /// A socket file this server created, with its identity, so that `stop` removes the file only if
  /// it is still ours (a second server may have replaced it since).
  let createdFile: (path: String, device: UInt64, inode: UInt64)?

  /// Closes the socket and removes the file the server created for it.
  func closeAndRemoveFile() {
    socket.close()
    guard let createdFile else { return }
    var status = stat()
    if stat(createdFile.path, &status) == 0, UInt64(status.st_dev) == createdFile.device,
      UInt64(status.st_ino) == createdFile.inode
    {
      _ = unlink(createdFile.path)
    }
  }

  /// Opens `listener`: one socket, or as many as systemd passed.
  static func open(
    _ listener: HTTPServer.Listener, configuration: HTTPServer.Configuration
  ) throws(HTTPServerError) -> [ListeningSocket] {
    switch listener.kind {
    case .tcp(let host, let port):
      return [try openTCP(host: host, port: port, backlog: configuration.listenBacklog)]
    case .unix(let path):
      return [
        try openUnix(
          path: path, permissions: configuration.unixSocketPermissions, backlog: configuration.listenBacklog)
      ]
    case .systemd(let environment, let processID, let firstDescriptor):
      return try adoptSystemd(environment: environment, processID: processID, firstDescriptor: firstDescriptor)
    }
  }

  // MARK: TCP

  private static func openTCP(host: String, port: UInt16, backlog: Int) throws(HTTPServerError) -> ListeningSocket {
    let shown = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    var address4 = sockaddr_in()
    var address6 = sockaddr_in6()
    let family: Int32
    if inet_pton(AF_INET, host, &address4.sin_addr) == 1 {
      family = AF_INET
      address4.sin_family = sa_family_t(AF_INET)
      address4.sin_port = port.bigEndian
    } else if inet_pton(AF_INET6, host, &address6.sin6_addr) == 1 {
      family = AF_INET6
      address6.sin6_family = sa_family_t(AF_INET6)
      address6.sin6_port = port.bigEndian
    } else {
      throw HTTPServerError(
        step: "listen on \(shown)", errorNumber: EINVAL,
        hint: "give a numeric IPv4 or IPv6 address such as 127.0.0.1 or ::1, not a host name")
    }
    let socket = try newStreamSocket(family: family, step: "socket for \(shown)")
    let descriptor = socket.descriptor
    do throws(HTTPServerError) {
      // A restarted daemon must not wait for the old one's TIME_WAIT connections to expire.
      socket.setOption(level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
      if family == AF_INET6 {
        // "::1" means IPv6 only; dual-stack would silently widen what was asked for.
        socket.setOption(level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 1)
      }
      try systemCall(
        "bind \(shown)", hint: "another process may listen there; choose another port or stop it"
      ) {
        family == AF_INET
          ? withSocketAddress(&address4) { bind(descriptor, $0, $1) }
          : withSocketAddress(&address6) { bind(descriptor, $0, $1) }
      }
      try systemCall("listen on \(shown)") { listen(descriptor, Int32(clamping: backlog)) }
      let boundPort = try localTCPPort(of: socket)
      let address = family == AF_INET6 ? "[\(host)]:\(boundPort)" : "\(host):\(boundPort)"
      return ListeningSocket(socket: socket, address: address, tcpPort: boundPort, createdFile: nil)
    } catch {
      socket.close()
      throw error
    }
  }

  private static func localTCPPort(of socket: Socket) throws(HTTPServerError) -> UInt16 {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    try systemCall("getsockname") {
      withUnsafeMutablePointer(to: &storage) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket.descriptor, $0, &length) }
      }
    }
    switch Int32(storage.ss_family) {
    case AF_INET:
      return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee } }
        .sin_port.bigEndian
    case AF_INET6:
      return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee } }
        .sin6_port.bigEndian
    default:
      return 0
    }
  }

  // MARK: Unix

  private static func openUnix(
    path: String, permissions: Int, backlog: Int
  ) throws(HTTPServerError) -> ListeningSocket {
    var (address, length) = try unixSocketAddress(path, step: "listen on unix \(path)")
    try removeStaleSocket(at: path)
    let socket = try newStreamSocket(family: AF_UNIX, step: "socket for unix \(path)")
    let descriptor = socket.descriptor
    var bound = false
    do throws(HTTPServerError) {
      try systemCall("bind unix \(path)", hint: "check that the directory exists and is writable") {
        withSocketAddress(&address) { pointer, _ in bind(descriptor, pointer, length) }
      }
      bound = true
      // Before listen(): until then a connect is refused, so no client ever gets in while the file
      // still has the umask's bits.
      try systemCall("chmod unix \(path)") { chmod(path, mode_t(permissions)) }
      var status = stat()
      try systemCall("stat unix \(path)") { stat(path, &status) }
      try systemCall("listen on unix \(path)") { listen(descriptor, Int32(clamping: backlog)) }
      return ListeningSocket(
        socket: socket, address: "unix:\(path)", tcpPort: nil,
        createdFile: (path, UInt64(status.st_dev), UInt64(status.st_ino)))
    } catch {
      socket.close()
      if bound { _ = unlink(path) }
      throw error
    }
  }

  /// Removes a socket file nobody listens on any more (a crashed server's); refuses to touch a
  /// live server's socket or anything that is not a socket.
  private static func removeStaleSocket(at path: String) throws(HTTPServerError) {
    var status = stat()
    if lstat(path, &status) != 0 {
      if errno == ENOENT { return }
      throw HTTPServerError(step: "stat unix \(path)", errorNumber: errno)
    }
    guard status.st_mode & S_IFMT == S_IFSOCK else {
      throw HTTPServerError(
        step: "listen on unix \(path)", errorNumber: EEXIST,
        hint: "the path exists and is not a socket; remove it or choose another path")
    }
    var (address, length) = try unixSocketAddress(path, step: "listen on unix \(path)")
    let probe = try newStreamSocket(family: AF_UNIX, step: "socket to probe unix \(path)")
    defer { probe.close() }
    let connected = withSocketAddress(&address) { pointer, _ in connect(probe.descriptor, pointer, length) }
    let connectError = errno
    // Connected, or EAGAIN (a live server whose backlog is full): someone is serving there.
    if connected == 0 || connectError == EAGAIN {
      throw HTTPServerError(
        step: "listen on unix \(path)", errorNumber: EADDRINUSE,
        hint: "another server is listening on this socket; stop it or choose another path")
    }
    // ECONNREFUSED: a socket file with nobody behind it, left by a server that did not stop cleanly.
    guard connectError == ECONNREFUSED else {
      throw HTTPServerError(step: "probe unix \(path)", errorNumber: connectError)
    }
    try systemCall("remove stale socket \(path)") { unlink(path) }
  }

  /// A new non-blocking, close-on-exec stream socket.
  private static func newStreamSocket(
    family: Int32, step: @autoclosure () -> String
  ) throws(HTTPServerError) -> Socket {
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
    return Socket(descriptor: try systemCall(step()) { Glibc.socket(family, type, 0) })
  }

  // MARK: systemd

  private static func adoptSystemd(
    environment: [String: String]?, processID: Int32?, firstDescriptor: Int32
  ) throws(HTTPServerError) -> [ListeningSocket] {
    let variables = environment ?? SystemdActivation.processVariables()
    let descriptors = try SystemdActivation.passedDescriptors(
      environment: variables, processID: processID ?? getpid(), firstDescriptor: firstDescriptor)
    guard !descriptors.isEmpty else {
      throw HTTPServerError(
        step: "adopt systemd sockets", errorNumber: 0,
        hint: "LISTEN_FDS and LISTEN_PID do not pass sockets to this process; start it from its .socket unit "
          + "or listen on TCP or a Unix path instead")
    }
    var adopted: [ListeningSocket] = []
    for descriptor in descriptors {
      let socket = Socket(descriptor: descriptor)
      guard socket.option(level: SOL_SOCKET, name: SO_ACCEPTCONN) == 1,
        socket.option(level: SOL_SOCKET, name: SO_TYPE) == Int32(SOCK_STREAM.rawValue)
      else {
        throw HTTPServerError(
          step: "adopt systemd socket \(descriptor)", errorNumber: ENOTSOCK,
          hint: "systemd passed something other than a listening stream socket; use ListenStream= in the .socket unit")
      }
      try socket.makeNonBlockingAndCloseOnExec()
      let port = (try? localTCPPort(of: socket)).flatMap { $0 == 0 ? nil : $0 }
      adopted.append(
        ListeningSocket(socket: socket, address: localAddress(of: socket), tcpPort: port, createdFile: nil))
    }
    if environment == nil { SystemdActivation.removeProcessVariables() }
    return adopted
  }

  /// "127.0.0.1:8080", "[::1]:8080" or "unix:/path" for an adopted socket.
  private static func localAddress(of socket: Socket) -> String {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket.descriptor, $0, &length) }
    }
    guard result == 0 else { return "fd \(socket.descriptor)" }
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    func numeric() -> String { String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    switch Int32(storage.ss_family) {
    case AF_INET:
      var address = withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
      }
      inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count))
      return "\(numeric()):\(address.sin_port.bigEndian)"
    case AF_INET6:
      var address = withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
      }
      inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count))
      return "[\(numeric())]:\(address.sin6_port.bigEndian)"
    case AF_UNIX:
      var address = withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_un.self, capacity: 1) { $0.pointee }
      }
      let path = withUnsafeBytes(of: &address.sun_path) { raw in
        // An abstract name starts with NUL; show it as "@name" like ss(8) does.
        raw.first == 0
          ? "@" + String(decoding: raw.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
          : String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      return "unix:\(path)"
    default:
      return "fd \(socket.descriptor)"
    }
  }
}

/// A `sockaddr_un` for `path`, or for the abstract name after a leading "@", with its exact length
/// (an abstract name's length is part of the name, so the whole struct size would be wrong).
func unixSocketAddress(_ path: String, step: String) throws(HTTPServerError) -> (
  address: sockaddr_un, length: socklen_t
) {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  let abstract = path.hasPrefix("@")
  let name = Array(path.utf8.dropFirst(abstract ? 1 : 0))
  let capacity = MemoryLayout.size(ofValue: address.sun_path)
  // A path needs its NUL terminator; an abstract name needs its leading NUL.
  guard !name.isEmpty, name.count + 1 <= capacity, !name.contains(0) else {
    throw HTTPServerError(
      step: step, errorNumber: ENAMETOOLONG,
      hint: "a Unix socket path must be 1 to \(capacity - 1) bytes without NUL; choose a shorter path")
  }
  withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: abstract ? [0] + name : name) }
  let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
  return (address, socklen_t(offset + name.count + 1))
}

/// Calls `body` with `address` seen as a `sockaddr` and its size.
func withSocketAddress<Address, Result>(
  _ address: inout Address, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
) -> Result {
  withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<Address>.size)) }
  }
}
