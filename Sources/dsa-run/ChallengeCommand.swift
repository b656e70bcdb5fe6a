import Challenges
import Foundation
import Glibc
import Grading
import Runners
import Sandbox
import Synchronization
import Wire

// dsa-run --lang LANG FILE --challenge ID|DIR: grade a program on a challenge.
// dsa-run challenges [--json] | --check [DIR...]: list or validate challenges.

/// The exit code of a grade that is not accepted (and neither a compile error nor an internal error).
let notAcceptedExitCode: Int32 = 120

/// The challenge an ID or a directory names: a path (with a "/", or an existing directory holding
/// challenge.json) is loaded as it is; anything else is an id under the challenges/ folder.
func resolveChallenge(_ reference: String) throws -> Challenge {
  var isDirectory: ObjCBool = false
  let looksLikePath =
    reference.contains("/")
    || (FileManager.default.fileExists(atPath: reference + "/challenge.json", isDirectory: &isDirectory)
      && !isDirectory.boolValue)
  let result: Result<Challenge, ChallengeLoadError>
  if looksLikePath {
    result = ChallengeLoader.load(directory: reference)
  } else {
    guard let root = ChallengeCatalog.locateRoot() else {
      throw UsageError(
        message: "cannot find the challenges/ folder (set DSA_RUN_DATA to the folder that holds it, or give a path)")
    }
    guard FileManager.default.fileExists(atPath: root + "/" + reference) else {
      throw UsageError(message: "no challenge \"\(reference)\" in \(root) (see dsa-run challenges)")
    }
    result = ChallengeLoader.load(id: reference, root: root)
  }
  switch result {
  case .success(let challenge): return challenge
  case .failure(let error):
    throw UsageError(message: "the challenge cannot be graded, it is broken:\n" + error.description)
  }
}

/// Grades as the options ask and prints the grade; returns the exit code.
func runChallenge(_ options: RunOptions) -> Int32 {
  let challenge: Challenge
  let files: [SourceFile]
  let executor: Executor
  let runner: Runner
  do {
    if options.stdinPath != nil {
      throw UsageError(message: "--stdin cannot be used with --challenge (tests give stdin)")
    }
    if options.limits != StepLimits() {
      throw UsageError(message: "limit flags cannot be used with --challenge (the challenge sets the limits)")
    }
    if !options.arguments.isEmpty { throw UsageError(message: "program arguments cannot be used with --challenge") }
    if let remote = options.remote { return runRemoteChallenge(options, url: remote) }
    var configuration = options.configuration
    // A challenge given by its path holds expected answers too: hidden like the installed ones.
    if let reference = options.challenge, FileManager.default.fileExists(atPath: reference) {
      configuration.hiddenPaths.append(reference)
    }
    executor = try makeExecutor(
      configuration: configuration, cacheDirectory: options.cacheDirectory, probesVersions: options.json,
      warmBoxes: true)
    runner = try executor.runner(language: options.language, version: options.version)
    challenge = try resolveChallenge(options.challenge ?? "")
    files = try readSources(options.files)
  } catch let error as UsageError {
    return complain(error.message, code: 2)
  } catch {
    return complain("\(error)", code: 2)
  }
  let grader = Grader(executor: executor)
  let result: GradeResult
  do {
    result = try grader.grade(
      challenge, language: options.language, files: files,
      options: GradeOptions(
        version: options.version, stopAtFirstFailure: options.stopAtFirstFailure, runner: runner))
  } catch {
    executor.environments.drain()
    if case .sandbox = error { return complain("internal_error: \(error)", code: 3) }
    return complain("\(error)", code: 2)
  }
  executor.environments.drain()
  if wasInterrupted { return 3 }
  if options.json {
    FileHandle.standardOutput.write(ResultEncoder.data(GradeEncoder.gradeObject(result)) + Data("\n".utf8))
  } else {
    printGrade(
      result, id: challenge.id, totalPoints: challenge.totalPoints + (challenge.growth?.points ?? 0),
      challenge: challenge)
  }
  return gradeExitCode(result.verdict)
}

