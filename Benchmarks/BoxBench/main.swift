import BenchSupport
import Foundation
import Glibc
import Sandbox
import Synchronization

// dsa-run-bench: what one box costs per run, next to a bare spawn of the same
// command and to bubblewrap with comparable isolation. A benchmark, not a
// test: it prints figures, and fails (exit 1) only when a run itself failed.
//
// Methods: bare (posix_spawn + waitpid), box (a one-shot `Box`: create, run,
// destroy), warm (one run through a `BoxPool`: a `WarmBox` built once serves
// every run; per run /box, /tmp and /dev/shm are emptied, the
// IPC namespace is new, the cgroup limits and counters are reset, and every
// process of the box is killed at the end) and bwrap (bubblewrap).
//
//  1. Latency: for each command, rounds of bare, box, warm, bwrap,
//     interleaved so that drift (page cache, CPU frequency, other load)
//     touches all four alike; median and p95 per (command, method) and the
//     overhead over bare.
//  2. Throughput: two worker threads doing back-to-back runs of /bin/true for
//     a fixed time, one method after the other; runs per second. For warm,
//     both workers share one pool (at most 2 idle boxes), so each reuses a
//     warm box of its own.

BenchSupport.programName = "dsa-run-bench"

let usageText = """
  Usage: dsa-run-bench [--runs N] [--seconds S] [--json] [--policies DIR] [--only-true]

    --runs N         interleaved latency rounds after 10 warm-up rounds (default 200, at least 20)
    --only-true      latency of /bin/true only, not of python3 -c pass (for an emulated VM, where
                     each Python start takes seconds)
    --seconds S      length of each throughput phase (default 5)
    --json           print one JSON object instead of the table
    --policies DIR   the seccomp policy folder (default: located like dsa-run does)

  Needs root (boxes mount, write uid maps and make cgroups) and /usr/bin/bwrap.
  Exit status: 0 all runs succeeded, 1 some run failed, 2 usage or set-up error.
  """

// MARK: - Options

struct BenchOptions {
  var rounds = 200
  var warmUpRounds = 10
  var seconds = 5.0
  var json = false
  var policiesDirectory: String?
  /// Indices into `Bench.commands` whose latency is measured.
  var commands = Array(Bench.commands.indices)
}

func parseBenchOptions(_ arguments: [String]) -> BenchOptions {
  var options = BenchOptions()
  var cursor = OptionCursor(arguments)
  while let argument = cursor.next() {
    switch argument {
    case "--runs":
      let text = cursor.value(argument)
      guard let rounds = Int(text), rounds >= 20 else {
        failSetup("--runs needs a whole number of at least 20, got \"\(text)\"")
      }
      options.rounds = rounds
    case "--seconds":
      let text = cursor.value(argument)
      guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
        failSetup("--seconds needs a number of seconds in (0, 3600], got \"\(text)\"")
      }
      options.seconds = seconds
    case "--json": options.json = true
    case "--policies": options.policiesDirectory = cursor.value(argument)
    case "--only-true": options.commands = [Bench.throughputCommand]
    case "--help", "-h":
      print(usageText)
      exit(0)
    default: failSetup("unknown option \"\(argument)\"\n\(usageText)")
    }
  }
  return options
}

// MARK: - What is measured

enum Method: String, CaseIterable, Sendable, Codable {
  case bare
  case box
  case warm
  case bwrap
}

struct BenchCommand: Sendable {
  let label: String
  let argv: [String]
}

enum Bench {
  static let commands = [
    BenchCommand(label: "/bin/true", argv: ["/bin/true"]),
    BenchCommand(label: "python3 -c pass", argv: ["/usr/bin/python3", "-c", "pass"]),
  ]
  static let throughputCommand = 0
  static let workers = 2
  /// Idle warm boxes the pool keeps: one per throughput worker.
  static let warmPoolIdle = 2
  static let bwrapPath = "/usr/bin/bwrap"
  /// All of these are accepted by bubblewrap 0.8.0. As root (not setuid),
  /// --unshare-all still creates a user namespace, which --uid/--gid need.
  static let bwrapFlags = [
    "--unshare-all", "--die-with-parent", "--new-session",
    "--ro-bind", "/usr", "/usr",
    "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
    "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
    "--clearenv", "--uid", "1000", "--gid", "1000",
  ]
}

