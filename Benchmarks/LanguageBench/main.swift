import BenchSupport
import Foundation
import Glibc
import Runners
import Sandbox
import Synchronization

// dsa-run-langbench: what a hello program costs per language, compiled and
// run by the toolchain directly, by dsa-run as the daemon will run it (an
// Executor with warm boxes and a compile cache), and by the one-shot CLI. A
// benchmark, not a test: it prints figures and checks targets, and fails
// (exit 1) only when a run itself failed.
//
// Per round and language, three units:
//  - bare: the runner's compile and run argv (runners/<language>.json, the
//    placeholders filled as the Executor fills them) spawned with
//    posix_spawn in a new directory, the environment empty except for the
//    runner's own variables.
//  - dsa-run: Executor.execute with a source that no earlier run used (a
//    unique comment is appended), so the compile always misses ("cold
//    cache"); then the same request again, whose compile is skipped ("cache
//    hit").
//  - one-shot CLI: `dsa-run --lang L FILE` as a subprocess, new source again.
// The units rotate from round to round (round r starts with unit r mod 3),
// and interleaving spreads drift (other load, page cache, CPU frequency)
// over all of them alike.

BenchSupport.programName = "dsa-run-langbench"

let usageText = """
  Usage: dsa-run-langbench [--runs N] [--warm-up N] [--languages L,L,...] [--dsa-run PATH] [--json]

    --runs N            interleaved rounds (default 20, at least 3)
    --warm-up N         unmeasured rounds first (default 2)
    --languages L,...   a subset of: python, javascript, java, cpp, kotlin, dart, go (default: all)
    --dsa-run PATH      the CLI to time (default: the dsa-run next to this binary)
    --json              print one JSON object instead of the tables

  Needs root (boxes mount, write uid maps and make cgroups). A language whose runner
  or toolchain is missing is skipped, with the reason printed.
  Exit status: 0 all runs succeeded, 1 some run failed, 2 usage or set-up error.
  """

// MARK: - Options

struct BenchOptions {
  var rounds = 20
  var warmUpRounds = 2
  var json = false
  var languages = Bench.programs.map(\.language)
  var dsaRunPath: String?
}

func parseBenchOptions(_ arguments: [String]) -> BenchOptions {
  var options = BenchOptions()
  var cursor = OptionCursor(arguments)
  while let argument = cursor.next() {
    switch argument {
    case "--runs":
      let text = cursor.value(argument)
      guard let rounds = Int(text), rounds >= 3, rounds <= 10_000 else {
        failSetup("--runs needs a whole number from 3 to 10000, got \"\(text)\"")
      }
      options.rounds = rounds
    case "--warm-up":
      let text = cursor.value(argument)
      guard let rounds = Int(text), rounds >= 0, rounds <= 100 else {
        failSetup("--warm-up needs a whole number from 0 to 100, got \"\(text)\"")
      }
      options.warmUpRounds = rounds
    case "--languages":
      let names = cursor.value(argument).split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      }
      let known = Bench.programs.map(\.language)
      if let unknown = names.first(where: { !known.contains($0) }) {
        failSetup("--languages: unknown language \"\(unknown)\"; known: \(known.joined(separator: ", "))")
      }
      guard !names.isEmpty else { failSetup("--languages needs at least one language") }
      options.languages = known.filter { names.contains($0) }
    case "--dsa-run": options.dsaRunPath = cursor.value(argument)
    case "--json": options.json = true
    case "--help", "-h":
      print(usageText)
      exit(0)
    default: failSetup("unknown option \"\(argument)\"\n\(usageText)")
    }
  }
  return options
}

// MARK: - What is measured

/// An idiomatic hello program; every run appends a unique comment.
struct HelloProgram: Sendable {
  let language: String
  let source: String
  let commentPrefix: String
}

enum Bench {
  static let expectedOutput = Data("Hello, World!\n".utf8)
  static let programs = [
    HelloProgram(language: "python", source: "print(\"Hello, World!\")\n", commentPrefix: "#"),
    HelloProgram(language: "javascript", source: "console.log(\"Hello, World!\");\n", commentPrefix: "//"),
    HelloProgram(
      language: "java",
      source: """
        public class Main {
          public static void main(String[] args) {
            System.out.println("Hello, World!");
          }
        }

        """,
      commentPrefix: "//"),
    HelloProgram(
      language: "cpp",
      source: """
        #include <bits/stdc++.h>
        using namespace std;

        int main() {
          cout << "Hello, World!" << endl;
          return 0;
        }

        """,
      commentPrefix: "//"),
    HelloProgram(
      language: "kotlin",
      source: """
        fun main() {
            println("Hello, World!")
        }

        """,
      commentPrefix: "//"),
    HelloProgram(
      language: "dart",
      source: """
        void main() {
          print('Hello, World!');
        }

        """,
      commentPrefix: "//"),
    HelloProgram(
      language: "go",
      source: """
        package main

        import "fmt"

        func main() {
        \tfmt.Println("Hello, World!")
        }

        """,
      commentPrefix: "//"),
  ]
  /// Where the bare lane makes its run directories (a tmpfs of its own).
  static let bareRoot = "/tmp/dsa-run-langbench-bare"
  static let outputCapture = 1 << 20
}

func milliseconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1_000_000 }

func errnoText(_ number: Int32 = errno) -> String { String(cString: strerror(number)) }

struct RunFailure: Error, Sendable {
  let text: String
}

// MARK: - Commands as the Executor builds them

/// One step's argv and environment with the placeholders filled; "/box"
/// still names the work directory.
struct StepCommand: Sendable {
  let argv: [String]
  let environment: [String]
}

/// What the bare lane needs for one language.
struct BarePlan: Sendable {
  let language: String
  let sourceName: String
  let compile: StepCommand?
  let run: StepCommand
}

struct LanguagePlan: Sendable {
  let program: HelloProgram
  let runner: Runner
  /// The toolchain's own version (probed as the Executor does).
  let version: String
  let bare: BarePlan
  var isCompiled: Bool { bare.compile != nil }
}

/// The main file's name and {class}, as the Executor gives them for these hello programs (Java's
/// public class is Main; Kotlin's top-level main is in MainKt, which the Executor finds in the class
/// files).
func sourceNames(for runner: Runner) -> (file: String, mainClass: String) {
  switch runner.sourceNaming {
  case .fixed(let name):
    let fileExtension = name.split(separator: ".").last.map { "." + $0 } ?? ""
    let stem = String(name.dropLast(fileExtension.count))
    return (name, name.hasSuffix(".kt") ? stem.prefix(1).uppercased() + stem.dropFirst() + "Kt" : stem)
  case .javaPublicClass:
    return ("Main.java", "Main")
  }
}

/// The Executor's placeholder expansion: {memory_mb} is the step's memory
/// limit, {heap_mb} three quarters of it (192 for the default 256 MB).
func expand(_ templates: [String], source: String, mainClass: String, limits: BoxLimits) -> [String] {
  let memory = limits.memoryBytes >> 20
  let heap = max(16, memory * 3 / 4)
  return templates.map {
    // {sources} is every source file; these hello programs have one.
    $0.replacingOccurrences(of: "{sources}", with: source).replacingOccurrences(of: "{source}", with: source)
      .replacingOccurrences(of: "{class}", with: mainClass)
      .replacingOccurrences(of: "{memory_mb}", with: String(memory))
      .replacingOccurrences(of: "{heap_mb}", with: String(heap))
  }
}

func bareCommand(_ step: RunnerStep, source: String, mainClass: String, limits: BoxLimits) -> StepCommand {
  StepCommand(
    argv: expand(step.argv, source: source, mainClass: mainClass, limits: limits),
    environment: expand(step.environment, source: source, mainClass: mainClass, limits: limits))
}

/// "/box" and "/box/..." (the box's work directory) become `directory`, in
/// arguments and in environment values.
func mapWorkDirectory(_ command: StepCommand, to directory: String) -> StepCommand {
  func map(_ word: String) -> String {
    if word == "/box" { return directory }
    if word.hasPrefix("/box/") { return directory + word.dropFirst(4) }
    return word
  }
  return StepCommand(
    argv: command.argv.map(map),
    environment: command.environment.map { variable in
      guard let equals = variable.firstIndex(of: "=") else { return variable }
      return variable[...equals] + map(String(variable[variable.index(after: equals)...]))
    })
}

func uniqueSource(_ program: HelloProgram, nonce: String, tag: String) -> Data {
  Data((program.source + "\(program.commentPrefix) dsa-run-langbench \(nonce) \(tag)\n").utf8)
}

// MARK: - Spawning

/// A glibc function that its headers declare only with _GNU_SOURCE, which
/// Swift's Glibc module is not built with; nil if libc lacks it.
func gnuFunction<Function>(_ name: String, as type: Function.Type) -> Function? {
  guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
  return unsafeBitCast(address, to: type)
}

typealias UnshareFunction = @convention(c) (Int32) -> Int32
typealias AddChdirFunction =
  @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32

/// CLONE_NEWNS from <sched.h>.
let cloneNewMountNamespace: Int32 = 0x0002_0000

struct SpawnResult {
  var waitStatus: Int32
  var stdout: Data
  /// posix_spawn to waitpid.
  var nanoseconds: UInt64
}

