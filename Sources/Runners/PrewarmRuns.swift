import Foundation
import Sandbox
import Synchronization

/// Pre-warmed run steps: for a language whose runtime takes long to start (the JVM), boxes whose
/// runtime started ahead of any request and waits for one program (`Sandbox.PrewarmedBox`), kept by
/// a `PrewarmPool`. The JVM's run steps (Java's and Kotlin's) have a launcher, and so do the JVM
/// compilers' compile steps (`PrewarmCompiler`): the pool's families are `java` and `kotlin` for
/// runs, `java:compile` and `kotlin:compile` for compiles.
///
/// The JVM is started with the run step's own argv, flags and limits, with the launcher's class
/// as `{class}`; it warms up (class loading, a first lambda, Scanner and formatting), writes a
/// marker on stderr and blocks reading its stdin. The handover is one message on stdin: the
/// number of arguments, the class to start and the arguments, each ended by a NUL byte; the
/// learner's stdin follows. The launcher loads the class through the system class loader (the one
/// `-cp out` made, as cold), calls its `main` and rethrows what it throws with the launcher's and
/// reflection's frames cut from its stack trace, so the uncaught exception prints as a cold run's.
public final class PrewarmRuns: Sendable {
  public let pool: PrewarmPool<PrewarmedBox>
  private let slots: LateBoundSlots
  private let launchers = Mutex<[String: [BoxFile]]>([:])

  /// The languages with a launcher for some step.
  public static let languages: Set<String> = runLanguages.union(PrewarmCompiler.byLanguage.keys).union(
    PrewarmDart.languages)
  /// The languages whose run step has a launcher (the Java one, which Kotlin's JVM takes too, and
  /// Python's).
  static let runLanguages: Set<String> = ["java", "kotlin", "python"]

  /// The pool family of `language`'s compile step.
  static func compileFamily(_ language: String) -> String { language + ":compile" }

  /// The pool's families and their sizes for `sizes` by language: each step with a launcher keeps
  /// that many boxes.
  static func families(_ sizes: [String: Int]) -> [String: Int] {
    var families: [String: Int] = [:]
    for (language, size) in sizes {
      if runLanguages.contains(language) || PrewarmDart.languages.contains(language) { families[language] = size }
      if PrewarmCompiler.byLanguage[language] != nil { families[compileFamily(language)] = size }
    }
    return families
  }

  /// What the launcher writes on stderr once it waits.
  static let readyMarker = Data("\u{0}dsa-run-prewarm-ready\n".utf8)
  static let javaLauncherClass = "DsaRunPrewarmLauncher"
  static let pythonLauncherFile = "dsa_run_launcher.py"

  /// A pool of `sizes[language]` boxes per language, refilled within `slots` on `host` (or, when
  /// nil, the slots given to `bind` later: none is idle until then).
  public init(host: SandboxHost, sizes: [String: Int], slots: (any PrewarmSlots)? = nil) {
    let lateSlots = LateBoundSlots(slots)
    self.slots = lateSlots
    pool = PrewarmPool(sizes: Self.families(sizes), slots: lateSlots) {
      recipe throws(SandboxError) in
      try PrewarmedBox(
        host: host, spec: recipe.spec, files: recipe.files, readyMarker: recipe.readyMarker,
        warmUpMemoryBytes: recipe.warmUpMemoryBytes)
    }
  }

  /// Refills in `slots` from now on (the daemon's box slots exist only once its service does).
  public func bind(slots: any PrewarmSlots) { self.slots.bind(slots) }

