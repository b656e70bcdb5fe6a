import Foundation
import SandboxTesting
import Testing

@testable import Runners
@testable import Sandbox

// A new Dart program in a pre-warmed Dart VM (its compiler warm, the learner's source compiled and
// run in the same box, `PrewarmDart`) is the cold compile and run's twin.

enum PrewarmDartFixture {
  static let prewarm: PrewarmRuns = {
    let runs = PrewarmRuns(host: PrewarmFixture.host, sizes: ["dart": 1], slots: AlwaysIdleSlots())
    runs.pool.start()
    return runs
  }()
  /// No compile cache: every request compiles, cold or pre-warmed.
  static let executor = PrewarmCompileFixture.uncachedExecutor(prewarm: prewarm)
  static let coldExecutor = PrewarmCompileFixture.uncachedExecutor(prewarm: nil)

  /// Waits (up to a minute) until a box for a run under `limits` waits.
  static func awaitReady(limits: StepLimits = StepLimits()) throws {
    let runner = try executor.runner(language: "dart", version: nil)
    guard prewarm.dartLauncherFiles(runner, executor: executor) != nil,
      let policy = executor.policies[runner.policy],
      let recipe = executor.prewarmSourceRunRecipe(runner, policy: policy, limits: runner.runLimits(limits))
    else { throw PrewarmTestError.notReady("the Dart launcher did not compile") }
    prewarm.pool.want(recipe, family: "dart")
    for _ in 0..<600 {
      if prewarm.pool.counts["dart"]?.ready == 1 { return }
      usleep(100_000)
    }
    throw PrewarmTestError.notReady(prewarm.pool.counts["dart"].map { "\($0)" } ?? "no pool for dart")
  }

  static var hits: UInt64 { prewarm.pool.counts["dart"]?.hits ?? 0 }
}

@Suite(.serialized) struct PrewarmDartTests {
  /// Runs `source` cold and in a pre-warmed box (which it must take) and returns both.
  func coldAndWarm(
    _ source: String, stdin: String = "", arguments: [String] = [], limits: StepLimits = StepLimits(),
    files: [(String, String)] = []
  ) throws -> (cold: ExecuteResult, warm: ExecuteResult) {
    var request = ExecuteRequest(
      language: "dart",
      files: ([("main.dart", source)] + files).map { SourceFile(name: $0.0, contents: Data($0.1.utf8)) })
    request.stdin = Data(stdin.utf8)
    request.arguments = arguments
    request.runLimits = limits
    let cold = try PrewarmDartFixture.coldExecutor.execute(request)
    try PrewarmDartFixture.awaitReady(limits: limits)
    let hitsBefore = PrewarmDartFixture.hits
    let warm = try PrewarmDartFixture.executor.execute(request)
    #expect(PrewarmDartFixture.hits == hitsBefore + 1, "the program did not take the pre-warmed box")
    return (cold, warm)
  }