/// The first bytes of a file, for failure messages.
func fileHead(_ path: String, limit: Int = 400) -> String {
  guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
  defer { try? handle.close() }
  let data = (try? handle.read(upToCount: limit)) ?? Data()
  return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// posix_spawn with stdin on /dev/null, stdout into a pipe that is read to
/// its end, stderr into `stderrPath`; then waitpid. The clock runs from just
/// before posix_spawn to just after waitpid.
func spawnCapturing(
  _ argv: CStringList, environment: CStringList, directory: String?, stderrPath: String
) -> Result<SpawnResult, RunFailure> {
  guard let path = argv.pointer[0] else { return .failure(RunFailure(text: "posix_spawn: empty argv")) }
  let program = String(cString: path)
  var addChdir: AddChdirFunction?
  if directory != nil {
    addChdir = gnuFunction("posix_spawn_file_actions_addchdir_np", as: AddChdirFunction.self)
    guard addChdir != nil else {
      return .failure(RunFailure(text: "libc has no posix_spawn_file_actions_addchdir_np (glibc 2.29 or later)"))
    }
  }
  var fds: [Int32] = [-1, -1]
  guard pipe(&fds) == 0 else { return .failure(RunFailure(text: "pipe: \(errnoText())")) }
  // Close-on-exec, so that no other child holds the write end open.
  for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
  let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
  _ = posix_spawn_file_actions_init(actions)
  defer {
    _ = posix_spawn_file_actions_destroy(actions)
    actions.deallocate()
  }
  _ = posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0)
  _ = posix_spawn_file_actions_adddup2(actions, fds[1], 1)
  _ = posix_spawn_file_actions_addopen(actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  if let directory, let addChdir { _ = addChdir(actions, directory) }

  let start = nowNanoseconds()
  var pid: pid_t = 0
  let error = posix_spawn(&pid, path, actions, nil, argv.pointer, environment.pointer)
  close(fds[1])
  if error != 0 {
    close(fds[0])
    return .failure(RunFailure(text: "posix_spawn \(program): \(errnoText(error))"))
  }
  var output = Data()
  let buffer = UnsafeMutableRawPointer.allocate(byteCount: 65_536, alignment: 16)
  defer { buffer.deallocate() }
  while true {
    let count = read(fds[0], buffer, 65_536)
    if count < 0 && errno == EINTR { continue }
    if count <= 0 { break }
    if output.count < Bench.outputCapture { output.append(buffer.assumingMemoryBound(to: UInt8.self), count: count) }
  }
  close(fds[0])
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 {
    if errno != EINTR { return .failure(RunFailure(text: "waitpid \(program): \(errnoText())")) }
  }
  return .success(SpawnResult(waitStatus: status, stdout: output, nanoseconds: nowNanoseconds() - start))
}

func describeOutput(_ data: Data) -> String {
  let text = String(decoding: data.prefix(120), as: UTF8.self)
  return "\"" + text.replacingOccurrences(of: "\n", with: "\\n") + "\""
}

// MARK: - The bare lane

/// A thread with a mount namespace of its own, in which every bare run is
/// spawned: /tmp is a fresh tmpfs there (like a box's /tmp; the run
/// directories go in it and vanish with the thread), and the runners' mounts
/// are bound read-only at their own paths, as in a box. Without that, a bare
/// `go build` as root would write learner packages into the shared, pre-warmed
/// Go cache. The Executor and the CLI run on the main thread, in the host's
/// namespace. (unshare(CLONE_NEWNS) affects only the calling thread.)
final class BareLane: Sendable {
  private let pending = Mutex<(@Sendable () -> Void)?>(nil)
  private let wake = DispatchSemaphore(value: 0)
  private let done = DispatchSemaphore(value: 0)
  private let setupFailure = Mutex<String?>(nil)

  /// nil when the namespace could not be set up (`failure` says why).
  init(readOnlyPaths: [String]) {
    let thread = Thread { [self] in
      setupFailure.withLock { $0 = Self.isolate(readOnlyPaths: readOnlyPaths) }
      done.signal()
      while true {
        wake.wait()
        let job = pending.withLock { job in
          defer { job = nil }
          return job
        }
        guard let job else { break }
        job()
        done.signal()
      }
      done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    done.wait()
  }

  var failure: String? { setupFailure.withLock { $0 } }

  private static func isolate(readOnlyPaths: [String]) -> String? {
    guard let unshare = gnuFunction("unshare", as: UnshareFunction.self) else { return "libc has no unshare" }
    guard unshare(cloneNewMountNamespace) == 0 else { return "unshare(CLONE_NEWNS): \(errnoText())" }
    guard mount(nil, "/", nil, UInt(MS_REC | MS_PRIVATE), nil) == 0 else {
      return "make / private in the bare lane: \(errnoText())"
    }
    guard mount("tmpfs", "/tmp", "tmpfs", UInt(MS_NOSUID | MS_NODEV), "mode=1777,size=1g") == 0 else {
      return "mount tmpfs on /tmp in the bare lane: \(errnoText())"
    }
    for path in readOnlyPaths {
      guard mount(path, path, nil, UInt(MS_BIND | MS_REC), nil) == 0,
        mount(nil, path, nil, UInt(MS_BIND | MS_REMOUNT | MS_RDONLY), nil) == 0
      else { return "bind \(path) read-only in the bare lane: \(errnoText())" }
    }
    guard mkdir(Bench.bareRoot, 0o755) == 0 else { return "mkdir \(Bench.bareRoot): \(errnoText())" }
    return nil
  }

  /// Runs `body` on the lane and waits for its result.
  func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let slot = ResultSlot<T>()
    pending.withLock { $0 = { slot.set(body()) } }
    wake.signal()
    done.wait()
    return slot.value!
  }

  /// Ends the thread; its namespace and tmpfs go with it.
  func stop() {
    pending.withLock { $0 = nil }
    wake.signal()
    done.wait()
  }
}

final class ResultSlot<T: Sendable>: Sendable {
  private let stored = Mutex<T?>(nil)
  func set(_ value: T) { stored.withLock { $0 = value } }
  var value: T? { stored.withLock { $0 } }
}

struct BareSample: Sendable {
  var compile: Double?
  var run: Double
  var total: Double
}

/// One bare compile (if any) and run, on the lane. Total: from making the
/// run directory (and writing the source) to the end of the run's waitpid;
/// removing the directory afterwards is not timed.
func runBare(_ plan: BarePlan, source: Data, tag: String) -> Result<BareSample, RunFailure> {
  let directory = Bench.bareRoot + "/" + tag
  let stderrPath = Bench.bareRoot + "/" + tag + ".stderr"
  defer {
    try? FileManager.default.removeItem(atPath: directory)
    unlink(stderrPath)
  }
  let compile = plan.compile.map { mapWorkDirectory($0, to: directory) }
  let run = mapWorkDirectory(plan.run, to: directory)
  let compileArgv = compile.map { CStringList($0.argv) }
  let compileEnvironment = compile.map { CStringList($0.environment) }
  let runArgv = CStringList(run.argv)
  let runEnvironment = CStringList(run.environment)

  let start = nowNanoseconds()
  guard mkdir(directory, 0o755) == 0 else { return .failure(RunFailure(text: "mkdir \(directory): \(errnoText())")) }
  let file = open(directory + "/" + plan.sourceName, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
  guard file >= 0 else { return .failure(RunFailure(text: "create \(plan.sourceName): \(errnoText())")) }
  let written = source.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
  close(file)
  guard written == source.count else { return .failure(RunFailure(text: "write \(plan.sourceName): short write")) }
  var compileMilliseconds: Double?
  if let compileArgv, let compileEnvironment {
    switch spawnCapturing(compileArgv, environment: compileEnvironment, directory: directory, stderrPath: stderrPath)
    {
    case .failure(let failure): return .failure(failure)
    case .success(let result):
      guard result.waitStatus == 0 else {
        return .failure(
          RunFailure(text: "compile \(describeWaitStatus(result.waitStatus)): \(fileHead(stderrPath))"))
      }
      compileMilliseconds = milliseconds(result.nanoseconds)
    }
  }
  switch spawnCapturing(runArgv, environment: runEnvironment, directory: directory, stderrPath: stderrPath) {
  case .failure(let failure): return .failure(failure)
  case .success(let result):
    let total = milliseconds(nowNanoseconds() - start)
    guard result.waitStatus == 0 else {
      return .failure(RunFailure(text: "run \(describeWaitStatus(result.waitStatus)): \(fileHead(stderrPath))"))
    }
    guard result.stdout == Bench.expectedOutput else {
      return .failure(RunFailure(text: "run printed \(describeOutput(result.stdout))"))
    }
    return .success(BareSample(compile: compileMilliseconds, run: milliseconds(result.nanoseconds), total: total))
  }
}

// MARK: - dsa-run

/// nil when the request compiled (or hit the cache) as expected and the run
/// printed the hello line with status ok; otherwise why not.
func checkResult(_ result: ExecuteResult, plan: LanguagePlan, expectHit: Bool) -> String? {
  if result.fileNames.first != plan.bare.sourceName {
    return "the main file was named \(result.fileNames.first ?? "?"), the bare runs use \(plan.bare.sourceName)"
  }
  if plan.isCompiled {
    if expectHit {
      guard result.compileCacheHit, result.compile == nil else { return "expected a compile-cache hit, got a compile" }
    } else {
      guard !result.compileCacheHit else { return "expected a compile (new source), got a cache hit" }
      guard let compile = result.compile else { return "no compile outcome" }
      guard compile.status == .ok else {
        let stderr = String(decoding: compile.stderr.prefix(300), as: UTF8.self)
        return "compile status \(compile.status.rawValue): \(compile.message) \(stderr)"
      }
    }
  }
  guard let run = result.run else { return "no run outcome" }
  guard run.status == .ok else {
    let stderr = String(decoding: run.stderr.prefix(300), as: UTF8.self)
    return "run status \(run.status.rawValue): \(run.message) \(stderr)"
  }
  guard run.stdout == Bench.expectedOutput else { return "run printed \(describeOutput(run.stdout))" }
  return nil
}

struct DsaRunSample {
  var compile: Double?
  var run: Double
  var total: Double
}

/// One execute, clocked around the call.
func executeTimed(
  _ executor: Executor, request: ExecuteRequest, plan: LanguagePlan, expectHit: Bool
) -> Result<DsaRunSample, RunFailure> {
  let start = nowNanoseconds()
  let result: ExecuteResult
  do {
    result = try executor.execute(request)
  } catch {
    return .failure(RunFailure(text: "execute: \(error)"))
  }
  let total = milliseconds(nowNanoseconds() - start)
  if let problem = checkResult(result, plan: plan, expectHit: expectHit) { return .failure(RunFailure(text: problem)) }
  return .success(
    DsaRunSample(
      compile: result.compile.map { Double($0.wallMicroseconds) / 1000 },
      run: Double(result.run?.wallMicroseconds ?? 0) / 1000,
      total: total))
}

// MARK: - The one-shot CLI

/// `dsa-run --lang L --cache-dir DIR FILE`, with this process's environment.
/// The source file is written before the clock starts.
func runCLI(
  dsaRun: String, environment: CStringList, plan: LanguagePlan, source: Data, scratch: String, tag: String
) -> Result<Double, RunFailure> {
  let directory = scratch + "/cli/" + tag
  let stderrPath = directory + ".stderr"
  defer {
    try? FileManager.default.removeItem(atPath: directory)
    unlink(stderrPath)
  }
  let path = directory + "/" + plan.bare.sourceName
  do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try source.write(to: URL(fileURLWithPath: path))
  } catch {
    return .failure(RunFailure(text: "write \(path): \(error)"))
  }
  let argv = CStringList([dsaRun, "--lang", plan.runner.language, "--cache-dir", scratch + "/cli-cache", path])
  switch spawnCapturing(argv, environment: environment, directory: nil, stderrPath: stderrPath) {
  case .failure(let failure): return .failure(failure)
  case .success(let result):
    guard result.waitStatus == 0 else {
      return .failure(RunFailure(text: "dsa-run \(describeWaitStatus(result.waitStatus)): \(fileHead(stderrPath))"))
    }
    guard result.stdout == Bench.expectedOutput else {
      return .failure(RunFailure(text: "dsa-run printed \(describeOutput(result.stdout))"))
    }
    return .success(milliseconds(result.nanoseconds))
  }
}

// MARK: - Statistics

enum Metric: String, CaseIterable, Codable {
  case bareCompile = "bare_compile"
  case bareRun = "bare_run"
  case bareTotal = "bare_total"
  case dsaRunCompile = "dsa_run_compile"
  case dsaRunRun = "dsa_run_run"
  case dsaRunTotal = "dsa_run_total"
  case cacheHitRun = "cache_hit_run"
  case cacheHitTotal = "cache_hit_total"
  case cliTotal = "cli_total"
}

/// Failures: a count per language and the first few messages.
struct FailureLog {
  var count = 0
  var perLanguage: [String: Int] = [:]
  var samples: [String] = []

  mutating func record(_ language: String, _ method: String, round: String, _ text: String) {
    count += 1
    perLanguage[language, default: 0] += 1
    if samples.count < 20 { samples.append("\(language) \(method) (\(round)): \(text)") }
  }
}

// MARK: - Report

struct HostFacts: Codable {
  var kernel: String
  var processors: Int
  var accounting: String
  var loadAverageBefore: [Double]
  var loadAverageAfter: [Double]
}

struct TargetCheck: Codable {
  var language: String
  var target: String
  var measured: String
  var pass: Bool
}

struct LanguageRow: Codable {
  var language: String
  var version: String
  var sourceFile: String
  var compiled: Bool
  var bareCompileArgv: [String]?
  var bareRunArgv: [String]
  var bareRunEnvironment: [String]
  /// Per metric: count, median, p95, min, max in ms.
  var summaries: [String: Summary]
  /// (median dsa-run run - median bare run) / median bare run, in percent.
  var runOverheadPercent: Double?
  var failures: Int
}

struct SkippedLanguage: Codable {
  var language: String
  var reason: String
}

struct BenchReport: Codable {
  var benchmark = "dsa-run-langbench"
  var host: HostFacts
  var rounds: Int
  var warmUpRounds: Int
  /// Per language and round, in rotating order: round r (warm-up rounds
  /// included, from 0) starts with unit r mod 3.
  var units: [String]
  var dsaRunBinary: String
  var runMemoryLimitMb: UInt64
  var languages: [LanguageRow]
  var skipped: [SkippedLanguage]
  var targets: [TargetCheck]
  var warmBoxesIdleAtEnd: Int
  var failures: Int
  var failureSamples: [String]
}

func loadAverage() -> [Double] {
  var values = [Double](repeating: 0, count: 3)
  return getloadavg(&values, 3) == 3 ? values : []
}

func formatNumber(_ value: Double?, _ format: String = "%.1f") -> String {
  guard let value else { return "-" }
  return String(format: format, value)
}

/// The targets of the "seven languages" issue, for one language.
func targetChecks(_ row: LanguageRow) -> [TargetCheck] {
  var checks: [TargetCheck] = []
  let median = { (metric: Metric) in row.summaries[metric.rawValue]?.median }
  if ["python", "javascript"].contains(row.language) {
    let overhead = row.runOverheadPercent
    checks.append(
      TargetCheck(
        language: row.language, target: "run overhead <= 5% (dsa-run run vs bare run, medians)",
        measured: overhead.map {
          String(format: "%+.1f%% (%.1f vs %.1f ms)", $0, median(.dsaRunRun)!, median(.bareRun)!)
        }
          ?? "no samples",
        pass: overhead.map { $0 <= 5 } ?? false))
  }
  // "A cache hit costs no more than one run": the whole hit request against
  // the run share of a cold request (its total less its compile), both
  // clocked around execute. The in-box run wall alone
  // leaves out what every request pays (box preparation, files, cgroup
  // reads), so it is printed beside it, not compared.
  let hit = median(.cacheHitTotal)
  let runShare = median(.dsaRunTotal).map { $0 - (median(.dsaRunCompile) ?? 0) }
  let inBox = median(.dsaRunRun)
  checks.append(
    TargetCheck(
      language: row.language, target: "cache-hit total <= run share of a cold request (medians)",
      measured: hit.flatMap { hit in
        runShare.map {
          String(format: "%.1f vs %.1f ms (%+.1f ms; in-box run %.1f ms)", hit, $0, hit - $0, inBox ?? .nan)
        }
      } ?? "no samples",
      pass: hit.flatMap { hit in runShare.map { hit <= $0 } } ?? false))
  let limits = ["kotlin": 2500.0, "cpp": 1000.0]
  if let limit = limits[row.language] {
    let total = median(.dsaRunTotal)
    checks.append(
      TargetCheck(
        language: row.language, target: String(format: "dsa-run total (cold cache) < %.0f ms (median)", limit),
        measured: total.map { String(format: "%.1f ms", $0) } ?? "no samples", pass: total.map { $0 < limit } ?? false
      ))
  }
  return checks
}

func printTables(_ report: BenchReport) {
  var lines: [String] = []
  let host = report.host
  lines.append(
    "dsa-run-langbench: hello world per language: bare toolchain vs dsa-run (warm boxes + compile cache) vs CLI")
  lines.append(
    "host: Linux \(host.kernel), \(host.processors) CPUs, box accounting \(host.accounting), load average before "
      + host.loadAverageBefore.map { String(format: "%.2f", $0) }.joined(separator: " "))
  lines.append(
    "\(report.rounds) interleaved rounds after \(report.warmUpRounds) warm-up rounds; per round, each language runs "
      + report.units.joined(separator: ", "))
  lines.append("  in rotating order (round r, counting warm-up rounds from 0, starts with unit r mod 3)")
  lines.append("wall time in ms; every run checked (stdout \"Hello, World!\\n\", status ok), failed runs left out")
  lines.append(
    "  bare         = the runner's argv (placeholders filled; run memory \(report.runMemoryLimitMb) MB, heap 3/4)")
  lines.append("                 via posix_spawn in a new directory, empty environment + the runner's variables;")
  lines.append("                 compile/run = spawn to waitpid, total = mkdir + write source + compile + run")
  lines.append("  dsa-run      = Executor(pool: BoxPool, cache: CompileCache).execute, a new source each round (the")
  lines.append("                 compile always misses); compile/run = Outcome.wallMicroseconds,")
  lines.append("                 total = clocked around execute")
  lines.append(
    "  cache-hit    = the same request again (compile skipped, artifacts from the cache), clocked around execute")
  lines.append("  CLI          = \(report.dsaRunBinary) --lang L --cache-dir DIR FILE, a new source each round")
  lines.append("  run overhead = (dsa-run run - bare run) / bare run, medians")
  lines.append("")
  let columns: [(String, Metric)] = [
    ("bare compile", .bareCompile), ("bare run", .bareRun), ("bare total", .bareTotal),
    ("dsa-run compile", .dsaRunCompile), ("dsa-run run", .dsaRunRun), ("dsa-run total", .dsaRunTotal),
    ("cache-hit total", .cacheHitTotal), ("CLI total", .cliTotal),
  ]
  let tables: [(title: String, pick: (Summary) -> Double, isMedian: Bool)] = [
    ("median", { $0.median }, true), ("p95 (nearest rank)", { $0.p95 }, false),
  ]
  let versionWidth = max(10, (report.languages.map(\.version.count).max() ?? 0) + 2)
  for table in tables {
    lines.append("\(table.title):")
    var header = pad("language", 11) + pad("version", versionWidth)
    for (label, _) in columns { header += pad(label, label.count + 2, right: true) }
    if table.isMedian { header += pad("run overhead %", 16, right: true) + pad("fail", 6, right: true) }
    lines.append(header)
    lines.append(String(repeating: "-", count: header.count))
    for row in report.languages {
      var line = pad(row.language, 11) + pad(row.version, versionWidth)
      for (label, metric) in columns {
        line += pad(formatNumber(row.summaries[metric.rawValue].map(table.pick)), label.count + 2, right: true)
      }
      if table.isMedian {
        line += pad(formatNumber(row.runOverheadPercent, "%+.1f%%"), 16, right: true)
        line += pad(String(row.failures), 6, right: true)
      }
      lines.append(line)
    }
    lines.append("")
  }
  for skipped in report.skipped { lines.append("skipped \(skipped.language): \(skipped.reason)") }
  if !report.skipped.isEmpty { lines.append("") }
  lines.append("Targets:")
  for check in report.targets {
    lines.append(
      "  " + pad(check.pass ? "PASS" : "FAIL", 6) + pad(check.language, 11) + pad(check.target, 56) + check.measured)
  }
  let passed = report.targets.filter(\.pass).count
  lines.append("  \(passed) of \(report.targets.count) targets met")
  lines.append("")
  lines.append(
    "load average after: " + host.loadAverageAfter.map { String(format: "%.2f", $0) }.joined(separator: " ")
      + "; warm boxes idle at the end: \(report.warmBoxesIdleAtEnd)")
  lines.append("Failures: \(report.failures)")
  for sample in report.failureSamples { lines.append("  \(sample)") }
  print(lines.joined(separator: "\n"))
}

// MARK: - Rounds

/// Everything the rounds need.
struct BenchContext {
  let executor: Executor
  let lane: BareLane
  let dsaRun: String
  let cliEnvironment: CStringList
  let scratch: String
  let nonce: String
}

/// The three units of a round, per language. dsa-run is one unit because
/// its cache hit must follow its cold run.
enum Unit: String, CaseIterable {
  case bare
  case dsaRun = "dsa-run (cold cache, then cache hit)"
  case cli = "one-shot CLI"

  /// Round r (0-based, warm-up included) starts with unit r mod 3, so each
  /// unit follows each other unit (and the previous language's last unit)
  /// equally often: a cost left behind by one run (a one-shot box's
  /// namespaces are torn down by kernel workers after it ends) is not always
  /// paid by the same method.
  static func order(round: Int) -> [Unit] {
    let units = allCases
    return units.indices.map { units[($0 + round) % units.count] }
  }
}

/// One round: every language, each with its three units in the round's
/// order.
func runRound(
  _ round: Int, label: String, plans: [LanguagePlan], context: BenchContext,
  samples: inout [String: [Metric: [Double]]], failures: inout FailureLog
) {
  for plan in plans {
    let language = plan.program.language
    func add(_ metric: Metric, _ value: Double?) {
      if let value { samples[language, default: [:]][metric, default: []].append(value) }
    }
    let tag = "\(language)-\(label)"
    for unit in Unit.order(round: round) {
      switch unit {
      case .bare:
        let bareSource = uniqueSource(plan.program, nonce: context.nonce, tag: "\(label) bare")
        let barePlan = plan.bare
        switch context.lane.perform({ runBare(barePlan, source: bareSource, tag: tag) }) {
        case .success(let sample):
          add(.bareCompile, sample.compile)
          add(.bareRun, sample.run)
          add(.bareTotal, sample.total)
        case .failure(let failure): failures.record(language, "bare", round: label, failure.text)
        }
      case .dsaRun:
        let source = uniqueSource(plan.program, nonce: context.nonce, tag: "\(label) dsa-run")
        let request = ExecuteRequest(
          language: plan.runner.language, version: plan.runner.version,
          files: [SourceFile(name: plan.bare.sourceName, contents: source)])
        switch executeTimed(context.executor, request: request, plan: plan, expectHit: false) {
        case .success(let sample):
          add(.dsaRunCompile, sample.compile)
          add(.dsaRunRun, sample.run)
          add(.dsaRunTotal, sample.total)
          switch executeTimed(context.executor, request: request, plan: plan, expectHit: true) {
          case .success(let hit):
            add(.cacheHitRun, hit.run)
            add(.cacheHitTotal, hit.total)
          case .failure(let failure): failures.record(language, "dsa-run cache hit", round: label, failure.text)
          }
        case .failure(let failure):
          failures.record(language, "dsa-run cold cache", round: label, failure.text + " (cache hit not measured)")
        }
      case .cli:
        let cliSource = uniqueSource(plan.program, nonce: context.nonce, tag: "\(label) cli")
        switch runCLI(
          dsaRun: context.dsaRun, environment: context.cliEnvironment, plan: plan, source: cliSource,
          scratch: context.scratch, tag: tag)
        {
        case .success(let total): add(.cliTotal, total)
        case .failure(let failure): failures.record(language, "one-shot CLI", round: label, failure.text)
        }
      }
    }
  }
}

// MARK: - Main

func runBenchmark() -> Int32 {
  let options = parseBenchOptions(Array(CommandLine.arguments.dropFirst()))
  guard getuid() == 0 else {
    failSetup("must run as root: boxes mount file systems, write uid maps and create cgroups")
  }
  let loadBefore = loadAverage()
  let binaryDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    .deletingLastPathComponent()
  let dsaRun = options.dsaRunPath ?? binaryDirectory.appendingPathComponent("dsa-run").path
  guard access(dsaRun, X_OK) == 0 else {
    failSetup(
      "\(dsaRun) is missing: swift build -c release --product dsa-run (Benchmarks/run-language-bench does this)")
  }
  guard let runnersDirectory = DataDirectories.locate("runners") else {
    failSetup("cannot find the runners/ folder (set DSA_RUN_DATA to the folder that holds it)")
  }
  guard let policiesDirectory = DataDirectories.locate("policies") else {
    failSetup("cannot find the policies/ folder (set DSA_RUN_DATA to the folder that holds it)")
  }
  var template = "/tmp/dsa-run-langbench.XXXXXX".utf8CString
  let scratch: String = template.withUnsafeMutableBufferPointer { buffer in
    guard let made = mkdtemp(buffer.baseAddress!) else { failSetup("mkdtemp in /tmp: \(errnoText())") }
    return String(cString: made)
  }
  defer { try? FileManager.default.removeItem(atPath: scratch) }

  let executor: Executor
  let pool: BoxPool
  do {
    let catalog = try RunnerCatalog.load(directory: runnersDirectory)
    let policies = try SeccompCompiler.loadDirectory(policiesDirectory)
    let host = try SandboxHost()
    let cache = try CompileCache(directory: scratch + "/executor-cache")
    pool = BoxPool(host: host)
    executor = Executor(environments: pool, catalog: catalog, policies: policies, cache: cache)
  } catch {
    try? FileManager.default.removeItem(atPath: scratch)
    failSetup("set-up failed: \(error)")
  }

  var plans: [LanguagePlan] = []
  var skipped: [SkippedLanguage] = []
  for program in Bench.programs where options.languages.contains(program.language) {
    let runner: Runner
    do {
      runner = try executor.runner(language: program.language, version: nil)
    } catch {
      let reason: String
      if case .unknownLanguage = error {
        reason = "no runner: \(runnersDirectory) has no \(program.language).json"
      } else {
        reason = "toolchain not installed: \(error)"
      }
      skipped.append(SkippedLanguage(language: program.language, reason: reason))
      progress("skipping \(program.language): \(reason)")
      continue
    }
    let (sourceName, mainClass) = sourceNames(for: runner)
    let compile = runner.compile.map {
      bareCommand($0, source: sourceName, mainClass: mainClass, limits: $0.limits.applied(to: BoxLimits()))
    }
    let run = bareCommand(
      runner.run, source: sourceName, mainClass: mainClass, limits: runner.run.limits.applied(to: BoxLimits()))
    plans.append(
      LanguagePlan(
        program: program, runner: runner, version: executor.probedVersion(of: runner),
        bare: BarePlan(language: program.language, sourceName: sourceName, compile: compile, run: run)))
  }
  guard !plans.isEmpty else {
    try? FileManager.default.removeItem(atPath: scratch)
    failSetup("no language to measure")
  }

  var readOnlyPaths: [String] = []
  for plan in plans {
    let mounts = plan.runner.mounts + (plan.runner.compile?.mounts ?? []) + plan.runner.run.mounts
    for mount in mounts where !readOnlyPaths.contains(mount.hostPath) { readOnlyPaths.append(mount.hostPath) }
  }
  let lane = BareLane(readOnlyPaths: readOnlyPaths)
  if let failure = lane.failure {
    lane.stop()
    try? FileManager.default.removeItem(atPath: scratch)
    failSetup("bare lane: \(failure)")
  }
  let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }.sorted()
  let context = BenchContext(
    executor: executor, lane: lane, dsaRun: dsaRun, cliEnvironment: CStringList(environment), scratch: scratch,
    nonce: String(UInt64.random(in: 0...UInt64.max), radix: 16))

  var failures = FailureLog()
  var samples: [String: [Metric: [Double]]] = [:]
  if options.warmUpRounds > 0 {
    progress("warming up (\(options.warmUpRounds) rounds): \(plans.map(\.program.language).joined(separator: ", "))")
    for round in 0..<options.warmUpRounds {
      runRound(
        round, label: "warm-up-\(round + 1)", plans: plans, context: context, samples: &samples, failures: &failures)
    }
    if failures.count > 0 {
      progress("\(failures.count) runs failed during warm-up; not measuring:")
      for sample in failures.samples { progress("  \(sample)") }
      pool.drain()
      lane.stop()
      return 1
    }
    samples = [:]
  }
  for round in 0..<options.rounds {
    progress("round \(round + 1)/\(options.rounds)")
    runRound(
      options.warmUpRounds + round, label: "round-\(round + 1)", plans: plans, context: context, samples: &samples,
      failures: &failures)
  }
  let idleBoxes = pool.idleCount
  pool.drain()
  lane.stop()

  var rows: [LanguageRow] = []
  for plan in plans {
    let language = plan.program.language
    var summaries: [String: Summary] = [:]
    for metric in Metric.allCases {
      if let summary = Summary(samples[language]?[metric] ?? []) { summaries[metric.rawValue] = summary }
    }
    var overhead: Double?
    if let box = summaries[Metric.dsaRunRun.rawValue]?.median, let bare = summaries[Metric.bareRun.rawValue]?.median,
      bare > 0
    {
      overhead = (box - bare) / bare * 100
    }
    rows.append(
      LanguageRow(
        language: language, version: plan.version, sourceFile: plan.bare.sourceName, compiled: plan.isCompiled,
        bareCompileArgv: plan.bare.compile?.argv, bareRunArgv: plan.bare.run.argv,
        bareRunEnvironment: plan.bare.run.environment, summaries: summaries, runOverheadPercent: overhead,
        failures: failures.perLanguage[language] ?? 0))
  }
  let report = BenchReport(
    host: HostFacts(
      kernel: kernelRelease(), processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
      accounting: pool.host.cgroups.mode.rawValue, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage()),
    rounds: options.rounds, warmUpRounds: options.warmUpRounds, units: Unit.allCases.map(\.rawValue),
    dsaRunBinary: dsaRun,
    runMemoryLimitMb: BoxLimits().memoryBytes >> 20, languages: rows, skipped: skipped,
    targets: rows.flatMap(targetChecks), warmBoxesIdleAtEnd: idleBoxes, failures: failures.count,
    failureSamples: failures.samples)

  if options.json {
    printJSONReport(report)
  } else {
    printTables(report)
  }
  return report.failures == 0 ? 0 : 1
}

exit(runBenchmark())
