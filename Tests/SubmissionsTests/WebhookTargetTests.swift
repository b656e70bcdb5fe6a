import Foundation
import Testing

@testable import Submissions

/// The SSRF rule as a pure function: no test here opens a connection to any of these addresses.
@Suite struct WebhookTargetTests {
  @Test(arguments: [
    ("10.1.2.3", "private"), ("172.16.0.1", "private"), ("172.31.255.255", "private"), ("192.168.1.1", "private"),
    ("169.254.169.254", "link-local (cloud metadata)"), ("127.0.0.1", "loopback"), ("127.255.0.9", "loopback"),
    ("0.0.0.0", "this network"), ("100.64.0.1", "shared address space (CGNAT)"), ("224.0.0.1", "multicast"),
    ("255.255.255.255", "reserved"), ("::1", "loopback"), ("::", "unspecified"), ("fe80::1", "link-local"),
    ("fd00:ec2::254", "unique-local (cloud metadata fd00:ec2::254)"),
    ("fc00::1", "unique-local (cloud metadata fd00:ec2::254)"),
    ("::ffff:10.0.0.1", "private"), ("::ffff:127.0.0.1", "loopback"),
    ("64:ff9b::a9fe:a9fe", "link-local (cloud metadata)"),
    ("ff02::1", "multicast"),
  ])
  func refusesLocalAndPrivateAddresses(address: String, why: String) throws {
    let bytes = try #require(WebhookTarget.parseAddress(address))
    #expect(WebhookTarget.refusal(of: bytes, allowed: []) == why)
  }

  @Test(arguments: ["8.8.8.8", "1.1.1.1", "172.32.0.1", "192.169.0.1", "2001:4860:4860::8888", "::ffff:8.8.4.4"])
  func letsPublicAddressesThrough(address: String) throws {
    #expect(WebhookTarget.refusal(of: try #require(WebhookTarget.parseAddress(address)), allowed: []) == nil)
  }

  @Test func anAllowListOpensExactlyItsNetworks() throws {
    let allowed = [
      try #require(WebhookTarget.Network("127.0.0.1/32")), try #require(WebhookTarget.Network("10.8.0.0/16")),
    ]
    func refusal(_ text: String) throws -> String? {
      WebhookTarget.refusal(of: try #require(WebhookTarget.parseAddress(text)), allowed: allowed)
    }
    #expect(try refusal("127.0.0.1") == nil)
    #expect(try refusal("::ffff:127.0.0.1") == nil)
    #expect(try refusal("127.0.0.2") == "loopback")
    #expect(try refusal("10.8.200.1") == nil)
    #expect(try refusal("10.9.0.1") == "private")
    #expect(try refusal("::1") == "loopback")
    for bad in ["127.0.0.1/33", "localhost/8", "10.0.0.0/x", "::1/129", ""] {
      #expect(WebhookTarget.Network(bad) == nil, "\(bad)")
    }
  }

  @Test func theHostsOwnAddressesAreRefusedUnlessNamedExactly() throws {
    let own = [
      try #require(WebhookTarget.parseAddress("100.128.0.1")), try #require(WebhookTarget.parseAddress("2001:db9::1")),
    ]
    func refusal(_ text: String, _ allowed: [String] = []) throws -> String? {
      WebhookTarget.refusal(
        of: try #require(WebhookTarget.numericHost(text)), allowed: allowed.compactMap(WebhookTarget.Network.init),
        hostAddresses: own)
    }
    // Each spelling of the same address: mapped, NAT64, 6to4, IPv4-compatible, IPv4-translated,
    // and the older IPv4 forms getaddrinfo reads without DNS.
    for spelling in [
      "100.128.0.1", "::ffff:100.128.0.1", "::ffff:6480:1", "64:ff9b::6480:1", "64:ff9b:1::6480:1", "2002:6480:1::1",
      "::100.128.0.1", "::ffff:0:100.128.0.1", "1686110209", "0x64800001", "0144.0200.0.01", "100.128.1",
      "2001:db9::1", "2001:0db9:0:0:0:0:0:1",
    ] {
      #expect(try refusal(spelling) == "an address of this host", "\(spelling)")
      // A network that holds it is not enough: only the address itself opens it.
      #expect(try refusal(spelling, ["100.128.0.0/16", "2001:db9::/32", "0.0.0.0/0", "::/0"]) != nil, "\(spelling)")
    }
    #expect(try refusal("100.128.0.1", ["100.128.0.1"]) == nil)
    #expect(try refusal("100.128.0.1", ["100.128.0.1/32"]) == nil)
    #expect(try refusal("2001:db9::1", ["2001:db9::1/128"]) == nil)
    #expect(try refusal("100.128.0.2") == nil)
    #expect(try refusal("100.128.0.2", ["100.128.0.0/16"]) == nil)
    // Loopback keeps its own reason.
    #expect(try refusal("127.0.0.1") == "loopback")
    #expect(try refusal("0x7f.1") == "loopback")
    #expect(try refusal("2130706433") == "loopback")
  }

  @Test func numericHostsInOlderSpellingsAreRefusedAtSubmit() {
    let settings = WebhookSettings()
    for url in [
      "http://2130706433/", "http://0x7f.1:8080/", "http://0177.0.0.1/", "http://127.1/", "http://[::ffff:7f00:1]/",
      "http://[::127.0.0.1]/", "http://[2002:a9fe:a9fe::]/", "http://0xa9fea9fe/latest/",
    ] {
      #expect(WebhookTarget.problem(with: url, settings: settings) != nil, "\(url)")
    }
  }

  @Test func callbackURLsAreCheckedForShapeAndNumericHosts() {
    let settings = WebhookSettings()
    #expect(WebhookTarget.problem(with: "http://hooks.example.com:8443/done?x=1", settings: settings) == nil)
    #expect(WebhookTarget.problem(with: "http://[2001:4860:4860::8888]/", settings: settings) == nil)
    for bad in [
      "https://hooks.example.com/", "ftp://x/", "http://user:pw@hooks.example.com/", "http:///path", "http://a b/",
      "http://hooks.example.com:0/", "http://hooks.example.com:99999/", "http://[::1/", "http://10.0.0.1/hook",
      "http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://under_score.example/",
    ] {
      #expect(WebhookTarget.problem(with: bad, settings: settings) != nil, "\(bad)")
    }
    #expect(
      WebhookTarget.parse("http://Example.com") == .success(.init(host: "Example.com", port: 80, target: "/")))
  }

  @Test func aNameThatResolvesToLoopbackIsRefusedBeforeAnyConnection() {
    // localhost resolves (from /etc/hosts) to loopback only; the refusal comes from the resolved
    // addresses, so nothing is connected to.
    let result = WebhookSender.deliver("http://localhost:9/", id: "x", body: Data(), settings: WebhookSettings())
    guard case .failure(let error) = result else {
      Issue.record("delivered to localhost")
      return
    }
    #expect(error.message.contains("loopback"), "\(error.message)")
  }
}
