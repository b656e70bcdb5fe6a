import Foundation
import Sandbox

/// Pre-warmed Dart: boxes whose Dart VM has started with the run step's argv, flags and limits and
/// warmed its kernel compiler (the VM's own, which compiled our launcher and a warm-up program),
/// then waits for one learner's source. A new program's wait was the compile step's VM starting
/// its compiler (0.65 s of CPU for a hello); the warm compiler takes a tenth of that.
///
/// Dart compiles and runs in the same box here: the VM compiles the source only in-process (the
/// toolchain has no compiler service of its own to keep warm), so the launcher compiles the
/// learner's files by spawning them (`Isolate.spawnUri`, paused) and runs them once they compiled.
/// It writes `stageMarker` on stderr between the two, which splits the box's figures: before it,
/// the compile step's (its time limits, its CPU and wall time, reported as the compile); after it,
/// the run's. A source that does not compile never reaches the marker: the launcher prints the
/// compiler's messages as the cold compile does, with its exit status, and the outcome is the
/// compile's. A cached compile (the same source again) runs cold from its kernel file, which is
/// faster than compiling again; after a pre-warmed run, that kernel file is compiled in a box slot
/// nobody waits for, after the pool's refills, off the request's path.
enum PrewarmDart {
  /// The languages whose pre-warmed box compiles and runs (their family is the language's name).
  static let languages: Set<String> = ["dart"]
  /// Written by the launcher once the learner's source compiled, before any of it runs.
  static let stageMarker = Data("\u{0}dsa-run-compiled\n".utf8)
  /// Where the warm-up program sits in /box until the handover removes it.
  static let warmUpFile = "dsa_run_warm_up.dart"
  /// What the box may hold above the run's memory limit while the VM warms up (its compiler's
  /// resident share, about 70 MiB, stays allowed after: `PrewarmedBox.residentAtReadyBytes`).
  static let warmUpMemoryBytes: UInt64 = 256 << 20
  /// What the cold compile prints on stdout when it succeeds for a program in the current language
  /// version (the only kind a pre-warmed box takes: see `languageVersionComment`).
  static let soundCompileNotice = Data("Info: Compiling with sound null safety\n".utf8)
  static let languageVersionComment = Data("@dart".utf8)
  /// The key of `runner`'s compiled launcher among `PrewarmRuns`' launchers: a kernel file is
  /// for the VM version that compiled it.
  static func launcherKey(_ runner: Runner) -> String { "dart:launcher:" + runner.version }

  /// The handover: the number of arguments, the entry file's name in /box, the package
  /// configuration the cold compile is given (empty for none) and the arguments, each ended by NUL.
  static func handover(entry: String, packages: String, arguments: [String]) -> Data {
    Data(([String(arguments.count), entry, packages] + arguments).map { $0 + "\u{0}" }.joined().utf8)
  }

  /// The `--packages=` the runner's compile step passes, if any.
  static func packages(of step: RunnerStep) -> String {
    step.argv.first { $0.hasPrefix("--packages=") }.map { String($0.dropFirst("--packages=".count)) } ?? ""
  }

  /// The launcher, compiled by the Dart runner's compile step into the run's kernel file. Until the
  /// handover it writes only its ready marker (on stderr) and reads nothing past its message; the
  /// warm-up program it spawns prints nothing and reads nothing.
  static let launcherSource = #"""
    // dsa-run's pre-warmed Dart launcher (docs/security.md, "Pre-warmed boxes").
    import 'dart:io';
    import 'dart:isolate';

    Future<void> main() async {
      final warmedUp = ReceivePort();
      await Isolate.spawnUri(Uri.file('/box/dsa_run_warm_up.dart'), const <String>[], null,
          onExit: warmedUp.sendPort);
      await warmedUp.first;
      stderr.add(const [0, ..._ready]);
      await stderr.flush();
      final count = int.parse(_field());
      final entry = _field();
      final packages = _field();
      final arguments = [for (var index = 0; index < count; index++) _field()];
      final exited = ReceivePort();
      final errors = ReceivePort();
      final Isolate program;
      try {
        program = await Isolate.spawnUri(Uri.file('/box/$entry'), arguments, null,
            paused: true,
            packageConfig: packages.isEmpty ? null : Uri.file(packages),
            onExit: exited.sendPort,
            onError: errors.sendPort);
      } on IsolateSpawnException catch (error) {
        // The compiler's messages as the cold compile prints them, with its exit status.
        const spawnPrefix = 'Unable to spawn isolate: ';
        var message = error.message;
        if (message.startsWith(spawnPrefix)) message = message.substring(spawnPrefix.length);
        stderr.writeln(message);
        await stderr.flush();
        exit(message.contains("does not contain 'main'") ? 253 : 254);
      }
      stderr.add(const [0, ..._compiled]);
      await stderr.flush();
      errors.listen((error) async {
        // An uncaught error ends a cold run's VM with this printout and status.
        final parts = error as List<Object?>;
        stderr.write('Unhandled exception:\n${parts[0]}\n${parts[1]}');
        await stderr.flush();
        exit(255);
      });
      program.resume(program.pauseCapability!);
      await exited.first;
      errors.close();
    }

