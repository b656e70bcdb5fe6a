/// Why a request could not be parsed, with the status to answer it with.
///
/// After any of these the framing of the connection is unknown, so the server sends the status with
/// `Connection: close` and closes; the parser has already stopped reading.
public struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem it is; each maps to one status.
  public enum Kind: Sendable, Equatable {
    /// 400: not `METHOD SP target SP HTTP/x.y`, a bad method token or target byte.
    case badRequestLine
    /// 400: a bare CR, or an LF without its CR.
    case badLineEnding
    /// 400: no colon, whitespace before the colon, obs-fold, a non-token name or a control byte in a value.
    case badHeaderField
    /// 400: HTTP/1.1 without exactly one Host field, or HTTP/1.0 with several.
    case badHost
    /// 400: Content-Length not a decimal number, or several that disagree.
    case badContentLength
    /// 400: a transfer coding other than `chunked` alone, Transfer-Encoding in HTTP/1.0, or with
    /// Content-Length.
    case badTransferEncoding
    /// 400: a chunk size that is not hexadecimal, a bad extension, a missing CRLF after chunk data.
    case badChunk
    /// 411: POST or PUT with neither Content-Length nor chunked.
    case lengthRequired
    /// 413: Content-Length or the chunks so far are over `maximumBodyBytes`.
    case bodyTooLarge
    /// 414: the request target is over `maximumRequestTargetBytes`.
    case targetTooLong
    /// 431: the header (and trailer) section is over `maximumHeaderSectionBytes`.
    case headerSectionTooLarge
    /// 431: more than `maximumHeaderCount` header and trailer fields.
    case tooManyHeaderFields
    /// 505: a well-formed version other than HTTP/1.0 and HTTP/1.1.
    case unsupportedVersion
  }

  /// What kind of problem it is.
  public let kind: Kind
  /// What was wrong and how the client can fix it; safe to send back (it never quotes request bytes).
  public let message: String

  /// An error of `kind` explained by `message`.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// The status to answer with.
  public var status: HTTPStatus {
    switch kind {
    case .badRequestLine, .badLineEnding, .badHeaderField, .badHost, .badContentLength, .badTransferEncoding,
      .badChunk:
      return .badRequest
    case .lengthRequired: return .lengthRequired
    case .bodyTooLarge: return .contentTooLarge
    case .targetTooLong: return .uriTooLong
    case .headerSectionTooLarge, .tooManyHeaderFields: return .requestHeaderFieldsTooLarge
    case .unsupportedVersion: return .httpVersionNotSupported
    }
  }

  /// "400 Bad Request: ...".
  public var description: String { "\(status): \(message)" }
}
