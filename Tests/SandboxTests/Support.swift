import Foundation
import Glibc
import SystemCore
import Testing

@testable import Sandbox

/// The repository's root, found from this file's path.
let repositoryRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return url.path
}()

/// The built `dsa-run` next to the test bundle.
let dsaRunBinary: String = {
  let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  var directory = testBinary.deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = directory.appendingPathComponent("dsa-run").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    directory.deleteLastPathComponent()
  }
  return repositoryRoot + "/.build/debug/dsa-run"
}()

/// One host and the compiled policies for the whole test run.
enum Fixture {
  static let host: SandboxHost = {
    do {
      return try SandboxHost(configuration: SandboxConfiguration(workRoot: "/run/dsa-run-tests"))
    } catch {
      fatalError("the sandbox host cannot start here: \(error)")
    }
  }()

  static let policies: [String: SeccompPolicy] = {
    do {
      return try SeccompCompiler.loadDirectory(repositoryRoot + "/policies")
    } catch {
      fatalError("policies/ does not compile: \(error)")
    }
  }()

  static var defaultPolicy: SeccompPolicy { policies["default"]! }
}

/// Runs an argv in a fresh box and destroys it.
func runInBox(
  _ command: [String], stdin: Data = Data(), environment: [String] = [], files: [String: Data] = [:],
  host: SandboxHost = Fixture.host, configure: (inout BoxSpec) -> Void = { _ in }
) throws -> Outcome {
  try runTracked(command, stdin: stdin, environment: environment, files: files, host: host, configure: configure).0
}

/// Like `runInBox`, also returning the box's host ids, to look for its
/// processes afterwards.
func runTracked(
  _ command: [String], stdin: Data = Data(), environment: [String] = [], files: [String: Data] = [:],
  host: SandboxHost = Fixture.host, configure: (inout BoxSpec) -> Void = { _ in }
) throws -> (Outcome, Set<UInt32>) {
  var spec = BoxSpec(command: command, environment: environment, policy: Fixture.defaultPolicy)
  configure(&spec)
  let box = try Box(host: host, spec: spec)
  defer { box.destroy() }
  for (name, contents) in files { try box.writeFile(name, contents: contents, executable: true) }
  return (try box.run(stdin: stdin), [box.identity.base, box.identity.programUID])
}

/// Processes on the host running under any of these host ids.
func processes(ofHostIDs ids: Set<UInt32>) -> [Int32] {
  listDirectory("/proc").compactMap { entry -> Int32? in
    guard let pid = Int32(entry), let status = KernelFile.read("/proc/\(entry)/status"),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") })
    else { return nil }
    let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
    return fields.count > 1 && UInt32(fields[1]).map { ids.contains($0) } == true ? pid : nil
  }
}

/// Runs a Python probe in a box: `/usr/bin/python3 -c SOURCE`.
func runPython(_ source: String, configure: (inout BoxSpec) -> Void = { _ in }) throws -> Outcome {
  try runInBox(["/usr/bin/python3", "-c", source], configure: configure)
}

extension Outcome {
  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
  var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// Compiles a C probe with the host's gcc into a temporary file and returns
/// its bytes (statically linked, so it needs nothing from the box).
///
/// With DSA_RUN_TEST_PROBE_CACHE set, compiled probes are kept there under the digest of their
/// flags and source: scripts/test-kernels runs the same tests on this host first and then in an
/// emulated VM, where one static link costs a minute or more; the probes test the box, not gcc.
func compileC(_ source: String, name: String) throws -> Data {
  let flags = ["-O1", "-static"]
  let cache = ProcessInfo.processInfo.environment["DSA_RUN_TEST_PROBE_CACHE"].flatMap { $0.isEmpty ? nil : $0 }
  let cached = cache.map { "\($0)/\(SHA256.hex(Data((flags + [source]).joined(separator: "\0").utf8))).probe" }
  if let cached, let binary = FileManager.default.contents(atPath: cached) { return binary }
  let directory = NSTemporaryDirectory() + "dsa-run-probe-\(getpid())-\(name)"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  try source.write(toFile: directory + "/probe.c", atomically: true, encoding: .utf8)
  let compiler = ChildProcess()
  compiler.executableURL = URL(fileURLWithPath: "/usr/bin/gcc")
  compiler.arguments = flags + ["-o", directory + "/probe", directory + "/probe.c"]
  try compiler.run()
  compiler.waitUntilExit()
  guard compiler.terminationStatus == 0, let binary = FileManager.default.contents(atPath: directory + "/probe") else {
    throw SandboxError(step: "gcc failed for probe \(name)")
  }
  if let cache, let cached {
    // Renamed into place whole, so a reader never sees half a probe.
    try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
    let partial = cached + ".\(getpid())"
    try binary.write(to: URL(fileURLWithPath: partial))
    guard rename(partial, cached) == 0 else { throw SandboxError(step: "rename into \(cache)", errorNumber: errno) }
  }
  return binary
}

/// Runs a C probe from /box.
func runC(_ source: String, name: String, configure: (inout BoxSpec) -> Void = { _ in }) throws -> Outcome {
  let binary = try compileC(source, name: name)
  return try runInBox(["/box/probe"], files: ["probe": binary], configure: configure)
}
