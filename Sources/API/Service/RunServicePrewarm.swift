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

  /// Stops the refills and destroys every waiting pre-warmed box.
  public func stopPrewarming() { prewarm?.pool.drain() }

  /// The pool's families, hits, misses, refills and their time, per language.
  func prewarmMetricsText(_ writer: inout PrometheusText) {
    guard let counts = prewarm?.pool.counts.sorted(by: { $0.key < $1.key }), !counts.isEmpty else { return }
    writer.counters(
      "dsa_run_prewarm_hits_total", help: "Runs handed to a pre-warmed box, by language.", labels: ["language"],
      counts.map { ([$0.key], $0.value.hits) })
    writer.counters(
      "dsa_run_prewarm_misses_total",
      help: "Runs of a pre-warmed language that found no box waiting for their spec and ran cold.",
      labels: ["language"], counts.map { ([$0.key], $0.value.misses) })
    writer.counters(
      "dsa_run_prewarm_refills_total", help: "Pre-warmed boxes made, by language.", labels: ["language"],
      counts.map { ([$0.key], $0.value.refills) })
    writer.counters(
      "dsa_run_prewarm_refill_failures_total", help: "Pre-warmed boxes that failed to start, by language.",
      labels: ["language"], counts.map { ([$0.key], $0.value.refillFailures) })
    writer.counters(
      "dsa_run_prewarm_refill_milliseconds_total",
      help: "Time spent making pre-warmed boxes (creation to ready), by language.", labels: ["language"],
      counts.map { ([$0.key], $0.value.refillMilliseconds) })
    writer.gauges(
      "dsa_run_prewarm_ready", help: "Pre-warmed boxes waiting for a run, by language.", labels: ["language"],
      counts.map { ([$0.key], Double($0.value.ready)) })
    writer.gauges(
      "dsa_run_prewarm_size", help: "Pre-warmed boxes kept per language (prewarm).", labels: ["language"],
      counts.map { ([$0.key], Double(prewarm?.pool.sizes[$0.key] ?? 0)) })
  }
}
