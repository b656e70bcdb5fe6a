import Foundation
import Runners
import Sandbox

extension WorkQueue: PrewarmSlots {}

extension RunService {
  /// Starts the pre-warmed runs' refills on this service's box slots (each refill only in a slot
  /// that is idle while nobody waits), first for each pooled language's default run limits.
  public func startPrewarming() {
    guard let prewarm else { return }
    prewarm.bind(slots: queue)
    prewarm.pool.start()
    // The launcher is compiled in a box first: off the caller's thread.
    Thread(block: prewarmAhead).start()
  }

  /// Stops the refills and destroys every waiting pre-warmed box, and every used one not yet
  /// destroyed.
  public func stopPrewarming() {
    prewarm?.pool.drain()
    PrewarmedBox.awaitDestroyed()
  }

  /// The pool's families, hits, misses, refills and their time, per language and step (a family
  /// is `java` for Java's runs, `java:compile` for its compiles).
  func prewarmMetricsText(_ writer: inout PrometheusText) {
    guard let counts = prewarm?.pool.counts.sorted(by: { $0.key < $1.key }), !counts.isEmpty else { return }
    let labels = ["language", "step"]
    func labelled<Value>(_ value: (PrewarmCounts) -> Value) -> [([String], Value)] {
      counts.map { family, count in
        let parts = family.split(separator: ":", maxSplits: 1).map(String.init)
        return ([parts[0], parts.count > 1 ? parts[1] : "run"], value(count))
      }
    }
    writer.counters(
      "dsa_run_prewarm_hits_total", help: "Runs and compiles handed to a pre-warmed box.", labels: labels,
      labelled(\.hits))
    writer.counters(
      "dsa_run_prewarm_misses_total",
      help: "Runs and compiles of a pre-warmed step that found no box waiting for their spec and ran cold.",
      labels: labels, labelled(\.misses))
    writer.counters(
      "dsa_run_prewarm_refills_total", help: "Pre-warmed boxes made.", labels: labels, labelled(\.refills))
    writer.counters(
      "dsa_run_prewarm_refill_failures_total", help: "Pre-warmed boxes that failed to start.", labels: labels,
      labelled(\.refillFailures))
    writer.counters(
      "dsa_run_prewarm_refill_milliseconds_total", help: "Time spent making pre-warmed boxes (creation to ready).",
      labels: labels, labelled(\.refillMilliseconds))
    writer.gauges(
      "dsa_run_prewarm_ready", help: "Pre-warmed boxes waiting.", labels: labels, labelled { Double($0.ready) })
    writer.gauge(
      "dsa_run_prewarm_background_pending",
      help:
        "Work queued or running for an idle slot after the refills (Dart kernel files compiled after a pre-warmed run).",
      Double(prewarm?.pool.backgroundPending ?? 0))
    let sizes = prewarm?.pool.sizes ?? [:]
    writer.gauges(
      "dsa_run_prewarm_size", help: "Pre-warmed boxes kept per language and step (prewarm).", labels: labels,
      counts.map { family, _ in
        let parts = family.split(separator: ":", maxSplits: 1).map(String.init)
        return ([parts[0], parts.count > 1 ? parts[1] : "run"], Double(sizes[family] ?? 0))
      })
  }
}
