import Foundation

// The result types of `/v1/execute` and `/v1/grade` (DESIGN §5), shared by the daemon and the CLI's
// `--json` and `--remote`. Each is written with `json` (then `JSONValue.compactJSONBytes`: compact,
// keys sorted by their UTF-8 bytes) and read with `init?(reading:)` through the strict reader; every
// key is always written (null where there is nothing), so reading requires every key.

extension StrictObject {
  /// A key that must be there and may be null: nil for null, a problem when left out.
  func nullable(_ key: String) -> JSONValue? {
    guard let value = fields[key] else {
      reader.report(path(key), "is required", kind: .missing)
      return nil
    }
    if case .null = value { return nil }
    return value
  }

  /// A required whole number of at least 0.
  func count(_ key: String) -> UInt64? { integer(key, as: UInt64.self, required: true) }
}

/// One step's outcome (compile or run) as the wire carries it.
public struct WireOutcome: Sendable, Equatable {
  public var status: String
  public var message: String
  public var exitCode: Int32?
  /// The signal's name ("SIGKILL").
  public var signal: String?
  public var stdout: String
  public var stderr: String
  public var stdoutTruncated: Bool
  public var stderrTruncated: Bool
  public var cpuMilliseconds: UInt64
  public var wallMilliseconds: UInt64
  public var memoryKilobytes: UInt64
  /// How the figures were measured ("cgroup-v2", "cgroup-v1", "rlimit").
  public var accounting: String
  /// "cpu" or "wall", for `time_limit` only.
  public var timeLimitKind: String?

  /// An outcome from its parts.
  public init(
    status: String, message: String, exitCode: Int32?, signal: String?, stdout: String, stderr: String,
    stdoutTruncated: Bool, stderrTruncated: Bool, cpuMilliseconds: UInt64, wallMilliseconds: UInt64,
    memoryKilobytes: UInt64, accounting: String, timeLimitKind: String? = nil
  ) {
    self.status = status
    self.message = message
    self.exitCode = exitCode
    self.signal = signal
    self.stdout = stdout
    self.stderr = stderr
    self.stdoutTruncated = stdoutTruncated
    self.stderrTruncated = stderrTruncated
    self.cpuMilliseconds = cpuMilliseconds
    self.wallMilliseconds = wallMilliseconds
    self.memoryKilobytes = memoryKilobytes
    self.accounting = accounting
    self.timeLimitKind = timeLimitKind
  }

  /// The keys every outcome object has (`time_limit_kind` is added for `time_limit`).
  public static let keys = [
    "status", "message", "exit_code", "signal", "stdout", "stderr", "stdout_truncated", "stderr_truncated",
    "cpu_ms", "wall_ms", "memory_kb", "accounting",
  ]

  /// Reads an outcome object; nil when a problem was recorded.
  public init?(reading object: StrictObject) {
    let before = object.reader.problems.count
    let status = object.string("status", required: true)
    let message = object.string("message", required: true)
    let exitCode = object.nullable("exit_code").flatMap {
      StrictObject.integer($0, at: object.path("exit_code"), as: Int32.self, reader: object.reader)
    }
    let signal = object.nullable("signal").flatMap { value -> String? in
      if case .string(let name) = value { return name }
      object.reader.report(object.path("signal"), "expected a string or null, got \(value.kind)", kind: .wrongType)
      return nil
    }
    let stdout = object.string("stdout", required: true)
    let stderr = object.string("stderr", required: true)
    let stdoutTruncated = object.bool("stdout_truncated", required: true)
    let stderrTruncated = object.bool("stderr_truncated", required: true)
    let cpu = object.count("cpu_ms")
    let wall = object.count("wall_ms")
    let memory = object.count("memory_kb")
    let accounting = object.string("accounting", required: true)
    let kind = object.string("time_limit_kind")
    guard object.reader.problems.count == before, let status, let message, let stdout, let stderr,
      let stdoutTruncated, let stderrTruncated, let cpu, let wall, let memory, let accounting
    else { return nil }
    self.init(
      status: status, message: message, exitCode: exitCode, signal: signal, stdout: stdout, stderr: stderr,
      stdoutTruncated: stdoutTruncated, stderrTruncated: stderrTruncated, cpuMilliseconds: cpu,
      wallMilliseconds: wall, memoryKilobytes: memory, accounting: accounting, timeLimitKind: kind)
  }

