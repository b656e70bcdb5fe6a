import Foundation
import Grading
import Runners
import Sandbox
import Wire

/// The execute result's JSON (DESIGN §5), shared by the CLI's `--json` and `POST /v1/execute`, so a
/// client can switch between them without noticing.
public enum ResultEncoder {
  /// The keys of an execute result object.
  public static let executeKeys: Set<String> = [
    "language", "version", "compile", "compile_cache", "run", "steps", "steps_message",
  ]
  /// The keys every outcome object has (`time_limit_kind` is added for `time_limit`).
  public static let outcomeKeys: Set<String> = [
    "status", "message", "exit_code", "signal", "stdout", "stderr", "stdout_truncated", "stderr_truncated",
    "cpu_ms", "wall_ms", "memory_kb", "accounting",
  ]

  /// One step's outcome (compile or run).
  public static func outcomeValue(_ outcome: Outcome) -> JSONValue {
    var object: [String: JSONValue] = [
      "status": .string(outcome.status.rawValue),
      "message": .string(outcome.message),
      "exit_code": JSONValue(outcome.exitCode.map(Int.init)),
      "signal": outcome.signal.map { .string(signalName($0)) } ?? .null,
      "stdout": .string(String(decoding: outcome.stdout, as: UTF8.self)),
      "stderr": .string(String(decoding: outcome.stderr, as: UTF8.self)),
      "stdout_truncated": .bool(outcome.stdoutTruncated),
      "stderr_truncated": .bool(outcome.stderrTruncated),
      "cpu_ms": .number(Double(outcome.cpuMilliseconds)),
      "wall_ms": .number(Double(outcome.wallMilliseconds)),
      "memory_kb": .number(Double(outcome.memoryKilobytes)),
      "accounting": .string(outcome.accounting),
    ]
    if let kind = outcome.timeLimitKind { object["time_limit_kind"] = .string(kind.rawValue) }
    return .object(object)
  }

  /// The whole result, with the well-formed step lines of the run's stdout (for the app's step player)
  /// and, in `steps_message`, why reading them stopped early ("" when all were read). Parsing the
  /// steps is bounded work (`StepParser.replayable`); the daemon does it on the box slot's thread.
  ///
  /// With `exposeCompileCache` false the result does not tell a cache hit from a fresh compile
  /// (`compileCacheView`).
  public static func executeValue(_ result: ExecuteResult, exposeCompileCache: Bool = true) -> JSONValue {
    let (steps, stepsMessage) =
      result.run.map { StepParser().replayable(String(decoding: $0.stdout, as: UTF8.self)) } ?? ([], "")
    let (compile, cache) = compileCacheView(
      compile: result.compile, hit: result.compileCacheHit, expose: exposeCompileCache)
    return [
      "language": .string(result.language),
      "version": .string(result.version),
      "compile": compile.map(outcomeValue) ?? .null,
      "compile_cache": .string(cache),
      "run": result.run.map(outcomeValue) ?? .null,
      "steps": .array(steps.map(\.object)),
      "steps_message": .string(stepsMessage),
    ]
  }

  /// The compile outcome and `compile_cache` word a client is shown.
  ///
  /// Exposed: the compile as it ran (nil on a hit) and `hit`, `miss` or `none`. Not exposed, a hit
  /// would tell a client that someone else compiled exactly this source, so every successful compile
  /// reads as a hit does without its word: `compile` nil and `none`. A failed compile is never
  /// cached, so it is the same for every client and shown as it is (`miss`).
  public static func compileCacheView(compile: Outcome?, hit: Bool, expose: Bool) -> (Outcome?, String) {
    if expose { return (compile, hit ? "hit" : (compile == nil ? "none" : "miss")) }
    guard let compile, compile.status != .ok else { return (nil, "none") }
    return (compile, "miss")
  }

  /// Serialized as the CLI prints and the daemon sends: compact, sorted keys, slashes unescaped.
  public static func data(_ value: JSONValue) -> Data {
    Data(value.compactJSONBytes)
  }

  /// Serializes a Foundation-style tree (dictionaries, arrays, strings, numbers, booleans, NSNull)
  /// the same way, for the cold paths (lists, reports) that build one; nil for anything else.
  public static func data(_ object: Any) -> Data {
    Data((value(object) ?? .null).compactJSONBytes)
  }

  /// A Foundation-style tree as a `JSONValue`; nil when it holds something JSON cannot.
  public static func value(_ object: Any) -> JSONValue? {
    switch object {
    case let value as JSONValue: return value
    case is NSNull: return .null
    case let value as Bool where type(of: object) == Bool.self: return .bool(value)
    // What JSONSerialization reads: every NSNumber also casts to Bool and Int, so its class decides
    // (booleans are their own NSNumber subclass).
    case let number as NSNumber where type(of: object) != Int.self && type(of: object) != Double.self:
      if type(of: number) == type(of: NSNumber(value: true)) { return .bool(number.boolValue) }
      let kind = String(cString: number.objCType)
      return .number(kind == "d" || kind == "f" ? number.doubleValue : Double(number.int64Value))
    case let value as Int: return .number(Double(value))
    case let value as Int32: return .number(Double(value))
    case let value as Int64: return .number(Double(value))
    case let value as UInt64: return .number(Double(value))
    case let value as Double: return value.isFinite ? .number(value) : nil
    case let value as String: return .string(value)
    case let value as [Any]:
      var items: [JSONValue] = []
      for item in value {
        guard let converted = self.value(item) else { return nil }
        items.append(converted)
      }
      return .array(items)
    case let value as [String: Any]:
      var fields: [String: JSONValue] = [:]
      for (key, item) in value {
        guard let converted = self.value(item) else { return nil }
        fields[key] = converted
      }
      return .object(fields)
    default: return nil
    }
  }
}
