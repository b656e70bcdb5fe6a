import Foundation
import SandboxTesting
import Testing

@testable import Runners
@testable import Sandbox

// A pre-warmed compile (javac's or kotlinc's JVM started, and warmed by one compile, before the
// request) is the cold compile's twin: the same messages, status, exit code and classes, so the
// same run after it.

enum PrewarmCompileFixture {
  static let prewarm: PrewarmRuns = {
    let runs = PrewarmRuns(
      host: PrewarmFixture.host, sizes: ["java": 1, "kotlin": 1, "python": 1], slots: AlwaysIdleSlots())
    runs.pool.start()
    return runs
  }()
  /// No compile cache: every request compiles, cold or pre-warmed.
  static let executor = uncachedExecutor(prewarm: prewarm)
  static let coldExecutor = uncachedExecutor(prewarm: nil)

  /// An executor on a pool of its own without a compile cache, with `prewarm`'s boxes or none.
  static func uncachedExecutor(prewarm: PrewarmRuns?) -> Executor {
    let base = RunnersFixture.executor
    return Executor(
      environments: BoxPool(host: PrewarmFixture.host), catalog: base.catalog, policies: base.policies, cache: nil,
      prewarm: prewarm)
  }

  /// Waits (up to two minutes: kotlinc's warm-up on a loaded host) until `family` has a box.
  static func awaitReady(_ family: String) throws {
    executor.prewarmAhead()
    for _ in 0..<1200 {
      if prewarm.pool.counts[family]?.ready == 1 { return }
      usleep(100_000)
    }
    throw PrewarmTestError.notReady(prewarm.pool.counts[family].map { "\($0)" } ?? "no pool for \(family)")
  }

  static func hits(_ family: String) -> UInt64 { prewarm.pool.counts[family]?.hits ?? 0 }
}

/// Compiles and runs `files` cold and with a pre-warmed compile, and returns both.
func coldAndWarmCompile(_ language: String, _ files: [(String, String)], stdin: String = "") throws -> (
  cold: ExecuteResult, warm: ExecuteResult
) {
  var request = ExecuteRequest(
    language: language, files: files.map { SourceFile(name: $0.0, contents: Data($0.1.utf8)) })
  request.stdin = Data(stdin.utf8)
  let cold = try PrewarmCompileFixture.coldExecutor.execute(request)
  let family = PrewarmRuns.compileFamily(language)
  try PrewarmCompileFixture.awaitReady(family)
  let hitsBefore = PrewarmCompileFixture.hits(family)
  let warm = try PrewarmCompileFixture.executor.execute(request)
  #expect(PrewarmCompileFixture.hits(family) == hitsBefore + 1, "the compile did not take the pre-warmed box")
  return (cold, warm)
}

/// The compile's messages, status and exit code, and the run's output, are the same both ways.
func expectTwins(_ cold: ExecuteResult, _ warm: ExecuteResult, _ name: String) {
  let coldCompile = cold.compile.map { String(decoding: $0.stdout + $0.stderr, as: UTF8.self) }
  let warmCompile = warm.compile.map { String(decoding: $0.stdout + $0.stderr, as: UTF8.self) }
  #expect(warmCompile == coldCompile, "\(name): cold\n\(coldCompile ?? "-")\nwarm\n\(warmCompile ?? "-")")
  #expect(warm.compile?.stdout == cold.compile?.stdout && warm.compile?.stderr == cold.compile?.stderr, "\(name)")
  #expect(warm.compile?.status == cold.compile?.status, "\(name)")
  #expect(warm.compile?.exitCode == cold.compile?.exitCode, "\(name)")
  #expect(warm.compile?.message == cold.compile?.message, "\(name)")
  #expect(warm.stdout == cold.stdout && warm.stderr == cold.stderr, "\(name): \(warm.stdout) \(warm.stderr)")
  #expect(warm.run?.status == cold.run?.status && warm.run?.exitCode == cold.run?.exitCode, "\(name)")
}

