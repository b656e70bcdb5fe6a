import Foundation
import HTTP

/// One route of a front end's table: its label (the `route` of `/metrics` and the request log),
/// its methods, and what it does, which decides the checks the router makes before it.
struct Route: Sendable, Equatable {
  enum Kind: Sendable, Equatable {
    /// Reads; needs the token when the server has tokens.
    case read
    /// Starts or stores runs: needs the token, and a request from a foreign page is refused.
    case runsCode
    /// A WebSocket handshake that starts live runs: its token may come in its first message (a
    /// browser cannot set the header), and a foreign page's handshake is refused.
    case liveSocket
    /// Open to all, tokens or not (`/healthz`: load balancers and systemd hold none).
    case open
  }

  var label: String
  var methods: [String]
  var kind: Kind

  init(_ label: String, _ methods: [String], _ kind: Kind) {
    self.label = label
    self.methods = methods
    self.kind = kind
  }

  /// The methods a route takes, HEAD included where GET is (RFC 9110 §9.3.2: HEAD is GET without
  /// the body, which the server leaves out).
  var allowed: [String] { methods.contains("GET") ? methods + ["HEAD"] : methods }
}

/// What the router knows of a request when it hands it to a front end.
struct RequestScope {
  /// The run context: request id, route label, the accepted token.
  var context: RunContext
  /// The path, without the query.
  let path: String
  /// The query's name-value pairs (the first of each name; values percent-decoded).
  let query: [String: String]
  /// Whose stored submissions the request sees: the SHA-256 of its bearer token ("" on a server
  /// without tokens).
  let owner: String
  /// A live socket's handshake whose token the router refused: the session says so in its own
  /// words once open (a browser cannot read why a handshake failed).
  var refusal: APIError? = nil
}

/// A front end: one wire format's routes (/v1, Judge0 CE, Piston v2), each a table that names
/// every route, and a converter between its wire and the run service's requests and results.
protocol FrontEnd: Sendable {
  /// The route `path` is in this table; nil when this front end serves no such path.
  func route(of path: String) -> Route?
  /// Answers a request the router matched to `route` and checked (method, origin, token).
  func answer(_ request: HTTPRequest, route: Route, scope: inout RequestScope) throws(APIError) -> HTTPResponse
  /// An error answered in this front end's shape (the router's own refusals included).
  func render(_ error: APIError) -> HTTPResponse
  /// The answer to a method the route does not take.
  func methodNotAllowed(_ request: HTTPRequest, route: Route, path: String) -> APIError
  /// The token a request presents (Jobe's clients send theirs as `X-API-KEY`).
  func presentedToken(_ request: HTTPRequest) -> String?
}

extension FrontEnd {
  func render(_ error: APIError) -> HTTPResponse { error.response }

  func presentedToken(_ request: HTTPRequest) -> String? { APIRouter.bearerToken(request) }

  func methodNotAllowed(_ request: HTTPRequest, route: Route, path: String) -> APIError {
    .methodNotAllowed(request.method, path: path, allowed: route.allowed)
  }
}
