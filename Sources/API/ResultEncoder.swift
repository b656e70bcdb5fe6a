import Foundation
import Runners
import Sandbox

/// The execute result's JSON (DESIGN §5), shared by the CLI's `--json` and `POST /v1/execute`, so a
/// client can switch between them without noticing.
public enum ResultEncoder {
  /// The keys of an execute result object.
  public static let executeKeys: Set<String> = ["language", "version", "compile", "compile_cache", "run", "steps"]
  /// The keys every outcome object has (`time_limit_kind` is added for `time_limit`).
  public static let outcomeKeys: Set<String> = [
    "status", "message", "exit_code", "signal", "stdout", "stderr", "stdout_truncated", "stderr_truncated",
    "cpu_ms", "wall_ms", "memory_kb", "accounting",
  ]

  /// One step's outcome (compile or run).
  public static func outcomeObject(_ outcome: Outcome) -> [String: Any] {
    var object: [String: Any] = [
      "status": outcome.status.rawValue,
      "message": outcome.message,
      "exit_code": outcome.exitCode.map { $0 as Any } ?? NSNull(),
      "signal": outcome.signal.map { signalName($0) as Any } ?? NSNull(),
      "stdout": String(decoding: outcome.stdout, as: UTF8.self),
      "stderr": String(decoding: outcome.stderr, as: UTF8.self),
      "stdout_truncated": outcome.stdoutTruncated,
      "stderr_truncated": outcome.stderrTruncated,
      "cpu_ms": outcome.cpuMilliseconds,
      "wall_ms": outcome.wallMilliseconds,
      "memory_kb": outcome.memoryKilobytes,
      "accounting": outcome.accounting,
    ]
    if let kind = outcome.timeLimitKind { object["time_limit_kind"] = kind.rawValue }
    return object
  }

  /// The whole result, with the parsed step lines of the run's stdout.
  public static func executeObject(_ result: ExecuteResult) -> [String: Any] {
    [
      "language": result.language,
      "version": result.version,
      "compile": result.compile.map { outcomeObject($0) as Any } ?? NSNull(),
      "compile_cache": result.compileCacheHit ? "hit" : (result.compile == nil ? "none" : "miss"),
      "run": result.run.map { outcomeObject($0) as Any } ?? NSNull(),
      "steps": result.run.map { StepLines.parse($0.stdout).steps } ?? [],
    ]
  }

  /// Serialized as the CLI does: sorted keys, slashes unescaped.
  public static func data(_ object: Any) -> Data {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
      ?? Data("{}".utf8)
  }
}
