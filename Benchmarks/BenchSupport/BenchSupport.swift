import Foundation
import Glibc
import Synchronization

// What dsa-run-bench, dsa-run-langbench and dsa-run-loadbench share: set-up
// failures and progress lines on stderr, option parsing, the monotonic clock,
// C string arrays for posix_spawn, wait statuses, table cells and sample
// statistics.

/// The benchmarks' shared settings.
public enum BenchSupport {
  private static let programNameStorage = Mutex<String>(
    URL(fileURLWithPath: CommandLine.arguments.first ?? "").lastPathComponent)

  /// The name that starts every stderr line of `failSetup` and `progress`
  /// ("dsa-run-bench: ..."); each benchmark sets it first thing. Defaults to
  /// the executable's file name.
  public static var programName: String {
    get { programNameStorage.withLock { $0 } }
    set { programNameStorage.withLock { $0 = newValue } }
  }
}

// MARK: - Set-up failures and progress

/// Prints "PROGRAM: message" on stderr and exits 2 (usage or set-up error).
public func failSetup(_ message: String) -> Never {
  FileHandle.standardError.write(Data("\(BenchSupport.programName): \(message)\n".utf8))
  exit(2)
}

/// Prints "PROGRAM: text" on stderr, a progress line that keeps stdout for the report.
public func progress(_ text: String) {
  FileHandle.standardError.write(Data("\(BenchSupport.programName): \(text)\n".utf8))
}

/// Writes `report` to stdout as one JSON object (snake_case keys, sorted) and
/// a newline; `failSetup` when it cannot be encoded.
public func printJSONReport(_ report: some Encodable) {
  let encoder = JSONEncoder()
  encoder.keyEncodingStrategy = .convertToSnakeCase
  encoder.outputFormatting = [.sortedKeys]
  do {
    FileHandle.standardOutput.write(try encoder.encode(report) + Data("\n".utf8))
  } catch {
    failSetup("cannot encode the report: \(error)")
  }
}

// MARK: - Options

/// Walks the command-line arguments: `next()` gives each flag, `value(_:)`
/// the argument after it.
public struct OptionCursor {
  private let arguments: [String]
  private var index = 0

  /// A cursor before the first of `arguments` (the program name dropped).
  public init(_ arguments: [String]) {
    self.arguments = arguments
  }

  /// The next argument, or nil when all have been read.
  public mutating func next() -> String? {
    guard index < arguments.count else { return nil }
    defer { index += 1 }
    return arguments[index]
  }

  /// The argument after `flag`; `failSetup("FLAG needs a value")` when there is none.
  public mutating func value(_ flag: String) -> String {
    guard index < arguments.count else { failSetup("\(flag) needs a value") }
    defer { index += 1 }
    return arguments[index]
  }
}

// MARK: - Clock and processes

/// CLOCK_MONOTONIC in nanoseconds.
public func nowNanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// A NULL-terminated C string array (argv or envp), made before the clock
/// starts and reused, so the figures hold no Swift-to-C conversions.
public final class CStringList: @unchecked Sendable {
  /// The array, for posix_spawn's argv or envp.
  public let pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
  private let count: Int

  /// Copies `words` (strdup) into a new array ending in NULL.
  public init(_ words: [String]) {
    count = words.count
    pointer = .allocate(capacity: words.count + 1)
    for (index, word) in words.enumerated() { pointer[index] = strdup(word) }
    pointer[words.count] = nil
  }

  deinit {
    for index in 0..<count { free(pointer[index]) }
    pointer.deallocate()
  }
}

/// A waitpid status in words: "exited with code N" or "ended by signal N".
public func describeWaitStatus(_ status: Int32) -> String {
  if status & 0x7f == 0 { return "exited with code \((status >> 8) & 0xff)" }
  return "ended by signal \(status & 0x7f)"
}

/// The running kernel's release (uname -r).
public func kernelRelease() -> String {
  var name = utsname()
  uname(&name)
  return withUnsafePointer(to: name.release) {
    $0.withMemoryRebound(to: CChar.self, capacity: 65) { String(cString: $0) }
  }
}

// MARK: - Tables

/// `text` padded with spaces to `width` characters, on the left when `right`
/// (right-aligned); a longer text is returned whole.
public func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
  if text.count >= width { return text }
  let padding = String(repeating: " ", count: width - text.count)
  return right ? padding + text : text + padding
}

// MARK: - Statistics

/// Nearest rank: the smallest of the ascending, non-empty `sorted` with at
/// least `fraction` of the samples at or below it.
public func nearestRank<Sample>(_ sorted: [Sample], _ fraction: Double) -> Sample {
  let rank = Int((fraction * Double(sorted.count)).rounded(.up))
  return sorted[max(0, min(sorted.count - 1, rank - 1))]
}

/// Millisecond samples in, milliseconds out: count, median, p95 (nearest
/// rank), min and max.
public struct Summary: Codable, Sendable {
  /// How many samples.
  public let count: Int
  /// The middle sample, or the mean of the two middle ones.
  public let median: Double
  /// The smallest sample with at least 95% at or below it.
  public let p95: Double
  /// The smallest sample.
  public let min: Double
  /// The largest sample.
  public let max: Double

  /// nil when there are no samples.
  public init?(_ samples: [Double]) {
    guard !samples.isEmpty else { return nil }
    let sorted = samples.sorted()
    count = sorted.count
    let middle = sorted.count / 2
    median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    p95 = nearestRank(sorted, 0.95)
    min = sorted[0]
    max = sorted[sorted.count - 1]
  }

  /// Nanosecond samples, summarised in milliseconds; nil when there are none.
  public init?(nanoseconds samples: [UInt64]) {
    self.init(samples.map { Double($0) / 1_000_000 })
  }
}