    const _ready = [100, 115, 97, 45, 114, 117, 110, 45, 112, 114, 101, 119, 97, 114, 109, 45, 114, 101, 97, 100, 121, 10];
    const _compiled = [100, 115, 97, 45, 114, 117, 110, 45, 99, 111, 109, 112, 105, 108, 101, 100, 10];

    /// One NUL-ended field of the handover, read a byte at a time: nothing past it is taken.
    String _field() {
      final bytes = <int>[];
      while (true) {
        final byte = stdin.readByteSync();
        if (byte < 0) exit(125);
        if (byte == 0) return String.fromCharCodes(bytes);
        bytes.add(byte);
      }
    }
    """#

  /// What most learners' first programs use, compiled and run once so the compiler and the core
  /// libraries are warm: collections, strings, numbers, formatting, a class, a closure, async.
  static let warmUpSource = #"""
    import 'dart:collection';
    import 'dart:convert';
    import 'dart:math';

    class Edge implements Comparable<Edge> {
      final int to;
      final int weight;
      Edge(this.to, this.weight);
      @override
      int compareTo(Edge other) => weight.compareTo(other.weight);
      @override
      String toString() => 'Edge($to, $weight)';
    }

    Future<int> later(int value) async => value * 2;

    Future<void> main() async {
      final values = [for (var index = 0; index < 64; index++) (index * 37) % 64]..sort((a, b) => b - a);
      final queue = Queue<int>()..addAll(values);
      final counts = <int, int>{};
      for (final value in values) {
        counts.update(value % 3, (count) => count + 1, ifAbsent: () => 1);
      }
      final edges = SplayTreeSet<Edge>()..add(Edge(1, 5))..add(Edge(2, 3));
      final grid = List.generate(3, (_) => List.filled(3, 0));
      final buffer = StringBuffer()..writeAll(grid.map((row) => row.join(',')), ';');
      final text = '${values.length} ${queue.first} $counts ${edges.first} ${max(1, 2)} '
          '${jsonEncode(counts.map((key, value) => MapEntry('$key', value)))} ${1.5.toStringAsFixed(1)} '
          '${int.parse('42') + double.parse('0.5').round()} ${'a b'.split(' ').reversed.join()} $buffer '
          '${await later(3)}';
      if (text.isEmpty) throw StateError(text);
    }
    """#
}

extension PrewarmRuns {
  /// The Dart launcher's kernel file, compiled once by `dart` (in a box, through the cache; a
  /// compile that failed is not tried again), as `main.dill`: the run step's argv starts it.
  func dartLauncherFiles(_ dart: Runner, executor: Executor) -> [BoxFile]? {
    cachedLauncher(PrewarmDart.launcherKey(dart)) {
      guard
        let program = try? executor.prepare(
          dart, requestedAs: dart.language,
          files: [SourceFile(name: "main.dart", contents: Data(PrewarmDart.launcherSource.utf8))]),
        program.isRunnable, let files = program.runFiles
      else { return nil }
      return files.map { BoxFile(name: $0.0, contents: $0.1, executable: $0.2) }
    }
  }
}

extension Executor {
  /// The recipe of `runner`'s pre-warmed compile-and-run box under the run's `limits`: the run
  /// step's spec (the launcher's kernel file where the program's would be) with the compile step's
  /// mounts (its package configuration) as well. Nil before the launcher is compiled.
  func prewarmSourceRunRecipe(_ runner: Runner, policy: SeccompPolicy, limits: BoxLimits) -> PrewarmRecipe? {
    guard let prewarm, PrewarmDart.languages.contains(runner.language), let compile = runner.compile,
      let launcher = prewarm.compiledLauncherFiles(PrewarmDart.launcherKey(runner))
    else { return nil }
    var spec = prewarmSpec(runner, policy: policy, limits: limits, mainFile: "", mainClass: "")
    spec.readOnlyMounts += compile.mounts.filter { mount in !spec.readOnlyMounts.contains(mount) }
    return PrewarmRecipe(
      spec: spec,
      files: launcher + [BoxFile(name: PrewarmDart.warmUpFile, contents: Data(PrewarmDart.warmUpSource.utf8))],
      readyMarker: PrewarmRuns.readyMarker, warmUpMemoryBytes: PrewarmDart.warmUpMemoryBytes)
  }

  /// Compiles and runs `request` in a pre-warmed box when the pool has one for its runner and the
  /// compile cache has not the program already: the result, or nil to go the cold way (no pool for
  /// the language, a cached compile, a miss, or a box that stopped waiting; nothing of the
  /// learner's ran then).
  func prewarmedExecute(_ runner: Runner, _ request: ExecuteRequest) throws(ExecuteError) -> ExecuteResult? {
    guard let prewarm, PrewarmDart.languages.contains(runner.language), prewarm.pool.serves(runner.language),
      !request.mergesStderrIntoStdout, let compile = runner.compile, let policy = policies[runner.policy]
    else { return nil }
    let (files, learnerNames, _) = try layOut(request.files, runner: runner, requestedAs: request.language)
    if let cache, cache.contains(cacheKey(runner: runner, step: compile, files: files)) { return nil }
    // A library that chooses its language version (`// @dart=2.9`) may make the cold compile's
    // mode unsound, which it announces differently: such rare programs go the cold way.
    if files.contains(where: { $0.contents.range(of: PrewarmDart.languageVersionComment) != nil }) { return nil }
    // What the cold way refuses with its own words.
    let limits = runner.runLimits(request.runLimits)
    guard limits.violation(of: .ceilings) == nil, Self.argumentsProblem(request.arguments) == nil,
      let recipe = prewarmSourceRunRecipe(runner, policy: policy, limits: limits)
    else { return nil }
    let compileLimits = compile.limits.applied(to: BoxLimits())
    let stage = PrewarmStage(
      marker: PrewarmDart.stageMarker, cpuTimeMilliseconds: compileLimits.cpuTimeMilliseconds,
      wallTimeMilliseconds: compileLimits.wallTimeMilliseconds)
    let handover = PrewarmDart.handover(
      entry: files[0].name, packages: PrewarmDart.packages(of: compile), arguments: request.arguments)
    let boxFiles = files.map { BoxFile(name: $0.name, contents: $0.contents) }
    let stdin = request.stdin
    let work = { @Sendable () throws(ExecuteError) -> (Outcome, Outcome?)? in
      guard let box = prewarm.pool.take(recipe, family: runner.language) else { return nil }
      do throws(SandboxError) {
        guard
          let (outcome, compileUsage) = try box.handOver(
            spec: recipe.spec, files: boxFiles, handover: handover, stdin: stdin, stage: stage)
        else { return nil }
        guard let compileUsage else { return (outcome, nil) }
        var ending = BoxEnding(limits: compileLimits)
        ending.waitStatus = 0
        ending.cpuMilliseconds = compileUsage.cpuMicroseconds / 1000
        ending.wallMicroseconds = compileUsage.wallMicroseconds
        ending.memoryKilobytes = box.residentAtReadyBytes / 1024
        var notice = CapturedOutput()
        PrewarmDart.soundCompileNotice.withUnsafeBytes { notice.append($0, from: .stdout) }
        return (Outcome(ending, output: notice, accounting: outcome.accounting), outcome)
      } catch {
        throw .sandbox(error)
      }
    }
    let handed: (Outcome, Outcome?)?
    if let gate {
      handed = try gate.run(work)
    } else {
      handed = try work()
    }
    guard let (first, ran) = handed else { return nil }
    let version = probesVersions ? probedVersion(of: runner) : runner.version
    var result = ExecuteResult(
      language: runner.language, version: version, compile: nil, run: nil, compileCacheHit: false,
      fileNames: learnerNames.map(\.box))
    guard var run = ran else {
      var compiled = first.asCompile(errorHints: compile.errorHints)
      // Ended well without compiling: the launcher's failure, not the learner's; nothing of theirs ran.
      if compiled.status == .ok { return nil }
      compiled.rewriteText(stdout: true) { LearnerNames.rewrite($0, names: learnerNames) }
      result.compile = compiled
      return result
    }
    run.rewriteText(stdout: false) { LearnerNames.rewrite($0, names: learnerNames) }
    result.compile = first
    result.run = run
    // The box compiled in memory only: the kernel file the same source's next run starts from at
    // once (the cache) is compiled in a slot nobody waits for, after the pool's refills.
    if cache != nil {
      let compiler = ungated
      prewarm.pool.runWhenIdle {
        _ = try? compiler.prepare(runner, requestedAs: request.language, files: request.files)
      }
    }
    return result
  }
}