  /// The class files of the launcher `className` if `launcherFiles` compiled them already: a run
  /// or compile never compiles a launcher itself (a grade's gated executor would wait for a second
  /// slot).
  func compiledLauncherFiles(_ className: String) -> [BoxFile]? {
    launchers.withLock { $0[className] }.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The class files of the launcher `className` from `source`, compiled once by the Java runner
  /// (in a box, through the cache; a compile that failed is not tried again), as `out/...` paths.
  func launcherFiles(_ className: String, source: String, executor: Executor) -> [BoxFile]? {
    cachedLauncher(className) {
      guard let java = try? executor.runner(language: "java", version: nil),
        let program = try? executor.prepare(
          java, requestedAs: java.language,
          files: [SourceFile(name: className + ".java", contents: Data(source.utf8))]),
        program.isRunnable, program.mainClass == className, let files = program.runFiles
      else { return nil }
      return files.map { BoxFile(name: $0.0, contents: $0.1, executable: $0.2) }
    }
  }

  /// The launcher known as `key`, made by `make` the first time (a failure is kept as well).
  func cachedLauncher(_ key: String, make: () -> [BoxFile]?) -> [BoxFile]? {
    if let known = launchers.withLock({ $0[key] }) { return known.isEmpty ? nil : known }
    let files = make() ?? []
    launchers.withLock { $0[key] = files }
    return files.isEmpty ? nil : files
  }

  /// The handover message: the arguments' count, the class and the arguments, each ended by NUL.
  static func handover(mainClass: String, arguments: [String]) -> Data {
    Data(([String(arguments.count), mainClass] + arguments).map { $0 + "\u{0}" }.joined().utf8)
  }

  /// The Java launcher. Nothing it does before the handover writes to stdout, reads stdin past
  /// its message, or changes what a learner's program can observe.
  static let javaLauncher = #"""
    import java.io.ByteArrayOutputStream;
    import java.io.FileDescriptor;
    import java.io.FileInputStream;
    import java.io.FileOutputStream;
    import java.io.IOException;
    import java.lang.reflect.InvocationTargetException;
    import java.lang.reflect.Method;
    import java.nio.charset.StandardCharsets;
    import java.util.ArrayList;
    import java.util.Collections;
    import java.util.HashMap;
    import java.util.IdentityHashMap;
    import java.util.List;
    import java.util.Map;
    import java.util.Scanner;

    public final class DsaRunPrewarmLauncher {
      private DsaRunPrewarmLauncher() {}

      public static void main(String[] ignored) throws Throwable {
        warmUp();
        FileOutputStream err = new FileOutputStream(FileDescriptor.err);
        err.write("\u0000dsa-run-prewarm-ready\n".getBytes(StandardCharsets.US_ASCII));
        err.flush();
        FileInputStream in = new FileInputStream(FileDescriptor.in);
        int count = Integer.parseInt(field(in));
        String className = field(in);
        String[] arguments = new String[count];
        for (int index = 0; index < count; index++) arguments[index] = field(in);
        Class<?> main = Class.forName(className, false, ClassLoader.getSystemClassLoader());
        Method method = main.getMethod("main", String[].class);
        method.setAccessible(true);
        try {
          method.invoke(null, (Object) arguments);
        } catch (InvocationTargetException error) {
          Throwable cause = error.getCause();
          trim(cause, new IdentityHashMap<>());
          throw cause;
        } catch (ExceptionInInitializerError error) {
          trim(error, new IdentityHashMap<>());
          throw error;
        }
      }

      /// One NUL-ended field of the handover, read a byte at a time: nothing past it is taken.
      private static String field(FileInputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (true) {
          int next = in.read();
          if (next < 0) System.exit(125);
          if (next == 0) return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
          bytes.write(next);
        }
      }

      /// Cuts the frames the launcher adds under the learner's main (reflection's and its own)
      /// from a throwable, its causes and its suppressed ones.
      private static void trim(Throwable thrown, Map<Throwable, Boolean> seen) {
        if (thrown == null || seen.put(thrown, Boolean.TRUE) != null) return;
        StackTraceElement[] trace = thrown.getStackTrace();
        int end = trace.length;
        while (end > 0 && added(trace[end - 1])) end--;
        if (end < trace.length) {
          StackTraceElement[] kept = new StackTraceElement[end];
          System.arraycopy(trace, 0, kept, 0, end);
          thrown.setStackTrace(kept);
        }
        trim(thrown.getCause(), seen);
        for (Throwable suppressed : thrown.getSuppressed()) trim(suppressed, seen);
      }

      private static boolean added(StackTraceElement frame) {
        String name = frame.getClassName();
        return name.equals(DsaRunPrewarmLauncher.class.getName())
          || name.startsWith("jdk.internal.reflect.")
          || name.equals("java.lang.reflect.Method");
      }

      /// What most learners' first lines cost a cold JVM: Scanner and its patterns, formatting,
      /// collections, a lambda's bootstrap, strings to numbers and back.
      private static void warmUp() {
        Scanner scanner = new Scanner("12 -3 4.5 word\nline\n");
        long total = scanner.nextInt() + scanner.nextLong();
        total += (long) scanner.nextDouble();
        total += scanner.next().length() + scanner.nextLine().length() + scanner.nextLine().length();
        total += scanner.hasNextInt() ? 1 : 0;
        List<Integer> values = new ArrayList<>();
        for (int index = 0; index < 64; index++) values.add((index * 37) % 64);
        Collections.sort(values);
        values.sort((left, right) -> Integer.compare(right, left));
        Map<String, Integer> counts = new HashMap<>();
        counts.merge("a", 1, Integer::sum);
        total += values.stream().mapToInt(Integer::intValue).filter(value -> value % 2 == 0).sum();
        String text = String.format("%d %s %.2f", total, counts, 1.5) + String.join(",", "a", "b");
        StringBuilder builder = new StringBuilder(text);
        builder.reverse();
        total += Integer.parseInt("42") + Long.parseLong("-7") + builder.length() + Double.toString(0.1).length();
        if (total == Long.MIN_VALUE) System.err.print("");
      }
    }
    """#

  /// The Python launcher, started as the run's program (`{source}`): it reads the handover (the
  /// count of arguments, the program's file name in /box, the arguments) a byte at a time, then runs
  /// the file as the interpreter would have: in a new `__main__` module with the cold run's
  /// attributes, `sys.argv` the cold run's, and a hook that prints an uncaught exception with the
  /// interpreter's own hook after cutting the launcher's frames. The interpreter's start (`-S`,
  /// `-X utf8`, the environment) is the run's own; nothing is imported before the handover.
  static let pythonLauncher = #"""
    # dsa-run's pre-warmed Python launcher (docs/security.md, "Pre-warmed boxes"): started as a run's
    # program, it waits for one learner's program and runs it as the interpreter would have.
    import sys


    def _dsa_run_handover():
        # Only what the interpreter loaded at its start: importing more would be the learner's cost.
        posix = sys.modules["posix"]
        posix.write(2, b"\0dsa-run-prewarm-ready\n")

        def field():
            data = bytearray()
            while True:
                byte = posix.read(0, 1)
                if not byte:
                    posix._exit(125)
                if byte == b"\0":
                    return data.decode("utf-8", "surrogateescape")
                data += byte

        count = int(field())
        name = field()
        return name, [field() for _ in range(count)]


    def _dsa_run_main():
        name, arguments = _dsa_run_handover()
        path = sys.path[0].rstrip("/") + "/" + name
        with open(path, "rb") as file:
            source = file.read()
        main = type(sys)("__main__")
        main.__file__ = path
        main.__cached__ = None
        main.__loader__ = sys.modules["_frozen_importlib_external"].SourceFileLoader("__main__", path)
        main.__builtins__ = sys.modules["builtins"]
        main.__annotations__ = {}
        sys.modules["__main__"] = main
        sys.argv[:] = [name] + arguments
        launcher = sys._getframe(0).f_code.co_filename

        def excepthook(kind, value, traceback):
            # The learner's frames only, printed by the interpreter's own hook, as cold.
            while traceback is not None and traceback.tb_frame.f_code.co_filename == launcher:
                traceback = traceback.tb_next
            if isinstance(value, BaseException):
                value.__traceback__ = traceback
            sys.__excepthook__(kind, value, traceback)

        sys.excepthook = excepthook
        exec(compile(source, path, "exec", dont_inherit=True), main.__dict__)


    _dsa_run_main()
    """#
}

extension Executor {
  /// Runs `spec` in a pre-warmed box when the pool has one for it: the outcome, or nil for a cold
  /// run (no pool for the language, a miss, or a box that stopped waiting).
  func prewarmedRun(
    _ program: PreparedProgram, spec: BoxSpec, files: [BoxFile], stdin: Data, arguments: [String],
    limits: BoxLimits
  ) throws(ExecuteError) -> Outcome? {
    // The program as the handover names it: its class on the JVM, its file for Python.
    let entry = program.runner.language == "python" ? program.mainFile : program.mainClass
    guard let prewarm, prewarm.pool.serves(program.runner.language), !spec.mergesStderrIntoStdout,
      !spec.terminal, !entry.isEmpty,
      let recipe = prewarmRunRecipe(program.runner, policy: program.policy, limits: limits)
    else { return nil }
    guard let box = prewarm.pool.take(recipe, family: program.runner.language) else { return nil }
    // The box's spec is the one it started with: the run's own class (or file) and arguments come
    // with the handover.
    do throws(SandboxError) {
      return try box.handOver(
        spec: recipe.spec, files: files, handover: PrewarmRuns.handover(mainClass: entry, arguments: arguments),
        stdin: stdin)
    } catch {
      throw .sandbox(error)
    }
  }

  /// The recipe of `runner`'s run launcher under `limits`: Python's script, or the Java launcher
  /// once compiled (nil before, and for a language with none).
  func prewarmRunRecipe(_ runner: Runner, policy: SeccompPolicy, limits: BoxLimits) -> PrewarmRecipe? {
    guard let prewarm, PrewarmRuns.runLanguages.contains(runner.language) else { return nil }
    if runner.language == "python" {
      return PrewarmRecipe(
        spec: prewarmSpec(
          runner, policy: policy, limits: limits, mainFile: PrewarmRuns.pythonLauncherFile, mainClass: ""),
        files: [BoxFile(name: PrewarmRuns.pythonLauncherFile, contents: Data(PrewarmRuns.pythonLauncher.utf8))],
        readyMarker: PrewarmRuns.readyMarker)
    }
    guard let launcher = prewarm.compiledLauncherFiles(PrewarmRuns.javaLauncherClass) else { return nil }
    return PrewarmRecipe(
      spec: prewarmSpec(runner, policy: policy, limits: limits, mainFile: "", mainClass: PrewarmRuns.javaLauncherClass),
      files: launcher, readyMarker: PrewarmRuns.readyMarker)
  }

  /// The run step's spec for `runner` under `limits`, starting `mainFile` or `mainClass` with no
  /// arguments.
  func prewarmSpec(_ runner: Runner, policy: SeccompPolicy, limits: BoxLimits, mainFile: String, mainClass: String)
    -> BoxSpec
  {
    var spec = BoxSpec(
      command: expand(runner.run.argv, mainFile: mainFile, mainClass: mainClass, limits: limits),
      environment: expand(runner.run.environment, mainFile: mainFile, mainClass: mainClass, limits: limits),
      policy: policy)
    spec.limits = limits
    spec.readOnlyMounts = runner.mounts + runner.run.mounts
    spec.outOfMemoryTexts = runner.run.memoryErrorPatterns
    return spec
  }

  /// The pool's first recipe per family: a run's for the runner's default run limits, a compile's
  /// (whose limits are the step's own), so the first request after the start can hit already.
  public func prewarmAhead() {
    guard let prewarm else { return }
    for family in prewarm.pool.sizes.keys.sorted() {
      let language = String(family.split(separator: ":")[0])
      guard let runner = try? runner(language: language, version: nil), let policy = policies[runner.policy] else {
        continue
      }
      if family == PrewarmRuns.compileFamily(language) {
        guard
          prewarm.launcherFiles(
            PrewarmCompiler.launcherClass, source: PrewarmCompiler.launcherSource, executor: self) != nil,
          let recipe = prewarmCompileRecipe(runner, policy: policy)
        else { continue }
        prewarm.pool.want(recipe, family: family)
        continue
      }
      if PrewarmDart.languages.contains(language) {
        guard prewarm.dartLauncherFiles(runner, executor: self) != nil,
          let recipe = prewarmSourceRunRecipe(runner, policy: policy, limits: runner.runLimits(StepLimits()))
        else { continue }
        prewarm.pool.want(recipe, family: family)
        continue
      }
      if language != "python" {
        guard
          prewarm.launcherFiles(PrewarmRuns.javaLauncherClass, source: PrewarmRuns.javaLauncher, executor: self)
            != nil
        else { continue }
      }
      guard let recipe = prewarmRunRecipe(runner, policy: policy, limits: runner.runLimits(StepLimits())) else {
        continue
      }
      prewarm.pool.want(recipe, family: family)
    }
  }
}

/// Slots known only after the pool is made; until then none is idle.
final class LateBoundSlots: PrewarmSlots {
  private let slots: Mutex<(any PrewarmSlots)?>

  init(_ slots: (any PrewarmSlots)?) { self.slots = Mutex(slots) }

  func bind(_ slots: any PrewarmSlots) { self.slots.withLock { $0 = slots } }

  func runIfIdle(_ work: @escaping @Sendable () -> Void) -> Bool {
    guard let slots = slots.withLock({ $0 }) else { return false }
    return slots.runIfIdle(work)
  }
}