// MARK: - Running one command

/// The pool every warm run goes through (latency and both throughput
/// workers), and how many warm boxes its runs had to build.
final class WarmPool: Sendable {
  let pool: BoxPool
  private let made = Atomic<Int>(0)

  init(host: SandboxHost) {
    pool = BoxPool(host: host, maximumIdlePerLayout: Bench.warmPoolIdle)
  }

  /// One run, the full per-run cost: take a box (or build one), empty and
  /// size /box, /tmp, /dev/shm, run (fresh IPC namespace; cgroup reset),
  /// give the box back.
  func run(_ spec: BoxSpec) throws(SandboxError) -> Outcome {
    try pool.withBox(layout: BoxLayout(spec), limits: spec.limits) { box throws(SandboxError) in
      let outcome = try box.run(spec)
      if box.runCount == 1 { made.add(1, ordering: .relaxed) }
      return outcome
    }
  }

  /// Warm boxes built so far (a box's first run counts it).
  var boxesMade: Int { made.load(ordering: .relaxed) }

  /// Builds `count` boxes at once (nested `withBox`), runs `spec` in each
  /// and returns them all to the pool, so that `count` concurrent workers
  /// find a warm box each. nil on success, otherwise a one-line failure.
  func prewarm(_ count: Int, spec: BoxSpec) -> String? {
    guard count > 0 else { return nil }
    do {
      return try pool.withBox(layout: BoxLayout(spec), limits: spec.limits) { box throws(SandboxError) -> String? in
        let outcome = try box.run(spec)
        if box.runCount == 1 { made.add(1, ordering: .relaxed) }
        if let failure = outcomeFailure(outcome, method: .warm) { return failure }
        return prewarm(count - 1, spec: spec)
      }
    } catch {
      return "pool.withBox + run: \(error)"
    }
  }
}

/// nil when the box ran the program to a clean end; otherwise why not.
func outcomeFailure(_ outcome: Outcome, method: Method) -> String? {
  guard outcome.status == .ok else {
    let stderr = String(decoding: outcome.stderr.prefix(300), as: UTF8.self)
    return "\(method.rawValue) status \(outcome.status.rawValue): \(outcome.message)"
      + (stderr.isEmpty ? "" : " stderr: \(stderr)")
  }
  return nil
}

/// posix_spawn + waitpid, stdin and stdout on /dev/null; stderr is inherited
/// so a failing run explains itself.
final class Spawner {
  private let actions: UnsafeMutablePointer<posix_spawn_file_actions_t>

  init() {
    actions = .allocate(capacity: 1)
    _ = posix_spawn_file_actions_init(actions)
    _ = posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0)
    _ = posix_spawn_file_actions_addopen(actions, 1, "/dev/null", O_WRONLY, 0)
  }

  deinit {
    _ = posix_spawn_file_actions_destroy(actions)
    actions.deallocate()
  }

  /// nil when the command exited 0; otherwise what went wrong.
  func run(_ argv: CStringList, environment: CStringList) -> String? {
    var pid: pid_t = 0
    guard let path = argv.pointer[0] else { return "posix_spawn: empty argv" }
    let error = posix_spawn(&pid, path, actions, nil, argv.pointer, environment.pointer)
    if error != 0 { return "posix_spawn \(String(cString: path)): \(String(cString: strerror(error)))" }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      if errno != EINTR { return "waitpid \(String(cString: path)): \(String(cString: strerror(errno)))" }
    }
    return status == 0 ? nil : "\(String(cString: path)) \(describeWaitStatus(status))"
  }
}

/// Everything one thread needs to run any (method, command); one per thread.
final class MethodRunner {
  private let host: SandboxHost
  private let warmPool: WarmPool
  private let specs: [BoxSpec]
  private let bareArgvs: [CStringList]
  private let bwrapArgvs: [CStringList]
  private let emptyEnvironment = CStringList([])
  private let spawner = Spawner()