/// The documented exit code of a grade.
func gradeExitCode(_ verdict: GradeVerdict) -> Int32 {
  switch verdict {
  case .accepted: return 0
  case .compileError: return 121
  case .internalError: return 3
  default: return notAcceptedExitCode
  }
}

/// `--challenge ID --remote URL`: the daemon grades (POST /v1/grade) and this prints its answer as a
/// local grade prints. Only ids: the daemon grades the challenges it has.
func runRemoteChallenge(_ options: RunOptions, url: String) -> Int32 {
  let reference = options.challenge ?? ""
  guard ChallengeLoader.isValidID(reference) else {
    return complain(
      "--remote grades a challenge the server has: give its id (see GET /v1/challenges), not a path", code: 2)
  }
  let endpoint: RemoteEndpoint
  let body: Data
  do {
    endpoint = try RemoteEndpoint(url)
    try checkToken(options.token)
    let request = GradeBody(
      language: options.language, version: options.version, files: try remoteFiles(options),
      challenge: .string(reference), stopAtFirstFailure: options.stopAtFirstFailure ? true : nil)
    body = Data(request.json.compactJSONBytes)
  } catch let error as UsageError {
    return complain(error.message, code: 2)
  } catch {
    return complain("\(error)", code: 2)
  }
  let raw: Data
  switch postToDaemon(endpoint, path: "/v1/grade", body: body, token: options.token) {
  case .failure(let failure): return complain(failure.message, code: failure.code)
  case .success(let answer): raw = answer
  }
  let wire: WireGradeResult
  switch WireGradeResult.read(raw) {
  case .success(let read): wire = read
  case .failure(let problems):
    return complain("\(endpoint.display) sent a grade that is not a grade object: \(problems)", code: 3)
  }
  guard let result = GradeResult(wire: wire) else {
    return complain("\(endpoint.display) sent a grade with a verdict this dsa-run does not know", code: 3)
  }
  if options.json {
    printJSONBody(raw)
  } else {
    if result.verdict == .compileError, let compile = wire.compile.map(PrintedStep.init(wire:)) {
      ProgramOutput.write(compile.stdout, to: 2, endOfStream: true)
      ProgramOutput.write(compile.stderr, to: 2, endOfStream: true)
    }
    // The server's tests are its own: no input or expected output is shown.
    printGrade(
      result, id: result.challenge,
      totalPoints: result.tests.reduce(0) { $0 + $1.points } + (result.growth?.weight ?? 0), challenge: nil)
  }
  return gradeExitCode(result.verdict)
}

