import Foundation
import Grading
import Runners
import Sandbox
import Synchronization
import SystemCore
import Wire

/// `expected/stamp.json`: what the steps in `expected/<test>.steps` were recorded from
/// (docs/challenges.md, "Expected steps from a reference solution"). The loader takes a recorded
/// file only when the reference, the test's input and the file itself are what the stamp says, so
/// neither the daemon nor the CLI ever runs a reference to load a challenge.
struct RecordedStepsStamp: Equatable {
  struct Entry: Equatable {
    var test: String
    var inputSHA256: String
    var stepsSHA256: String
  }

  static let path = "expected/stamp.json"
  static func stepsPath(test: String) -> String { "expected/\(test).steps" }

  var reference: String
  var referenceSHA256: String
  /// The runner that recorded them, "python 3.12.3": for people (a new patch release of a language
  /// changes no steps, so a mismatch here does not make the steps stale).
  var runner: String
  var tests: [Entry]

  static func sha256(_ data: Data) -> String { SHA256.hex(data) }

  /// Why the recorded steps of `test` cannot be used, or nil when they can.
  func staleness(test: String, input: Data, steps: String?, reference given: ChallengeReference) -> String? {
    guard reference == given.path, referenceSHA256 == Self.sha256(given.file.contents) else {
      return "the reference changed since they were recorded"
    }
    guard let entry = tests.first(where: { $0.test == test }) else { return "no steps were recorded for this test" }
    guard entry.inputSHA256 == Self.sha256(input) else { return "the test's input changed since" }
    guard let steps else { return "\(Self.stepsPath(test: test)) is missing" }
    guard entry.stepsSHA256 == Self.sha256(Data(steps.utf8)) else {
      return "\(Self.stepsPath(test: test)) is not what was recorded"
    }
    return nil
  }

  static func read(_ data: Data) -> Result<RecordedStepsStamp, FileFieldProblem> {
    let reader = StrictReader()
    guard let value = reader.parse(data),
      let top = reader.object(value, at: "", keys: ["reference", "reference_sha256", "runner", "tests"])
    else {
      return .failure(FileFieldProblem(message: reader.problems.first.map { "\($0)" } ?? "not a JSON object"))
    }
    let reference = top.string("reference", required: true)
    let digest = top.string("reference_sha256", required: true)
    let runner = top.string("runner", required: true)
    let entries = top.objects("tests", keys: ["test", "input_sha256", "steps_sha256"], required: true) ?? []
    var tests: [Entry] = []
    for entry in entries {
      if let test = entry.string("test", required: true), let input = entry.string("input_sha256", required: true),
        let steps = entry.string("steps_sha256", required: true)
      {
        tests.append(Entry(test: test, inputSHA256: input, stepsSHA256: steps))
      }
    }
    guard reader.problems.isEmpty, let reference, let digest, let runner else {
      return .failure(FileFieldProblem(message: reader.problems.first.map { "\($0)" } ?? "incomplete"))
    }
    return .success(RecordedStepsStamp(reference: reference, referenceSHA256: digest, runner: runner, tests: tests))
  }

  /// The stamp as a file: one key per line, the tests in the challenge's order, so a diff shows
  /// which test's steps changed.
  var text: String {
    func quoted(_ text: String) -> String { JSONValue.string(text).json }
    var out = "{\n  \"reference\": \(quoted(reference)),\n  \"reference_sha256\": \(quoted(referenceSHA256)),\n"
    out += "  \"runner\": \(quoted(runner)),\n  \"tests\": [\n"
    out += tests.map {
      "    {\"test\": \(quoted($0.test)), \"input_sha256\": \(quoted($0.inputSHA256)), "
        + "\"steps_sha256\": \(quoted($0.stepsSHA256))}"
    }.joined(separator: ",\n")
    return out + "\n  ]\n}\n"
  }
}

/// Runs a challenge's reference solution on the tests that take their expected steps from it, in
/// boxes like any program, and writes what it printed to `expected/` with the stamp
/// (`dsa-run challenges --check --record`). The reference must pass each of those tests by the
/// challenge's own rules but the steps (a function's value is compared; a stdin program must end
/// `ok`) and print at least one step on each.
public struct ReferenceRecorder {
  public let executor: Executor

  public init(executor: Executor) { self.executor = executor }