  init(host: SandboxHost, warmPool: WarmPool, policy: SeccompPolicy) {
    self.host = host
    self.warmPool = warmPool
    specs = Bench.commands.map { BoxSpec(command: $0.argv, environment: [], policy: policy) }
    bareArgvs = Bench.commands.map { CStringList($0.argv) }
    bwrapArgvs = Bench.commands.map { CStringList([Bench.bwrapPath] + Bench.bwrapFlags + $0.argv) }
  }

  /// nil on success, otherwise a one-line failure.
  func run(_ method: Method, command: Int) -> String? {
    switch method {
    case .bare: return spawner.run(bareArgvs[command], environment: emptyEnvironment)
    case .bwrap: return spawner.run(bwrapArgvs[command], environment: emptyEnvironment)
    case .box: return runBox(specs[command])
    case .warm: return runWarm(specs[command])
    }
  }

  /// The full per-run cost: create (work directory tmpfs, cgroups), run,
  /// destroy (cgroups removed, tmpfs unmounted).
  private func runBox(_ spec: BoxSpec) -> String? {
    let box: Box
    do {
      box = try Box(host: host, spec: spec)
    } catch {
      return "Box(host:spec:): \(error)"
    }
    let outcome: Outcome
    do {
      outcome = try box.run()
    } catch {
      box.destroy()
      return "box.run(): \(error)"
    }
    box.destroy()
    return outcomeFailure(outcome, method: .box)
  }

  /// The full per-run cost of a warm box: `pool.withBox` (take, empty and
  /// size /box, /tmp, /dev/shm) + `run` (cgroup reset; the init unshares a
  /// new IPC namespace, starts the program, kills
  /// what is left of the box and reports) + give back.
  private func runWarm(_ spec: BoxSpec) -> String? {
    let outcome: Outcome
    do {
      outcome = try warmPool.run(spec)
    } catch {
      return "pool.withBox + run: \(error)"
    }
    return outcomeFailure(outcome, method: .warm)
  }

  /// Runs once and returns the wall time in nanoseconds, or the failure.
  func timed(_ method: Method, command: Int) -> Result<UInt64, RunFailure> {
    let start = nowNanoseconds()
    let failure = run(method, command: command)
    let elapsed = nowNanoseconds() - start
    if let failure { return .failure(RunFailure(text: failure)) }
    return .success(elapsed)
  }
}

struct RunFailure: Error {
  let text: String
}

/// Failures from any thread: a count and the first few messages.
final class FailureLog: Sendable {
  private let state = Mutex<(count: Int, samples: [String])>((0, []))

  func record(_ context: String, _ text: String) {
    state.withLock { state in
      state.count += 1
      if state.samples.count < 10 { state.samples.append("\(context): \(text)") }
    }
  }

  var count: Int { state.withLock { $0.count } }
  var samples: [String] { state.withLock { $0.samples } }
}

// MARK: - Report (JSON and table)

struct HostFacts: Codable {
  var kernel: String
  var processors: Int
  var accounting: String
  var bwrapVersion: String
  var pythonVersion: String
}

struct LatencyRow: Codable {
  var command: String
  var method: Method
  var samples: Int
  var failures: Int
  var medianMs: Double?
  var p95Ms: Double?
  var minMs: Double?
  var maxMs: Double?
  /// median(method) - median(bare); 0 for bare itself.
  var overheadMs: Double?
}

struct OverheadRatio: Codable {
  var command: String
  var boxOverheadMs: Double?
  var warmOverheadMs: Double?
  var bwrapOverheadMs: Double?
  /// box overhead / bwrap overhead; nil when bwrap's overhead is not positive.
  var boxOverBwrap: Double?
  /// warm overhead / bwrap overhead; nil when bwrap's overhead is not positive.
  var warmOverBwrap: Double?
}

