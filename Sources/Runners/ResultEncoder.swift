import Foundation
import Grading
import Sandbox
import Wire

extension Outcome {
  /// The outcome as the wire carries it (DESIGN §5): the domain-to-wire edge of one step.
  public var wire: WireOutcome {
    WireOutcome(
      status: status.rawValue, message: message, exitCode: exitCode, signal: signal.map(signalName),
      stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
      stdoutTruncated: stdoutTruncated, stderrTruncated: stderrTruncated, cpuMilliseconds: cpuMilliseconds,
      wallMilliseconds: wallMilliseconds, memoryKilobytes: memoryKilobytes, accounting: accounting,
      timeLimitKind: timeLimitKind?.rawValue)
  }
}

extension ExecuteResult {
  /// The whole result as the wire carries it, with the well-formed step lines of the run's stdout
  /// (for the app's step player) and, in `steps_message`, why reading them stopped early ("" when
  /// all were read). Parsing the steps is bounded work (`StepParser.replayable`); the daemon does it
  /// on the box slot's thread.
  ///
  /// With `exposeCompileCache` false the result does not tell a cache hit from a fresh compile
  /// (`ResultEncoder.compileCacheView`).
  public func wire(exposeCompileCache: Bool = true) -> WireExecuteResult {
    let (steps, stepsMessage) =
      run.map { StepParser().replayable(String(decoding: $0.stdout, as: UTF8.self)) } ?? ([], "")
    let (shownCompile, cache) = ResultEncoder.compileCacheView(
      compile: compile, hit: compileCacheHit, expose: exposeCompileCache)
    return WireExecuteResult(
      language: language, version: version, compile: shownCompile?.wire, compileCache: cache, run: run?.wire,
      steps: steps.map(\.object), stepsMessage: stepsMessage)
  }
}

/// The execute result's JSON (DESIGN §5), shared by the CLI's `--json` and `POST /v1/execute`, so a
/// client can switch between them without noticing; built by the `wire` conversions above.
public enum ResultEncoder {
  /// The keys of an execute result object.
  public static let executeKeys = Set(WireExecuteResult.keys)
  /// The keys every outcome object has (`time_limit_kind` is added for `time_limit`).
  public static let outcomeKeys = Set(WireOutcome.keys)

  /// One step's outcome (compile or run).
  public static func outcomeValue(_ outcome: Outcome) -> JSONValue { outcome.wire.json }

  /// The whole result (`ExecuteResult.wire`).
  public static func executeValue(_ result: ExecuteResult, exposeCompileCache: Bool = true) -> JSONValue {
    result.wire(exposeCompileCache: exposeCompileCache).json
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
  /// the same way, for the cold paths (lists, reports) that build one; null for anything else.
  public static func data(_ object: Any) -> Data {
    Data((JSONValue(foundation: object) ?? .null).compactJSONBytes)
  }

  /// A Foundation-style tree as a `JSONValue`; nil when it holds something JSON cannot.
  public static func value(_ object: Any) -> JSONValue? { JSONValue(foundation: object) }
}