  /// The outcome object.
  public var json: JSONValue {
    var object: [String: JSONValue] = [
      "status": .string(status),
      "message": .string(message),
      "exit_code": exitCode.map { .number(Double($0)) } ?? .null,
      "signal": signal.map(JSONValue.string) ?? .null,
      "stdout": .string(stdout),
      "stderr": .string(stderr),
      "stdout_truncated": .bool(stdoutTruncated),
      "stderr_truncated": .bool(stderrTruncated),
      "cpu_ms": .number(Double(cpuMilliseconds)),
      "wall_ms": .number(Double(wallMilliseconds)),
      "memory_kb": .number(Double(memoryKilobytes)),
      "accounting": .string(accounting),
    ]
    if let timeLimitKind { object["time_limit_kind"] = .string(timeLimitKind) }
    return .object(object)
  }

  static func read(_ object: StrictObject, _ key: String) -> WireOutcome? {
    object.nullable(key).flatMap { value in
      object.reader.object(value, at: object.path(key), keys: keys + ["time_limit_kind"]).flatMap(
        WireOutcome.init(reading:))
    }
  }
}

/// The execute result: `POST /v1/execute` and `dsa-run --json`.
public struct WireExecuteResult: Sendable, Equatable {
  public var language: String
  public var version: String
  public var compile: WireOutcome?
  /// "hit", "miss" or "none".
  public var compileCache: String
  public var run: WireOutcome?
  /// The run's well-formed step lines, each an object.
  public var steps: [JSONValue]
  /// Why reading the steps stopped early; "" when all were read.
  public var stepsMessage: String

  /// A result from its parts.
  public init(
    language: String, version: String, compile: WireOutcome?, compileCache: String, run: WireOutcome?,
    steps: [JSONValue], stepsMessage: String
  ) {
    self.language = language
    self.version = version
    self.compile = compile
    self.compileCache = compileCache
    self.run = run
    self.steps = steps
    self.stepsMessage = stepsMessage
  }

  /// The keys of an execute result object.
  public static let keys = ["language", "version", "compile", "compile_cache", "run", "steps", "steps_message"]

  /// Reads a result object; nil when a problem was recorded.
  public init?(reading object: StrictObject) {
    let before = object.reader.problems.count
    let language = object.string("language", required: true)
    let version = object.string("version", required: true)
    let compile = WireOutcome.read(object, "compile")
    let cache = object.string("compile_cache", required: true)
    let run = WireOutcome.read(object, "run")
    let steps = object.array("steps", required: true)
    let stepsMessage = object.string("steps_message", required: true)
    guard object.reader.problems.count == before, let language, let version, let cache, let steps, let stepsMessage
    else { return nil }
    self.init(
      language: language, version: version, compile: compile, compileCache: cache, run: run, steps: steps,
      stepsMessage: stepsMessage)
  }

  /// Reads a result: every problem of it, or the result. Nulls are values here (`"compile": null`).
  public static func read(_ data: Data) -> Result<WireExecuteResult, JSONProblems> {
    StrictReader.read(data, keys: keys, nulls: .absent, WireExecuteResult.init(reading:))
  }

  /// The result object.
  public var json: JSONValue {
    [
      "language": .string(language),
      "version": .string(version),
      "compile": compile?.json ?? .null,
      "compile_cache": .string(compileCache),
      "run": run?.json ?? .null,
      "steps": .array(steps),
      "steps_message": .string(stepsMessage),
    ]
  }
}

/// The first step where a program's steps left the expected ones.
///
/// Two forms (docs/challenges.md, "Hidden tests"): a visible test's `{"step", "expected", "actual",
/// "caption"}`, and a hidden test's `{"kind", "caption"}`, where the caption is the step's data-free
/// one and nothing says where the step was or what it held.
public struct WireStepDifference: Sendable, Equatable {
  /// From 1; nil in a hidden test's form.
  public var step: Int?
  /// Null when the program printed too many steps (and in a hidden test's form).
  public var expected: JSONValue?
  /// Null when it printed too few (and in a hidden test's form).
  public var actual: JSONValue?
  public var caption: String
  /// The expected step's kind in words ("a comparison"): a hidden test's form only.
  public var kind: String?

