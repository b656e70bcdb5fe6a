import Foundation
import SandboxTesting
import Synchronization
import Testing

@testable import Runners
@testable import Sandbox

// A pre-warmed Java run is the cold run's twin: the same stdout, stderr, exit status and verdict,
// with the JVM started before the request, in a box that serves that one request only.

/// Slots that are always idle: each refill on a thread of its own.
struct AlwaysIdleSlots: PrewarmSlots {
  func runIfIdle(_ work: @escaping @Sendable () -> Void) -> Bool {
    Thread { work() }.start()
    return true
  }
}

enum PrewarmFixture {
  static let workRoot = "/run/dsa-run-prewarm-tests"
  static let host: SandboxHost = {
    do {
      return try SandboxHost(configuration: SandboxConfiguration(workRoot: workRoot))
    } catch {
      fatalError("cannot set up the prewarm tests: \(error)")
    }
  }()
  static let prewarm: PrewarmRuns = {
    let runs = PrewarmRuns(host: host, sizes: ["java": 1], slots: AlwaysIdleSlots())
    runs.pool.start()
    return runs
  }()
  static let executor: Executor = {
    let base = RunnersFixture.executor
    return Executor(
      environments: BoxPool(host: host), catalog: base.catalog, policies: base.policies, cache: base.cache,
      prewarm: prewarm)
  }()

  /// Waits (up to a minute: a JVM's start on a loaded host) until the pool has a box for the
  /// default recipe; the test then knows its next run is a hit.
  static func awaitReady() throws {
    executor.prewarmAhead()
    for _ in 0..<600 {
      if prewarm.pool.counts["java"]?.ready == 1 { return }
      usleep(100_000)
    }
    throw PrewarmTestError.notReady(prewarm.pool.counts["java"].map { "\($0)" } ?? "no pool")
  }

  static var hits: UInt64 { prewarm.pool.counts["java"]?.hits ?? 0 }
}

enum PrewarmTestError: Error { case notReady(String) }

/// Runs `source` cold (the runner tests' executor) and pre-warmed, and returns both.
func coldAndWarm(_ source: String, stdin: String = "", arguments: [String] = []) throws -> (
  cold: ExecuteResult, warm: ExecuteResult
) {
  var request = ExecuteRequest(language: "java", files: [SourceFile(name: "", contents: Data(source.utf8))])
  request.stdin = Data(stdin.utf8)
  request.arguments = arguments
  let cold = try RunnersFixture.executor.execute(request)
  try PrewarmFixture.awaitReady()
  let hitsBefore = PrewarmFixture.hits
  let warm = try PrewarmFixture.executor.execute(request)
  #expect(PrewarmFixture.hits == hitsBefore + 1, "the run did not take the pre-warmed box")
  return (cold, warm)
}

