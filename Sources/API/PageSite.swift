import Foundation
import HTTP
import Sandbox

/// The playground page's static files: `GET /` and `/page/...` from the data folder's `page/`, and
/// `/vendor/{codemirror,marked,chart.js}/...` from Debian's `/usr/share/javascript` (libjs-codemirror,
/// libjs-marked, libjs-chart.js). Nothing here runs code: it maps a few path shapes to files.
///
/// A path is served only when every segment is plain (letters, digits, `.`, `_`, `-`; not starting
/// with a dot, so no `..` and no hidden files), it names a regular file with a known extension, and
/// that file is opened beneath its root without a link leading out (`openRegularFile(beneath:)`);
/// `%` is refused rather than decoded, as no shipped file needs it.
/// Every answer carries a strict Content-Security-Policy: scripts, styles and connections from this
/// origin only, no inline code, and no frames unless the operator names the sites that may embed it.
public struct PageSite: Sendable {
  /// The folder with index.html, *.js and *.css (the data folder's page/).
  public var pageDirectory: String
  /// Debian's shared JavaScript folder; its codemirror/, marked/ and chart.js/ are served.
  public var javascriptDirectory: String
  /// Origins whose pages may show the page in a frame (`page.frame_ancestors`); empty allows none.
  public var frameAncestors: [String]

  public init(
    pageDirectory: String, javascriptDirectory: String = "/usr/share/javascript", frameAncestors: [String] = []
  ) {
    self.pageDirectory = pageDirectory
    self.javascriptDirectory = javascriptDirectory
    self.frameAncestors = frameAncestors
  }

  /// The libraries served from `javascriptDirectory`, by the folder name Debian gives them.
  static let vendorLibraries: Set<String> = ["codemirror", "marked", "chart.js"]
  /// The route label of page files in metrics and logs.
  public static let route = "page"
  /// The most a served file may hold: the page's and the libraries' files are far smaller.
  static let maximumFileBytes = 8 << 20

  /// `connect-src 'self'` covers `ws:`/`wss:` to this host and port (CSP Level 3), which /v1/connect
  /// needs; `data:` images are Chart.js's and CodeMirror's none, but harmless.
  /// `frame-ancestors` is the policy's only part the config changes: the origins that may embed
  /// the page (an app's lesson view), or `'none'`.
  public var contentSecurityPolicy: String {
    let ancestors = frameAncestors.isEmpty ? "'none'" : frameAncestors.joined(separator: " ")
    return
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
      + "font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors \(ancestors)"
  }

  static let contentTypes: [String: String] = [
    "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
    "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon", "json": "application/json",
    "map": "application/json",
  ]

  /// Whether `path` is one of the page's paths (whether or not such a file exists).
  public func claims(_ path: String) -> Bool {
    path == "/" || path == "/index.html" || path.hasPrefix("/page/") || path.hasPrefix("/vendor/")
  }

  /// The answer for a page path, or nil when `path` is not one (the API's routes then answer).
  public func answer(method: String, path: String, headers: HTTPHeaders) -> HTTPResponse? {
    guard claims(path) else { return nil }
    guard method == "GET" || method == "HEAD" else {
      return plain(.methodNotAllowed, "only GET and HEAD are served here\n", extra: [("Allow", "GET, HEAD")])
    }
    guard let location = resolve(path), let type = Self.contentType(of: location.path),
      let file = try? openRegularFile(
        beneath: location.root, path: location.path, symlinksWithin: location.symlinksWithin),
      Int(file.info.st_size) <= Self.maximumFileBytes
    else { return plain(.notFound, "no such page file\n") }
    // Size and modification time change with every install of a file, and cost one stat to check.
    let info = file.info
    let tag =
      "\"\(String(info.st_size, radix: 16))-\(String(info.st_mtim.tv_sec, radix: 16))"
      + "\(String(info.st_mtim.tv_nsec, radix: 16))\""
    var responseHeaders = securityHeaders
    responseHeaders.add(name: "ETag", value: tag)
    responseHeaders.add(name: "Cache-Control", value: location.cacheControl)
    if let asked = headers["If-None-Match"],
      asked.split(separator: ",").contains(where: {
        $0.trimmingCharacters(in: .whitespaces) == tag
      })
    {
      return HTTPResponse(status: HTTPStatus(code: 304), headers: responseHeaders)
    }
    guard let body = try? file.read(limit: Self.maximumFileBytes, name: location.path) else {
      return plain(.notFound, "no such page file\n")
    }
    responseHeaders.add(name: "Content-Type", value: type)
    return HTTPResponse(status: .ok, headers: responseHeaders, body: body)
  }

