import Foundation
import Runners
import Sandbox
import Wire

extension ExecuteBody {
  /// Reads a body, every problem of it in one 400 that says where and what.
  public static func decode(_ data: Data) throws(APIError) -> ExecuteBody {
    try read(data).get(orThrow: APIError.refusedBody)
  }
}

extension Result where Failure == JSONProblems {
  /// The value, or the error `refusal` makes of the problems.
  func get(orThrow refusal: (JSONProblems) -> APIError) throws(APIError) -> Success {
    switch self {
    case .success(let value): return value
    case .failure(let problems): throw refusal(problems)
    }
  }
}

extension APIError {
  /// 400 for a body the strict reader refused: `unknown_field` when a key is not the contract's
  /// (clients check the code), else `bad_request`; every problem in the message, with its path.
  static func refusedBody(_ refusal: JSONProblems) -> APIError {
    let sentences = refusal.problems.map { problem -> String in
      switch problem.kind {
      case .unknownKey: return "unknown field \"\(problem.path)\""
      case .invalidJSON: return "the body is not valid JSON"
      case .duplicateKey: return "\"\(problem.path)\" is given twice; give each field once"
      case .null: return "\"\(problem.path)\" must not be null; leave the field out instead"
      case .missing: return "missing field \"\(problem.path)\""
      case .wrongType where problem.path.isEmpty: return "the body must be a JSON object"
      default: return problem.description
      }
    }
    let code = refusal.problems.contains { $0.kind == .unknownKey } ? "unknown_field" : "bad_request"
    return APIError(code: code, message: sentences.joined(separator: "; "), status: .badRequest)
  }
}

/// The most a request may ask for; the runner's own defaults above a maximum are lowered to it.
public struct LimitMaxima: Sendable, Equatable {
  /// CPU time, milliseconds.
  public var cpuMilliseconds: UInt64 = 10_000
  /// Wall time, milliseconds.
  public var wallMilliseconds: UInt64 = 20_000
  /// Memory, MiB.
  public var memoryMegabytes: UInt64 = 1024
  /// Output per stream, KiB.
  public var outputKilobytes: UInt64 = 4096
  /// Processes and threads.
  public var processes: UInt64 = 128

  /// The defaults: 10 s CPU, 20 s wall, 1 GiB, 4 MiB of output per stream, 128 processes.
  public init() {}
}

extension ExecuteBody {
  /// The executor's request: files (or the single source), stdin, arguments, and the run limits laid
  /// over `runnerLimits` (the runner's run-step limits) and checked against `maxima`.
  ///
  /// A limit asked above its maximum is refused, naming the maximum, rather than quietly lowered:
  /// a learner who asks for 60 s and gets 10 s would misread the time_limit that follows. A runner's
  /// own default above a maximum is lowered, because that is the operator's choice, not the caller's.
  public func executeRequest(maxima: LimitMaxima, runnerLimits: BoxLimits) throws(APIError) -> ExecuteRequest {
    var request = ExecuteRequest(
      language: language, version: version, files: try ExecuteBody.sourceFiles(files: files, source: source))
    request.stdin = Data((stdin ?? "").utf8)
    request.arguments = args ?? []
    if let problem = Executor.argumentsProblem(request.arguments) { throw .badRequest(problem) }

    let asked = limits ?? Limits()
    var step = StepLimits()
    step.cpuMilliseconds = try Self.limit(
      "cpu_ms", asked.cpuMilliseconds, maximum: maxima.cpuMilliseconds, default: runnerLimits.cpuTimeMilliseconds)
    step.wallMilliseconds = try Self.limit(
      "wall_ms", asked.wallMilliseconds, maximum: maxima.wallMilliseconds,
      default: runnerLimits.wallTimeMilliseconds)
    step.memoryMegabytes = try Self.limit(
      "memory_mb", asked.memoryMegabytes, maximum: maxima.memoryMegabytes, default: runnerLimits.memoryBytes >> 20)
    step.outputKilobytes = try Self.limit(
      "output_kb", asked.outputKilobytes, maximum: maxima.outputKilobytes,
      default: runnerLimits.outputBytesPerStream >> 10)
    step.processes = try Self.limit(
      "processes", asked.processes, maximum: maxima.processes, default: runnerLimits.processes)
    request.runLimits = step
    return request
  }