  /// A visible test's difference from its parts.
  public init(step: Int, expected: JSONValue?, actual: JSONValue?, caption: String) {
    self.step = step
    self.expected = expected
    self.actual = actual
    self.caption = caption
  }

  /// A hidden test's difference: the step's kind and its data-free caption.
  public init(kind: String, caption: String) {
    self.kind = kind
    self.caption = caption
  }

  /// Its keys, both forms.
  public static let keys = ["step", "expected", "actual", "caption", "kind"]

  /// Reads a difference object, in either form; nil when a problem was recorded.
  public init?(reading object: StrictObject) {
    let before = object.reader.problems.count
    let caption = object.string("caption", required: true)
    if object.has("kind") || !object.has("step") {
      let kind = object.string("kind", required: true)
      for key in ["step", "expected", "actual"] where object.has(key) {
        object.reader.report(object.path(key), "is not part of a hidden test's difference", kind: .unknownKey)
      }
      guard object.reader.problems.count == before, let kind, let caption else { return nil }
      self.init(kind: kind, caption: caption)
      return
    }
    let step = object.integer("step", as: Int.self, required: true)
    let expected = object.nullable("expected")
    let actual = object.nullable("actual")
    guard object.reader.problems.count == before, let step, let caption else { return nil }
    self.init(step: step, expected: expected, actual: actual, caption: caption)
  }

  /// The difference object.
  public var json: JSONValue {
    guard let step else { return ["kind": .string(kind ?? ""), "caption": .string(caption)] }
    return [
      "step": .number(Double(step)), "expected": expected ?? .null, "actual": actual ?? .null,
      "caption": .string(caption),
    ]
  }
}

/// A hidden test's time and memory, in coarse buckets (docs/challenges.md, "Hidden tests").
public struct WireCoarseFigures: Sendable, Equatable {
  /// "under 0.1 s", "under 1 s", "under 10 s", "10 s or more".
  public var time: String
  /// "under 16 MiB", "under 64 MiB", "under 256 MiB", "under 1 GiB", "1 GiB or more".
  public var memory: String

  public init(time: String, memory: String) {
    self.time = time
    self.memory = memory
  }
}

/// A visible failed test's data: `details` in its test object (docs/api.md, "Grade result").
public struct WireTestDetails: Sendable, Equatable {
  public var input: String
  public var inputTruncated: Bool
  /// Null when many outputs pass or the test has none.
  public var expectedOutput: String?
  public var expectedOutputTruncated: Bool
  /// The program's stdout without step lines.
  public var output: String
  public var outputTruncated: Bool
  /// The program's last step that matched, on the compared fields; null when none.
  public var lastMatchingStep: JSONValue?

  public init(
    input: String, inputTruncated: Bool, expectedOutput: String?, expectedOutputTruncated: Bool, output: String,
    outputTruncated: Bool, lastMatchingStep: JSONValue?
  ) {
    self.input = input
    self.inputTruncated = inputTruncated
    self.expectedOutput = expectedOutput
    self.expectedOutputTruncated = expectedOutputTruncated
    self.output = output
    self.outputTruncated = outputTruncated
    self.lastMatchingStep = lastMatchingStep
  }

  public static let keys = [
    "input", "input_truncated", "expected_output", "expected_output_truncated", "output", "output_truncated",
    "last_matching_step",
  ]

