import Foundation
import Runners
import Sandbox
import SandboxTesting
import Testing
import Wire

@testable import Challenges

/// The shipped guess-the-number challenge (its C++ interactor), with only the tests named.
private func guessTheNumber(tests names: [String] = ["sample"], limits: StepLimits? = nil) throws -> Challenge {
  var challenge = try ChallengeLoader.load(directory: repositoryRoot + "/challenges/guess-the-number").get()
  challenge.tests = challenge.tests.filter { names.contains($0.name) }
  if let limits { challenge.limits = limits }
  return challenge
}

/// An interactive challenge whose interactor is `source` (Python), on one test "10 7".
private func pythonInteractor(_ source: String) throws -> Challenge {
  let fixture = ChallengeFixture(
    id: "interactive",
    description: [
      "title": "Interactive", "statement": "statement.md",
      "interactor": ["language": "python", "source": "interactor.py"],
      "tests": [["name": "only", "stdin": "tests/only.in"]],
    ],
    files: [
      "statement.md": Data("Talk.\n".utf8), "interactor.py": Data(source.utf8), "tests/only.in": Data("10 7\n".utf8),
    ])
  return try fixture.load().get()
}

private func grade(_ challenge: Challenge, _ source: String, options: GradeOptions = GradeOptions()) throws
  -> GradeResult
{
  try GradingFixture.grader.grade(
    challenge, language: "python", files: [SourceFile(name: "main.py", contents: Data(source.utf8))], options: options)
}

private let correctGuess = try! String(
  contentsOfFile: repositoryRoot + "/challenges/guess-the-number/solutions/correct/main.py", encoding: .utf8)
private let linearGuess = try! String(
  contentsOfFile: repositoryRoot + "/challenges/guess-the-number/solutions/wrong/main.py", encoding: .utf8)

