import Foundation
import Sandbox

/// Pre-warmed compile steps: for the JVM compilers (javac, kotlinc), whose own start and first
/// compile take most of a new program's wait, boxes whose compiler JVM started with the compile
/// step's flags and limits and compiled a warm-up file (output in its /tmp), then waits on its stdin for
/// one learner's compile. Each serves that one compile and is destroyed, as a pre-warmed run's box
/// is (docs/security.md, "Pre-warmed boxes").
///
/// The launcher (`DsaRunCompileLauncher`, compiled by the Java runner) is started in place of the
/// compiler's entry point, with the compiler's name and the warm-up's arguments; the handover is the
/// number of arguments and the arguments of the learner's compile, each ended by NUL. It then calls
/// the compiler's own `main` with them, as the cold step's JVM does, so its messages, its files and
/// its exit status are the cold compile's.
struct PrewarmCompiler: Sendable {
  /// The launcher's first argument: which compiler it warms and calls.
  let name: String
  /// The class or module entry in the runner's compile argv that the launcher stands in for.
  let entry: String
  /// The warm-up source, placed beside the launcher and compiled before the ready marker.
  let warmUpFileName: String
  let warmUpSource: String

  /// The compilers with a launcher, by language.
  static let byLanguage: [String: PrewarmCompiler] = [
    "java": PrewarmCompiler(
      name: "javac", entry: "jdk.compiler/com.sun.tools.javac.Main", warmUpFileName: "Main.java",
      warmUpSource: """
        import java.util.*;
        import java.util.stream.*;

        public class Main {
          record Edge(int to, long weight) {}

          interface Shape { double area(); }

          public static void main(String[] args) {
            Scanner in = new Scanner(System.in);
            List<Integer> values = new ArrayList<>();
            while (in.hasNextInt()) values.add(in.nextInt());
            Collections.sort(values, Comparator.reverseOrder());
            Map<Integer, Long> counts = values.stream().collect(Collectors.groupingBy(v -> v % 3, Collectors.counting()));
            PriorityQueue<Edge> queue = new PriorityQueue<>(Comparator.comparingLong(Edge::weight));
            queue.add(new Edge(1, 5));
            Shape square = () -> 4.0;
            int[][] grid = new int[3][3];
            StringBuilder out = new StringBuilder();
            for (int[] row : grid) out.append(Arrays.toString(row));
            System.out.printf("%d %s %s %.1f %s%n", values.size(), counts, queue.peek(), square.area(), out);
          }
        }

        """),
    "kotlin": PrewarmCompiler(
      name: "kotlinc", entry: "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler", warmUpFileName: "main.kt",
      warmUpSource: """
        import java.util.PriorityQueue

        data class Edge(val to: Int, val weight: Long)

        fun main() {
            val values = (readLine() ?: "3 1 2").split(" ").filter { it.isNotBlank() }.map { it.toInt() }.toMutableList()
            values.sortDescending()
            val counts = values.groupingBy { it % 3 }.eachCount()
            val queue = PriorityQueue<Edge>(compareBy { it.weight })
            queue.add(Edge(1, 5))
            val grid = Array(3) { IntArray(3) }
            val text = buildString { for (row in grid) append(row.joinToString(",")) }
            println("${values.size} $counts ${queue.peek()} $text ${"%.1f".format(1.5)}")
        }

        """),
  ]

  static let launcherClass = "DsaRunCompileLauncher"
  /// Where the launcher's class file sits in /box until the handover removes it.
  static let launcherDirectory = "dsa-run-launcher"
  /// Where the warm-up's classes go, in the box's own /tmp; the launcher removes them before it is ready.
  static let warmUpDirectory = "/tmp/dsa-run-warm-up"

  /// The warm-up source's path in /box (removed with the launcher at the handover).
  var warmUpPath: String { Self.launcherDirectory + "/warm-up/" + warmUpFileName }

