import Foundation

/// One line of the request log (JSON lines, DESIGN §7): who asked for what and how it went.
///
/// It never holds source code, stdin, arguments or output: those are the learner's, and a log is
/// kept longer and read by more people than a result.
public struct RequestLogEntry: Encodable, Sendable, Equatable {
  /// The request id (the client's `X-Request-Id` when it sent a usable one).
  public var id: String
  /// When the request was answered, RFC 3339 UTC.
  public var time: String
  /// The method.
  public var method: String
  /// The route (`/v1/execute`), or `other` for paths we do not serve.
  public var route: String
  /// The HTTP status code sent.
  public var status: Int
  /// The error code, when the answer was an error.
  public var error: String?
  /// The language asked for, on execute.
  public var language: String?
  /// The status word of the execution (compile's when the compile failed), on execute.
  public var runStatus: String?
  /// Milliseconds waited for a slot.
  public var queueMilliseconds: Double?
  /// Milliseconds spent executing.
  public var runMilliseconds: Double?
  /// Milliseconds from receiving the request to the response.
  public var totalMilliseconds: Double
  /// For `internal_error`: the whole sandbox error for the operator, hint included.
  public var detail: String?

  enum CodingKeys: String, CodingKey {
    case id, time, method, route, status, error, language, detail
    case runStatus = "run_status"
    case queueMilliseconds = "queue_ms"
    case runMilliseconds = "run_ms"
    case totalMilliseconds = "total_ms"
  }

  /// One JSON object on one line, without the newline.
  public var line: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }
}

/// Where request log lines go; the daemon writes them to stderr (journald), tests collect them.
public typealias RequestLogSink = @Sendable (RequestLogEntry) -> Void

/// Log sinks.
public enum RequestLog {
  /// Writes each entry as one line on standard error, in one `write` so lines from concurrent
  /// requests never interleave.
  public static let standardError: RequestLogSink = { entry in
    let bytes = Array((entry.line + "\n").utf8)
    bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
  }
}