/// One line per test, the first failure explained, and a total line.
/// `challenge` (local grades) lets a visible test's failure show its input and expected output.
func printGrade(_ result: GradeResult, id: String, totalPoints: Double, challenge: Challenge?) {
  if result.verdict == .compileError {
    if let compile = result.compile {
      ProgramOutput.write(compile.stdout, to: 2, endOfStream: true)
      ProgramOutput.write(compile.stderr, to: 2, endOfStream: true)
    }
    ProgramOutput.writeOwnLine("compile_error: \(result.message)")
    print("\(id): compile_error, 0 of \(points(totalPoints)) points")
    return
  }
  let nameWidth = max(4, result.tests.map(\.name.count).max() ?? 0)
  func column(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
  // A hidden test's figures are buckets ("under 0.1 s"), as in the grade object.
  let figures = result.tests.map { test -> (time: String, memory: String) in
    guard test.verdict != .skipped else { return ("-", "-") }
    if let coarse = test.coarse { return (coarse.time, coarse.memory) }
    return ("\(test.cpuMilliseconds) ms", String(format: "%.1f MiB", Double(test.memoryKilobytes) / 1024))
  }
  let timeWidth = max(10, (figures.map(\.time.count).max() ?? 0) + 2)
  let memoryWidth = max(11, (figures.map(\.memory.count).max() ?? 0) + 2)
  print(
    column("test", nameWidth) + "  " + column("verdict", 16) + column("time", timeWidth)
      + column("memory", memoryWidth) + "score")
  for (test, shown) in zip(result.tests, figures) {
    print(
      column(test.name, nameWidth) + "  " + column(test.verdict.rawValue, 16) + column(shown.time, timeWidth)
        + column(shown.memory, memoryWidth) + "\(points(test.points * test.score))/\(points(test.points))")
  }
  if let failed = result.tests.first(where: { $0.verdict != .accepted && $0.verdict != .skipped }) {
    print("")
    // The explanation quotes the program's output and stderr.
    print(ProgramOutput.text(explain(failed), for: 1))
    if let challenge, let test = challenge.tests.first(where: { $0.name == failed.name }), isVisible(test) {
      print(ProgramOutput.text(visibleDetails(of: failed, test: test, challenge: challenge), for: 1))
    }
  } else if result.verdict == .timeLimit, result.growth?.verdict ?? .accepted == .accepted {
    print("")
    print(ProgramOutput.text(result.message, for: 1))
  }
  if let growth = result.growth { printGrowth(growth) }
  let earned = result.tests.reduce(0) { $0 + $1.points * $1.score } + (result.growth.map { $0.weight * $0.score } ?? 0)
  print("")
  print(
    "\(id): \(result.verdict.rawValue), \(points(earned)) of \(points(totalPoints)) points "
      + "(score \(String(format: "%.2f", result.score)))")
}

/// A failed test in plain words: for steps, the step number, the fields that differ and what the
/// expected step means.
func explain(_ test: TestGrade) -> String {
  // A hidden test's difference has no number and no fields: its message says all it may.
  guard let difference = test.firstDifference, let number = difference.step else {
    var text = "Test \(test.name), \(test.verdict.rawValue): \(test.message)"
    let stderr = test.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
    if !stderr.isEmpty {
      let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false).suffix(12)
      text += "\nThe end of its stderr:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }
    return text
  }
  var lines = ["Test \(test.name): your steps first differ from the expected ones at step \(number)."]
  switch (difference.expected, difference.actual) {
  case (let expected?, let actual?):
    if case .object(let want) = expected, case .object(let got) = actual {
      for name in Set(want.keys).union(got.keys).sorted() where want[name] != got[name] {
        lines.append(
          "  \(name): expected \(want[name].map(\.json) ?? "nothing"), yours \(got[name].map(\.json) ?? "nothing")")
      }
    }
    lines.append("  expected step \(number): \(expected.json)")
    lines.append("  your step \(number):     \(actual.json)")
  case (let expected?, nil):
    lines.append("  your program stopped printing steps before step \(number): \(expected.json)")
  case (nil, let actual?):
    lines.append("  your program printed an extra step \(number): \(actual.json)")
  case (nil, nil): break
  }
  if !difference.caption.isEmpty { lines.append("  what step \(number) should do: \(difference.caption)") }
  return lines.joined(separator: "\n")
}

/// "2", "0.4", "1.33".
func points(_ value: Double) -> String {
  if value == value.rounded() { return String(Int(value)) }
  var text = String(format: "%.2f", value)
  while text.hasSuffix("0") { text.removeLast() }
  return text
}

func runChallengesCommand(_ arguments: [String]) -> Never {
  if asksForHelp(arguments) { printHelp(challengesHelp) }
  switch arguments.first {
  case "show": showChallenge(Array(arguments.dropFirst()))
  case "starter": writeStarter(Array(arguments.dropFirst()))
  default: break
  }
  var asJSON = false
  var check = false
  var solutions = false
  var record = false
  var paths: [String] = []
  for argument in arguments {
    switch argument {
    case "--json": asJSON = true
    case "--check": check = true
    case "--solutions": solutions = true
    case "--record": record = true
    default:
      if argument.hasPrefix("-") { fail("unknown option \"\(argument)\" (see dsa-run challenges --help)", code: 2) }
      paths.append(argument)
    }
  }
  if !paths.isEmpty && !check {
    fail(
      "unknown challenges command \"\(paths[0])\"; give show, starter, or --check DIR (see dsa-run challenges --help)",
      code: 2)
  }
  if solutions && !check { fail("--solutions goes with --check", code: 2) }
  if record && !check { fail("--record goes with --check", code: 2) }
  if paths.isEmpty {
    guard let root = ChallengeCatalog.locateRoot() else {
      fail("cannot find the challenges/ folder (set DSA_RUN_DATA to the folder that holds it)", code: 2)
    }
    paths = [root]
  }
  let recordingFailures = record ? recordReferences(paths) : 0
  var challenges: [Challenge] = []
  var problems: [ChallengeProblem] = []
  for path in paths {
    if FileManager.default.fileExists(atPath: path + "/challenge.json") {
      switch ChallengeLoader.load(directory: path) {
      case .success(let challenge): challenges.append(challenge)
      case .failure(let error): problems += error.problems
      }
    } else {
      let catalog = ChallengeCatalog.load(root: path)
      challenges += catalog.ids.compactMap { catalog.challenges[$0] }
      problems += catalog.problems
    }
  }
  if check {
    for problem in problems { print(problem.description) }
    let broken = Set(problems.map(\.challenge)).count
    let mismatches = solutions ? verifySolutions(challenges) : 0
    if solutions {
      // A broken challenge's solutions were never graded: "every solution" would claim them too.
      let graded = broken == 0 ? "every solution" : "every solution of the valid challenges"
      print(
        mismatches == 0
          ? "\(graded) behaved as expected" + (broken == 0 ? "" : "; the broken challenges' solutions were not graded")
          : "\(mismatches) solution(s) did not behave as expected")
    }
    print(
      problems.isEmpty
        ? "\(challenges.count) challenge(s), all valid"
        : "\(challenges.count) valid challenge(s), \(broken) broken (\(problems.count) problem(s))")
    finish(problems.isEmpty && mismatches == 0 && recordingFailures == 0 ? 0 : 1)
  }
  if asJSON {
    FileHandle.standardOutput.write(ResultEncoder.data(challenges.map(GradeEncoder.summaryObject)) + Data("\n".utf8))
  } else {
    // Under their topics' headings in the vocabulary's order, as the page lists them.
    let width = max(2, challenges.map(\.id.count).max() ?? 0)
    for heading in ChallengeTopics.ordered(challenges.map(\.topic)) {
      print(heading)
      for challenge in challenges where ChallengeTopics.heading(of: challenge.topic) == heading {
        let tests = challenge.tests.count == 1 ? "1 test" : "\(challenge.tests.count) tests"
        let tags = challenge.tags.isEmpty ? "" : "  [\(challenge.tags.joined(separator: ", "))]"
        print(
          "  \(challenge.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(challenge.title)  (\(tests))\(tags)"
        )
      }
    }
  }
  if !problems.isEmpty {
    let broken = Set(problems.map(\.challenge)).sorted().joined(separator: ", ")
    FileHandle.standardError.write(
      Data("dsa-run: broken challenges not listed: \(broken) (see dsa-run challenges --check)\n".utf8))
  }
  finish(0)
}

/// The challenge directories under `paths` (a challenge directory, or a root of them).
func challengeDirectories(_ paths: [String]) -> [String] {
  paths.flatMap { path -> [String] in
    if FileManager.default.fileExists(atPath: path + "/challenge.json") { return [path] }
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return entries.sorted().filter { !$0.hasPrefix(".") }.map { path + "/" + $0 }
      .filter { FileManager.default.fileExists(atPath: $0 + "/challenge.json") }
  }
}

/// `--check --record`: runs each challenge's `reference` on the tests that take their steps from it
/// and writes `expected/` (docs/challenges.md, "Expected steps from a reference solution"); returns
/// how many challenges could not be recorded. The check that follows loads what was written.
func recordReferences(_ paths: [String]) -> Int {
  var recordable: [(String, Challenge)] = []
  for directory in challengeDirectories(paths) {
    if case .success(let challenge) = ChallengeLoader.load(directory: directory, recording: true),
      challenge.reference != nil
    {
      recordable.append((directory, challenge))
    }
  }
  guard !recordable.isEmpty else { return 0 }
  let executor = checkingExecutor()
  defer { executor.environments.drain() }
  var failures = 0
  for (directory, challenge) in recordable {
    guard let reference = challenge.reference else { continue }
    do {
      let recording = try ReferenceRecorder(executor: executor).record(challenge)
      if !recording.problems.isEmpty {
        failures += 1
        for problem in recording.problems { print("\(challenge.id): reference \(reference.path): \(problem)") }
        continue
      }
      try ReferenceRecorder.write(recording, reference: reference, to: directory)
      print("\(challenge.id): recorded the steps of \(recording.steps.count) test(s) from \(reference.path)")
    } catch {
      failures += 1
      print("\(challenge.id): reference \(reference.path): not recorded: \(error)")
    }
  }
  return failures
}

/// The executor `--check --solutions` and `--check --record` run boxes with.
func checkingExecutor() -> Executor {
  do {
    if let problem = boxesNeedRoot() { throw problem }
    return try makeExecutor(
      configuration: SandboxConfiguration(), cacheDirectory: "/var/cache/dsa-run/compile", warmBoxes: true)
  } catch let error as UsageError {
    fail(error.message, code: 2)
  } catch {
    fail("\(error)", code: 2)
  }
}

/// Grades every reference solution (`--check --solutions`), one line each; returns how many did not
/// behave as their challenge says. A language whose toolchain is not installed is reported, not counted.
func verifySolutions(_ challenges: [Challenge]) -> Int {
  let executor: Executor
  do {
    if let problem = boxesNeedRoot() { throw problem }
    executor = try makeExecutor(
      configuration: SandboxConfiguration(), cacheDirectory: "/var/cache/dsa-run/compile", warmBoxes: true)
  } catch let error as UsageError {
    fail(error.message, code: 2)
  } catch {
    fail("\(error)", code: 2)
  }
  defer { executor.environments.drain() }
  let grader = Grader(executor: executor)
  let jobs = challenges.flatMap { challenge in challenge.solutions.map { (challenge, $0) } }
  // Two or more solutions at once: most of a check is compiling (javac, kotlinc, dart), one core
  // each; the lines are still printed in the catalogue's order.
  let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4, jobs.count))
  let next = Atomic<Int>(0)
  let finished = Mutex<(lines: [Int: (String, Bool)], printed: Int, mismatches: Int)>(([:], 0, 0))
  DispatchQueue.concurrentPerform(iterations: workers) { _ in
    while true {
      let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
      guard index < jobs.count else { return }
      let (challenge, solution) = jobs[index]
      let line = verifyLine(challenge, solution, grader: grader, executor: executor)
      finished.withLock { state in
        state.lines[index] = line
        while let (text, mismatch) = state.lines.removeValue(forKey: state.printed) {
          print(text)
          fflush(nil)
          if mismatch { state.mismatches += 1 }
          state.printed += 1
        }
      }
    }
  }
  let mismatches = finished.withLock { $0.mismatches }
  return mismatches
}

/// One solution's line of `--check --solutions`, and whether it is a mismatch.
private func verifyLine(_ challenge: Challenge, _ solution: ChallengeSolution, grader: Grader, executor: Executor)
  -> (String, Bool)
{
  let label = "\(challenge.id) \(solution.kind.rawValue)/\(solution.file.name)"
  do {
    _ = try executor.runner(language: solution.language, version: nil)
    let verification = try grader.verify(solution, of: challenge)
    let summary = "\(verification.result.verdict.rawValue), score \(String(format: "%.2f", verification.result.score))"
    if let problem = verification.problem { return ("\(label): MISMATCH: \(problem)", true) }
    return ("\(label): ok (\(summary))", false)
  } catch {
    if case .toolchainMissing = error { return ("\(label): not checked: \(error)", false) }
    return ("\(label): MISMATCH: \(error)", true)
  }
}
