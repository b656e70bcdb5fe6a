import Foundation
import Testing

@testable import Sandbox

// What differs between kernels (docs/security.md, "Kernels"): each test must hold on Debian 12's
// 6.1 as on this host's newer kernel. scripts/test-kernels runs them in a 6.1 VM.

@Suite struct KernelDifferenceTests {
  /// memory.peak can be reset only since Linux 6.12. Before, a warm box's group keeps its all-time
  /// peak, and every run after a large one was reported at the large one's peak.
  @Test func aWarmRunReportsItsOwnPeakNotAnEarlierRunsOne() throws {
    let box = try WarmBox(host: Fixture.host, layout: BoxLayout())
    defer { box.destroy() }
    func run(_ source: String) throws -> Outcome {
      var spec = BoxSpec(command: ["/usr/bin/python3", "-c", source], policy: Fixture.defaultPolicy)
      // Room for an emulated CPU (scripts/test-kernels): only memory is measured here.
      spec.limits.cpuTimeMilliseconds = 30_000
      spec.limits.wallTimeMilliseconds = 60_000
      try box.prepare(limits: spec.limits)
      return try box.run(spec, stdin: Data())
    }
    // Bytes written, not a calloc'ed buffer the kernel never backs.
    let large = try run("a = b'x' * (48 << 20)")
    #expect(large.status == .ok, "\(large.message)")
    #expect(large.memoryKilobytes >= 48 * 1024)
    let small = try run("print(1)")
    #expect(small.status == .ok, "\(small.message)")
    #expect(small.memoryKilobytes < 24 * 1024, "\(small.memoryKilobytes) KiB is the earlier run's peak")
  }
}