struct ThroughputRow: Codable {
  var method: Method
  var runs: Int
  var failures: Int
  var elapsedSeconds: Double
  var runsPerSecond: Double
}

struct ThroughputReport: Codable {
  var command: String
  var workers: Int
  var secondsPerPhase: Double
  var rows: [ThroughputRow]
  var boxOverBwrap: Double?
  var boxOverBare: Double?
  var warmOverBwrap: Double?
  var warmOverBare: Double?
  /// Warm boxes built during the timed warm phase (0: both were pre-warmed).
  var warmBoxesMade: Int
}

struct BenchReport: Codable {
  var benchmark = "dsa-run-bench"
  var host: HostFacts
  var rounds: Int
  var warmUpRounds: Int
  var orderWithinRound: [String]
  var bwrapCommand: [String]
  var boxPolicy: String
  var warmPoolMaximumIdle: Int
  /// Warm boxes built during the latency rounds, warm-up included.
  var latencyWarmBoxesMade: Int
  var latency: [LatencyRow]
  var overhead: [OverheadRatio]
  var throughput: ThroughputReport
  var failures: Int
  var failureSamples: [String]
}

// MARK: - Host facts

/// First line of a command's combined output; for version strings only.
func firstLine(of argv: [String]) -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: argv[0])
  process.arguments = Array(argv.dropFirst())
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  do {
    try process.run()
  } catch {
    return "unknown (\(error))"
  }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "unknown"
}

// MARK: - Phases

/// Interleaved latency rounds: each round runs every command with every
/// method, bare, box, warm, bwrap in that order.
func measureLatency(
  runner: MethodRunner, rounds: Int, commands: [Int], failures: FailureLog
) -> [[Method: [UInt64]]] {
  var samples = Bench.commands.map { _ in [Method: [UInt64]]() }
  for round in 0..<rounds {
    if round > 0 && round % 50 == 0 { progress("latency round \(round)/\(rounds)") }
    for command in commands {
      for method in Method.allCases {
        switch runner.timed(method, command: command) {
        case .success(let nanoseconds): samples[command][method, default: []].append(nanoseconds)
        case .failure(let failure):
          failures.record("latency \(Bench.commands[command].label) \(method.rawValue)", failure.text)
        }
      }
    }
  }
  return samples
}

/// Tallies of the workers of one throughput phase.
final class WorkerTally: Sendable {
  private let state = Mutex<(runs: Int, failures: Int, lastEnd: UInt64)>((0, 0, 0))

  func add(runs: Int, failures: Int, end: UInt64) {
    state.withLock { state in
      state.runs += runs
      state.failures += failures
      state.lastEnd = max(state.lastEnd, end)
    }
  }

  var value: (runs: Int, failures: Int, lastEnd: UInt64) { state.withLock { $0 } }
}

/// `workers` threads, each with its own runner, doing back-to-back runs
/// until the deadline; a run that started before it is counted, and the
/// rate is over the time until the last one finished. All runners share
/// `warmPool`, which holds (after the pre-warm) one idle box per worker.
func measureThroughput(
  method: Method, host: SandboxHost, warmPool: WarmPool, policy: SeccompPolicy, seconds: Double,
  failures: FailureLog
) -> ThroughputRow {
  let tally = WorkerTally()
  let group = DispatchGroup()
  let ready = DispatchSemaphore(value: 0)
  let go = DispatchSemaphore(value: 0)
  let command = Bench.throughputCommand
  let label = Bench.commands[command].label
  let shared = ThroughputClock()
  for _ in 0..<Bench.workers {
    group.enter()
    let thread = Thread {
      let runner = MethodRunner(host: host, warmPool: warmPool, policy: policy)
      ready.signal()
      go.wait()
      let deadline = shared.deadline
      var runs = 0
      var failed = 0
      while nowNanoseconds() < deadline {
        if let failure = runner.run(method, command: command) {
          failed += 1
          failures.record("throughput \(label) \(method.rawValue)", failure)
        } else {
          runs += 1
        }
      }
      tally.add(runs: runs, failures: failed, end: nowNanoseconds())
      group.leave()
    }
    thread.stackSize = 8 << 20
    thread.start()
  }
  for _ in 0..<Bench.workers { ready.wait() }
  let begin = nowNanoseconds()
  shared.set(deadline: begin + UInt64(seconds * 1_000_000_000))
  for _ in 0..<Bench.workers { go.signal() }
  group.wait()
  let result = tally.value
  let elapsed = Double(result.lastEnd - begin) / 1_000_000_000
  return ThroughputRow(
    method: method, runs: result.runs, failures: result.failures, elapsedSeconds: elapsed,
    runsPerSecond: elapsed > 0 ? Double(result.runs) / elapsed : 0)
}