  /// Same statuses, exit codes and output, compile and run.
  func expectTwins(_ cold: ExecuteResult, _ warm: ExecuteResult, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(warm.compile?.status == cold.compile?.status, sourceLocation: sourceLocation)
    #expect(warm.compile?.exitCode == cold.compile?.exitCode, sourceLocation: sourceLocation)
    #expect(warm.compile?.message == cold.compile?.message, sourceLocation: sourceLocation)
    #expect(
      warm.compileMessages == cold.compileMessages, "cold:\n\(cold.compileMessages)\nwarm:\n\(warm.compileMessages)",
      sourceLocation: sourceLocation)
    #expect((warm.run == nil) == (cold.run == nil), sourceLocation: sourceLocation)
    #expect(warm.run?.status == cold.run?.status, sourceLocation: sourceLocation)
    #expect(warm.run?.exitCode == cold.run?.exitCode, sourceLocation: sourceLocation)
    #expect(warm.stdout == cold.stdout, "cold:\n\(cold.stdout)\nwarm:\n\(warm.stdout)", sourceLocation: sourceLocation)
    #expect(warm.stderr == cold.stderr, "cold:\n\(cold.stderr)\nwarm:\n\(warm.stderr)", sourceLocation: sourceLocation)
  }

  @Test(.enabled(if: installed("dart"), "needs the Dart toolchain"))
  func aNewProgramCompilesAndRunsAsCold() throws {
    let source = """
      import 'dart:io';
      import 'helper.dart';

      Future<void> main(List<String> arguments) async {
        final lines = <String>[];
        String? line;
        while ((line = stdin.readLineSync()) != null) lines.add(line!);
        await Future<void>.delayed(Duration.zero);
        print('$arguments ${lines.length} ${lines.first} ${twice(21)}');
        stderr.writeln('to stderr');
        print(Directory('/tmp').listSync().length);
      }

      """
    let (cold, warm) = try coldAndWarm(
      source, stdin: "in put é\nsecond\n", arguments: ["a", "b c", ""],
      files: [("helper.dart", "int twice(int value) => 2 * value;\n")])
    expectTwins(cold, warm)
    #expect(warm.stdout == "[a, b c, ] 2 in put é 42\n0\n")
    #expect(warm.stderr == "to stderr\n")
    // The compile is reported as one, with what it used; the run's figures start after it.
    #expect(warm.compile?.status == .ok && (warm.compile?.cpuMilliseconds ?? 0) > 0)
    #expect(warm.run?.status == .ok)
  }

  @Test(.enabled(if: installed("dart"), "needs the Dart toolchain"))
  func compileErrorsAreTheColdCompilesOnes() throws {
    for source in [
      "void main() {\n  print('hi')\n}\n",
      "void main() { int x = 'text'; undefined(); }\n",
      "void mian() {}\n",
      "import 'missing.dart';\nvoid main() {}\n",
    ] {
      let (cold, warm) = try coldAndWarm(source)
      expectTwins(cold, warm)
      #expect(warm.compile?.status == .compileError && warm.run == nil, "\(warm.compileMessages)")
      #expect(!warm.compileMessages.contains("spawn") && !warm.compileMessages.contains("dsa_run"))
    }
  }

  @Test(.enabled(if: installed("dart"), "needs the Dart toolchain"))
  func exitsAndUncaughtErrorsAreTheColdRunsOnes() throws {
    let thrown = try coldAndWarm(
      "void inner() { throw StateError('boom'); }\nvoid main() { print('before'); inner(); }\n")
    expectTwins(thrown.cold, thrown.warm)
    #expect(thrown.warm.run?.exitCode == 255 && thrown.warm.stderr.hasPrefix("Unhandled exception:\nBad state: boom\n"))
    let asyncThrown = try coldAndWarm(
      "Future<void> main() async { await Future<void>.delayed(Duration.zero); throw 'late'; }\n")
    expectTwins(asyncThrown.cold, asyncThrown.warm)
    let exited = try coldAndWarm("import 'dart:io';\nvoid main() { stdout.write('bye'); exit(3); }\n")
    expectTwins(exited.cold, exited.warm)
    #expect(exited.warm.run?.exitCode == 3)
    let exitCode = try coldAndWarm("import 'dart:io';\nvoid main() { print('set'); exitCode = 4; }\n")
    expectTwins(exitCode.cold, exitCode.warm)
    #expect(exitCode.warm.run?.exitCode == 4 && exitCode.warm.stdout == "set\n")
    let recorder = try coldAndWarm("import 'package:dsa/dsa.dart';\nvoid main() { print(Recorder); }\n")
    // A program choosing its language version goes the cold way.
    var legacy = ExecuteRequest(
      language: "dart", files: [SourceFile(name: "main.dart", contents: Data("// @dart=2.9\nvoid main() {}\n".utf8))])
    legacy.stdin = Data()
    try PrewarmDartFixture.awaitReady()
    let hitsBefore = PrewarmDartFixture.hits
    let ran = try PrewarmDartFixture.executor.execute(legacy)
    #expect(ran.run?.status == .ok && PrewarmDartFixture.hits == hitsBefore)
    #expect(ran.compileMessages.contains("without sound null safety"))
    expectTwins(recorder.cold, recorder.warm)
    #expect(recorder.warm.run?.status == .ok, "\(recorder.warm.compileMessages) \(recorder.warm.stderr)")
  }

  @Test(.enabled(if: installed("dart"), "needs the Dart toolchain"))
  func memoryAndTimeLimitsAreTheRunsOwn() throws {
    // 182 MiB of Dart heap (4-byte elements: the VM is i386) fits a 256 MiB run cold; the warm
    // compiler's share must not take it away.
    let big =
      "void main() { final lists = [for (var i = 0; i < 364; i++) List<int>.filled(1 << 17, i)]; print(lists.length); }\n"
    let fits = try coldAndWarm(big)
    expectTwins(fits.cold, fits.warm)
    #expect(fits.warm.run?.status == .ok, "\(fits.warm.run?.message ?? "")")
    let peak = fits.warm.run?.memoryKilobytes ?? 0
    let coldPeak = fits.cold.run?.memoryKilobytes ?? 0
    #expect(peak > 180 << 10 && peak <= 256 << 10, "reported peak \(peak) KiB, cold \(coldPeak) KiB")
    let tooBig = "void main() { final lists = []; while (true) lists.add(List<int>.filled(1 << 20, 1)); }\n"
    let hit = try coldAndWarm(tooBig)
    #expect(hit.warm.run?.status == .memoryLimit && hit.cold.run?.status == .memoryLimit)
    #expect((hit.warm.run?.memoryKilobytes ?? 0) <= 256 << 10)
    // The run's CPU limit counts from the compiled marker, not from the handover.
    var limits = StepLimits()
    limits.cpuMilliseconds = 500
    let spin = try coldAndWarm("void main() { var x = 0; while (true) { x++; } }\n", limits: limits)
    #expect(spin.warm.run?.status == .timeLimit && spin.cold.run?.status == .timeLimit)
    #expect((spin.warm.run?.cpuMilliseconds ?? 0) >= 500 && (spin.warm.run?.cpuMilliseconds ?? 0) < 1500)
    #expect(spin.warm.compile?.status == .ok)
  }

  @Test(.enabled(if: installed("dart"), "needs the Dart toolchain"))
  func theSameSourceAgainRunsFromTheKernelFileCompiledAfter() throws {
    let directory = NSTemporaryDirectory() + "dsa-run-prewarm-dart-cache-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let base = RunnersFixture.executor
    let executor = Executor(
      environments: BoxPool(host: PrewarmFixture.host), catalog: base.catalog, policies: base.policies,
      cache: try CompileCache(directory: directory), prewarm: PrewarmDartFixture.prewarm)
    let request = ExecuteRequest(
      language: "dart", files: [SourceFile(name: "main.dart", contents: Data("void main() => print(6 * 7);\n".utf8))])
    try PrewarmDartFixture.awaitReady()
    let hitsBefore = PrewarmDartFixture.hits
    let first = try executor.execute(request)
    #expect(first.stdout == "42\n" && PrewarmDartFixture.hits == hitsBefore + 1 && !first.compileCacheHit)
    // The kernel file is compiled in an idle slot after the answer; the next run finds it.
    let runner = try executor.runner(language: "dart", version: nil)
    let (files, _, _) = try executor.layOut(request.files, runner: runner, requestedAs: "dart")
    let key = executor.cacheKey(runner: runner, step: runner.compile!, files: files)
    for _ in 0..<300 where executor.cache?.contains(key) == false { usleep(100_000) }
    try PrewarmDartFixture.awaitReady()
    let again = try executor.execute(request)
    #expect(again.stdout == "42\n" && again.compileCacheHit)
    #expect(PrewarmDartFixture.hits == hitsBefore + 1, "a cached program took a pre-warmed box")
    // Each way looked the cache up once: the background compile missed, the second run hit.
    #expect(executor.cache?.misses == 1 && executor.cache?.hits == 1)
  }

  @Test(.enabled(if: installed("dart"), "needs the Dart toolchain"))
  func eachBoxServesOneProgramAndLeavesNothingForTheNext() throws {
    let source = """
      import 'dart:io';
      void main() {
        final seen = File('/tmp/seen').existsSync();
        File('/tmp/seen').writeAsStringSync('x');
        print('$seen ${Directory('/box').listSync().map((e) => e.path).toList()..sort()}');
      }

      """
    let first = try coldAndWarm(source).warm
    let second = try coldAndWarm(source).warm
    #expect(first.stdout == "false [/box/main.dart]\n", "\(first.stdout) \(first.stderr)")
    #expect(second.stdout == first.stdout)
  }
}
