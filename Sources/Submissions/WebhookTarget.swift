import Foundation
import Glibc

/// How webhooks are sent (the config's `submissions.webhooks`).
public struct WebhookSettings: Sendable {
  /// The HMAC-SHA256 key of the `X-DSA-Run-Signature` header; nil sends no signature.
  public var secret: String?
  /// Networks a callback may reach although they are private or local ("127.0.0.1/32", "10.0.0.0/8").
  public var allowedNetworks: [WebhookTarget.Network] = []
  /// The longest one try may take (connect, send, answer), milliseconds.
  public var timeoutMilliseconds = 5000
  /// Tries per webhook.
  public var tries = 3
  /// Tries under way at once, in all.
  public var maximumDeliveries = 16
  /// Tries under way at once to one destination (`host:port`): a receiver that hangs holds this
  /// many of `maximumDeliveries`, no more.
  public var maximumDeliveriesPerDestination = 2
  /// Pending webhooks held in memory at once (the rest stay in the store until there is room).
  public var maximumHeld = 1024
  /// Of those, at most this many for one destination, so one receiver's backlog leaves room for
  /// everyone else's webhooks.
  public var maximumHeldPerDestination = 64
  /// The pause after the first failed try, milliseconds; doubled after each further one.
  public var backoffMilliseconds = 1000

  public init() {}
}

/// Where a webhook may go: the URL's shape, and the rule that keeps callbacks away from the server's
/// own neighbourhood (CVE-2024-29021, Judge0's SSRF): loopback, link-local (cloud metadata at
/// 169.254.169.254 included), private, shared (CGNAT), unique-local, multicast and reserved addresses
/// are refused unless the operator allow-listed them, and so is every address of this host's own
/// interfaces (a public address of the host reaches the daemon's own ports as well as loopback
/// does) unless the allow list names that very address. The rule is applied to each address the
/// name resolves to and again to the address the socket really connected to, so a name that
/// resolves differently the second time (DNS rebinding) gains nothing.
public enum WebhookTarget {
  /// An address range, "192.168.0.0/16" or "fd00::/8".
  public struct Network: Sendable, Equatable, CustomStringConvertible {
    /// 16 bytes; IPv4 as an IPv4-mapped IPv6 address, so one comparison serves both.
    let bytes: [UInt8]
    let prefixLength: Int

    /// Parses "ADDRESS/PREFIX" (or a bare address, a single host); nil when malformed.
    public init?(_ text: String) {
      let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
      guard let address = WebhookTarget.parseAddress(String(parts[0])) else { return nil }
      let isIPv4 = !parts[0].contains(":")
      let maximum = isIPv4 ? 32 : 128
      let length = parts.count == 2 ? Int(parts[1]) : maximum
      guard let length, (0...maximum).contains(length) else { return nil }
      bytes = address
      prefixLength = isIPv4 ? length + 96 : length
    }

    init(bytes: [UInt8], prefixLength: Int) {
      self.bytes = bytes
      self.prefixLength = prefixLength
    }

    func contains(_ address: [UInt8]) -> Bool {
      var remaining = prefixLength
      for index in 0..<16 where remaining > 0 {
        let bits = min(8, remaining)
        let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
        if address[index] & mask != bytes[index] & mask { return false }
        remaining -= bits
      }
      return true
    }

    /// Whether this is exactly the one address `address` (a bare address, /32 or /128).
    func isExactly(_ address: [UInt8]) -> Bool { prefixLength == 128 && bytes == address }

    public var description: String { "\(WebhookTarget.format(bytes))/\(prefixLength)" }
  }

