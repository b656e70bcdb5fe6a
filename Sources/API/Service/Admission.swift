import Challenges
import Foundation
import Runners
import Sandbox
import Wire

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

/// Limits as a doorway was asked for them, before admission: nil keeps the runner's default. The
/// wire's own shape, so that a `/v1` body's limits are asked limits as they stand.
public typealias AskedLimits = ExecuteBody.Limits

extension AskedLimits {
  /// Limits someone chose already (a challenge's, a checker's), as asked limits.
  public init(_ limits: StepLimits) {
    self.init(
      cpuMilliseconds: limits.cpuMilliseconds.map { Int64(clamping: $0) },
      wallMilliseconds: limits.wallMilliseconds.map { Int64(clamping: $0) },
      memoryMegabytes: limits.memoryMegabytes.map { Int64(clamping: $0) },
      outputKilobytes: limits.outputKilobytes.map { Int64(clamping: $0) },
      processes: limits.processes.map { Int64(clamping: $0) })
  }
}

/// Who chose a set of limits, which decides what admission does with one above its maximum.
public enum LimitChooser: Sendable, Equatable {
  /// The caller (a request's `limits`, an inline challenge): refused, naming the field and the
  /// maximum; a learner who asks for 60 s and gets 10 s would misread the time_limit that follows.
  case caller
  /// The operator (a catalog challenge, a runner's default, a checker's limits): lowered to the
  /// maximum, since it is the operator's choice, not the caller's.
  case operatorChoice
}

extension LimitMaxima {
  /// The one admission of limits, for every limit of every doorway: a run's, a challenge's tests',
  /// a growth section's, a checker's. `asked` is laid over `runnerDefaults`; a runner default above a
  /// maximum is lowered to it; an asked value above its maximum is refused or lowered as `chooser`
  /// says. `field` prefixes the names in messages (`limits.`, `challenge.limits.`).
  public func admit(
    _ asked: AskedLimits, runnerDefaults: BoxLimits, chooser: LimitChooser, field: String
  ) throws(APIError) -> StepLimits {
    func one(_ name: String, _ value: Int64?, _ maximum: UInt64, _ runnerDefault: UInt64) throws(APIError) -> UInt64? {
      guard var value else { return runnerDefault > maximum ? maximum : nil }
      guard value > 0 else { throw .badRequest("\(field)\(name) must be greater than 0 (it was \(value))") }
      if chooser == .operatorChoice { value = min(value, Int64(clamping: maximum)) }
      guard UInt64(value) <= maximum else {
        throw .badRequest("\(field)\(name) is \(value); the maximum is \(maximum)")
      }
      return UInt64(value)
    }
    var limits = StepLimits()
    limits.cpuMilliseconds = try one(
      "cpu_ms", asked.cpuMilliseconds, cpuMilliseconds, runnerDefaults.cpuTimeMilliseconds)
    limits.wallMilliseconds = try one(
      "wall_ms", asked.wallMilliseconds, wallMilliseconds, runnerDefaults.wallTimeMilliseconds)
    limits.memoryMegabytes = try one(
      "memory_mb", asked.memoryMegabytes, memoryMegabytes, runnerDefaults.memoryBytes >> 20)
    limits.outputKilobytes = try one(
      "output_kb", asked.outputKilobytes, outputKilobytes, runnerDefaults.outputBytesPerStream >> 10)
    limits.processes = try one("processes", asked.processes, processes, runnerDefaults.processes)
    return limits
  }
}

/// A run as a doorway asks for it, converted from its wire at the edge: the one internal request
/// every front end hands the run service (`/v1`, Judge0, Piston and the live routes alike).
public struct RunAsk: Sendable {
  public var language: String
  public var version: String?
  /// The first file is the entry point; an empty name is "as the language wants".
  public var files: [SourceFile]
  public var stdin = Data()
  public var arguments: [String] = []
  public var limits = AskedLimits()
  /// Prefixes limit names in messages (`limits.` for /v1).
  public var limitsField = "limits."
  /// A live run's wall ceiling (`live_wall_s`), in place of the execute maximum: a live program
  /// mostly waits for its learner, so its wall limit is this unless it asks for less, and its CPU
  /// limit and the idle rule bound it. nil for any other run.
  public var liveWallMilliseconds: UInt64?
  /// Options added to a C or C++ compile (`CompilerOptions`: an allow-list, refused by name).
  public var compilerOptions: [String] = []
  /// One pipe for stdout and stderr, in the order written (Judge0's `redirect_stderr_to_stdout`).
  public var mergesStderrIntoStdout = false

  public init(language: String, version: String? = nil, files: [SourceFile]) {
    self.language = language
    self.version = version
    self.files = files
  }
}

/// A grade as a doorway asks for it: the program, the challenge (already resolved: from the
/// catalog, or read inline) and how to grade.
public struct GradeAsk: Sendable {
  public var language: String
  public var version: String?
  public var files: [SourceFile]
  public var challenge: Challenge
  /// An inline challenge is the caller's: its limits above a maximum are refused, not lowered.
  public var inline: Bool
  public var stopAtFirstFailure = false

  public init(language: String, version: String?, files: [SourceFile], challenge: Challenge, inline: Bool) {
    self.language = language
    self.version = version
    self.files = files
    self.challenge = challenge
    self.inline = inline
  }
}

/// A grade admitted: its runner resolved and every limit of its challenge within the maxima.
public struct GradeRequest: Sendable {
  public var ask: GradeAsk
  public var runner: Runner
  /// The challenge with its tests', growth section's limits admitted.
  public var challenge: Challenge
  /// A custom checker's run limits, admitted.
  public var checkerLimits: StepLimits
  /// How many runs the grade makes at most (`Challenge.plannedRuns`): what the quota is charged.
  public var plannedRuns: Int { challenge.plannedRuns }
}