  /// The program's files from a body's `files` or single `source` (exactly one of them; the first
  /// file's name may be replaced by what the language needs, a lone source is named by it).
  static func sourceFiles(files: [File]?, source: String?) throws(APIError) -> [SourceFile] {
    switch (files, source) {
    case (.some, .some):
      throw .badRequest("give either \"files\" or \"source\", not both")
    case (nil, nil):
      throw .badRequest("missing field \"files\" (or \"source\")")
    case (.some(let files), nil):
      guard !files.isEmpty else { throw .badRequest("\"files\" must hold at least one file") }
      // Every name as given, the first one's too: a runner may rename the entry file, but "/etc/x"
      // or "" is a caller's mistake to be told, not silently replaced.
      var seen: Set<String> = []
      for (index, file) in files.enumerated() {
        if let problem = BoxDirectory.validate(name: file.name) {
          throw .badRequest("files[\(index)].name: \(problem)")
        }
        guard seen.insert(file.name).inserted else {
          throw .badRequest("files[\(index)].name: two files are named \"\(file.name)\"")
        }
      }
      return files.map { SourceFile(name: $0.name, contents: Data($0.content.utf8)) }
    case (nil, .some(let source)):
      return [SourceFile(name: "", contents: Data(source.utf8))]
    }
  }

  /// The value to use for one limit; nil keeps the runner's default as it is.
  fileprivate static func limit(
    _ name: String, _ asked: Int64?, maximum: UInt64, default runnerDefault: UInt64, field: String = "limits."
  ) throws(APIError) -> UInt64? {
    guard let asked else { return runnerDefault > maximum ? maximum : nil }
    guard asked > 0 else { throw .badRequest("\(field)\(name) must be greater than 0 (it was \(asked))") }
    guard UInt64(asked) <= maximum else {
      throw .badRequest("\(field)\(name) is \(asked); the maximum is \(maximum)")
    }
    return UInt64(asked)
  }
}

extension LimitMaxima {
  /// A challenge's test limits within the maxima, laid over `runnerLimits` as for an execute.
  ///
  /// An inline challenge is the caller's, so a limit above its maximum is refused naming the field
  /// (`challenge.limits.memory_mb is 2048; the maximum is 1024`); a catalog challenge's is the
  /// operator's choice, lowered to the maximum like a runner's default.
  public func challengeLimits(_ asked: StepLimits, runnerLimits: BoxLimits, inline: Bool) throws(APIError)
    -> StepLimits
  {
    func bounded(_ name: String, _ value: UInt64?, _ maximum: UInt64, _ runnerDefault: UInt64) throws(APIError)
      -> UInt64?
    {
      let value = inline ? value : value.map { min($0, maximum) }
      return try ExecuteBody.limit(
        name, value.map { Int64(clamping: $0) }, maximum: maximum, default: runnerDefault, field: "challenge.limits.")
    }
    var limits = asked
    limits.cpuMilliseconds = try bounded(
      "cpu_ms", asked.cpuMilliseconds, cpuMilliseconds, runnerLimits.cpuTimeMilliseconds)
    limits.wallMilliseconds = try bounded(
      "wall_ms", asked.wallMilliseconds, wallMilliseconds, runnerLimits.wallTimeMilliseconds)
    limits.memoryMegabytes = try bounded(
      "memory_mb", asked.memoryMegabytes, memoryMegabytes, runnerLimits.memoryBytes >> 20)
    limits.outputKilobytes = try bounded(
      "output_kb", asked.outputKilobytes, outputKilobytes, runnerLimits.outputBytesPerStream >> 10)
    limits.processes = try bounded("processes", asked.processes, processes, runnerLimits.processes)
    return limits
  }
}
