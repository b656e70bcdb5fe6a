import Foundation
import Glibc
import Testing

/// The built `dsa-run` CLI, next to `dsa-rund` (both are products of this package).
let cliBinary: String = URL(fileURLWithPath: daemonBinary).deletingLastPathComponent().appendingPathComponent("dsa-run")
  .path

/// Where the local CLI runs of these tests make their boxes (apart from the daemons' root).
let cliWorkRoot = "/run/dsa-rund-tests-cli"

/// `dsa-run --lang ... --remote URL` against a live daemon prints what the local run prints.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct RemoteTests {
  /// A temporary folder with `files` written in it.
  final class Workspace {
    let directory: String
    init(_ files: [String: String]) throws {
      directory = try makeTemporaryDirectory()
      for (name, content) in files {
        try Data(content.utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
      }
    }
    func path(_ name: String) -> String { directory + "/" + name }
    deinit { try? FileManager.default.removeItem(atPath: directory) }
  }

  func cli(_ arguments: [String], cacheDirectory: String) throws -> Finished {
    guard FileManager.default.isExecutableFile(atPath: cliBinary) else {
      throw TestFailure("\(cliBinary) is not built (swift build --product dsa-run)")
    }
    var environment = ProcessInfo.processInfo.environment
    environment["DSA_RUN_DATA"] = repositoryRoot
    return try runProcess(cliBinary, arguments, environment: environment)
  }

  /// Runs `arguments` locally and with `--remote`, returning both.
  func both(
    _ daemon: DaemonProcess, _ arguments: [String], _ workspace: Workspace, programArguments: [String] = []
  ) throws -> (Finished, Finished) {
    let cache = workspace.path("cache")
    let tail = programArguments.isEmpty ? [] : ["--"] + programArguments
    let local = try cli(
      arguments + ["--work-root", cliWorkRoot, "--cache-dir", cache] + tail, cacheDirectory: cache)
    let remote = try cli(arguments + ["--remote", daemon.baseURL] + tail, cacheDirectory: cache)
    return (local, remote)
  }

  func expectSame(_ local: Finished, _ remote: Finished, _ comment: Comment) {
    #expect(local.stdout == remote.stdout, comment)
    #expect(local.stderr == remote.stderr, comment)
    #expect(local.status == remote.status, comment)
  }

  @Test func remoteRunsPrintWhatLocalRunsPrint() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let workspace = try Workspace([
      "hello.py": "import sys\nprint('Hello,', ' '.join(sys.argv[1:]))\nprint('read:', input())\n",
      "input.txt": "from stdin\n",
      "boom.py": "import sys\nprint('before')\nprint('to stderr', file=sys.stderr)\nraise ValueError('boom')\n",
      "spin.py": "while True:\n    pass\n",
    ])

    let (local, remote) = try both(
      daemon,
      ["--lang", "python", workspace.path("hello.py"), "--stdin", workspace.path("input.txt")], workspace,
      programArguments: ["a b", "c"])
    #expect(local.status == 0)
    #expect(local.stdout == "Hello, a b c\nread: from stdin\n")
    expectSame(local, remote, "hello with args and stdin")

    let (localError, remoteError) = try both(daemon, ["--lang", "python", workspace.path("boom.py")], workspace)
    #expect(localError.status == 1)
    #expect(localError.stderr.contains("ValueError: boom"))
    #expect(localError.stderr.contains("dsa-run: runtime_error: The program exited with code 1 after "))
    // The same but for the wall time the exit came after, which varies run to run.
    #expect(localError.stdout == remoteError.stdout && localError.status == remoteError.status)
    #expect(withoutMeasurement(localError.stderr) == withoutMeasurement(remoteError.stderr))

    let (localLimit, remoteLimit) = try both(
      daemon, ["--lang", "python", workspace.path("spin.py"), "--time-limit", "0.3"], workspace)
    #expect(localLimit.status == 124)
    #expect(localLimit.stderr.hasPrefix("dsa-run: time_limit: "))
    // The line is the same but for the measured CPU time ("it used 0.31 s"), which varies run to run.
    #expect(localLimit.stdout == remoteLimit.stdout)
    #expect(localLimit.status == remoteLimit.status)
    #expect(withoutMeasurement(localLimit.stderr) == withoutMeasurement(remoteLimit.stderr))
    #expect(remoteLimit.stderr.split(separator: "\n").count == 1)

    let (localJSON, remoteJSON) = try both(
      daemon,
      ["--lang", "python", workspace.path("hello.py"), "--stdin", workspace.path("input.txt"), "--json"], workspace,
      programArguments: ["x"])
    #expect(localJSON.status == 0)
    #expect(remoteJSON.status == 0)
    #expect(remoteJSON.stderr.isEmpty)
    let localObject = try withoutTimings(localJSON.stdout)
    let remoteObject = try withoutTimings(remoteJSON.stdout)
    #expect(localObject == remoteObject, "local \(localJSON.stdout)\nremote \(remoteJSON.stdout)")
    #expect(try daemon.stop() == 0)
  }

  /// `--challenge ID --remote URL`: the daemon grades and the CLI prints what a local grade prints
  /// (but for the measured time and memory columns), with the same exit code.
  @Test func remoteGradesPrintWhatLocalGradesPrint() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let workspace = try Workspace([:])
    func withoutFigures(_ text: String) -> String {
      text.replacing(/[0-9]+ ms/, with: "N ms").replacing(/[0-9.]+ MiB/, with: "N MiB")
    }
    for kind in ["correct", "wrong"] {
      let source = repositoryRoot + "/challenges/insertion-sort/solutions/\(kind)/main.py"
      let (local, remote) = try both(
        daemon, ["--lang", "python", source, "--challenge", "insertion-sort"], workspace)
      #expect(local.status == (kind == "correct" ? 0 : 120), "\(local.stdout)\(local.stderr)")
      // A local grade goes on to show a visible test's input (and the last step that matched); the
      // server's tests are its own, so a remote grade does not.
      let localWithoutTestData = local.stdout.replacing(/\nInput of test [^\n]*:\n(.|\n)*?\n\n/, with: "\n")
      #expect(withoutFigures(localWithoutTestData) == withoutFigures(remote.stdout), "\(kind)")
      if kind == "wrong" { #expect(local.stdout.contains("Input of test duplicates:")) }
      #expect(local.stderr == remote.stderr && local.status == remote.status, "\(kind): \(remote.stderr)")
      if kind == "wrong" { #expect(remote.stdout.contains("what step 4 should do:")) }
    }
    let byPath = try cli(
      [
        "--lang", "python", "x.py", "--challenge", repositoryRoot + "/challenges/insertion-sort", "--remote",
        daemon.baseURL,
      ], cacheDirectory: workspace.path("cache"))
    #expect(byPath.status == 2)
    #expect(byPath.stderr.contains("give its id"))
    #expect(try daemon.stop() == 0)
  }

  @Test func serverErrorsAndUnreachableServers() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let workspace = try Workspace(["a.py": "print(1)\n"])
    let cache = workspace.path("cache")

    let unknown = try cli(
      ["--lang", "nosuchlanguage", workspace.path("a.py"), "--remote", daemon.baseURL], cacheDirectory: cache)
    #expect(unknown.status == 2)
    let answer = try execute(daemon, ["language": "nosuchlanguage", "source": "print(1)"])
    let message = try #require((answer.json["error"] as? [String: Any])?["message"] as? String)
    #expect(unknown.stderr == "dsa-run: \(message)\n")
    #expect(unknown.stdout.isEmpty)

    // A port nothing listens on: bound, then closed again.
    let port = try unusedPort()
    let unreachable = try cli(
      ["--lang", "python", workspace.path("a.py"), "--remote", "http://127.0.0.1:\(port)"], cacheDirectory: cache)
    #expect(unreachable.status == 3)
    #expect(unreachable.stderr.hasPrefix("dsa-run: cannot reach http://127.0.0.1:\(port)"))
    #expect(unreachable.stderr.split(separator: "\n").count == 1)
    #expect(try daemon.stop() == 0)
  }
}