@Suite struct InteractorTests {
  @Test func aCorrectProgramIsAcceptedAndItsDialogueKept() throws {
    let result = try grade(try guessTheNumber(tests: ["sample", "one", "billion"]), correctGuess)
    #expect(result.verdict == .accepted, "\(result.message)")
    #expect(result.tests.map(\.verdict) == [.accepted, .accepted, .accepted])
    let transcript = try #require(result.tests[0].transcript)
    // n = 10, secret 7: 5 is too small, 8 too large, then 6 too small: 7.
    #expect(
      transcript.turns == [
        .init(from: .interactor, text: "10\n"), .init(from: .program, text: "? 5\n"),
        .init(from: .interactor, text: ">\n"),
        .init(from: .program, text: "? 8\n"), .init(from: .interactor, text: "<\n"),
        .init(from: .program, text: "? 6\n"),
        .init(from: .interactor, text: ">\n"), .init(from: .program, text: "! 7\n"),
      ])
    #expect(!transcript.truncated)
    #expect(result.tests[0].details == nil)
  }

  @Test func tooManyQuestionsIsAWrongAnswerWithTheInteractorsMessage() throws {
    let result = try grade(try guessTheNumber(), linearGuess)
    #expect(result.verdict == .wrongAnswer)
    #expect(result.tests[0].message == "question 5 is one too many: for n = 10 at most 4 questions are allowed")
    // The program read the end of its input once the interactor stopped; that is no verdict of its own.
    #expect(result.tests[0].details?.output.hasPrefix("? 1\n? 2\n") == true)
    #expect(result.tests[0].transcript?.turns.last == .init(from: .program, text: "? 5\n"))
  }

  @Test func aProgramThatNeverFlushesEndsAsADeadlockNotAtTheWallLimit() throws {
    var limits = StepLimits()
    limits.wallMilliseconds = 60_000
    // The runner makes Python's stdout unbuffered, so the program buffers on its own, as C's stdio does.
    let neverFlushes = """
      import sys
      buffered = open(1, "w", buffering=8192, closefd=False)
      n = int(input())
      buffered.write("? 5\\n")
      print(input(), file=sys.stderr)

      """
    let result = try grade(try guessTheNumber(limits: limits), neverFlushes)
    #expect(result.verdict == .timeLimit)
    #expect(result.tests[0].message == InteractorRunner.deadlockMessage)
    // Ended by the deadlock's bound (a second and a half), long before the wall limit of a minute.
    #expect(result.tests[0].wallMilliseconds < 30_000)
    // Its question never left its buffer.
    #expect(result.tests[0].transcript?.turns == [.init(from: .interactor, text: "10\n")])
  }

  @Test func closingStdoutEarlyGivesTheInteractorItsEnd() throws {
    let closesStdout = """
      import os, sys
      n = int(input())
      print("? 5", flush=True)
      os.close(1)
      sys.stdout = open(os.devnull, "w")
      sys.stdin.read()

      """
    var limits = StepLimits()
    limits.wallMilliseconds = 60_000
    let result = try grade(try guessTheNumber(limits: limits), closesStdout)
    #expect(result.verdict == .wrongAnswer, "\(result.message)")
    #expect(
      result.tests[0].message == "your program stopped talking after 1 questions without answering \"! x\"")
  }

  @Test func aProgramThatSpinsIsATimeLimitWhileTheInteractorWaits() throws {
    var limits = StepLimits()
    limits.cpuMilliseconds = 1_000
    limits.wallMilliseconds = 60_000
    let result = try grade(try guessTheNumber(limits: limits), "n = int(input())\nwhile True:\n    pass\n")
    #expect(result.verdict == .timeLimit)
    #expect(result.tests[0].message != InteractorRunner.deadlockMessage)
    #expect(result.tests[0].message.contains("CPU"), "\(result.tests[0].message)")
  }

  @Test func aProgramThatCrashesHasItsOwnVerdict() throws {
    let crashes = "n = int(input())\nprint('? 5', flush=True)\nimport os\nos.abort()\n"
    let result = try grade(try guessTheNumber(), crashes)
    #expect(result.verdict == .runtimeError, "\(result.message)")
  }

  @Test func anInteractorThatCrashesIsAnInternalErrorNotTheLearnersFault() throws {
    let challenge = try pythonInteractor("import os\nprint(10, flush=True)\nos.abort()\n")
    let result = try grade(challenge, correctGuess)
    #expect(result.verdict == .internalError)
    #expect(result.tests[0].message.hasPrefix("The challenge's interactor failed, which is not your fault"))
    #expect(result.tests[0].message.contains("the interactor crashed (SIGABRT)"))
  }

  @Test func anInteractorWithAnUndefinedExitCodeIsAnInternalError() throws {
    let challenge = try pythonInteractor("import sys\nprint(10, flush=True)\ninput()\nsys.exit(5)\n")
    let result = try grade(challenge, correctGuess)
    #expect(result.verdict == .internalError)
    #expect(result.tests[0].message.contains("exited with code 5, which the testlib protocol does not define"))
  }

  @Test func anInteractorsOwnLimitsHold() throws {
    let challenge = try pythonInteractor("while True:\n    pass\n")
    var interactorLimits = StepLimits()
    interactorLimits.cpuMilliseconds = 500
    let result = try grade(challenge, correctGuess, options: GradeOptions(checkerLimits: interactorLimits))
    #expect(result.verdict == .internalError)
    #expect(result.tests[0].message.contains("the interactor ran out of time"), "\(result.tests[0].message)")
  }

  @Test func partialScoresAndPresentationErrorsFollowTestlib() throws {
    let partial = try pythonInteractor(
      "import sys\nprint(10, flush=True)\ninput()\nprint('points 0.5 half of it', file=sys.stderr)\nsys.exit(7)\n")
    let graded = try grade(partial, correctGuess)
    #expect(graded.tests[0].verdict == .wrongAnswer)
    #expect(graded.tests[0].score == 0.5)
    #expect(graded.tests[0].message == "Partly right (score 0.5): half of it")
    let presentation = try pythonInteractor(
      "import sys\nprint(10, flush=True)\ninput()\nprint('expected ? or !', file=sys.stderr)\nsys.exit(2)\n")
    let broken = try grade(presentation, correctGuess)
    #expect(broken.tests[0].verdict == .wrongAnswer)
    #expect(broken.tests[0].message == "The dialogue broke the interactor's protocol: expected ? or !")
  }

  /// The interactor decides when the program asks, and ends its output at once; it exits only a
  /// second later, long after the program read the end of its input and crashed on it. Its
  /// verdict is the test's: the crash came from the end it was given.
  @Test func theInteractorsDecisionWinsOverACrashItCaused() throws {
    let challenge = try pythonInteractor(
      """
      import os, sys, time
      print(10, flush=True)
      input()
      print("no questions allowed", file=sys.stderr, flush=True)
      os.close(1)
      time.sleep(1)
      sys.exit(1)

      """)
    let result = try grade(challenge, correctGuess)
    #expect(result.verdict == .wrongAnswer, "\(result.message)")
    #expect(result.tests[0].message == "no questions allowed")
  }

  @Test func aHiddenTestKeepsNoTranscript() throws {
    let result = try grade(try guessTheNumber(tests: ["sample", "thousand-high"]), linearGuess)
    let hidden = try #require(result.tests.first { $0.name == "thousand-high" })
    #expect(hidden.hidden && hidden.transcript == nil)
    #expect(hidden.message == "Wrong answer on a hidden test.")
    guard case .object(let visible) = result.tests[0].wire.json, case .object(let redacted) = hidden.wire.json else {
      Issue.record("a test grade is not a JSON object")
      return
    }
    #expect(visible["transcript"] != nil)
    #expect(redacted["transcript"] == nil)
    // The wire form reads back.
    let reader = StrictReader()
    let object = try #require(reader.object(result.tests[0].wire.json, at: "", keys: WireTestGrade.keys))
    #expect(WireTestGrade(reading: object)?.transcript == result.tests[0].wire.transcript)
  }

  @Test func theTranscriptIsBoundedAndMergesEachSidesWrites() {
    var builder = TranscriptBuilder()
    builder.append(Array("10\n".utf8), from: .interactor)
    builder.append(Array("? ".utf8), from: .program)
    builder.append(Array("5\n".utf8), from: .program)
    builder.append(Array(repeating: UInt8(ascii: "x"), count: InteractionTranscript.maximumBytes), from: .interactor)
    builder.append(Array("never kept\n".utf8), from: .program)
    let transcript = builder.transcript
    #expect(transcript.truncated)
    #expect(transcript.turns.map(\.from) == [.interactor, .program, .interactor])
    #expect(transcript.turns[1].text == "? 5\n")
    #expect(transcript.turns.reduce(0) { $0 + $1.text.utf8.count } == InteractionTranscript.maximumBytes)
  }

  @Test func aGradeIsChargedForBothPrograms() throws {
    let challenge = try guessTheNumber(tests: ["sample", "one", "two"])
    #expect(challenge.plannedRuns == 6)
  }

  @Test func theLoaderRefusesWhatAnInteractiveChallengeCannotUse() throws {
    var fixture = ChallengeFixture(
      id: "interactive",
      description: [
        "title": "Interactive", "statement": "statement.md",
        "interactor": ["language": "python", "source": "interactor.cpp"],
        "checker": ["name": "tokens"],
        "tests": [["name": "only", "stdin": "tests/only.in", "expected_steps": "tests/only.steps"]],
      ],
      files: [
        "statement.md": Data("Talk.\n".utf8), "interactor.cpp": Data("int main() {}\n".utf8),
        "tests/only.in": Data("10 7\n".utf8), "tests/only.steps": Data("@step {\"caption\": \"x\"}\n".utf8),
      ])
    let problems = try fixture.load().problems
    #expect(
      problems.contains(
        "challenge interactive: checker: is not for interactive challenges: the interactor gives each test's verdict"))
    #expect(problems.contains("challenge interactive: tests[0].expected_steps: is only for the steps checker"))
    #expect(
      problems.contains(
        "challenge interactive: interactor.source: interactor.cpp: the file's extension does not name the language python"
      ))
    fixture["interactor"] = "interactor.cpp"
    #expect(try fixture.load().problems.contains { $0.contains("interactor: must be an object") })
  }
}

