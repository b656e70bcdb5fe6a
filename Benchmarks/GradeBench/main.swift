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
// Then the same 20 tests as a function challenge (`sum_all(items)`, issue 29) in C++, Java, Kotlin and
// Python: the whole grade (one process) against 20 separate runs of the stdin program and against
// one run of it, compile cache warm in every lane; "driver" is the function's program run once on
// all 20 tests through Executor.execute, without the grader (what a grade costs beyond its one run).
// A benchmark, not a test: it prints figures; it exits 1 if a lane gives a wrong answer.

BenchSupport.programName = "dsa-run-gradebench"

var languages = ["cpp", "java", "python"]
var functionLanguages = ["cpp", "java", "kotlin", "python"]
var rounds = 3
/// The function lanes cost milliseconds a round where the stdin lanes cost seconds: more rounds
/// steady their sub-millisecond medians.
var functionRounds: Int?
var cursor = OptionCursor(Array(CommandLine.arguments.dropFirst()))
while let argument = cursor.next() {
  switch argument {
  case "--languages": languages = cursor.value(argument).split(separator: ",").map(String.init)
  case "--function-languages":
    functionLanguages = cursor.value(argument).split(separator: ",").map(String.init)
  case "--rounds":
    guard let value = Int(cursor.value(argument)), (1...20).contains(value) else { failSetup("--rounds: 1 to 20") }
    rounds = value
  case "--function-rounds":
    guard let value = Int(cursor.value(argument)), (1...500).contains(value) else {
      failSetup("--function-rounds: 1 to 500")
    }
    functionRounds = value
  case "--help", "-h":
    print(
      "Usage: dsa-run-gradebench [--languages cpp,java,python] [--function-languages cpp,java,kotlin,python] [--rounds N] [--function-rounds N]"
    )
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
  "kotlin": """
  fun main() {
      var total = 0L
      while (true) {
          val line = readLine() ?: break
          for (token in line.split(' ')) if (token.isNotEmpty()) total += token.toLong()
      }
      println(total)
  }

  """,
]

/// The same work as a function challenge: the learner writes only `sum_all`.
let functionSources: [String: String] = [
  "cpp":
    "#include <vector>\nlong long sumAll(std::vector<long long> items) {\n  long long total = 0;\n  for (long long item : items) total += item;\n  return total;\n}\n",
  "java":
    "class Solution {\n  public static long sumAll(long[] items) {\n    long total = 0;\n    for (long item : items) total += item;\n    return total;\n  }\n}\n",
  "kotlin": "class Solution {\n    fun sumAll(items: LongArray): Long = items.sum()\n}\n",
  "python": "def sum_all(items: list[int]) -> int:\n    return sum(items)\n",
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
let functionChallengeJSON: JSONValue = .object([
  "title": "Sum", "statement": "Return the sum of the numbers.",
  "function": .object([
    "name": "sum_all", "params": .array([.object(["name": "items", "type": "int[]"])]), "returns": "int",
  ]),
  "tests": .array(
    (1...20).map { count in
      .object([
        "name": .string("t\(count)"), "args": .object(["items": .array((1...count).map { .number(Double($0)) })]),
        "expected": .number(Double(count * (count + 1) / 2)),
      ])
    }),
])
let functionChallenge: Challenge
switch ChallengeLoader.decodeInline(functionChallengeJSON, id: "sum-20-function") {
case .success(let loaded): functionChallenge = loaded
case .failure(let error): failSetup("the benchmark function challenge is broken: \(error)")
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

// Function challenges (issue 29): the 20 tests run in one process, against 20 separate runs of the
// stdin program and one run of it on one test, every lane with a warm compile cache (only runs
// and lookups remain, so the lanes compare process starts, not compiles).
print("")
print("Function challenge: the same 20 tests as one function, compile cache warm, medians in ms")
print("")
print(
  pad("language", 10) + pad("fn grade", 10, right: true) + pad("driver", 10, right: true)
    + pad("20 exec", 10, right: true) + pad("1 exec", 10, right: true) + pad("20 exec/fn", 12, right: true)
    + pad("fn/1 exec", 11, right: true))
/// The driver's stdin for all 20 tests: a nonce line, then the budgets and the tests' arguments.
let driverStdin = Data(
  ("0123456789abcdef0123456789abcdef\n{\"cpu_ms\":3000,\"wall_ms\":10000,\"tests\":["
    + (1...20).map { count in
      "{\"index\":\(count - 1),\"args\":[[" + (1...count).map(String.init).joined(separator: ",") + "]]}"
    }.joined(separator: ",") + "]}\n").utf8)
for language in functionLanguages {
  guard let source = sources[language], let function = functionSources[language] else {
    failSetup("no benchmark program for \(language)")
  }
  let programFiles = [SourceFile(name: "", contents: Data(source.utf8))]
  let functionFiles = [SourceFile(name: "", contents: Data(function.utf8))]
  let cached = executor(cacheName: "\(language)-function")
  let grader = Grader(executor: cached)
  // Warm the compile cache for both programs.
  _ = try? grader.grade(
    functionChallenge, language: language, files: functionFiles, options: GradeOptions(parallelism: 2))
  _ = try? cached.execute(ExecuteRequest(language: language, files: programFiles))
  var lanes: [[Double]] = [[], [], [], []]
  guard let signature = functionChallenge.function else { failSetup("the function challenge has no function") }
  guard let driverFiles = try? FunctionDrivers.programFiles(signature, language: language, learnerFiles: functionFiles)
  else { failSetup("no driver for \(language)") }
  var driverRequest = ExecuteRequest(language: language, files: driverFiles)
  driverRequest.stdin = driverStdin
  _ = try? cached.execute(driverRequest)
  for _ in 0..<(functionRounds ?? rounds) {
    var start = nowNanoseconds()
    do {
      let result = try grader.grade(
        functionChallenge, language: language, files: functionFiles, options: GradeOptions(parallelism: 2))
      lanes[0].append(milliseconds(start))
      if result.verdict != .accepted {
        failures.append("\(language) function grade: \(result.verdict) \(result.message)")
      }
    } catch {
      failures.append("\(language) function grade: \(error)")
    }
    start = nowNanoseconds()
    do {
      let result = try cached.execute(driverRequest)
      lanes[3].append(milliseconds(start))
      if result.run?.status != .ok { failures.append("\(language) driver: \(result.run?.status.rawValue ?? "no run")") }
    } catch {
      failures.append("\(language) driver: \(error)")
    }
    for (lane, selected) in [(1, tests[...]), (2, tests.suffix(1))] {
      start = nowNanoseconds()
      for test in selected {
        var request = ExecuteRequest(language: language, files: programFiles)
        request.stdin = Data(test.stdin.utf8)
        do {
          let result = try cached.execute(request)
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
    pad(language, 10) + pad(String(format: "%.1f", medians[0]), 10, right: true)
      + pad(String(format: "%.1f", medians[3]), 10, right: true)
      + pad(String(format: "%.0f", medians[1]), 10, right: true)
      + pad(String(format: "%.1f", medians[2]), 10, right: true)
      + pad(String(format: "%.1fx", medians[1] / medians[0]), 12, right: true)
      + pad(String(format: "%.2fx", medians[0] / medians[2]), 11, right: true))
}
print("")
print("Targets (issue 29): 20 exec/fn at least 5x for Java and Kotlin; fn/1 exec under 1.5x for every language.")
pool.drain()
if !failures.isEmpty {
  for failure in failures.prefix(10) { FileHandle.standardError.write(Data("dsa-run-gradebench: \(failure)\n".utf8)) }
  exit(1)
}
