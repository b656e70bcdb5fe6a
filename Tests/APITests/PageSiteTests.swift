import Foundation
import HTTP
import Testing

@testable import API

/// The playground page's static files through the router: which paths map to which files, what is
/// refused, the policy and caching headers, and CORS only for configured origins.
@Suite struct PageSiteTests {
  /// A page folder and a stand-in for /usr/share/javascript, in a scratch directory.
  final class Site {
    let root: String
    let site: PageSite

    init() throws {
      root = NSTemporaryDirectory() + "page-site-\(UUID().uuidString)"
      let files = [
        "page/index.html": "<!doctype html><title>t</title>", "page/app.js": "export {};",
        "page/.secret.js": "hidden", "javascript/codemirror/lib/codemirror.js": "var CodeMirror;",
        "javascript/jquery/jquery.js": "jq", "outside.js": "no",
      ]
      for (path, text) in files {
        let full = root + "/" + path
        try FileManager.default.createDirectory(
          atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
      }
      site = PageSite(pageDirectory: root + "/page", javascriptDirectory: root + "/javascript")
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
  }

  @Test func theIndexAndModulesAreServedWithTheStrictPolicy() throws {
    let files = try Site()
    let router = makeFakeRouter { $0.page = files.site }
    let index = router.handle(request("GET", "/"))
    #expect(index.status == .ok)
    #expect(index.text == "<!doctype html><title>t</title>")
    #expect(index.headers["Content-Type"] == "text/html; charset=utf-8")
    let policy = try #require(index.headers["Content-Security-Policy"])
    #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
    #expect(!policy.contains("unsafe-inline") && !policy.contains("*"))
    #expect(index.headers["X-Content-Type-Options"] == "nosniff")
    #expect(index.headers["Access-Control-Allow-Origin"] == nil)
    let module = router.handle(request("GET", "/page/app.js?v=2"))
    #expect(module.status == .ok && module.headers["Content-Type"] == "text/javascript; charset=utf-8")
    let vendor = router.handle(request("GET", "/vendor/codemirror/lib/codemirror.js"))
    #expect(vendor.text == "var CodeMirror;")
    #expect(vendor.headers["Cache-Control"] == "public, max-age=86400")
  }

  @Test func pathsOutsideTheRulesAreNotFound() throws {
    let files = try Site()
    let router = makeFakeRouter { $0.page = files.site }
    for path in [
      "/page/../outside.js", "/page/.secret.js", "/page/%2e%2e/outside.js", "/page/", "/page//app.js",
      "/vendor/jquery/jquery.js", "/vendor/codemirror/../../outside.js", "/vendor/codemirror",
      "/page/index.html.bak", "/page/missing.js",
    ] {
      let response = router.handle(request("GET", path))
      #expect(response.status == .notFound, "\(path)")
      #expect(response.text == "no such page file\n", "\(path)")
    }
    #expect(router.handle(request("POST", "/")).status == .methodNotAllowed)
    #expect(router.handle(request("POST", "/")).headers["Allow"] == "GET, HEAD")
  }

  /// Links planted in a copy of the shipped page/ (one at /etc/passwd, one at a folder outside, one
  /// inside the page folder) are never followed: each is a 404 with none of its target's bytes;
  /// Debian-style links inside a library folder still serve, and one out of it does not.
  @Test func linksInThePageFolderAreNotFollowed() throws {
    let root = NSTemporaryDirectory() + "page-links-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("page").path
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: shipped, toPath: root + "/page")
    try FileManager.default.createDirectory(atPath: root + "/outside", withIntermediateDirectories: true)
    let secret = "outside-secret-\(UUID().uuidString)"
    try Data(secret.utf8).write(to: URL(fileURLWithPath: root + "/outside/leak.js"))
    try FileManager.default.createDirectory(
      atPath: root + "/javascript/codemirror/lib", withIntermediateDirectories: true)
    try Data("var CodeMirror;".utf8).write(to: URL(fileURLWithPath: root + "/javascript/codemirror/lib/codemirror.js"))
    let links = [
      ("page/passwd.js", "/etc/passwd"), ("page/out", root + "/outside"), ("page/relative.js", "../outside/leak.js"),
      ("page/inner.js", "app.js"), ("javascript/codemirror/codemirror.js", "lib/codemirror.js"),
      ("javascript/codemirror/passwd.js", "/etc/passwd"), ("javascript/codemirror/up.js", "../../outside/leak.js"),
    ]
    for (link, target) in links {
      try FileManager.default.createSymbolicLink(atPath: root + "/" + link, withDestinationPath: target)
    }
    let site = PageSite(pageDirectory: root + "/page", javascriptDirectory: root + "/javascript")
    let router = makeFakeRouter { $0.page = site }
    #expect(router.handle(request("GET", "/page/app.js")).status == .ok)
    let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
    for path in [
      "/page/passwd.js", "/page/out/leak.js", "/page/relative.js", "/page/inner.js", "/vendor/codemirror/passwd.js",
      "/vendor/codemirror/up.js",
    ] {
      for method in ["GET", "HEAD"] {
        let response = router.handle(request(method, path))
        #expect(response.status == .notFound, "\(method) \(path)")
        #expect(response.text == "no such page file\n", "\(method) \(path)")
        #expect(!response.text.contains(secret) && !response.text.contains("root:"), "\(method) \(path)")
        #expect(response.headers["ETag"] == nil, "\(method) \(path)")
      }
    }
    #expect(!passwd.isEmpty)
    // The index itself as a link out is refused too.
    try FileManager.default.removeItem(atPath: root + "/page/index.html")
    try FileManager.default.createSymbolicLink(atPath: root + "/page/index.html", withDestinationPath: "/etc/passwd")
    #expect(router.handle(request("GET", "/")).status == .notFound)
    let vendor = router.handle(request("GET", "/vendor/codemirror/codemirror.js"))
    #expect(vendor.status == .ok && vendor.text == "var CodeMirror;")
  }