@Suite(.serialized) struct PrewarmJavaTests {
  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func helloIsTheSame() throws {
    let (cold, warm) = try coldAndWarm(
      "public class Main { public static void main(String[] args) { System.out.println(\"Hello, World!\"); } }\n")
    #expect(warm.stdout == "Hello, World!\n")
    #expect(warm.stdout == cold.stdout && warm.stderr == cold.stderr)
    #expect(warm.run?.status == .ok && cold.run?.status == .ok)
    #expect(warm.run?.exitCode == 0)
  }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func stdinArgumentsAndPropertiesAreTheColdRunsOnes() throws {
    let source = """
      import java.io.*;
      public class Main {
        public static void main(String[] args) throws IOException {
          BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
          String line;
          while ((line = in.readLine()) != null) System.out.println("echo " + line);
          System.out.println(args.length + " " + String.join("|", args));
          System.out.println(System.getProperty("java.class.path") + " " + System.getProperty("user.dir"));
          System.out.println(Main.class.getClassLoader() == ClassLoader.getSystemClassLoader());
          System.out.println(new File(".").list().length + " " + String.join(",", new File("out").list()));
          System.err.println("to stderr");
        }
      }

      """
    let (cold, warm) = try coldAndWarm(source, stdin: "one\ntwo é\n", arguments: ["a b", "", "ç"])
    #expect(warm.stdout == cold.stdout, "cold: \(cold.stdout) \(cold.stderr)")
    #expect(warm.stderr == cold.stderr)
    #expect(
      warm.stdout.hasPrefix(
        "echo one\necho two é\n3 a b||ç\nout:/opt/dsa-run/recorder/java/dsa.jar /box\ntrue\n1 Main.class\n"))
  }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func systemExitKeepsItsStatus() throws {
    let (cold, warm) = try coldAndWarm(
      "public class Main { public static void main(String[] args) { System.out.print(\"bye\"); System.exit(3); } }\n")
    #expect(warm.run?.exitCode == 3 && cold.run?.exitCode == 3)
    #expect(warm.run?.status == cold.run?.status)
    #expect(warm.stdout == "bye" && warm.stderr == cold.stderr)
  }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func uncaughtExceptionPrintsAsCold() throws {
    let source = """
      public class Main {
        static void inner(int depth) {
          if (depth == 0) {
            IllegalStateException error = new IllegalStateException("boom", new RuntimeException("cause"));
            error.addSuppressed(new Exception("also"));
            throw error;
          }
          inner(depth - 1);
        }
        public static void main(String[] args) { System.out.println("before"); inner(2); }
      }

      """
    let (cold, warm) = try coldAndWarm(source)
    #expect(warm.stderr == cold.stderr, "cold:\n\(cold.stderr)\nwarm:\n\(warm.stderr)")
    #expect(warm.stderr.contains("Exception in thread \"main\" java.lang.IllegalStateException: boom"))
    #expect(!warm.stderr.contains("DsaRunPrewarmLauncher") && !warm.stderr.contains("reflect"))
    #expect(warm.run?.exitCode == cold.run?.exitCode && warm.run?.status == cold.run?.status)
    #expect(warm.stdout == "before\n")
  }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func failingStaticInitializerPrintsAsCold() throws {
    let source = """
      public class Main {
        static int value = Integer.parseInt("x");
        public static void main(String[] args) { System.out.println(value); }
      }

      """
    let (cold, warm) = try coldAndWarm(source)
    #expect(warm.stderr == cold.stderr, "cold:\n\(cold.stderr)\nwarm:\n\(warm.stderr)")
    #expect(warm.run?.exitCode == cold.run?.exitCode)
  }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func infiniteLoopIsATimeLimitChargedFromTheHandover() throws {
    let loop = "public class Main { public static void main(String[] args) { long x = 0; while (true) x++; } }\n"
    let (cold, warm) = try coldAndWarm(loop)
    #expect(cold.run?.status == .timeLimit && warm.run?.status == .timeLimit)
    // The warm-up's CPU is not the learner's: a hello charged from the handover costs far less
    // than a cold JVM's start.
    let (coldHello, warmHello) = try coldAndWarm(
      "public class Main { public static void main(String[] args) { System.out.println(1); } }\n")
    let coldCPU = try #require(coldHello.run?.cpuMilliseconds)
    let warmCPU = try #require(warmHello.run?.cpuMilliseconds)
    #expect(warmCPU * 2 < coldCPU, "warm \(warmCPU) ms against cold \(coldCPU) ms")
  }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func memoryHogIsAMemoryLimit() throws {
    let source = """
      import java.util.*;
      public class Main {
        public static void main(String[] args) {
          List<long[]> kept = new ArrayList<>();
          while (true) kept.add(new long[1 << 20]);
        }
      }

      """
    let (cold, warm) = try coldAndWarm(source)
    #expect(cold.run?.status == .memoryLimit)
    #expect(warm.run?.status == cold.run?.status, "\(warm.stderr)")
  }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func aProcessServesOneRequestOnly() throws {
    // A static counter in a class the JVM keeps, and a file in /tmp: a second request in the same
    // process or box would see 2.
    let source = """
      import java.nio.file.*;
      public class Main {
        public static void main(String[] args) throws Exception {
          String seen = System.getProperty("probe.count");
          System.setProperty("probe.count", seen == null ? "1" : "2");
          Path file = Paths.get("/tmp/probe");
          Files.write(file, "x".getBytes(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
          System.out.println(System.getProperty("probe.count") + " " + Files.readAllBytes(file).length);
        }
      }

      """
    let first = try coldAndWarm(source).warm
    let second = try coldAndWarm(source).warm
    #expect(first.stdout == "1 1\n" && second.stdout == "1 1\n")
  }
}

/// The runner tests' Java probes (those run with the default limits), cold and pre-warmed.
extension PrewarmJavaTests {
  static var java: LanguagePrograms? { programs.first { $0.language == "java" } }

  @Test(.enabled(if: installed("java"), "needs the Java toolchain"))
  func everyDefaultLimitProbeMatchesTheColdRun() throws {
    let java = try #require(Self.java)
    let numbers = (1...2000).map { String($0 * 7 % 1001 - 500) }.joined(separator: " ") + "\n"
    let probes: [(String, String, String, [String])] = [
      ("hello", java.hello, "", []), ("sum", java.sum, numbers, []),
      ("arguments", java.arguments, "", ["one", "two words", "ü"]), ("utf8", java.utf8, "", []),
      ("crash", java.crash, "", []), ("readShadow", java.readShadow, "", []),
    ]
    for (name, source, stdin, arguments) in probes {
      let (cold, warm) = try coldAndWarm(source + uniqueComment(), stdin: stdin, arguments: arguments)
      #expect(warm.stdout == cold.stdout, "\(name)")
      #expect(warm.stderr == cold.stderr, "\(name): cold \(cold.stderr) warm \(warm.stderr)")
      #expect(warm.run?.status == cold.run?.status && warm.run?.exitCode == cold.run?.exitCode, "\(name)")
    }
  }
}