@Suite(.serialized) struct PrewarmCompileTests {
  static let javaFiles: [(String, [(String, String)], String)] = [
    (
      "good",
      [("Main.java", "public class Main { public static void main(String[] a) { System.out.println(\"Hello\"); } }\n")],
      "Hello\n"
    ),
    (
      "syntax error",
      [
        (
          "Main.java",
          "public class Main {\n  public static void main(String[] a) {\n    System.out.println(\"x\")\n  }\n}\n"
        )
      ],
      ""
    ),
    (
      "type error",
      [("Main.java", "public class Main {\n  public static void main(String[] a) {\n    int x = \"text\";\n  }\n}\n")],
      ""
    ),
    (
      "a warning",
      [
        (
          "Main.java",
          "import java.util.*;\npublic class Main {\n  @Deprecated static void old() {}\n  public static void main(String[] a) {\n    List raw = new ArrayList();\n    raw.add(1);\n    System.out.println(raw);\n  }\n}\n"
        )
      ], "[1]\n"
    ),
    (
      "unicode",
      [
        (
          "Main.java",
          "public class Main {\n  public static void main(String[] a) {\n    int größe = 3;\n    System.out.println(\"héllo ✓ \" + größe);\n    String bad = 'zu lang';\n  }\n}\n"
        )
      ], ""
    ),
    (
      "two files",
      [
        (
          "Main.java",
          "public class Main { public static void main(String[] a) { System.out.println(Helper.twice(21)); } }\n"
        ),
        ("Helper.java", "public class Helper { static int twice(int x) { return 2 * x; } }\n"),
      ], "42\n"
    ),
  ]

  static let kotlinFiles: [(String, [(String, String)], String)] = [
    ("good", [("main.kt", "fun main() {\n    println(listOf(3, 1, 2).sorted())\n}\n")], "[1, 2, 3]\n"),
    ("syntax error", [("main.kt", "fun main() {\n    println(\"x\"\n}\n")], ""),
    ("type error", [("main.kt", "fun main() {\n    val x: Int = \"text\"\n    println(x)\n}\n")], ""),
    ("a warning", [("main.kt", "fun main() {\n    val unused = 1\n    println(\"ok\")\n}\n")], "ok\n"),
    ("unicode", [("main.kt", "fun main() {\n    val größe = 3\n    println(\"héllo ✓ $größe\")\n}\n")], "héllo ✓ 3\n"),
    (
      "two files",
      [("main.kt", "fun main() {\n    println(twice(21))\n}\n"), ("helper.kt", "fun twice(x: Int) = 2 * x\n")], "42\n"
    ),
  ]

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func javacPreWarmedCompilesAsCold() throws {
    for (name, files, expected) in Self.javaFiles {
      let (cold, warm) = try coldAndWarmCompile("java", files)
      expectTwins(cold, warm, name)
      #expect(warm.stdout == expected, "\(name)")
    }
  }

  @Test(.enabled(if: installed("kotlin"), "needs the Kotlin toolchain"))
  func kotlincPreWarmedCompilesAsCold() throws {
    for (name, files, expected) in Self.kotlinFiles {
      let (cold, warm) = try coldAndWarmCompile("kotlin", files)
      expectTwins(cold, warm, name)
      #expect(warm.stdout == expected, "\(name)")
    }
  }

  /// The compile's CPU time is the learner's compile only: the warm-up (a JVM's start and one whole
  /// compile) was charged to nobody.
  @Test(.enabled(if: installed("kotlin"), "needs the Kotlin toolchain"))
  func theWarmUpIsNotChargedToTheCompile() throws {
    let (cold, warm) = try coldAndWarmCompile("kotlin", [("main.kt", "fun main() {\n    println(1)\n}\n")])
    let coldCPU = try #require(cold.compile?.cpuMilliseconds)
    let warmCPU = try #require(warm.compile?.cpuMilliseconds)
    #expect(warmCPU * 2 < coldCPU, "warm \(warmCPU) ms against cold \(coldCPU) ms")
    #expect(warm.stdout == "1\n")
  }

