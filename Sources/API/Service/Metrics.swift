import Foundation
import Synchronization

/// Counters for `/metrics`, rendered in the Prometheus text format (version 0.0.4).
///
/// Label values come from a closed set (routes we serve, languages we know, status words), so a
/// client cannot grow the number of series by sending odd paths or language names.
public final class APIMetrics: Sendable {
  /// Upper bounds of the run-duration histogram, seconds.
  public static let durationBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

  private struct Pair: Hashable, Comparable {
    var first: String
    var second: String
    static func < (left: Pair, right: Pair) -> Bool { (left.first, left.second) < (right.first, right.second) }
  }

  private struct Histogram {
    var bucketCounts = [UInt64](repeating: 0, count: APIMetrics.durationBuckets.count)
    var count: UInt64 = 0
    var sum: Double = 0

    mutating func observe(_ seconds: Double) {
      // Buckets are cumulative in the exposition, so each observation goes in its first bucket only
      // and the rendering sums them.
      if let index = APIMetrics.durationBuckets.firstIndex(where: { seconds <= $0 }) { bucketCounts[index] += 1 }
      count += 1
      sum += seconds
    }
  }

  private struct State {
    var requests: [Pair: UInt64] = [:]
    var runs: [Pair: UInt64] = [:]
    var runDurations = Histogram()
    var grades: [Pair: UInt64] = [:]
    var gradeTests: [Pair: UInt64] = [:]
    var gradeDurations = Histogram()
  }

  private let state = Mutex(State())

  /// Empty counters.
  public init() {}

  /// Counts one answered request.
  public func recordRequest(route: String, code: Int) {
    state.withLock { $0.requests[Pair(first: route, second: String(code)), default: 0] += 1 }
  }

  /// Counts one execution and its duration (queue wait excluded).
  public func recordRun(language: String, status: String, seconds: Double) {
    state.withLock { state in
      state.runs[Pair(first: language, second: status), default: 0] += 1
      state.runDurations.observe(seconds)
    }
  }

  /// Counts one grade, each of its tests by verdict, and its duration (queue wait excluded). Kept
  /// apart from the runs: a grade of eight tests is one request, not eight executions.
  public func recordGrade(language: String, verdict: String, testVerdicts: [String], seconds: Double) {
    state.withLock { state in
      state.grades[Pair(first: language, second: verdict), default: 0] += 1
      for test in testVerdicts { state.gradeTests[Pair(first: language, second: test), default: 0] += 1 }
      state.gradeDurations.observe(seconds)
    }
  }

  /// How many requests were answered on `route` with `code`.
  public func requestCount(route: String, code: Int) -> UInt64 {
    state.withLock { $0.requests[Pair(first: route, second: String(code))] ?? 0 }
  }

  /// The exposition text of these counters alone, with the gauges and cache counters given.
  public func render(
    queueDepth: Int, boxesInFlight: Int, cacheHits: UInt64, cacheMisses: UInt64, boxDiscards: [String: UInt64] = [:]
  ) -> String {
    var writer = PrometheusText()
    write(
      &writer, queueDepth: queueDepth, boxesInFlight: boxesInFlight, cacheHits: cacheHits, cacheMisses: cacheMisses,
      boxDiscards: boxDiscards)
    return writer.text
  }

  /// Writes these counters, with the gauges and cache counters read now by the caller. `boxDiscards`
  /// counts warm boxes discarded instead of reused, by reason (a closed set: `BoxDiscardReason`).
  func write(
    _ writer: inout PrometheusText, queueDepth: Int, boxesInFlight: Int, cacheHits: UInt64, cacheMisses: UInt64,
    boxDiscards: [String: UInt64]
  ) {
    let snapshot = state.withLock { $0 }
    func samples(_ counts: [Pair: UInt64]) -> [([String], UInt64)] {
      counts.sorted(by: { $0.key < $1.key }).map { ([$0.key.first, $0.key.second], $0.value) }
    }
    func histogram(_ name: String, help: String, _ histogram: Histogram) {
      writer.histogram(
        name, help: help, bounds: Self.durationBuckets, bucketCounts: histogram.bucketCounts, count: histogram.count,
        sum: histogram.sum)
    }
    writer.counters(
      "dsa_run_http_requests_total", help: "HTTP requests answered, by route and status code.",
      labels: ["route", "code"], samples(snapshot.requests))
    writer.counters(
      "dsa_run_runs_total", help: "Executions finished, by language and status word.", labels: ["language", "status"],
      samples(snapshot.runs))
    writer.gauge("dsa_run_queue_depth", help: "Requests waiting for a box slot.", Double(queueDepth))
    writer.gauge("dsa_run_boxes_in_flight", help: "Executions holding a box slot.", Double(boxesInFlight))
    histogram(
      "dsa_run_run_duration_seconds", help: "Time from taking a slot to the result, seconds.", snapshot.runDurations)
    writer.counters(
      "dsa_run_grades_total", help: "Grades finished, by language and verdict.", labels: ["language", "verdict"],
      samples(snapshot.grades))
    writer.counters(
      "dsa_run_grade_tests_total", help: "Tests of finished grades, by language and the test's verdict.",
      labels: ["language", "verdict"], samples(snapshot.gradeTests))
    histogram(
      "dsa_run_grade_duration_seconds", help: "Time a grade's runs held box slots, seconds.", snapshot.gradeDurations)
    writer.counter(
      "dsa_run_compile_cache_hits_total", help: "Compiles answered from the compile cache.", cacheHits)
    writer.counter("dsa_run_compile_cache_misses_total", help: "Compiles the cache did not have.", cacheMisses)
    writer.counters(
      "dsa_run_box_discards_total",
      help: "Warm boxes discarded instead of reused, by the reason their reset could not prove them fresh.",
      labels: ["reason"], boxDiscards.sorted(by: { $0.key < $1.key }).map { ([$0.key], $0.value) })
  }
}