/// The deadline, set once before the workers are released.
final class ThroughputClock: Sendable {
  private let value = Atomic<UInt64>(0)
  func set(deadline: UInt64) { value.store(deadline, ordering: .sequentiallyConsistent) }
  var deadline: UInt64 { value.load(ordering: .sequentiallyConsistent) }
}

func ratio(_ numerator: Double?, _ denominator: Double?) -> Double? {
  guard let numerator, let denominator, denominator > 0 else { return nil }
  return numerator / denominator
}

// MARK: - Output

func formatNumber(_ value: Double?, _ format: String = "%.3f") -> String {
  guard let value else { return "-" }
  return String(format: format, value)
}

func printTable(_ report: BenchReport) {
  var lines: [String] = []
  lines.append("dsa-run-bench: per-run cost of a dsa-run box vs a bare spawn vs bubblewrap")
  lines.append(
    "host: Linux \(report.host.kernel), \(report.host.processors) CPUs, box accounting \(report.host.accounting), \(report.host.bwrapVersion), \(report.host.pythonVersion)"
  )
  lines.append("")
  lines.append(
    "Latency: \(report.rounds) interleaved rounds (\(report.orderWithinRound.joined(separator: ", ")) per command) after \(report.warmUpRounds) warm-up rounds; wall time per run in ms"
  )
  lines.append("  bare  = posix_spawn + waitpid of the command, empty environment")
  lines.append("  box   = Box(host:spec:) + run() + destroy(), policy \"\(report.boxPolicy)\", default limits")
  lines.append(
    "  warm  = BoxPool.withBox(layout:limits:) + WarmBox.run(spec), same policy and limits; per run: /box emptied,"
  )
  lines.append(
    "          /tmp and /dev/shm emptied, fresh IPC namespace, cgroup limits and counters reset, every box process killed"
  )
  lines.append(
    "          (one BoxPool, at most \(report.warmPoolMaximumIdle) idle boxes; warm boxes built for all latency rounds: \(report.latencyWarmBoxesMade))"
  )
  lines.append("  bwrap = \(report.bwrapCommand.joined(separator: " ")) COMMAND")
  lines.append("")
  let header =
    pad("command", 17) + pad("method", 7) + pad("median", 9, right: true) + pad("p95", 9, right: true)
    + pad("min", 9, right: true) + pad("max", 9, right: true) + pad("overhead", 10, right: true)
    + pad("runs", 6, right: true) + pad("fail", 6, right: true)
  lines.append(header)
  lines.append(String(repeating: "-", count: header.count))
  for row in report.latency {
    lines.append(
      pad(row.command, 17) + pad(row.method.rawValue, 7) + pad(formatNumber(row.medianMs), 9, right: true)
        + pad(formatNumber(row.p95Ms), 9, right: true) + pad(formatNumber(row.minMs), 9, right: true)
        + pad(formatNumber(row.maxMs), 9, right: true)
        + pad(row.method == .bare ? "-" : formatNumber(row.overheadMs), 10, right: true)
        + pad(String(row.samples), 6, right: true) + pad(String(row.failures), 6, right: true))
  }
  lines.append("  overhead = median(method) - median(bare)")
  for entry in report.overhead {
    lines.append(
      "  \(entry.command): box overhead / bwrap overhead = \(formatNumber(entry.boxOverBwrap, "%.2f"))"
        + " (\(formatNumber(entry.boxOverheadMs)) ms / \(formatNumber(entry.bwrapOverheadMs)) ms)")
    lines.append(
      "  \(entry.command): warm overhead / bwrap overhead = \(formatNumber(entry.warmOverBwrap, "%.2f"))"
        + " (\(formatNumber(entry.warmOverheadMs)) ms / \(formatNumber(entry.bwrapOverheadMs)) ms)")
  }
  lines.append("")
  let throughput = report.throughput
  lines.append(
    "Throughput: \(throughput.command), \(throughput.workers) workers doing back-to-back runs, \(formatNumber(throughput.secondsPerPhase, "%g")) s per method"
  )
  let throughputHeader =
    pad("method", 7) + pad("runs", 8, right: true) + pad("seconds", 9, right: true) + pad("runs/s", 10, right: true)
    + pad("fail", 6, right: true)
  lines.append(throughputHeader)
  lines.append(String(repeating: "-", count: throughputHeader.count))
  for row in throughput.rows {
    lines.append(
      pad(row.method.rawValue, 7) + pad(String(row.runs), 8, right: true)
        + pad(formatNumber(row.elapsedSeconds, "%.2f"), 9, right: true)
        + pad(formatNumber(row.runsPerSecond, "%.1f"), 10, right: true) + pad(String(row.failures), 6, right: true))
  }
  lines.append(
    "  box/bwrap = \(formatNumber(throughput.boxOverBwrap, "%.2f"))   box/bare = \(formatNumber(throughput.boxOverBare, "%.3f"))"
  )
  lines.append(
    "  warm/bwrap = \(formatNumber(throughput.warmOverBwrap, "%.2f"))   warm/bare = \(formatNumber(throughput.warmOverBare, "%.3f"))"
      + "   (warm boxes pre-warmed: \(report.warmPoolMaximumIdle); built while timed: \(throughput.warmBoxesMade))"
  )
  lines.append("")
  lines.append("Failures: \(report.failures)")
  for sample in report.failureSamples { lines.append("  \(sample)") }
  print(lines.joined(separator: "\n"))
}

