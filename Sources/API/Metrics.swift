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

  private struct State {
    var requests: [Pair: UInt64] = [:]
    var runs: [Pair: UInt64] = [:]
    var bucketCounts = [UInt64](repeating: 0, count: APIMetrics.durationBuckets.count)
    var durationCount: UInt64 = 0
    var durationSum: Double = 0
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
      // Buckets are cumulative in the exposition, so each observation goes in its first bucket only
      // and the rendering sums them.
      if let index = Self.durationBuckets.firstIndex(where: { seconds <= $0 }) { state.bucketCounts[index] += 1 }
      state.durationCount += 1
      state.durationSum += seconds
    }
  }

  /// How many requests were answered on `route` with `code`.
  public func requestCount(route: String, code: Int) -> UInt64 {
    state.withLock { $0.requests[Pair(first: route, second: String(code))] ?? 0 }
  }

  /// The exposition text, with the gauges and cache counters read now by the caller. `boxDiscards`
  /// counts warm boxes discarded instead of reused, by reason (a closed set: `BoxDiscardReason`).
  public func render(
    queueDepth: Int, boxesInFlight: Int, cacheHits: UInt64, cacheMisses: UInt64, boxDiscards: [String: UInt64] = [:]
  ) -> String {
    let snapshot = state.withLock { $0 }
    var text = ""
    text += "# HELP dsa_run_http_requests_total HTTP requests answered, by route and status code.\n"
    text += "# TYPE dsa_run_http_requests_total counter\n"
    for (pair, count) in snapshot.requests.sorted(by: { $0.key < $1.key }) {
      text += "dsa_run_http_requests_total{route=\"\(escape(pair.first))\",code=\"\(pair.second)\"} \(count)\n"
    }
    text += "# HELP dsa_run_runs_total Executions finished, by language and status word.\n"
    text += "# TYPE dsa_run_runs_total counter\n"
    for (pair, count) in snapshot.runs.sorted(by: { $0.key < $1.key }) {
      text += "dsa_run_runs_total{language=\"\(escape(pair.first))\",status=\"\(escape(pair.second))\"} \(count)\n"
    }
    text += "# HELP dsa_run_queue_depth Requests waiting for a box slot.\n"
    text += "# TYPE dsa_run_queue_depth gauge\n"
    text += "dsa_run_queue_depth \(queueDepth)\n"
    text += "# HELP dsa_run_boxes_in_flight Executions holding a box slot.\n"
    text += "# TYPE dsa_run_boxes_in_flight gauge\n"
    text += "dsa_run_boxes_in_flight \(boxesInFlight)\n"
    text += "# HELP dsa_run_run_duration_seconds Time from taking a slot to the result, seconds.\n"
    text += "# TYPE dsa_run_run_duration_seconds histogram\n"
    var cumulative: UInt64 = 0
    for (index, bound) in Self.durationBuckets.enumerated() {
      cumulative += snapshot.bucketCounts[index]
      text += "dsa_run_run_duration_seconds_bucket{le=\"\(format(bound))\"} \(cumulative)\n"
    }
    text += "dsa_run_run_duration_seconds_bucket{le=\"+Inf\"} \(snapshot.durationCount)\n"
    text += "dsa_run_run_duration_seconds_sum \(format(snapshot.durationSum))\n"
    text += "dsa_run_run_duration_seconds_count \(snapshot.durationCount)\n"
    text += "# HELP dsa_run_compile_cache_hits_total Compiles answered from the compile cache.\n"
    text += "# TYPE dsa_run_compile_cache_hits_total counter\n"
    text += "dsa_run_compile_cache_hits_total \(cacheHits)\n"
    text += "# HELP dsa_run_compile_cache_misses_total Compiles the cache did not have.\n"
    text += "# TYPE dsa_run_compile_cache_misses_total counter\n"
    text += "dsa_run_compile_cache_misses_total \(cacheMisses)\n"
    text += "# HELP dsa_run_box_discards_total Warm boxes discarded instead of reused, by the reason their reset "
    text += "could not prove them fresh.\n"
    text += "# TYPE dsa_run_box_discards_total counter\n"
    for (reason, count) in boxDiscards.sorted(by: { $0.key < $1.key }) {
      text += "dsa_run_box_discards_total{reason=\"\(escape(reason))\"} \(count)\n"
    }
    return text
  }

  private func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }

  // Label values escape backslash, double quote and line feed (exposition format).
  private func escape(_ value: String) -> String {
    value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
  }
}