@Suite struct InteractorCLITests {
  @Test func aFailedVisibleTestShowsTheDialogue() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    let challenge = repositoryRoot + "/challenges/guess-the-number"
    let result = try runCLI(
      [challenge + "/solutions/wrong/main.py", "--challenge", challenge, "--cache-dir", data.cache], data: data.path)
    #expect(result.status == 120)
    #expect(
      result.stdout.contains(
        """
        The dialogue (> your program, < the interactor):
          < 10
          > ? 1
          < >
        """), "\(result.stdout)")
    #expect(result.stdout.contains("  < >\n  > ? 5\n"), "\(result.stdout)")
  }
}

/// The same dialogue on a host without cgroups (rlimit-only mode), where a box's CPU time comes from
/// the kernel's per-process figures: both boxes' limits still hold and a deadlock is still told apart
/// from a program that thinks.
///
/// Both boxes get 2 GiB: a box's init is a copy of this process, and the kernel keeps a process's
/// resident high-water mark across exec, so in rlimit-only mode a program's peak memory is at least
/// this process's size (hundreds of MiB in the full suite), and a failing end at half the limit is
/// taken as running out of memory (docs/security.md, "rlimit-only mode").
@Suite struct RlimitOnlyInteractorTests {
  static let grader = Grader(
    executor: TestExecutors.warm(
      workRoot: "/run/dsa-run-challenge-tests-rlimit", name: "challenge-rlimit", cgroupMode: .rlimitOnly))