@Suite struct PrewarmPoolTests {
  final class FakeItem: PrewarmItem, @unchecked Sendable {
    let key: PrewarmKey
    var isWaiting = true
    var destroyed = false
    init(_ key: PrewarmKey) { self.key = key }
    func destroy() { destroyed = true }
  }

  struct BusySlots: PrewarmSlots {
    func runIfIdle(_ work: @escaping @Sendable () -> Void) -> Bool { false }
  }

  static func recipe(_ command: String) throws -> PrewarmRecipe {
    let policy = try #require(RunnersFixture.executor.policies["default"])
    return PrewarmRecipe(
      spec: BoxSpec(command: [command], environment: [], policy: policy), files: [], readyMarker: Data())
  }

  @Test func busySlotsNeverRefillAndATakeNeverWaits() throws {
    let made = Mutex(0)
    let pool = PrewarmPool<FakeItem>(sizes: ["java": 2], slots: BusySlots(), retryMilliseconds: 1) { recipe in
      made.withLock { $0 += 1 }
      return FakeItem(recipe.key)
    }
    pool.start()
    let recipe = try Self.recipe("/bin/true")
    pool.want(recipe, family: "java")
    for _ in 0..<20 {
      #expect(pool.take(recipe, family: "java") == nil)
      usleep(2_000)
    }
    pool.drain()
    #expect(made.withLock { $0 } == 0)
    #expect(pool.counts["java"]?.misses == 20 && pool.counts["java"]?.hits == 0)
  }

  /// A slot that is idle only once the test says so.
  final class GatedSlots: PrewarmSlots {
    let idle = Mutex(false)
    func runIfIdle(_ work: @escaping @Sendable () -> Void) -> Bool {
      guard idle.withLock({ $0 }) else { return false }
      Thread { work() }.start()
      return true
    }
  }

  @Test func backgroundWorkWaitsForAnIdleSlotAndTheRefillsAndDrainDropsIt() throws {
    let slots = GatedSlots()
    let order = Mutex<[String]>([])
    let pool = PrewarmPool<FakeItem>(sizes: ["java": 1], slots: slots, retryMilliseconds: 1) { recipe in
      order.withLock { $0.append("refill") }
      return FakeItem(recipe.key)
    }
    pool.start()
    let recipe = try Self.recipe("/bin/true")
    pool.want(recipe, family: "java")
    pool.runWhenIdle { order.withLock { $0.append("background") } }
    usleep(20_000)
    #expect(order.withLock { $0 }.isEmpty, "work ran while no slot was idle")
    slots.idle.withLock { $0 = true }
    for _ in 0..<1000 where order.withLock({ $0.count }) < 2 { usleep(1_000) }
    #expect(order.withLock { $0 } == ["refill", "background"])
    slots.idle.withLock { $0 = false }
    pool.runWhenIdle { order.withLock { $0.append("dropped") } }
    pool.drain()
    slots.idle.withLock { $0 = true }
    pool.runWhenIdle { order.withLock { $0.append("after the stop") } }
    usleep(20_000)
    #expect(order.withLock { $0 } == ["refill", "background"])
  }

  @Test func hitsMissesAndOneUseEach() throws {
    let pool = PrewarmPool<FakeItem>(sizes: ["java": 1], slots: AlwaysIdleSlots()) { FakeItem($0.key) }
    let recipe = try Self.recipe("/bin/true")
    #expect(pool.take(recipe, family: "java") == nil)
    pool.start()
    var first: FakeItem?
    for _ in 0..<1000 where first == nil {
      first = pool.take(recipe, family: "java")
      if first == nil { usleep(1_000) }
    }
    let taken = try #require(first)
    var second: FakeItem?
    for _ in 0..<1000 where second == nil {
      second = pool.take(recipe, family: "java")
      if second == nil { usleep(1_000) }
    }
    #expect(second != nil && second !== taken)
    // Another recipe misses, and the boxes of the old one are destroyed.
    #expect(pool.take(try Self.recipe("/bin/false"), family: "java") == nil)
    #expect(pool.take(recipe, family: "python") == nil)
    let counts = try #require(pool.counts["java"])
    #expect(counts.hits == 2 && counts.misses >= 2 && counts.refills >= 2)
    #expect(pool.counts["python"] == nil)
    pool.drain()
  }
}