  /// Reads a details object; nil when a problem was recorded.
  public init?(reading object: StrictObject) {
    let before = object.reader.problems.count
    let input = object.string("input", required: true)
    let inputTruncated = object.bool("input_truncated", required: true)
    var expectedOutput: String?
    switch object.nullable("expected_output") {
    case nil: break
    case .string(let text)?: expectedOutput = text
    case let other?:
      object.reader.report(
        object.path("expected_output"), "expected a string or null, got \(other.kind)", kind: .wrongType)
    }
    let expectedOutputTruncated = object.bool("expected_output_truncated", required: true)
    let output = object.string("output", required: true)
    let outputTruncated = object.bool("output_truncated", required: true)
    let step = object.nullable("last_matching_step")
    guard object.reader.problems.count == before, let input, let inputTruncated, let expectedOutputTruncated,
      let output,
      let outputTruncated
    else { return nil }
    self.init(
      input: input, inputTruncated: inputTruncated, expectedOutput: expectedOutput,
      expectedOutputTruncated: expectedOutputTruncated, output: output,
      outputTruncated: outputTruncated, lastMatchingStep: step)
  }

  public var json: JSONValue {
    [
      "input": .string(input), "input_truncated": .bool(inputTruncated),
      "expected_output": expectedOutput.map(JSONValue.string) ?? .null,
      "expected_output_truncated": .bool(expectedOutputTruncated), "output": .string(output),
      "output_truncated": .bool(outputTruncated), "last_matching_step": lastMatchingStep ?? .null,
    ]
  }
}

/// One test's grade.
public struct WireTestGrade: Sendable, Equatable {
  public var name: String
  /// "accepted", "wrong_answer" or an outcome's status word.
  public var verdict: String
  public var score: Double
  public var points: Double
  /// A visible test's figures (0 in a hidden test's form, which carries `coarse` instead).
  public var cpuMilliseconds: UInt64
  public var wallMilliseconds: UInt64
  public var memoryKilobytes: UInt64
  /// A hidden test's buckets in place of `cpu_ms`, `wall_ms` and `memory_kb`: written as `time` and
  /// `memory`.
  public var coarse: WireCoarseFigures?
  public var message: String
  public var stderr: String
  public var firstDifference: WireStepDifference?
  public var hidden: Bool
  /// A visible test that did not pass: its input, outputs and last matching step. Never in a
  /// hidden test's form.
  public var details: WireTestDetails?
  /// A visible interactive test's dialogue; never in a hidden test's form, absent for other tests.
  public var transcript: WireTranscript?

  /// A test's grade from its parts.
  public init(
    name: String, verdict: String, score: Double, points: Double, cpuMilliseconds: UInt64,
    wallMilliseconds: UInt64, memoryKilobytes: UInt64, message: String, stderr: String,
    firstDifference: WireStepDifference?, hidden: Bool, coarse: WireCoarseFigures? = nil,
    details: WireTestDetails? = nil, transcript: WireTranscript? = nil
  ) {
    self.details = details
    self.transcript = transcript
    self.name = name
    self.verdict = verdict
    self.score = score
    self.points = points
    self.cpuMilliseconds = cpuMilliseconds
    self.wallMilliseconds = wallMilliseconds
    self.memoryKilobytes = memoryKilobytes
    self.message = message
    self.stderr = stderr
    self.firstDifference = firstDifference
    self.hidden = hidden
    self.coarse = coarse
  }

  /// The keys of each test object, both forms (a visible test has `cpu_ms`, `wall_ms` and
  /// `memory_kb`; a hidden one `time` and `memory`).
  public static let keys = [
    "name", "verdict", "score", "points", "cpu_ms", "wall_ms", "memory_kb", "time", "memory", "message", "stderr",
    "first_difference", "hidden", "details", "transcript",
  ]
  /// The keys of a visible test's object.
  public static let visibleKeys = keys.filter { $0 != "time" && $0 != "memory" }
  /// The keys of a hidden test's object.
  public static let hiddenKeys = keys.filter {
    !["cpu_ms", "wall_ms", "memory_kb", "details", "transcript"].contains($0)
  }