// MARK: - Main

func runBenchmark() -> Int32 {
  let options = parseBenchOptions(Array(CommandLine.arguments.dropFirst()))
  guard getuid() == 0 else {
    failSetup("must run as root: boxes mount file systems, write uid maps and create cgroups")
  }
  guard access(Bench.bwrapPath, X_OK) == 0 else {
    failSetup("\(Bench.bwrapPath) is missing: apt-get install -y bubblewrap (Benchmarks/run-sandbox-bench does this)")
  }
  guard let policiesDirectory = options.policiesDirectory ?? DataDirectories.locate("policies") else {
    failSetup("cannot find the policies/ folder; pass --policies DIR")
  }
  let policy: SeccompPolicy
  let host: SandboxHost
  do {
    guard let found = try SeccompCompiler.loadDirectory(policiesDirectory)["default"] else {
      failSetup("no \"default\" policy in \(policiesDirectory)")
    }
    policy = found
    host = try SandboxHost()
  } catch {
    failSetup("set-up failed: \(error)")
  }

  let facts = HostFacts(
    kernel: kernelRelease(), processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
    accounting: host.cgroups.mode.rawValue, bwrapVersion: firstLine(of: [Bench.bwrapPath, "--version"]),
    pythonVersion: firstLine(of: ["/usr/bin/python3", "--version"]))

  let warmPool = WarmPool(host: host)
  let runner = MethodRunner(host: host, warmPool: warmPool, policy: policy)
  let failures = FailureLog()

  // Warm-up: page cache, dentry cache, lazily created kernel objects. A
  // method that fails here would fail every round: stop instead.
  progress("warming up (\(options.warmUpRounds) rounds)")
  _ = measureLatency(runner: runner, rounds: options.warmUpRounds, commands: options.commands, failures: failures)
  if failures.count > 0 {
    progress("\(failures.count) runs failed during warm-up; not measuring:")
    for sample in failures.samples { progress("  \(sample)") }
    warmPool.pool.drain()
    return 1
  }

  progress("latency: \(options.rounds) interleaved rounds")
  let samples = measureLatency(runner: runner, rounds: options.rounds, commands: options.commands, failures: failures)
  var latency: [LatencyRow] = []
  var overhead: [OverheadRatio] = []
  for (index, command) in Bench.commands.enumerated() where options.commands.contains(index) {
    let bare = Summary(nanoseconds: samples[index][.bare] ?? [])
    var medians: [Method: Double] = [:]
    for method in Method.allCases {
      let values = samples[index][method] ?? []
      let summary = Summary(nanoseconds: values)
      medians[method] = summary?.median
      var row = LatencyRow(
        command: command.label, method: method, samples: values.count, failures: options.rounds - values.count,
        medianMs: summary?.median, p95Ms: summary?.p95, minMs: summary?.min, maxMs: summary?.max)
      if let summary, let bare { row.overheadMs = summary.median - bare.median }
      latency.append(row)
    }
    let boxOverhead = medians[.box].flatMap { box in medians[.bare].map { box - $0 } }
    let warmOverhead = medians[.warm].flatMap { warm in medians[.bare].map { warm - $0 } }
    let bwrapOverhead = medians[.bwrap].flatMap { bwrap in medians[.bare].map { bwrap - $0 } }
    overhead.append(
      OverheadRatio(
        command: command.label, boxOverheadMs: boxOverhead, warmOverheadMs: warmOverhead,
        bwrapOverheadMs: bwrapOverhead, boxOverBwrap: ratio(boxOverhead, bwrapOverhead),
        warmOverBwrap: ratio(warmOverhead, bwrapOverhead)))
  }
  let latencyWarmBoxesMade = warmPool.boxesMade

  var rows: [ThroughputRow] = []
  var warmBoxesMade = 0
  let throughputSpec = BoxSpec(command: Bench.commands[Bench.throughputCommand].argv, environment: [], policy: policy)
  for method in Method.allCases {
    if method == .warm {
      // One idle warm box per worker before the clock starts, so the timed
      // phase measures reuse, not building.
      if let failure = warmPool.prewarm(Bench.warmPoolIdle, spec: throughputSpec) {
        failures.record("throughput pre-warm", failure)
      }
    }
    let madeBefore = warmPool.boxesMade
    progress("throughput: \(method.rawValue), \(Bench.workers) workers for \(options.seconds) s")
    rows.append(
      measureThroughput(
        method: method, host: host, warmPool: warmPool, policy: policy, seconds: options.seconds,
        failures: failures))
    if method == .warm { warmBoxesMade = warmPool.boxesMade - madeBefore }
  }
  warmPool.pool.drain()
  let rate = { (method: Method) in rows.first { $0.method == method }?.runsPerSecond }
  let throughput = ThroughputReport(
    command: Bench.commands[Bench.throughputCommand].label, workers: Bench.workers, secondsPerPhase: options.seconds,
    rows: rows, boxOverBwrap: ratio(rate(.box), rate(.bwrap)), boxOverBare: ratio(rate(.box), rate(.bare)),
    warmOverBwrap: ratio(rate(.warm), rate(.bwrap)), warmOverBare: ratio(rate(.warm), rate(.bare)),
    warmBoxesMade: warmBoxesMade)

  let report = BenchReport(
    host: facts, rounds: options.rounds, warmUpRounds: options.warmUpRounds,
    orderWithinRound: Method.allCases.map(\.rawValue), bwrapCommand: [Bench.bwrapPath] + Bench.bwrapFlags,
    boxPolicy: policy.name, warmPoolMaximumIdle: Bench.warmPoolIdle, latencyWarmBoxesMade: latencyWarmBoxesMade,
    latency: latency, overhead: overhead, throughput: throughput, failures: failures.count,
    failureSamples: failures.samples)

  if options.json {
    printJSONReport(report)
  } else {
    printTable(report)
  }
  return report.failures == 0 ? 0 : 1
}

exit(runBenchmark())
