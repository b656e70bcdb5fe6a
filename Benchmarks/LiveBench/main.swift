import BenchSupport
import Foundation
import Glibc
import Runners
import Sandbox
import Synchronization

// dsa-run-livebench: the in-process keystroke round trip of a live run. An echo program (Python and
// C++) runs through Executor.executeLive on a warm box; the bench sends one line, waits for the
// program's echo of it to arrive as a stdout event, and sends the next: per line, the time from
// `LiveInput.send` to the event. A benchmark, not a test: it prints p50 and p99 (and fails, exit 1,
// only when a run itself failed). The issue's 5 ms p99 target is end to end over loopback
// (/v1/connect adds the WebSocket); this is the part inside the process.

BenchSupport.programName = "dsa-run-livebench"

let usageText = """
  Usage: dsa-run-livebench [--lines N] [--tty] [--json]

    --lines N   lines per language (default 1000)
    --tty       run the programs on a terminal (LiveOptions.tty) instead of a pipe

  Needs root (boxes mount, write uid maps and make cgroups).
  """

let echoPrograms: [(language: String, source: String)] = [
  ("python", "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"),
  (
    "cpp",
    """
    #include <iostream>
    #include <string>
    int main() {
      std::string line;
      while (std::getline(std::cin, line)) std::cout << line << std::endl;
    }

    """
  ),
]

struct LanguageReport: Codable {
  var language: String
  var lines: Int
  var p50Milliseconds: Double
  var p99Milliseconds: Double
  var maxMilliseconds: Double
}

/// Counts the echoed lines as stdout arrives and wakes the sender for each.
final class EchoWatch: Sendable {
  private let arrived = DispatchSemaphore(value: 0)

  func take(_ bytes: [UInt8]) {
    for byte in bytes where byte == 0x0a { arrived.signal() }
  }

  /// Waits for one more echoed line; false after 10 s without one.
  func waitForLine() -> Bool { arrived.wait(timeout: .now() + .seconds(10)) == .success }
}

func measure(_ executor: Executor, language: String, source: String, lines: Int, tty: Bool) -> LanguageReport? {
  var request = ExecuteRequest(language: language, files: [SourceFile(name: "", contents: Data(source.utf8))])
  request.runLimits.wallMilliseconds = 120_000
  var options = LiveOptions()
  options.tty = tty
  let input = LiveInput()
  let watch = EchoWatch()
  let finished = DispatchSemaphore(value: 0)
  let outcome = Mutex<String>("")
  Thread { [request, options] in
    do throws(ExecuteError) {
      let result = try executor.executeLive(request, options: options, input: input) { event in
        if case .stdout(let bytes) = event { watch.take(bytes) }
      }
      outcome.withLock { $0 = result.run?.status.rawValue ?? "compile: \(result.compile?.message ?? "?")" }
    } catch {
      outcome.withLock { $0 = "\(error)" }
    }
    finished.signal()
  }.start()
  // With a terminal the pty echoes the line as it is typed and the program then prints it: two lines.
  let linesPerKey = tty ? 2 : 1
  // A first line, unmeasured: the compile and the program's start are not a keystroke's.
  _ = input.send(Array("warm-up\n".utf8))
  for _ in 0..<linesPerKey where !watch.waitForLine() {
    failSetup("\(language): no echo of the first line (\(outcome.withLock { $0 }))")
  }
  var samples: [UInt64] = []
  samples.reserveCapacity(lines)
  for index in 0..<lines {
    let line = Array("line \(index)\n".utf8)
    let sent = nowNanoseconds()
    guard input.send(line) else { break }
    var echoed = true
    for _ in 0..<linesPerKey where !watch.waitForLine() { echoed = false }
    guard echoed else { break }
    samples.append(nowNanoseconds() - sent)
  }
  input.finish()
  finished.wait()
  guard samples.count == lines, outcome.withLock({ $0 }) == "ok" else {
    progress("\(language): \(samples.count) of \(lines) lines echoed; run: \(outcome.withLock { $0 })")
    return nil
  }
  let sorted = samples.sorted().map { Double($0) / 1_000_000 }
  return LanguageReport(
    language: language, lines: lines, p50Milliseconds: nearestRank(sorted, 0.5),
    p99Milliseconds: nearestRank(sorted, 0.99), maxMilliseconds: sorted.last ?? 0)
}

func runBenchmark() -> Int32 {
  var lines = 1000
  var json = false
  var tty = false
  var cursor = OptionCursor(Array(CommandLine.arguments.dropFirst()))
  while let argument = cursor.next() {
    switch argument {
    case "--lines":
      guard let count = Int(cursor.value(argument)), count > 0 else { failSetup("--lines takes a positive count") }
      lines = count
    case "--json": json = true
    case "--tty": tty = true
    case "--help", "-h":
      print(usageText)
      return 0
    default: failSetup("unknown option \(argument)\n\(usageText)")
    }
  }
  guard getuid() == 0 else { failSetup("must run as root: boxes mount file systems, write uid maps and make cgroups") }
  guard let runnersDirectory = DataDirectories.locate("runners"),
    let policiesDirectory = DataDirectories.locate("policies")
  else { failSetup("cannot find runners/ and policies/ (set DSA_RUN_DATA to the folder that holds them)") }
  let executor: Executor
  let pool: BoxPool
  do {
    pool = BoxPool(host: try SandboxHost())
    executor = Executor(
      environments: pool, catalog: try RunnerCatalog.load(directory: runnersDirectory),
      policies: try SeccompCompiler.loadDirectory(policiesDirectory), cache: nil)
  } catch {
    failSetup("set-up failed: \(error)")
  }
  defer { pool.drain() }
  var reports: [LanguageReport] = []
  var failed = false
  for (language, source) in echoPrograms {
    guard (try? executor.runner(language: language, version: nil)) != nil else {
      progress("\(language): not installed, skipped")
      continue
    }
    if let report = measure(executor, language: language, source: source, lines: lines, tty: tty) {
      reports.append(report)
    } else {
      failed = true
    }
  }
  if json {
    printJSONReport(reports)
  } else {
    print("keystroke round trip in process (send -> stdout event), \(tty ? "tty" : "pipe"), \(lines) lines")
    print(
      pad("language", 10) + pad("p50 ms", 10, right: true) + pad("p99 ms", 10, right: true)
        + pad("max ms", 10, right: true))
    for report in reports {
      print(
        pad(report.language, 10) + pad(String(format: "%.3f", report.p50Milliseconds), 10, right: true)
          + pad(String(format: "%.3f", report.p99Milliseconds), 10, right: true)
          + pad(String(format: "%.3f", report.maxMilliseconds), 10, right: true))
    }
  }
  return failed ? 1 : 0
}

exit(runBenchmark())