  /// Reads a test object; nil when a problem was recorded.
  public init?(reading object: StrictObject) {
    let before = object.reader.problems.count
    let name = object.string("name", required: true)
    let verdict = object.string("verdict", required: true)
    let score = object.number("score", required: true)
    let points = object.number("points", required: true)
    var coarse: WireCoarseFigures?
    var figures: (UInt64, UInt64, UInt64)?
    if object.has("time") || object.has("memory") {
      let time = object.string("time", required: true)
      let memory = object.string("memory", required: true)
      for key in ["cpu_ms", "wall_ms", "memory_kb"] where object.has(key) {
        object.reader.report(object.path(key), "goes with time and memory only in a visible test", kind: .unknownKey)
      }
      if let time, let memory { coarse = WireCoarseFigures(time: time, memory: memory) }
    } else {
      let cpu = object.count("cpu_ms")
      let wall = object.count("wall_ms")
      let memory = object.count("memory_kb")
      if let cpu, let wall, let memory { figures = (cpu, wall, memory) }
    }
    let message = object.string("message", required: true)
    let stderr = object.string("stderr", required: true)
    let difference = object.nullable("first_difference").flatMap {
      object.reader.object($0, at: object.path("first_difference"), keys: WireStepDifference.keys)
    }.flatMap(WireStepDifference.init(reading:))
    let hidden = object.bool("hidden", required: true)
    // Optional: grades stored before it existed have none.
    let details =
      object.has("details")
      ? object.object("details", keys: WireTestDetails.keys).flatMap(WireTestDetails.init(reading:)) : nil
    if hidden == true, details != nil {
      object.reader.report(object.path("details"), "is not part of a hidden test", kind: .unknownKey)
    }
    let transcript =
      object.has("transcript")
      ? object.object("transcript", keys: WireTranscript.keys).flatMap(WireTranscript.init(reading:)) : nil
    if hidden == true, transcript != nil {
      object.reader.report(object.path("transcript"), "is not part of a hidden test", kind: .unknownKey)
    }
    guard object.reader.problems.count == before, let name, let verdict, let score, let points,
      figures != nil || coarse != nil, let message, let stderr, let hidden
    else { return nil }
    self.init(
      name: name, verdict: verdict, score: score, points: points, cpuMilliseconds: figures?.0 ?? 0,
      wallMilliseconds: figures?.1 ?? 0, memoryKilobytes: figures?.2 ?? 0, message: message, stderr: stderr,
      firstDifference: difference, hidden: hidden, coarse: coarse, details: details)
    self.transcript = transcript
  }

  /// The test object.
  public var json: JSONValue {
    var object: [String: JSONValue] = [
      "name": .string(name),
      "verdict": .string(verdict),
      "score": WireGradeResult.number(score),
      "points": WireGradeResult.number(points),
      "message": .string(message),
      "stderr": .string(stderr),
      "first_difference": firstDifference?.json ?? .null,
      "hidden": .bool(hidden),
    ]
    if let coarse {
      object["time"] = .string(coarse.time)
      object["memory"] = .string(coarse.memory)
    } else {
      object["cpu_ms"] = .number(Double(cpuMilliseconds))
      object["wall_ms"] = .number(Double(wallMilliseconds))
      object["memory_kb"] = .number(Double(memoryKilobytes))
    }
    if !hidden { object["details"] = details?.json ?? .null }
    if !hidden, let transcript { object["transcript"] = transcript.json }
    return .object(object)
  }
}

/// What each side of an interactive test wrote, in order: `{"turns": [{"from": "program", "text":
/// "5\n"}, {"from": "interactor", "text": "<\n"}], "truncated": false}`.
public struct WireTranscript: Sendable, Equatable {
  public struct Turn: Sendable, Equatable {
    /// "program" or "interactor".
    public var from: String
    public var text: String
    public init(from: String, text: String) {
      self.from = from
      self.text = text
    }
  }

  public var turns: [Turn]
  public var truncated: Bool

  public init(turns: [Turn], truncated: Bool) {
    self.turns = turns
    self.truncated = truncated
  }

  public static let keys = ["turns", "truncated"]

  /// Reads a transcript object; nil when a problem was recorded.
  public init?(reading object: StrictObject) {
    let before = object.reader.problems.count
    let turns = object.objects("turns", keys: ["from", "text"], required: true)?.compactMap { turn -> Turn? in
      guard let from = turn.string("from", required: true), let text = turn.string("text", required: true) else {
        return nil
      }
      return Turn(from: from, text: text)
    }
    let truncated = object.bool("truncated", required: true)
    guard object.reader.problems.count == before, let turns, let truncated else { return nil }
    self.init(turns: turns, truncated: truncated)
  }