/// A result object with the measured fields (cpu_ms, wall_ms, memory_kb) of its steps removed.
func withoutTimings(_ text: String) throws -> NSDictionary {
  guard var object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
    throw TestFailure("not a JSON object: \(text)")
  }
  for step in ["compile", "run"] {
    guard var outcome = object[step] as? [String: Any] else { continue }
    for key in ["cpu_ms", "wall_ms", "memory_kb"] {
      #expect(outcome[key] is NSNumber, "\(step).\(key)")
      outcome.removeValue(forKey: key)
    }
    object[step] = outcome
  }
  return object as NSDictionary
}

/// A limit message with its measured figure ("it used 0.31 s") replaced.
func withoutMeasurement(_ text: String) -> String {
  // Whether the limit was used up exactly ("all") or passed ("more than") is a measurement too.
  text.replacingOccurrences(of: #"used [0-9.]+ s\)"#, with: "used N s)", options: .regularExpression)
    .replacingOccurrences(of: #"Used (all|more than) "#, with: "Used (all or more than) ", options: .regularExpression)
    .replacingOccurrences(of: #"after [0-9.]+ s\."#, with: "after N s.", options: .regularExpression)
}

/// A loopback port that was free a moment ago.
func unusedPort() throws -> UInt16 {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { throw TestFailure("socket failed") }
  defer { close(descriptor) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = 0
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
    }
  }
  guard bound else { throw TestFailure("bind failed") }
  return UInt16(bigEndian: address.sin_port)
}
