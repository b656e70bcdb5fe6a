import Foundation
import Glibc
import Testing

@testable import Sandbox

// memory_kb is the program's own peak. A warm box's group keeps charges that outlive a run: file
// pages stay charged to the group that first read them (a C++ compile in the same box reads tens of
// MiB of headers and compiler), and kernel objects such as dentries to the group that made them. On cgroup v1,
// max_usage_in_bytes restarts from the group's current charge, so every later run was reported at
// least that high, and a little higher test by test.

@Suite(.serialized) struct MemoryAccountingTests {
  /// A static C program that writes to `megabytes` MiB, page by page (bytes touched, not a calloc the
  /// kernel never backs), so the figure does not depend on a runtime.
  static func allocator(megabytes: Int) throws -> Data {
    try compileC(
      """
      #include <stdlib.h>
      int main(void) {
        size_t size = (size_t)\(megabytes) << 20;
        volatile char *bytes = malloc(size);
        if (!bytes) return 1;
        for (size_t i = 0; i < size; i += 4096) bytes[i] = 1;
        return bytes[size - 4096] == 1 ? 0 : 2;
      }
      """, name: "allocator-\(megabytes)")
  }

  /// A file on a disk file system, written and then dropped from the page cache (this file only),
  /// so the box that reads it first is charged for its pages, which stay after its run ends.
  static func uncachedFile(megabytes: Int) throws -> String {
    let directory = "/var/tmp/dsa-run-memory-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o755)
    let path = directory + "/pages"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    try #require(fd >= 0)
    defer { close(fd) }
    let chunk = [UInt8](repeating: 0x61, count: 1 << 20)
    for _ in 0..<megabytes { try #require(write(fd, chunk, chunk.count) == chunk.count) }
    try #require(fsync(fd) == 0)
    try #require(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0)
    return path
  }

  @Test func aWarmRunReportsItsOwnPeakNotWhatEarlierRunsLeftCharged() throws {
    let file = try Self.uncachedFile(megabytes: 48)
    let directory = (file as NSString).deletingLastPathComponent
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let layout = BoxLayout(readOnlyMounts: [ReadOnlyMount(hostPath: directory, boxPath: "/data")])
    let box = try WarmBox(host: Fixture.host, layout: layout)
    defer { box.destroy() }
    let tiny = try compileC("int main(void) { return 0; }", name: "tiny")
    let large = try Self.allocator(megabytes: 64)
    func run(_ command: [String], binary: Data? = nil) throws -> Outcome {
      var spec = BoxSpec(command: command, policy: Fixture.defaultPolicy)
      spec.readOnlyMounts = layout.readOnlyMounts
      try box.prepare(limits: spec.limits)
      if let binary { try box.writeFile("probe", contents: binary, executable: true) }
      let outcome = try box.run(spec, stdin: Data())
      #expect(outcome.status == .ok, "\(command): \(outcome.message) \(outcome.stderrText)")
      return outcome
    }
    // What a compile does to the group: 48 MiB of file pages read for the first time, charged to it.
    _ = try run(["/bin/sh", "-c", "cat /data/pages > /dev/null"])

    let tinyPeaks = try (0..<8).map { _ in try run(["/box/probe"], binary: tiny).memoryKilobytes }
    #expect(tinyPeaks.allSatisfy { $0 < 4 << 10 }, "a program that allocates nothing: \(tinyPeaks) KiB")
    let spread = (tinyPeaks.max() ?? 0) - (tinyPeaks.min() ?? 0)
    #expect(spread < 1 << 10, "the same program, run after run: \(tinyPeaks) KiB")

    let largePeak = try run(["/box/probe"], binary: large).memoryKilobytes
    // A warm run's peak is the group's peak less what was charged when the run began; pages of that
    // charge the kernel reclaims during the run (the 48 MiB of page cache above) make it a few KiB
    // under 64 MiB (65,528 KiB seen), so the bound allows 1 MiB under the allocation.
    #expect(largePeak >= 63 << 10 && largePeak < 72 << 10, "a 64 MiB allocator: \(largePeak) KiB")
    let after = try run(["/box/probe"], binary: tiny).memoryKilobytes
    #expect(after < 4 << 10, "the run after the allocator: \(after) KiB")
  }

  @Test func aOneShotBoxReportsTheProgramsPeak() throws {
    let tiny = try runInBox(
      ["/box/probe"], files: ["probe": try compileC("int main(void) { return 0; }", name: "tiny")])
    #expect(tiny.status == .ok)
    #expect(tiny.memoryKilobytes < 4 << 10, "a program that allocates nothing: \(tiny.memoryKilobytes) KiB")
    let large = try runInBox(["/box/probe"], files: ["probe": try Self.allocator(megabytes: 64)])
    #expect(large.status == .ok)
    #expect(
      large.memoryKilobytes >= 64 << 10 && large.memoryKilobytes < 72 << 10,
      "a 64 MiB allocator: \(large.memoryKilobytes) KiB")
  }
}