  /// What was recorded: each test's step lines, or a problem naming the test that failed.
  public struct Recording: Sendable {
    public var runner: String
    public var steps: [(test: String, input: Data, lines: String)]
    public var problems: [String]
  }

  /// Runs the reference of `challenge` (loaded with `recording: true`) on its recorded tests.
  public func record(_ challenge: Challenge) throws(ExecuteError) -> Recording {
    guard let reference = challenge.reference else { return Recording(runner: "", steps: [], problems: []) }
    let runner = try executor.runner(language: reference.language, version: nil)
    var recording = Recording(runner: "\(runner.language) \(runner.version)", steps: [], problems: [])
    let printed = Mutex<[Int: String]>([:])
    var failures: [Int: String] = [:]
    if let signature = challenge.function {
      let files = try FunctionDrivers.programFiles(signature, language: runner.language, learnerFiles: [reference.file])
      let program = try executor.prepare(runner, requestedAs: reference.language, files: files)
      guard program.isRunnable else {
        recording.problems.append("the reference does not compile: \(program.compile?.message ?? "")")
        return recording
      }
      // Its values are compared as a learner's; its printed steps are taken as they are.
      var valuesOnly = challenge
      valuesOnly.functionSteps = nil
      let judge: FunctionValueJudge?
      do throws(CheckerFailure) {
        judge = try FunctionValueJudge.make(challenge, executor: executor, limits: CheckerProgramRunner.defaultLimits)
      } catch {
        recording.problems.append("the challenge's checker cannot be prepared: \(error.message)")
        return recording
      }
      guard let judge else { return recording }
      let bound = GradeOptions.defaultTimeBoundMilliseconds
      var work = FunctionTestWork(
        executor: executor, challenge: valuesOnly, signature: signature, judge: judge, program: program,
        deadline: DispatchTime.now().uptimeNanoseconds + bound * 1_000_000, boundMilliseconds: bound)
      work.printedSteps = { index, text in printed.withLock { $0[index] = text } }
      let stop = Atomic<Bool>(false)
      work.grade(reference.recordedTests, stop: stop, stopAtFirstFailure: false) { index, grade in
        if grade.verdict != .accepted { failures[index] = "\(grade.verdict.rawValue): \(grade.message)" }
      }
    } else {
      let program = try executor.prepare(runner, requestedAs: reference.language, files: [reference.file])
      guard program.isRunnable else {
        recording.problems.append("the reference does not compile: \(program.compile?.message ?? "")")
        return recording
      }
      for index in reference.recordedTests {
        let outcome = try executor.run(program, stdin: challenge.tests[index].stdin, limits: challenge.limits)
        if outcome.status == .ok {
          printed.withLock { $0[index] = String(decoding: outcome.stdout, as: UTF8.self) }
        } else {
          failures[index] = "\(outcome.status.rawValue): \(outcome.message)"
        }
      }
    }
    for index in reference.recordedTests {
      let test = challenge.tests[index]
      if let failure = failures[index] {
        recording.problems.append("test \(test.name): the reference failed it: \(failure)")
        continue
      }
      let text = printed.withLock { $0[index] } ?? ""
      let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        .filter { $0.hasPrefix(StepParser.prefix) }
      guard !lines.isEmpty else {
        recording.problems.append("test \(test.name): the reference printed no step lines")
        continue
      }
      recording.steps.append((test.name, test.stdin, lines.joined(separator: "\n") + "\n"))
    }
    return recording
  }

  /// Writes a recording into the challenge directory at `path`: `expected/<test>.steps` and the stamp.
  public static func write(_ recording: Recording, reference: ChallengeReference, to path: String) throws {
    let folder = URL(fileURLWithPath: path).appendingPathComponent("expected")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var stamp = RecordedStepsStamp(
      reference: reference.path, referenceSHA256: RecordedStepsStamp.sha256(reference.file.contents),
      runner: recording.runner, tests: [])
    for (test, input, lines) in recording.steps {
      try Data(lines.utf8).write(to: folder.appendingPathComponent("\(test).steps"))
      stamp.tests.append(
        .init(
          test: test, inputSHA256: RecordedStepsStamp.sha256(input),
          stepsSHA256: RecordedStepsStamp.sha256(Data(lines.utf8))))
    }
    try Data(stamp.text.utf8).write(to: folder.appendingPathComponent("stamp.json"))
  }
}