  /// The classes the run gets are the learner's only: the warm-up's (compiled to the box's /tmp)
  /// and the launcher's stay behind in the compile box, which is destroyed.
  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func theRunGetsTheLearnersClassesOnly() throws {
    let source = """
      import java.io.File;
      public class Main {
        public static void main(String[] a) {
          String[] tmp = new File("/tmp").list();
          String[] classes = new File("out").list();
          java.util.Arrays.sort(classes);
          System.out.println(tmp.length + " " + String.join(",", new File(".").list()) + " " + String.join(",", classes));
        }
      }

      """
    let (cold, warm) = try coldAndWarmCompile("java", [("Main.java", source)])
    expectTwins(cold, warm, "leftovers")
    #expect(warm.stdout == "0 out Main.class\n", "\(warm.stdout)")
  }
}

/// Kotlin's run on the Java run launcher (with Kotlin's class path) is the cold run's twin too.
@Suite(.serialized) struct PrewarmKotlinRunTests {
  func coldAndWarmRun(_ source: String, stdin: String = "", arguments: [String] = []) throws -> (
    cold: ExecuteResult, warm: ExecuteResult
  ) {
    var request = ExecuteRequest(language: "kotlin", files: [SourceFile(name: "", contents: Data(source.utf8))])
    request.stdin = Data(stdin.utf8)
    request.arguments = arguments
    let cold = try PrewarmCompileFixture.coldExecutor.execute(request)
    try PrewarmCompileFixture.awaitReady("kotlin")
    try PrewarmCompileFixture.awaitReady(PrewarmRuns.compileFamily("kotlin"))
    let hitsBefore = PrewarmCompileFixture.hits("kotlin")
    let warm = try PrewarmCompileFixture.executor.execute(request)
    #expect(PrewarmCompileFixture.hits("kotlin") == hitsBefore + 1, "the run did not take the pre-warmed box")
    return (cold, warm)
  }

  @Test(.enabled(if: installed("kotlin"), "needs the Kotlin toolchain"))
  func stdinArgumentsExitAndCrashesAreTheColdRunsOnes() throws {
    let echo = """
      fun main(args: Array<String>) {
          generateSequence(::readLine).forEach { println("echo $it") }
          println(args.size.toString() + " " + args.joinToString("|"))
          println(System.getProperty("java.class.path") + " " + System.getProperty("user.dir"))
          System.err.println("to stderr")
      }

      """
    let (cold, warm) = try coldAndWarmRun(echo, stdin: "one\ntwo é\n", arguments: ["a b", "", "ç"])
    #expect(warm.stdout == cold.stdout && warm.stderr == cold.stderr, "cold \(cold.stdout) warm \(warm.stdout)")
    #expect(warm.stdout.hasPrefix("echo one\necho two é\n3 a b||ç\n"), "\(warm.stdout)")

    let exiting = "fun main() {\n    print(\"bye\")\n    kotlin.system.exitProcess(3)\n}\n"
    let exit = try coldAndWarmRun(exiting)
    #expect(exit.warm.run?.exitCode == 3 && exit.cold.run?.exitCode == 3 && exit.warm.stdout == "bye")

    let crashing = """
      fun inner(depth: Int): Int = if (depth == 0) throw IllegalStateException("boom") else inner(depth - 1)

      fun main() {
          println("before")
          println(inner(2))
      }

      """
    let crash = try coldAndWarmRun(crashing)
    #expect(crash.warm.stderr == crash.cold.stderr, "cold:\n\(crash.cold.stderr)\nwarm:\n\(crash.warm.stderr)")
    #expect(crash.warm.stderr.contains("Exception in thread \"main\" java.lang.IllegalStateException: boom"))
    #expect(!crash.warm.stderr.contains("DsaRunPrewarmLauncher"))
    #expect(crash.warm.run?.exitCode == crash.cold.run?.exitCode && crash.warm.stdout == "before\n")
  }
}

