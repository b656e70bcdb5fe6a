import Foundation
import Glibc
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

/// Boxes from concurrent tests take this lock shared; the leak test takes it
/// exclusively, so its before/after counts see no other test's boxes.
final class BoxTestLock: @unchecked Sendable {
  static let shared = BoxTestLock()
  private var lock = pthread_rwlock_t()

  init() { pthread_rwlock_init(&lock, nil) }

  func shared<T>(_ body: () throws -> T) rethrows -> T {
    pthread_rwlock_rdlock(&lock)
    defer { pthread_rwlock_unlock(&lock) }
    return try body()
  }

  func exclusive<T>(_ body: () throws -> T) rethrows -> T {
    pthread_rwlock_wrlock(&lock)
    defer { pthread_rwlock_unlock(&lock) }
    return try body()
  }
}

/// Runs an argv in a fresh box and destroys it.
func runInBox(
  _ command: [String], stdin: Data = Data(), environment: [String] = [], files: [String: Data] = [:],
  host: SandboxHost = Fixture.host, configure: (inout BoxSpec) -> Void = { _ in }
) throws -> Outcome {
  try BoxTestLock.shared.shared {
    var spec = BoxSpec(command: command, environment: environment, policy: Fixture.defaultPolicy)
    configure(&spec)
    let box = try Box(host: host, spec: spec)
    defer { box.destroy() }
    for (name, contents) in files { try box.writeFile(name, contents: contents, executable: true) }
    return try box.run(stdin: stdin)
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
func compileC(_ source: String, name: String) throws -> Data {
  let directory = NSTemporaryDirectory() + "dsa-run-probe-\(getpid())-\(name)"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  try source.write(toFile: directory + "/probe.c", atomically: true, encoding: .utf8)
  let compiler = Process()
  compiler.executableURL = URL(fileURLWithPath: "/usr/bin/gcc")
  compiler.arguments = ["-O1", "-static", "-o", directory + "/probe", directory + "/probe.c"]
  try compiler.run()
  compiler.waitUntilExit()
  guard compiler.terminationStatus == 0, let binary = FileManager.default.contents(atPath: directory + "/probe") else {
    throw SandboxError(step: "gcc failed for probe \(name)")
  }
  return binary
}

/// Runs a C probe from /box.
func runC(_ source: String, name: String, configure: (inout BoxSpec) -> Void = { _ in }) throws -> Outcome {
  let binary = try compileC(source, name: name)
  return try runInBox(["/box/probe"], files: ["probe": binary], configure: configure)
}

/// Host processes whose real uid lies in the boxes' host-id range.
func hostProcessesOfBoxes() -> [Int32] {
  var found: [Int32] = []
  for entry in listDirectory("/proc") {
    guard let pid = Int32(entry), let status = KernelFile.read("/proc/\(entry)/status") else { continue }
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }) else { continue }
    let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
    if fields.count > 1, let uid = UInt32(fields[1]), uid >= HostIdentityAllocator.firstHostID { found.append(pid) }
  }
  return found
}

/// True when no box process of any test is alive (waits for running boxes).
func noBoxProcessesLeft() -> Bool {
  BoxTestLock.shared.exclusive { hostProcessesOfBoxes().isEmpty }
}