  private func grade(_ challenge: Challenge, _ source: String) throws -> GradeResult {
    var checkerLimits = CheckerProgramRunner.defaultLimits
    checkerLimits.memoryMegabytes = 2048
    var options = GradeOptions()
    options.checkerLimits = checkerLimits
    var roomy = challenge
    roomy.limits.memoryMegabytes = 2048
    return try Self.grader.grade(
      roomy, language: "python", files: [SourceFile(name: "main.py", contents: Data(source.utf8))], options: options)
  }

  @Test func aCorrectProgramIsAcceptedAndTooManyQuestionsAreNot() throws {
    let accepted = try grade(try guessTheNumber(tests: ["sample", "one", "billion"]), correctGuess)
    #expect(accepted.verdict == .accepted, "\(accepted.message)")
    #expect(accepted.tests.count == 3)
    let linear = try grade(try guessTheNumber(), linearGuess)
    #expect(linear.verdict == .wrongAnswer)
    #expect(linear.tests[0].message == "question 5 is one too many: for n = 10 at most 4 questions are allowed")
  }

  @Test func aDeadlockAndASpinAreToldApart() throws {
    var limits = StepLimits()
    limits.cpuMilliseconds = 1_000
    limits.wallMilliseconds = 60_000
    let neverFlushes = """
      import sys
      buffered = open(1, "w", buffering=8192, closefd=False)
      n = int(input())
      buffered.write("? 5\\n")
      print(input(), file=sys.stderr)

      """
    let stuck = try grade(try guessTheNumber(limits: limits), neverFlushes)
    #expect(stuck.verdict == .timeLimit)
    #expect(stuck.tests[0].message == InteractorRunner.deadlockMessage)
    #expect(stuck.tests[0].wallMilliseconds < 30_000)
    let spins = try grade(try guessTheNumber(limits: limits), "n = int(input())\nwhile True:\n    pass\n")
    #expect(spins.verdict == .timeLimit)
    #expect(spins.tests[0].message != InteractorRunner.deadlockMessage)
    #expect(spins.tests[0].message.contains("CPU"), "\(spins.tests[0].message)")
  }
}
