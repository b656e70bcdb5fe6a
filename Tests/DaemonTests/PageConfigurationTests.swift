import Foundation
import Testing

/// The page's config keys (`page`, `cors_origins`) are read strictly like the rest, and the install
/// puts the page's files beside the other data.
@Suite(.timeLimit(.minutes(2)))
struct PageConfigurationTests {
  @Test func badPageAndCorsValuesAreNamed() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/dsa-rund.json"
    try Data(
      #"{"page": {"enabled": "yes", "javascript_dir": "share/js", "theme": 1}, "cors_origins": ["https://a.example/x", "app.example"]}"#
        .utf8
    ).write(to: URL(fileURLWithPath: path))
    let environment = ["DSA_RUN_DATA": repositoryRoot]
    let finished = try runProcess(daemonBinary, ["--check-config", "--config", path], environment: environment)
    #expect(finished.status == 1)
    let lines = finished.stderr.split(separator: "\n")
    #expect(lines.contains { $0.contains("page.theme: unknown key; known keys: enabled, javascript_dir") })
    #expect(lines.contains { $0.contains("page.enabled: expected true or false") })
    #expect(lines.contains { $0.contains("page.javascript_dir must be an absolute path, got \"share/js\"") })
    #expect(lines.contains { $0.contains("\"https://a.example/x\" is not an origin") })
    #expect(lines.contains { $0.contains("\"app.example\" is not an origin") })
    #expect(lines.count == 5, "\(finished.stderr)")
    try Data(#"{"page": {"enabled": false}, "cors_origins": ["https://app.example:8443"]}"#.utf8)
      .write(to: URL(fileURLWithPath: path))
    let fine = try runProcess(daemonBinary, ["--check-config", "--config", path], environment: environment)
    #expect(fine.status == 0, "\(fine.stderr)")
  }

  @Test func frameAncestorsMustBePlainOrigins() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/dsa-rund.json"
    // Each would rewrite the policy: another directive, any site, a path the browser never sends.
    try Data(
      #"{"page": {"frame_ancestors": ["https://lms.example; script-src *", "*", "https://lms.example/course", "lms.example"]}}"#
        .utf8
    ).write(to: URL(fileURLWithPath: path))
    let finished = try runProcess(
      daemonBinary, ["--check-config", "--config", path], environment: ["DSA_RUN_DATA": repositoryRoot])
    #expect(finished.status == 1)
    let lines = finished.stderr.split(separator: "\n")
    for origin in ["https://lms.example; script-src *", "*", "https://lms.example/course", "lms.example"] {
      #expect(
        lines.contains { $0.contains("page.frame_ancestors: \"\(origin)\" is not an origin") }, "\(finished.stderr)")
    }
    #expect(lines.count == 4, "\(finished.stderr)")
  }

  /// By default no site may frame the page; `page.frame_ancestors` names the ones that may, in the
  /// policy, and drops X-Frame-Options: DENY, which would forbid them all.
  @Test func frameAncestorsDecideWhoMayEmbedThePage() throws {
    let closed = try daemonConfigured("{}")
    defer { closed.cleanUp() }
    for path in ["/", "/page/app.js", "/page/missing.js"] {
      let answer = try curl(closed.baseURL + path)
      #expect(
        answer.headers["content-security-policy"]?.hasSuffix("frame-ancestors 'none'") == true, "\(answer.headers)")
      #expect(answer.headers["x-frame-options"] == "DENY", "\(path) \(answer.headers)")
    }
    let open = try daemonConfigured(
      #"{"page": {"frame_ancestors": ["https://lms.example.org", "http://127.0.0.1:9000"]}}"#)
    defer { open.cleanUp() }
    for path in ["/", "/page/app.js", "/page/missing.js"] {
      let answer = try curl(open.baseURL + path)
      let policy = answer.headers["content-security-policy"] ?? ""
      #expect(policy.hasSuffix("frame-ancestors https://lms.example.org http://127.0.0.1:9000"), "\(policy)")
      #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"), "\(policy)")
      #expect(answer.headers["x-frame-options"] == nil, "\(path) \(answer.headers)")
    }
  }

  @Test func theInstallCarriesThePage() throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let binaries = URL(fileURLWithPath: daemonBinary).deletingLastPathComponent().path
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "DSA_RUN_DATA")
    let install = try runProcess(
      "/bin/bash",
      [repositoryRoot + "/scripts/install", "--destdir", root, "--prefix", "/opt/dsa-page", "--from", binaries],
      environment: environment, timeout: .seconds(120))
    #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
    let shipped = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/page").sorted()
    let installed = try FileManager.default.contentsOfDirectory(atPath: root + "/opt/dsa-page/share/dsa-run/page")
    #expect(installed.sorted() == shipped)
    #expect(shipped.contains("index.html") && shipped.contains("app.js"))
  }
}
