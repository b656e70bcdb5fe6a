import Foundation
import Glibc
import SandboxTesting
import Testing

// The daemon's pre-warmed Java boxes (javac's and the run's): a hit of each through HTTP counted
// in /metrics, the config's sizes checked, and nothing of the pool left once the daemon stopped.

/// The pre-warmed JVMs (runs' and compilers') in boxes of the daemon `pid` (its boxes' cgroups are
/// named after it; other suites of this process keep pools of their own).
func prewarmedJVMs(of pid: Int32) -> [Int32] {
  (processes(containing: "DsaRunPrewarmLauncher") + processes(containing: "DsaRunCompileLauncher")).filter { jvm in
    let groups = FileManager.default.contents(atPath: "/proc/\(jvm)/cgroup") ?? Data()
    return String(decoding: groups, as: UTF8.self).contains("dsa-run-\(pid)-")
  }
}

@Suite(.serialized, .timeLimit(.minutes(3)))
struct PrewarmDaemonTests {
  static let hello = "public class Main { public static void main(String[] a) { System.out.println(\"warm\"); } }"

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/jvm/java-17-openjdk-amd64/bin/java")))
  func aJavaRunTakesAPrewarmedBoxAndShutdownLeavesNothing() throws {
    let directory = try makeTemporaryDirectory()
    let config = try writeConfig(directory, ["prewarm": ["java": 1]])
    let daemon = try DaemonProcess(arguments: ["--slots", "2", "--config", config], directory: directory)
    defer { daemon.cleanUp() }
    let ready = #"dsa_run_prewarm_ready{language="java",step="run"}"#
    let compileReady = #"dsa_run_prewarm_ready{language="java",step="compile"}"#
    let bothReady = { (try? metric(daemon, ready)) == 1 && (try? metric(daemon, compileReady)) == 1 }
    #expect(waitUntil(timeout: .seconds(90), bothReady), "\(daemon.log)")
    let pid = daemon.process.processIdentifier
    #expect(prewarmedJVMs(of: pid).count == 2)
    // A new source: compiled in the pre-warmed javac, run in the pre-warmed JVM.
    let answer = try execute(daemon, ["language": "java", "source": Self.hello])
    #expect(answer.status == 200)
    #expect((answer.json["run"] as? [String: Any])?["stdout"] as? String == "warm\n")
    for step in ["run", "compile"] {
      #expect(try metric(daemon, #"dsa_run_prewarm_hits_total{language="java",step="\#(step)"}"#) == 1)
      #expect(try metric(daemon, #"dsa_run_prewarm_misses_total{language="java",step="\#(step)"}"#) == 0)
      #expect(try metric(daemon, #"dsa_run_prewarm_size{language="java",step="\#(step)"}"#) == 1)
    }
    // Refilled in the background for the next one.
    #expect(waitUntil(timeout: .seconds(90), bothReady))
    #expect((try metric(daemon, #"dsa_run_prewarm_refills_total{language="java",step="run"}"#) ?? 0) >= 2)
    #expect((try metric(daemon, #"dsa_run_prewarm_refills_total{language="java",step="compile"}"#) ?? 0) >= 2)
    #expect(try daemon.stop() == 0)
    #expect(prewarmedJVMs(of: pid).isEmpty, "a pre-warmed JVM outlived its daemon")
    #expect(leftovers(of: pid, workRoot: testWorkRoot).isEmpty, "\(leftovers(of: pid, workRoot: testWorkRoot))")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/opt/dsa-run/toolchains/dart-2.16/bin/dart")))
  func aNewDartProgramCompilesAndRunsInAPrewarmedBoxAndItsKernelFileIsCachedAfter() throws {
    let directory = try makeTemporaryDirectory()
    let config = try writeConfig(directory, ["prewarm": ["dart": 1], "expose_compile_cache": true])
    let daemon = try DaemonProcess(arguments: ["--slots", "2", "--config", config], directory: directory)
    defer { daemon.cleanUp() }
    let ready = #"dsa_run_prewarm_ready{language="dart",step="run"}"#
    let hits = #"dsa_run_prewarm_hits_total{language="dart",step="run"}"#
    let pending = "dsa_run_prewarm_background_pending"
    #expect(waitUntil(timeout: .seconds(90)) { (try? metric(daemon, ready)) == 1 }, "\(daemon.log)")
    let source = "void main() { print('warm dart'); }\n"
    let first = try execute(daemon, ["language": "dart", "source": source])
    #expect(first.status == 200)
    #expect((first.json["run"] as? [String: Any])?["stdout"] as? String == "warm dart\n")
    #expect((first.json["compile"] as? [String: Any])?["status"] as? String == "ok", "\(first.json)")
    #expect(try metric(daemon, hits) == 1)
    // The kernel file is compiled after the answer; then the same source is a cache hit.
    #expect(
      waitUntil(timeout: .seconds(90)) {
        (try? metric(daemon, pending)) == 0 && (try? metric(daemon, ready)) == 1
      })
    let again = try execute(daemon, ["language": "dart", "source": source])
    #expect((again.json["run"] as? [String: Any])?["stdout"] as? String == "warm dart\n")
    #expect(again.json["compile_cache"] as? String == "hit", "\(again.json)")
    #expect(try metric(daemon, hits) == 1)
    let pid = daemon.process.processIdentifier
    #expect(try daemon.stop() == 0)
    #expect(leftovers(of: pid, workRoot: testWorkRoot).isEmpty, "\(leftovers(of: pid, workRoot: testWorkRoot))")
  }

  @Test func oneSlotHasNoPoolUnlessAsked() throws {
    let daemon = try DaemonProcess(arguments: ["--slots", "1"])
    defer { daemon.cleanUp() }
    #expect(try metric(daemon, #"dsa_run_prewarm_size{language="java",step="run"}"#) == nil)
    #expect(try daemon.stop() == 0)
  }

  @Test func absurdSizesAndLanguagesWithoutALauncherAreRefused() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = try writeConfig(
      directory, ["prewarm": ["java": 9, "javascript": 1, "python": 1, "kotlin": 1, "dart": 1, "cobol": 1]])
    let finished = try runProcess(
      daemonBinary, ["--check-config", "--config", path], environment: ["DSA_RUN_DATA": repositoryRoot])
    #expect(finished.status == 1)
    let lines = finished.stderr.split(separator: "\n")
    #expect(lines.contains { $0.contains("prewarm.java must be from 0 to 8") }, "\(finished.stderr)")
    #expect(lines.contains { $0.contains("prewarm.javascript: javascript has no pre-warmed runtime yet") })
    #expect(!lines.contains { $0.contains("prewarm.python") })
    #expect(lines.contains { $0.contains("prewarm.cobol: unknown key") })
    #expect(!lines.contains { $0.contains("prewarm.kotlin") })
    #expect(!lines.contains { $0.contains("prewarm.dart") })
  }
}
