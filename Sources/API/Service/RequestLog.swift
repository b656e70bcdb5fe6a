import Foundation
import Glibc
import Grading
import SystemCore
import Wire

/// One line of the request log (JSON lines, DESIGN §7): who asked for what and how it went.
///
/// It never holds source code, stdin, arguments or output: those are the learner's, and a log is
/// kept longer and read by more people than a result.
public struct RequestLogEntry: Sendable, Equatable {
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
  /// Which bearer token the request presented, as `tokenDigest(_:)` gives it (never the token).
  public var tokenDigest: String?
  /// Who sent it: `ADDRESS:PORT` of a TCP client, `unix` on the Unix socket (`HTTPRequest.client`).
  public var client: String?

  /// What the log names a token by: the first 12 hex digits of its SHA-256. Enough to tell an
  /// operator's few tokens apart and find which one a client uses; a log reader learns nothing
  /// usable of the token from it.
  public static func tokenDigest(_ token: String) -> String {
    String(hexadecimal(Digest.sha256(Array(token.utf8))).prefix(12))
  }

  /// One JSON object on one line, without the newline. Absent optional fields are left out.
  public var line: String {
    var fields: [String: JSONValue] = [
      "id": .string(id), "time": .string(time), "method": .string(method), "route": .string(route),
      "status": .number(Double(status)), "total_ms": .number(totalMilliseconds),
    ]
    fields["error"] = error.map(JSONValue.string)
    fields["language"] = language.map(JSONValue.string)
    fields["run_status"] = runStatus.map(JSONValue.string)
    fields["queue_ms"] = queueMilliseconds.map(JSONValue.number)
    fields["run_ms"] = runMilliseconds.map(JSONValue.number)
    fields["detail"] = detail.map(JSONValue.string)
    fields["token_digest"] = tokenDigest.map(JSONValue.string)
    fields["client"] = client.map(JSONValue.string)
    return String(decoding: JSONValue.object(fields).compactJSONBytes, as: UTF8.self)
  }
}

/// RFC 3339 UTC timestamps with milliseconds for log lines ("2026-11-29T17:43:33.120Z"), formatted by
/// hand: Foundation's ISO 8601 style builds a formatter per call.
public enum LogTime {
  public static func now() -> String {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    var seconds = spec.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func padded(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-" + padded(parts.tm_mday, 2)
      + "T" + padded(parts.tm_hour, 2) + ":" + padded(parts.tm_min, 2) + ":" + padded(parts.tm_sec, 2) + "."
      + padded(Int32(spec.tv_nsec / 1_000_000), 3) + "Z"
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