  /// The compile argv's parts: what starts the JVM (before the compiler's entry), the class path
  /// the compiler's entry had (kotlinc's jar; none for javac's module), and the compiler's arguments.
  func split(_ argv: [String]) -> (jvm: [String], classPath: String?, arguments: [String])? {
    guard let at = argv.firstIndex(of: entry) else { return nil }
    if at >= 1, argv[at - 1] == "-m" {
      return (Array(argv[..<(at - 1)]), nil, Array(argv[(at + 1)...]))
    }
    guard at >= 2, argv[at - 2] == "-cp" || argv[at - 2] == "-classpath" else { return nil }
    return (Array(argv[..<(at - 2)]), argv[at - 1], Array(argv[(at + 1)...]))
  }

  /// The launcher's command for `argv` (the compile step's, expanded for the warm-up): the JVM as
  /// the step starts it, the launcher on its class path, the compiler's name and the warm-up's
  /// arguments (its output directory moved to /tmp).
  func command(_ argv: [String]) -> [String]? {
    guard let (jvm, classPath, arguments) = split(argv), let output = arguments.firstIndex(of: "-d"),
      output + 1 < arguments.count
    else { return nil }
    var warmUp = arguments
    warmUp[output + 1] = Self.warmUpDirectory + "/out"
    let launcherPath = "/box/" + Self.launcherDirectory
    return jvm + ["-cp", classPath.map { $0 + ":" + launcherPath } ?? launcherPath, Self.launcherClass, name] + warmUp
  }

  /// The handover: the number of arguments, then each argument, each ended by NUL.
  static func handover(_ arguments: [String]) -> Data {
    Data(([String(arguments.count)] + arguments).map { $0 + "\u{0}" }.joined().utf8)
  }

  /// The launcher's source. Until the handover it writes nothing on stdout and only its ready
  /// marker on stderr, and leaves nothing in /box or /tmp but its own class.
  static let launcherSource = #"""
    import java.io.ByteArrayOutputStream;
    import java.io.FileDescriptor;
    import java.io.FileInputStream;
    import java.io.FileOutputStream;
    import java.io.IOException;
    import java.io.OutputStream;
    import java.io.PrintStream;
    import java.lang.reflect.InvocationTargetException;
    import java.lang.reflect.Method;
    import java.nio.charset.StandardCharsets;
    import java.nio.file.Files;
    import java.nio.file.Path;
    import java.util.Comparator;
    import java.util.stream.Stream;

    public final class DsaRunCompileLauncher {
      private DsaRunCompileLauncher() {}

      public static void main(String[] launch) throws Throwable {
        String compiler = launch[0];
        String[] warmUpArguments = new String[launch.length - 1];
        System.arraycopy(launch, 1, warmUpArguments, 0, warmUpArguments.length);
        warmUp(compiler, warmUpArguments);
        FileOutputStream err = new FileOutputStream(FileDescriptor.err);
        err.write("\u0000dsa-run-prewarm-ready\n".getBytes(StandardCharsets.US_ASCII));
        err.flush();
        FileInputStream in = new FileInputStream(FileDescriptor.in);
        int count = Integer.parseInt(field(in));
        String[] arguments = new String[count];
        for (int index = 0; index < count; index++) arguments[index] = field(in);
        try {
          entry(compiler).invoke(null, (Object) arguments);
        } catch (InvocationTargetException error) {
          throw error.getCause();
        }
      }

      /// The compiler's own main, as the cold step's JVM calls it.
      private static Method entry(String compiler) throws ReflectiveOperationException {
        String name = compiler.equals("javac") ? "com.sun.tools.javac.Main" : "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler";
        return Class.forName(name).getMethod("main", String[].class);
      }