  public var json: JSONValue {
    [
      "turns": .array(turns.map { .object(["from": .string($0.from), "text": .string($0.text)]) }),
      "truncated": .bool(truncated),
    ]
  }
}

/// The grade result: `POST /v1/grade` and `dsa-run --challenge --json`.
public struct WireGradeResult: Sendable, Equatable {
  public var challenge: String
  public var language: String
  public var version: String
  public var verdict: String
  public var score: Double
  public var message: String
  /// The compile outcome, exactly as in the execute result.
  public var compile: WireOutcome?
  public var compileCache: String
  public var wallMilliseconds: UInt64
  public var tests: [WireTestGrade]
  /// The `growth` object (docs/challenges.md, "Growth"), null when the challenge has no growth
  /// section. Carried as a value: `Challenges.GrowthEncoder` writes and reads its shape.
  public var growth: JSONValue = .null

  /// A grade from its parts.
  public init(
    challenge: String, language: String, version: String, verdict: String, score: Double, message: String,
    compile: WireOutcome?, compileCache: String, wallMilliseconds: UInt64, tests: [WireTestGrade]
  ) {
    self.challenge = challenge
    self.language = language
    self.version = version
    self.verdict = verdict
    self.score = score
    self.message = message
    self.compile = compile
    self.compileCache = compileCache
    self.wallMilliseconds = wallMilliseconds
    self.tests = tests
  }

  /// The keys of a grade result object.
  public static let keys = [
    "challenge", "language", "version", "verdict", "score", "message", "compile", "compile_cache", "wall_ms", "tests",
    "growth",
  ]

  /// Reads a grade object; nil when a problem was recorded.
  public init?(reading object: StrictObject) {
    let before = object.reader.problems.count
    let challenge = object.string("challenge", required: true)
    let language = object.string("language", required: true)
    let version = object.string("version", required: true)
    let verdict = object.string("verdict", required: true)
    let score = object.number("score", required: true)
    let message = object.string("message", required: true)
    let compile = WireOutcome.read(object, "compile")
    let cache = object.string("compile_cache", required: true)
    let wall = object.count("wall_ms")
    let tests = object.objects("tests", keys: WireTestGrade.keys, required: true)?.compactMap(
      WireTestGrade.init(reading:))
    guard object.reader.problems.count == before, let challenge, let language, let version, let verdict, let score,
      let message, let cache, let wall, let tests
    else { return nil }
    self.init(
      challenge: challenge, language: language, version: version, verdict: verdict, score: score, message: message,
      compile: compile, compileCache: cache, wallMilliseconds: wall, tests: tests)
    growth = object.value("growth") ?? .null
  }

  /// Reads a grade: every problem of it, or the grade.
  public static func read(_ data: Data) -> Result<WireGradeResult, JSONProblems> {
    StrictReader.read(data, keys: keys, nulls: .absent, WireGradeResult.init(reading:))
  }

  /// The grade object.
  public var json: JSONValue {
    [
      "challenge": .string(challenge),
      "language": .string(language),
      "version": .string(version),
      "verdict": .string(verdict),
      "score": Self.number(score),
      "message": .string(message),
      "compile": compile?.json ?? .null,
      "compile_cache": .string(compileCache),
      "wall_ms": .number(Double(wallMilliseconds)),
      "tests": .array(tests.map(\.json)),
      "growth": growth,
    ]
  }

  /// A score or points: null when not finite (never, for a grade the grader made).
  static func number(_ value: Double) -> JSONValue { value.isFinite ? .number(value) : .null }
}

extension WireExecuteResult: Codable {
  /// Decodes strictly, through the same reader as `read`.
  public init(from decoder: any Decoder) throws {
    self = try WireCoding.decode(JSONValue(from: decoder), keys: Self.keys, nulls: .absent, Self.init(reading:))
  }

  /// Encodes `json`.
  public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}

extension WireGradeResult: Codable {
  /// Decodes strictly, through the same reader as `read`.
  public init(from decoder: any Decoder) throws {
    self = try WireCoding.decode(JSONValue(from: decoder), keys: Self.keys, nulls: .absent, Self.init(reading:))
  }

  /// Encodes `json`.
  public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}
