import BenchSupport
import Challenges
import Foundation
import Grading
import Runners
import Sandbox
import Wire

// dsa-run-gradebench: grading one 20-test challenge (sum the numbers of each line) in C++, Java and
// Python, against 20 separate executes of the same program, in one process on the same warm box
// pool. Lanes per language:
//   grade          Grader: compile once (cold compile cache), tests in parallel (2 at a time)
//   grade, cached  the same, compile cache warm
//   20 executes    20 Executor.execute calls one after another, no compile cache: every execute
//                  compiles, as a judge without a cache (or a client calling /v1/execute) does
//   20 executes, cached  the same with a warm compile cache (only the runs and lookups remain)
// A benchmark, not a test: it prints figures; it exits 1 if a lane gives a wrong answer.

BenchSupport.programName = "dsa-run-gradebench"

var languages = ["cpp", "java", "python"]
var rounds = 3
var cursor = OptionCursor(Array(CommandLine.arguments.dropFirst()))
while let argument = cursor.next() {
  switch argument {
  case "--languages": languages = cursor.value(argument).split(separator: ",").map(String.init)
  case "--rounds":
    guard let value = Int(cursor.value(argument)), (1...20).contains(value) else { failSetup("--rounds: 1 to 20") }
    rounds = value
  case "--help", "-h":
    print("Usage: dsa-run-gradebench [--languages cpp,java,python] [--rounds N]")
    exit(0)
  default: failSetup("unknown option \(argument)")
  }
}

let sources: [String: String] = [
  "cpp": """
  #include <iostream>
  int main() {
    long long total = 0, value;
    while (std::cin >> value) total += value;
    std::cout << total << "\\n";
  }

  """,
  "java": """
  import java.util.Scanner;
  public class Main {
    public static void main(String[] args) {
      Scanner in = new Scanner(System.in);
      long total = 0;
      while (in.hasNextLong()) total += in.nextLong();
      System.out.println(total);
    }
  }

  """,
  "python": "import sys\nprint(sum(int(x) for x in sys.stdin.read().split()))\n",
]

/// 20 tests: 1..k for k = 1...20, each answer k(k+1)/2.
let tests: [(stdin: String, answer: String)] = (1...20).map { count in
  ((1...count).map(String.init).joined(separator: " ") + "\n", "\(count * (count + 1) / 2)\n")
}
let challengeJSON: JSONValue = .object([
  "title": "Sum", "statement": "Print the sum of the numbers.", "checker": .object(["name": "tokens"]),
  "tests": .array(
    tests.enumerated().map { index, test in
      .object(["name": .string("t\(index + 1)"), "stdin": .string(test.stdin), "expected_stdout": .string(test.answer)])
    }),
])
let challenge: Challenge
switch ChallengeLoader.decodeInline(challengeJSON, id: "sum-20") {
case .success(let loaded): challenge = loaded
case .failure(let error): failSetup("the benchmark challenge is broken: \(error)")
}

guard let runnersDirectory = DataDirectories.locate("runners"),
  let policiesDirectory = DataDirectories.locate("policies")
else { failSetup("cannot find runners/ and policies/ (set DSA_RUN_DATA)") }
let scratch = NSTemporaryDirectory() + "dsa-run-gradebench-\(getpid())"
defer { try? FileManager.default.removeItem(atPath: scratch) }
let host: SandboxHost
let pool: BoxPool
let catalog: RunnerCatalog
let policies: [String: SeccompPolicy]
do {
  var configuration = SandboxConfiguration()
  configuration.workRoot = "/run/dsa-run-gradebench"
  host = try SandboxHost(configuration: configuration)
  pool = BoxPool(host: host, maximumIdlePerLayout: 2)
  catalog = try RunnerCatalog.load(directory: runnersDirectory)
  policies = try SeccompCompiler.loadDirectory(policiesDirectory)
} catch {
  failSetup("set-up failed: \(error)")
}

func executor(cacheName: String?) -> Executor {
  let cache = cacheName.map { name -> CompileCache in
    do { return try CompileCache(directory: scratch + "/" + name) } catch { failSetup("cache: \(error)") }
  }
  return Executor(environments: pool, catalog: catalog, policies: policies, cache: cache)
}

func milliseconds(_ start: UInt64) -> Double { Double(nowNanoseconds() - start) / 1e6 }

var failures: [String] = []
print("dsa-run-gradebench: a 20-test challenge, \(rounds) round(s) per lane, medians in ms, 2 tests at a time")
print("")
print(
  pad("language", 10) + pad("grade", 10, right: true) + pad("grade,cached", 14, right: true)
    + pad("20 exec", 10, right: true) + pad("20 exec,cached", 16, right: true) + pad("speed-up", 10, right: true)
    + pad("cached", 9, right: true))
for language in languages {
  guard let source = sources[language] else { failSetup("no benchmark program for \(language)") }
  let files = [SourceFile(name: "", contents: Data(source.utf8))]
  var lanes: [[Double]] = [[], [], [], []]
  for round in 0..<rounds {
    // Lane 1 and 2: a fresh cache per round, so the first grade compiles and the second hits.
    let gradingExecutor = executor(cacheName: "\(language)-grade-\(round)")
    let grader = Grader(executor: gradingExecutor)
    for lane in 0..<2 {
      let start = nowNanoseconds()
      do {
        let result = try grader.grade(
          challenge, language: language, files: files, options: GradeOptions(parallelism: 2))
        lanes[lane].append(milliseconds(start))
        if result.verdict != .accepted { failures.append("\(language) grade: \(result.verdict) \(result.message)") }
      } catch {
        failures.append("\(language) grade: \(error)")
      }
    }
    // Lanes 3 and 4: 20 executes one after another, without and with a compile cache.
    for (lane, cacheName) in [(2, nil), (3, "\(language)-execute-\(round)")] as [(Int, String?)] {
      let separate = executor(cacheName: cacheName)
      if cacheName != nil {
        // Warm the cache, so this lane shows runs and lookups only.
        _ = try? separate.execute(ExecuteRequest(language: language, files: files))
      }
      let start = nowNanoseconds()
      for test in tests {
        var request = ExecuteRequest(language: language, files: files)
        request.stdin = Data(test.stdin.utf8)
        do {
          let result = try separate.execute(request)
          if result.run?.stdout != Data(test.answer.utf8) {
            failures.append("\(language) execute: \(result.run?.status.rawValue ?? "no run")")
          }
        } catch {
          failures.append("\(language) execute: \(error)")
        }
      }
      lanes[lane].append(milliseconds(start))
    }
  }
  let medians = lanes.map { Summary($0)?.median ?? .nan }
  print(
    pad(language, 10) + pad(String(format: "%.0f", medians[0]), 10, right: true)
      + pad(String(format: "%.0f", medians[1]), 14, right: true)
      + pad(String(format: "%.0f", medians[2]), 10, right: true)
      + pad(String(format: "%.0f", medians[3]), 16, right: true)
      + pad(String(format: "%.1fx", medians[2] / medians[0]), 10, right: true)
      + pad(String(format: "%.1fx", medians[3] / medians[1]), 9, right: true))
}
print("")
print("speed-up = 20 executes (each compiling) / grade (compiling once); cached = both with a warm compile cache.")
print("Target (issue 5): speed-up at least 3x for the compiled languages (C++, Java).")
pool.drain()
if !failures.isEmpty {
  for failure in failures.prefix(10) { FileHandle.standardError.write(Data("dsa-run-gradebench: \(failure)\n".utf8)) }
  exit(1)
}