      /// One compile of the warm-up file with the learner's compile's arguments (output in /tmp),
      /// its messages thrown away; then the warm-up's files are removed.
      private static void warmUp(String compiler, String[] arguments) throws Throwable {
        Path directory = Path.of("/tmp/dsa-run-warm-up");
        Files.createDirectories(directory.resolve("out"));
        PrintStream standardOut = System.out;
        PrintStream standardErr = System.err;
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        System.setOut(nowhere);
        System.setErr(nowhere);
        try {
          if (compiler.equals("javac")) {
            Class<?> main = Class.forName("com.sun.tools.javac.Main");
            main.getMethod("compile", String[].class, java.io.PrintWriter.class)
              .invoke(null, arguments, new java.io.PrintWriter(nowhere));
          } else {
            Class<?> k2 = Class.forName("org.jetbrains.kotlin.cli.jvm.K2JVMCompiler");
            Class<?> cli = Class.forName("org.jetbrains.kotlin.cli.common.CLICompiler");
            Object companion = cli.getField("Companion").get(null);
            companion.getClass().getMethod("doMainNoExit", cli, String[].class)
              .invoke(companion, k2.getConstructor().newInstance(), arguments);
          }
        } finally {
          System.setOut(standardOut);
          System.setErr(standardErr);
          if (Files.exists(directory)) {
            try (Stream<Path> paths = Files.walk(directory)) {
              for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(path);
            }
          }
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
    }
    """#
}

extension Executor {
  /// The recipe of `runner`'s pre-warmed compile box: the launcher's command in the compile step's
  /// spec, with the launcher's class and the warm-up source as its files. Nil when the language has
  /// no compile launcher, or the launcher is not compiled yet.
  func prewarmCompileRecipe(_ runner: Runner, policy: SeccompPolicy) -> PrewarmRecipe? {
    guard let prewarm, let compiler = PrewarmCompiler.byLanguage[runner.language], let step = runner.compile,
      let launcher = prewarm.compiledLauncherFiles(PrewarmCompiler.launcherClass)
    else { return nil }
    let limits = step.limits.applied(to: BoxLimits())
    let warmUp = compiler.warmUpPath
    guard
      let command = compiler.command(
        expand(step.argv, mainFile: warmUp, mainClass: "", limits: limits, sources: [warmUp]))
    else { return nil }
    var spec = BoxSpec(
      command: command, environment: expand(step.environment, mainFile: warmUp, mainClass: "", limits: limits),
      policy: policy)
    spec.limits = limits
    spec.readOnlyMounts = runner.mounts + step.mounts
    let classes = launcher.map { file in
      BoxFile(
        name: PrewarmCompiler.launcherDirectory + "/"
          + (file.name.split(separator: "/").last.map(String.init) ?? file.name),
        contents: file.contents)
    }
    return PrewarmRecipe(
      spec: spec, files: classes + [BoxFile(name: warmUp, contents: Data(compiler.warmUpSource.utf8))],
      readyMarker: PrewarmRuns.readyMarker)
  }

  /// Compiles `command` (the cold compile's) in a pre-warmed compile box when the pool has one for
  /// its runner: what `finish` made of it, or nil for a cold compile (no pool for the language, a
  /// miss, or a box that stopped waiting).
  func prewarmedCompile<Result>(
    _ command: BoxCommand, runner: Runner, policy: SeccompPolicy,
    finish: (Outcome, any BoxEnvironment) throws(SandboxError) -> Result
  ) throws(ExecuteError) -> Result? {
    let family = PrewarmRuns.compileFamily(runner.language)
    guard let prewarm, prewarm.pool.serves(family), let compiler = PrewarmCompiler.byLanguage[runner.language],
      let arguments = compiler.split(command.spec.command)?.arguments,
      let recipe = prewarmCompileRecipe(runner, policy: policy),
      let box = prewarm.pool.take(recipe, family: family)
    else { return nil }
    do throws(SandboxError) {
      return try box.handOver(
        spec: recipe.spec, files: command.files, handover: PrewarmCompiler.handover(arguments), stdin: Data(),
        finish: finish)
    } catch {
      throw .sandbox(error)
    }
  }
}