  /// The ranges a webhook never goes to unless allow-listed, with why.
  static let refused: [(Network, String)] = [
    ("0.0.0.0/8", "this network"), ("10.0.0.0/8", "private"), ("100.64.0.0/10", "shared address space (CGNAT)"),
    ("127.0.0.0/8", "loopback"), ("169.254.0.0/16", "link-local (cloud metadata)"), ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "IETF protocol assignments"), ("192.0.2.0/24", "documentation"), ("192.168.0.0/16", "private"),
    ("198.18.0.0/15", "benchmarking"), ("198.51.100.0/24", "documentation"), ("203.0.113.0/24", "documentation"),
    ("224.0.0.0/4", "multicast"), ("240.0.0.0/4", "reserved"), ("::/128", "unspecified"), ("::1/128", "loopback"),
    ("fe80::/10", "link-local"), ("fc00::/7", "unique-local (cloud metadata fd00:ec2::254)"),
    ("ff00::/8", "multicast"), ("2001:db8::/32", "documentation"), ("100::/64", "discard"),
  ].map { (Network($0.0)!, $0.1) }

  /// IPv6 forms that carry an IPv4 address a packet may end up at, and where in the 16 bytes it is:
  /// NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48), 6to4 (2002::/16), IPv4-compatible
  /// (::/96) and IPv4-translated (::ffff:0:0:0/96) addresses are judged by that IPv4 address too.
  static let embeddingIPv4: [(Network, Int)] = [
    ("64:ff9b::/96", 12), ("64:ff9b:1::/48", 12), ("2002::/16", 2), ("::/96", 12), ("::ffff:0:0:0/96", 12),
  ].map { (Network($0.0)!, $0.1) }

  /// What is said of an address of this host's own interfaces.
  static let hostAddressRefusal = "an address of this host"

  /// Why a webhook must not go to `address` (16 bytes), or nil when it may, judged against this
  /// host's interface addresses as they are now (nil when they cannot be listed: then nothing may
  /// go anywhere, rather than something to an unknown own address).
  public static func refusal(of address: [UInt8], allowed: [Network]) -> String? {
    guard let own = hostAddresses() else { return "this host's own addresses cannot be listed" }
    return refusal(of: address, allowed: allowed, hostAddresses: own)
  }

  /// Why a webhook must not go to `address` (16 bytes), or nil when it may. An address of
  /// `hostAddresses` is opened only by an allow entry naming exactly it, not by a network that
  /// holds it: an operator who allows 10.0.0.0/8 for an intranet receiver has not allowed the
  /// daemon's own 10.0.0.5. An address that embeds an IPv4 one is judged by that too.
  public static func refusal(of address: [UInt8], allowed: [Network], hostAddresses: [[UInt8]]) -> String? {
    let embedded = embeddingIPv4.filter { $0.0.contains(address) }.map { network, offset in
      [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + address[offset..<offset + 4]
    }
    let ownAddress = ([address] + embedded).first { hostAddresses.contains($0) }
    if let ownAddress {
      let named = allowed.contains { $0.isExactly(address) || $0.isExactly(ownAddress) }
      return named ? nil : (refused.first { $0.0.contains(ownAddress) }?.1 ?? hostAddressRefusal)
    }
    if allowed.contains(where: { $0.contains(address) }) { return nil }
    if let (_, why) = refused.first(where: { $0.0.contains(address) }) { return why }
    for address in embedded {
      if let why = refusal(of: address, allowed: allowed, hostAddresses: hostAddresses) { return why }
    }
    return nil
  }

  /// Whether a connection whose own end is `local` and whose peer is `peer` reached this host: the
  /// kernel gives a locally delivered connection a loopback source, or the peer's own address.
  static func reachesThisHost(local: [UInt8], peer: [UInt8]) -> Bool {
    local == peer || loopback.contains(where: { $0.contains(local) })
  }

  static let loopback = [Network("127.0.0.0/8")!, Network("::1")!]

  /// Every address of this host's interfaces now (getifaddrs(3): the network namespace of the
  /// calling thread), 16 bytes each; nil when they cannot be listed. Read at every check rather
  /// than cached: an address added a moment ago is refused at once, and a check costs one netlink
  /// dump, nothing next to a webhook's connection.
  public static func hostAddresses() -> [[UInt8]]? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0 else { return nil }
    defer { freeifaddrs(list) }
    var addresses: [[UInt8]] = []
    var entry = list
    while let current = entry {
      entry = current.pointee.ifa_next
      if let address = current.pointee.ifa_addr, let bytes = addressBytes(address), !addresses.contains(bytes) {
        addresses.append(bytes)
      }
    }
    return addresses
  }

  /// A socket address's IP address as 16 bytes (IPv4 mapped); nil for other families.
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

  /// A host of a URL as the address it spells, in any spelling the resolver reads as a number
  /// without asking DNS: what `parseAddress` takes, and the older IPv4 forms inet_aton(3) and so
  /// getaddrinfo(3) also take ("2130706433", "0x7f.1", "0177.0.0.1", "127.1"); nil for a name.
  public static func numericHost(_ text: String) -> [UInt8]? {
    if let address = parseAddress(text) { return address }
    var v4 = in_addr()
    guard inet_aton(text, &v4) != 0 else { return nil }
    return [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + withUnsafeBytes(of: &v4) { Array($0) }
  }

  /// A numeric IPv4 or IPv6 address as 16 bytes (IPv4 mapped); nil when not numeric.
  public static func parseAddress(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
      return [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + withUnsafeBytes(of: &v4) { Array($0) }
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
    return nil
  }

  static func format(_ bytes: [UInt8]) -> String {
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    if bytes[0..<12] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF][...] {
      var v4 = in_addr()
      withUnsafeMutableBytes(of: &v4) { $0.copyBytes(from: bytes[12..<16]) }
      inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count))
    } else {
      var v6 = in6_addr()
      withUnsafeMutableBytes(of: &v6) { $0.copyBytes(from: bytes) }
      inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count))
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// A callback URL taken apart: `http://HOST[:PORT][/PATH]`.
  public struct Parsed: Sendable, Equatable {
    public var host: String
    public var port: UInt16
    /// Path and query, "/" at least.
    public var target: String
  }

  /// What is wrong with `text` as a callback URL before any lookup (its scheme, shape, length, a
  /// numeric host in a refused range), or nil.
  public static func problem(with text: String, settings: WebhookSettings) -> String? {
    switch parse(text) {
    case .failure(let problem): return problem.message
    case .success(let parsed):
      if let address = numericHost(parsed.host), let why = refusal(of: address, allowed: settings.allowedNetworks) {
        return "callback_url points at a \(why) address, where this server sends no webhooks"
      }
      return nil
    }
  }

  public struct URLProblem: Error, Sendable, Equatable { public var message: String }

  public static func parse(_ text: String) -> Result<Parsed, URLProblem> {
    func fail(_ message: String) -> Result<Parsed, URLProblem> { .failure(URLProblem(message: message)) }
    guard text.utf8.count <= 2048 else { return fail("callback_url is longer than 2048 bytes") }
    guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      return fail("callback_url must be plain ASCII without spaces or control characters")
    }
    guard text.lowercased().hasPrefix("http://") else {
      return fail("callback_url must start with http:// (this server sends webhooks over plain HTTP only)")
    }
    let rest = text.dropFirst("http://".count)
    let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
    let authority = rest[..<slash]
    var target = String(rest[slash...])
    if target.isEmpty { target = "/" } else if target.hasPrefix("?") { target = "/" + target }
    guard !authority.contains("@") else { return fail("callback_url must not hold a user name or password") }
    var host = Substring(authority)
    var port: UInt16 = 80
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return fail("callback_url has an unclosed [ in its host") }
      host = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":"), let value = UInt16(after.dropFirst()), value > 0 else {
          return fail("callback_url has a bad port")
        }
        port = value
      }
    } else if let colon = authority.lastIndex(of: ":") {
      host = authority[..<colon]
      guard let value = UInt16(authority[authority.index(after: colon)...]), value > 0 else {
        return fail("callback_url has a bad port")
      }
      port = value
    }
    guard !host.isEmpty, host.utf8.count <= 253 else { return fail("callback_url has no host") }
    if !authority.hasPrefix("[") {
      let nameBytes = host.utf8.allSatisfy {
        (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D
          || $0 == 0x2E
      }
      guard nameBytes else { return fail("callback_url's host must be a DNS name or an IP address") }
    } else if parseAddress(String(host)) == nil {
      return fail("callback_url's [host] must be an IPv6 address")
    }
    return .success(Parsed(host: String(host), port: port, target: target))
  }
}
