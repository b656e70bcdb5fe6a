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