  @Test func anUnchangedFileAnswersNotModified() throws {
    let files = try Site()
    let router = makeFakeRouter { $0.page = files.site }
    let first = router.handle(request("GET", "/page/app.js"))
    let tag = try #require(first.headers["ETag"])
    let again = router.handle(request("GET", "/page/app.js", headers: [("If-None-Match", tag)]))
    #expect(again.status.code == 304)
    #expect(again.body.isEmpty)
    let other = router.handle(request("GET", "/page/app.js", headers: [("If-None-Match", "\"other\"")]))
    #expect(other.status == .ok)
  }

  @Test func thePageNeedsNoTokenButTheAPIStillDoes() throws {
    let files = try Site()
    let router = makeFakeRouter {
      $0.page = files.site
      $0.bearerTokens = ["secret"]
    }
    #expect(router.handle(request("GET", "/")).status == .ok)
    #expect(router.handle(request("GET", "/v1/runtimes")).status == .unauthorized)
  }

  @Test func withoutAPageTheRootIsNotFound() {
    let router = makeFakeRouter()
    #expect(router.handle(request("GET", "/")).status == .notFound)
    #expect(router.handle(request("GET", "/page/app.js")).status == .notFound)
  }

  @Test func corsHeadersGoOnlyToConfiguredOrigins() {
    let router = makeFakeRouter { $0.crossOrigin = CrossOriginPolicy(allowedOrigins: ["https://app.example.org"]) }
    let allowed = router.handle(request("GET", "/v1/runtimes", headers: [("Origin", "https://app.example.org")]))
    #expect(allowed.headers["Access-Control-Allow-Origin"] == "https://app.example.org")
    let other = router.handle(request("GET", "/v1/runtimes", headers: [("Origin", "https://evil.example")]))
    #expect(other.headers["Access-Control-Allow-Origin"] == nil)
    let preflight = router.handle(
      request(
        "OPTIONS", "/v1/execute",
        headers: [("Origin", "https://app.example.org"), ("Access-Control-Request-Method", "POST")]))
    #expect(preflight.status == .noContent)
    #expect(preflight.headers["Access-Control-Allow-Headers"]?.contains("Authorization") == true)
    let refused = router.handle(
      request(
        "OPTIONS", "/v1/execute",
        headers: [("Origin", "https://evil.example"), ("Access-Control-Request-Method", "POST")]
      ))
    #expect(refused.headers["Access-Control-Allow-Origin"] == nil)
    #expect(refused.status == .methodNotAllowed)
  }
}
