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