  /// Where a path's file is: a folder the operator named, the file's path beneath it, whether a
  /// link may be followed on the way, and the file's Cache-Control.
  struct Location: Equatable {
    var root: String
    var path: String
    var symlinksWithin: Bool
    var cacheControl: String
  }

  /// Where the file a path names is, or nil when the path breaks a rule. A file of `page/` is
  /// opened with no link followed at all: the page needs none, and a link there (planted, or left
  /// by a careless copy) would otherwise serve whatever it points at. Debian's library folders are
  /// made of links (`codemirror.js -> lib/codemirror.js`), so there a link is followed only while
  /// it stays inside its library's folder.
  func resolve(_ path: String) -> Location? {
    if path == "/" || path == "/index.html" {
      return Location(root: pageDirectory, path: "index.html", symlinksWithin: false, cacheControl: "no-cache")
    }
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    guard segments.count >= 2, segments.count <= 6, segments.allSatisfy(Self.isPlainSegment) else { return nil }
    switch segments.first {
    case "page":
      // Revalidated on every load (cheap with the ETag), so a new install is seen at once.
      return Location(
        root: pageDirectory, path: segments.dropFirst().joined(separator: "/"), symlinksWithin: false,
        cacheControl: "no-cache")
    case "vendor":
      guard let library = segments.dropFirst().first, Self.vendorLibraries.contains(String(library)),
        segments.count >= 3
      else { return nil }
      return Location(
        root: javascriptDirectory + "/" + library, path: segments.dropFirst(2).joined(separator: "/"),
        symlinksWithin: true, cacheControl: "public, max-age=86400")
    default: return nil
    }
  }

  static func isPlainSegment(_ segment: Substring) -> Bool {
    guard let first = segment.utf8.first, first != UInt8(ascii: "."), segment.utf8.count <= 128 else {
      return false
    }
    return segment.utf8.allSatisfy {
      $0 == 0x2D || $0 == 0x2E || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
        || (0x61...0x7A).contains($0)
    }
  }

  static func contentType(of file: String) -> String? {
    guard let dot = file.lastIndex(of: "."), !file[dot...].contains("/") else { return nil }
    return contentTypes[String(file[file.index(after: dot)...])]
  }

  /// What every page answer says besides its body: the policy, and no sniffing, referrers or framing.
  /// X-Frame-Options (for browsers without `frame-ancestors`) can only deny or name this origin, so
  /// it is left out once other sites may embed the page: the policy then decides alone.
  var securityHeaders: HTTPHeaders {
    var headers: HTTPHeaders = [
      "Content-Security-Policy": contentSecurityPolicy, "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    ]
    if frameAncestors.isEmpty { headers.add(name: "X-Frame-Options", value: "DENY") }
    return headers
  }

  func plain(_ status: HTTPStatus, _ text: String, extra: [(String, String)] = []) -> HTTPResponse {
    var headers = securityHeaders
    headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
    for (name, value) in extra { headers.add(name: name, value: value) }
    return HTTPResponse(status: status, headers: headers, body: Data(text.utf8))
  }
}

/// Cross-origin access to the API, off unless the config lists origins (`cors_origins`): a page
/// served elsewhere (the app's own) may then call the API from a browser. The playground page is
/// same-origin and needs none of it.
public struct CrossOriginPolicy: Sendable {
  /// Origins such as `https://app.example.org`, compared exactly.
  public var allowedOrigins: Set<String>

  public init(allowedOrigins: Set<String>) { self.allowedOrigins = allowedOrigins }

  /// The preflight answer (`OPTIONS` with `Access-Control-Request-Method`) for an allowed origin.
  public func preflight(_ request: HTTPRequest) -> HTTPResponse? {
    guard request.method == "OPTIONS", let origin = request.headers["Origin"], allowedOrigins.contains(origin),
      request.headers["Access-Control-Request-Method"] != nil
    else { return nil }
    return HTTPResponse(
      status: .noContent,
      headers: [
        "Access-Control-Allow-Origin": origin, "Vary": "Origin",
        "Access-Control-Allow-Methods": "GET, POST, DELETE",
        "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, X-Request-Id",
        "Access-Control-Max-Age": "600",
      ])
  }

  /// Adds the allow headers to an answer to an allowed origin; others get none, so the browser
  /// withholds the answer from their scripts.
  public func decorate(_ response: inout HTTPResponse, for request: HTTPRequest) {
    guard let origin = request.headers["Origin"], allowedOrigins.contains(origin) else { return }
    response.headers.add(name: "Access-Control-Allow-Origin", value: origin)
    response.headers.add(name: "Vary", value: "Origin")
    response.headers.add(name: "Access-Control-Expose-Headers", value: "Retry-After, X-Request-Id")
  }
}
