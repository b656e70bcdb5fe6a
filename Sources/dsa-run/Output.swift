import Foundation
import Runners
import Sandbox

// JSON shapes of the CLI (DESIGN §5); the daemon will reuse them.

func outcomeObject(_ outcome: Outcome) -> [String: Any] {
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

func executeObject(_ result: ExecuteResult) -> [String: Any] {
  [
    "language": result.language,
    "version": result.version,
    "compile": result.compile.map { outcomeObject($0) as Any } ?? NSNull(),
    "compile_cache": result.compileCacheHit ? "hit" : (result.compile == nil ? "none" : "miss"),
    "run": result.run.map { outcomeObject($0) as Any } ?? NSNull(),
    "steps": result.run.map { StepLines.parse($0.stdout).steps } ?? [],
  ]
}

func jsonData(_ object: Any) -> Data {
  (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
    ?? Data("{}".utf8)
}