/// A Python run in a pre-warmed interpreter (started with the run's argv and environment, the
/// launcher in place of the program) is the cold run's twin.
@Suite(.serialized) struct PrewarmPythonTests {
  func coldAndWarmRun(_ files: [(String, String)], stdin: String = "", arguments: [String] = []) throws -> (
    cold: ExecuteResult, warm: ExecuteResult
  ) {
    var request = ExecuteRequest(
      language: "python", files: files.map { SourceFile(name: $0.0, contents: Data($0.1.utf8)) })
    request.stdin = Data(stdin.utf8)
    request.arguments = arguments
    let cold = try PrewarmCompileFixture.coldExecutor.execute(request)
    try PrewarmCompileFixture.awaitReady("python")
    let hitsBefore = PrewarmCompileFixture.hits("python")
    let warm = try PrewarmCompileFixture.executor.execute(request)
    #expect(PrewarmCompileFixture.hits("python") == hitsBefore + 1, "the run did not take the pre-warmed box")
    #expect(warm.stdout == cold.stdout, "cold:\n\(cold.stdout)\nwarm:\n\(warm.stdout)")
    #expect(warm.stderr == cold.stderr, "cold:\n\(cold.stderr)\nwarm:\n\(warm.stderr)")
    #expect(warm.run?.status == cold.run?.status && warm.run?.exitCode == cold.run?.exitCode)
    return (cold, warm)
  }

  @Test(.enabled(if: installed("python"), "needs the Python toolchain"))
  func theProgramSeesTheColdRunsWorld() throws {
    let source = """
      import sys
      print(sys.argv, __name__, __file__, sorted(k for k in globals() if k.startswith("__")))
      print(sys.path[0], sys.modules["__main__"].__dict__ is globals(), __loader__.name, __spec__, __cached__)
      print(sorted(sys.modules), sys.flags.no_site, sys.flags.utf8_mode)
      print(repr(sys.stdin.read()))
      import os
      print(sorted(os.listdir(".")), os.getcwd())

      """
    let (_, warm) = try coldAndWarmRun([("main.py", source)], stdin: "in put é\n", arguments: ["a", "b c", ""])
    #expect(warm.stdout.hasPrefix("['main.py', 'a', 'b c', ''] __main__ /box/main.py"), "\(warm.stdout)")
  }

  @Test(.enabled(if: installed("python"), "needs the Python toolchain"))
  func failuresExitsAndImportsAreTheColdRunsOnes() throws {
    let crash =
      "def inner(d):\n    if d == 0:\n        raise ValueError('boom')\n    inner(d - 1)\n\nprint('before')\ninner(2)\n"
    let crashed = try coldAndWarmRun([("main.py", crash)]).warm
    #expect(crashed.stderr.contains("ValueError: boom") && !crashed.stderr.contains("dsa_run_launcher"))
    #expect(crashed.stderr.hasPrefix("Traceback (most recent call last):\n  File \"main.py\", line 7"))
    let syntax = try coldAndWarmRun([("main.py", "print(1\n")]).warm
    #expect(syntax.stderr.contains("SyntaxError") && !syntax.stderr.contains("dsa_run_launcher"))
    let exited = try coldAndWarmRun([("main.py", "import sys\nprint('bye', end='')\nsys.exit(3)\n")]).warm
    #expect(exited.run?.exitCode == 3 && exited.stdout == "bye")
    let message = try coldAndWarmRun([("main.py", "import sys\nsys.exit('a message')\n")]).warm
    #expect(message.run?.exitCode == 1 && message.stderr == "a message\n")
    let chained = "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    raise KeyError('k') from e\n"
    _ = try coldAndWarmRun([("main.py", chained)])
    let files = [
      ("main.py", "import helper\nfrom dsa import Recorder\nprint(helper.twice(21), Recorder)\n"),
      ("helper.py", "def twice(x):\n    return 2 * x\n"),
    ]
    let imported = try coldAndWarmRun(files).warm
    #expect(imported.stdout.hasPrefix("42 <class 'dsa.Recorder'>"), "\(imported.stdout) \(imported.stderr)")
    _ = try coldAndWarmRun([("main.py", "print(open('/etc/shadow').read())\n")])
  }
}
