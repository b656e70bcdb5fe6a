import Foundation
import Glibc
import SandboxTesting
import SystemCore
import Testing

@testable import Sandbox

// What a new user meets in the first hour at a shell (issue 15): signals, bad input, help, limits in
// the user's units, --remote with a token over a Unix socket, and the seccomp cache. Every test runs
// the built dsa-run as a real process.

/// A dsa-run process started in the background, with its output collected.
final class BackgroundCLI: @unchecked Sendable {
  let process = ChildProcess()
  private let output = ProcessLaunch.pipe()
  private let errors = ProcessLaunch.pipe()
  private let lock = NSLock()
  private var stdoutData = Data()
  private var stderrData = Data()

  init(_ arguments: [String], environment: [String: String]? = nil) throws {
    // As a shell starts it: no blocked signals and default dispositions (a child inherits the signals
    // the test process ignores). The wrapper execs, so the pid is dsa-run's.
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments =
      [
        "-S", "-c",
        "import os, signal, sys\n"
          + "for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP): signal.signal(number, signal.SIG_DFL)\n"
          + "signal.pthread_sigmask(signal.SIG_SETMASK, [])\n"
          + "os.execv(sys.argv[1], sys.argv[1:])",
        dsaRunBinary,
      ] + arguments
    if let environment { process.environment = environment }
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    output.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self else { return }
      self.lock.lock()
      self.stdoutData.append(data)
      self.lock.unlock()
    }
    errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self else { return }
      self.lock.lock()
      self.stderrData.append(data)
      self.lock.unlock()
    }
    try process.run()
  }

  var pid: Int32 { process.processIdentifier }
  var stdout: String { lock.withLock { String(decoding: stdoutData, as: UTF8.self) } }
  var stderr: String { lock.withLock { String(decoding: stderrData, as: UTF8.self) } }

  /// Polls `condition` every 20 ms for up to `seconds`.
  func waitFor(seconds: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      usleep(20_000)
    }
    return condition()
  }

  /// Waits for the exit and returns the status (the exit code, or 128+N for a signal death).
  func wait() -> Int32 {
    process.waitUntilExit()
    output.fileHandleForReading.readabilityHandler = nil
    errors.fileHandleForReading.readabilityHandler = nil
    return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
  }
}

/// Whether this dsa-run process has a box right now.
/// Whether the CLI `pid` has a box, seen from its own mount namespace (where it makes them).
func hasBox(_ pid: Int32, workRoot: String = "/run/dsa-run") -> Bool {
  ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/root" + workRoot + "/boxes")) ?? []).contains {
    $0.hasPrefix("\(pid)-")
  }
}

func temporaryFile(_ text: String, name: String) throws -> String {
  let directory = NSTemporaryDirectory() + "dsa-run-first-hour-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let path = directory + "/" + name
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

@Suite(.serialized) struct CLISignalTests {
  static let signals: [(Int32, Int32)] = [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)]

  /// Starts dsa-run, waits until its box exists, sends `signal`, and checks the exit code, that the
  /// 30 s program did not run on, and that nothing of the box is left.
  private func interrupt(_ arguments: [String], signal: Int32, expected: Int32) throws {
    let cli = try BackgroundCLI(arguments)
    #expect(cli.waitFor { hasBox(cli.pid) }, "no box appeared: \(cli.stderr)")
    // Let the program itself start, not only its box.
    usleep(300_000)
    let sent = Date()
    kill(cli.pid, signal)
    let status = cli.wait()
    let elapsed = Date().timeIntervalSince(sent)
    #expect(status == expected, "stderr: \(cli.stderr)")
    #expect(elapsed < 10, "took \(elapsed) s after the signal")
    #expect(leftovers(of: cli.pid).isEmpty, "\(leftovers(of: cli.pid))")
    #expect(cli.stdout.isEmpty)
  }

  @Test(arguments: signals)
  func execStopsAtOnceAndCleansUp(signal: Int32, expected: Int32) throws {
    try interrupt(["exec", "--wall-limit", "60", "--", "/bin/sleep", "30"], signal: signal, expected: expected)
  }

  @Test(arguments: signals)
  func languageRunStopsAtOnceAndCleansUp(signal: Int32, expected: Int32) throws {
    let path = try temporaryFile("import time\ntime.sleep(30)\n", name: "sleepy.py")
    try interrupt(
      ["--lang", "python", path, "--wall-limit", "60", "--cache-dir", NSTemporaryDirectory() + "dsa-run-cli-cache"],
      signal: signal, expected: expected)
  }

  @Test(arguments: signals)
  func gradingStopsAtOnceAndCleansUp(signal: Int32, expected: Int32) throws {
    let path = try temporaryFile("import time\ntime.sleep(30)\n", name: "sleepy.py")
    try interrupt(
      [
        "--lang", "python", path, "--challenge", repositoryRoot + "/challenges/insertion-sort", "--cache-dir",
        NSTemporaryDirectory() + "dsa-run-cli-cache",
      ], signal: signal, expected: expected)
  }
}

@Suite struct CLIFirstHourTests {
  @Test func stdinThatIsADirectoryIsAUsageError() throws {
    let script = try temporaryFile("print(1)\n", name: "one.py")
    for arguments in [["exec", "--stdin", "/tmp", "--", "/bin/cat"], ["--lang", "python", script, "--stdin", "/tmp"]] {
      let result = try runCLI(arguments)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stderr == "dsa-run: cannot read --stdin /tmp: it is a directory\n")
    }
    // `dsa-run exec -- /bin/cat < /tmp`
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: dsaRunBinary)
    process.arguments = ["exec", "--", "/bin/cat"]
    process.standardInput = FileHandle(fileDescriptor: open("/tmp", O_RDONLY | O_DIRECTORY), closeOnDealloc: true)
    let errors = ProcessLaunch.pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 2)
    #expect(message == "dsa-run: cannot read standard input: it is a directory\n")
  }

  @Test(arguments: [
    (["exec", "--", "echo", "hi"], "absolute path", "/usr/bin/echo"),
    (["exec", "--mount", "", "--", "/bin/true"], "--mount needs an absolute HOST path", ""),
    (["exec", "--mount", "/usr:box", "--", "/bin/true"], "absolute BOX path", ""),
    (["exec", "--file", "=/etc/hostname", "--", "/bin/true"], "--file needs NAME=HOSTPATH", ""),
    (["exec", "--file", "../x=/etc/hostname", "--", "/bin/true"], "contains an empty", ""),
    (["exec", "--memory-limit", "999999", "--", "/bin/true"], "at most 4096 MB", ""),
    (["exec", "--time-limit", "100", "--", "/bin/true"], "at most 60 s", ""),
    (["exec", "--wall-limit", "1000", "--", "/bin/true"], "at most 120 s", ""),
    (["exec", "--output-limit", "99999999", "--", "/bin/true"], "at most 65536 KB", ""),
    (["exec", "--memory-limit", "18446744073709551615", "--", "/bin/true"], "at most 4096 MB", ""),
    (["--lang", "python", "x.py", "--memory-limit", "999999"], "at most 4096 MB", ""),
    (["--lang", "python", "x.py", "--time-limit", "61"], "at most 60 s", ""),
    (["--lang", "python", "x.py", "--time-limit", "0.0001"], "at least 0.001 s", ""),
  ])
  func badInputIsAUsageErrorInTheUsersWords(arguments: [String], words: String, more: String) throws {
    let result = try runCLI(arguments)
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains(words), "\(result.stderr)")
    if !more.isEmpty { #expect(result.stderr.contains(more), "\(result.stderr)") }
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
  }

  @Test func aCrashBySignalPrintsTheJSONMessage() throws {
    let command = ["exec", "--", "/bin/sh", "-c", "kill -SEGV $$"]
    let plain = try runCLI(command)
    #expect(plain.status == 139)
    let json = try runCLI(["exec", "--json"] + command.dropFirst())
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let message = try #require(object["message"] as? String)
    #expect(message.contains("SIGSEGV"))
    #expect(plain.stderr == "dsa-run: runtime_error: \(message)\n")
  }

  @Test(arguments: [
    // The options themselves, not only the environment table's "the default --remote URL".
    (["--help"], "--remote URL           run (or grade) on a dsa-rund"), (["-h"], "--mount HOST[:BOX]"),
    (["-h"], "DSA_RUN_TOKEN"), (["exec", "--help"], "--mount HOST[:BOX]"),
    (["languages", "--help"], "dsa-run languages [--json]"), (["doctor", "--help"], "dsa-run doctor [--json]"),
    (["challenges", "--help"], "challenges starter ID|DIR --lang LANG"),
    (["--lang", "python", "x.py", "--help"], "--token TOKEN"),
  ])
  func everyCommandHasHelp(arguments: [String], words: String) throws {
    let result = try runCLI(arguments)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("Usage:"))
    #expect(result.stdout.contains(words))
    #expect(result.stdout.contains("124        time_limit"))
    #expect(result.stderr.isEmpty)
  }

  @Test func versionPrintsTheToolsVersion() throws {
    let result = try runCLI(["--version"])
    #expect(result.status == 0)
    #expect(result.stdout.range(of: #"^dsa-run [0-9]+\.[0-9]+\.[0-9]+\n$"#, options: .regularExpression) != nil)
  }

  /// `--json` names the toolchain's version without starting the toolchain to ask it: the first run
  /// probes and keeps the answer beside the seccomp filters; the next reads it back (shown here by
  /// an entry rewritten to another version, which the next run reports).
  @Test func jsonRunsReadTheToolchainsVersionBackInsteadOfProbing() throws {
    let folder = NSTemporaryDirectory() + "dsa-run-versions-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cache = folder + "/cache"
    try Data("print('hi')\n".utf8).write(to: URL(fileURLWithPath: folder + "/hello.py"))
    let environment = ["DSA_RUN_SECCOMP_CACHE": cache]
    func version() throws -> String? {
      let finished = try runCLI(["--json", "--lang", "python", folder + "/hello.py"], environment: environment)
      let object = try JSONSerialization.jsonObject(with: Data(finished.stdout.utf8)) as? [String: Any]
      return object?["version"] as? String
    }
    let probed = try #require(try version())
    #expect(probed.hasPrefix("3.11."))
    let entries = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasPrefix("version-") }
    #expect(entries.count == 1, "\(entries)")
    let entry = cache + "/" + (entries.first ?? "")
    let text = try String(contentsOfFile: entry, encoding: .utf8)
    #expect(text.hasSuffix("\n" + probed + "\n"))
    let rewritten = String(text.dropLast(probed.count + 1)) + "3.11.99\n"
    let fd = open(entry, O_WRONLY | O_TRUNC)
    #expect(fd >= 0)
    _ = rewritten.withCString { write(fd, $0, strlen($0)) }
    close(fd)
    #expect(try version() == "3.11.99")
  }

  @Test func onlyTheNeededPolicyIsCompiledAndATamperedCacheIsRefused() throws {
    let cache = NSTemporaryDirectory() + "dsa-run-seccomp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { try? FileManager.default.removeItem(atPath: cache) }
    var environment = ProcessInfo.processInfo.environment
    environment["DSA_RUN_SECCOMP_CACHE"] = cache
    // A system call no policy allows: the default policy kills the program (forbidden, 122).
    let forbidden = [
      "exec", "--", "/usr/bin/python3", "-c", "import ctypes; ctypes.CDLL(None).syscall(999, 0, 0, 0, 0)",
    ]
    func run(_ arguments: [String]) throws -> Int32 {
      let process = ChildProcess()
      process.executableURL = URL(fileURLWithPath: dsaRunBinary)
      process.arguments = arguments
      process.environment = environment
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus
    }
    #expect(try run(forbidden) == 122)
    let entries = try FileManager.default.contentsOfDirectory(atPath: cache)
    #expect(entries.count == 1, "one policy needed, \(entries) compiled")
    let entry = cache + "/" + (entries.first ?? "")
    var info = stat()
    #expect(stat(cache, &info) == 0 && info.st_mode & 0o777 == 0o700)
    #expect(stat(entry, &info) == 0 && info.st_mode & 0o077 == 0)
    // The cached entry is what is used: the second run compiles nothing and says the same.
    #expect(try run(forbidden) == 122)

    // A program that allows every system call (BPF_RET|BPF_K, SECCOMP_RET_ALLOW) in place of the
    // compiled one. Written whole and private, it is used (so the cache is read, not recompiled);
    // written in the ways a cache must refuse, it is not: a payload that does not match its
    // checksum, inputs that are not this start's (another policy file under the same name), a
    // negative length, a matching checksum in a file others may write, and a symbolic link.
    let original = try Data(contentsOf: URL(fileURLWithPath: entry))
    let lines = original.split(separator: UInt8(ascii: "\n"), maxSplits: 3, omittingEmptySubsequences: false)
    try #require(lines.count == 4)
    #expect(String(decoding: lines[1], as: UTF8.self) == entries.first, "the file is named by its key")
    // The reference vector of FNV-1a 64 ("a"), so this test's hash is the published one.
    #expect(fnv1a64Hex(Data("a".utf8)) == "af63dc4c8601ec8c")
    #expect(fnv1a64Hex(Data(lines[3])) == String(decoding: lines[2], as: UTF8.self), "the checksum is FNV-1a 64")
    // The payload: the inputs' length and the inputs (libseccomp's version, this binary, the policy
    // file), then name, rule count and description length, one line each, the description, the BPF.
    let payload = Data(lines[3])
    let inputsLine = try #require(payload.firstIndex(of: UInt8(ascii: "\n")))
    let inputsLength = try #require(Int(String(decoding: payload[..<inputsLine], as: UTF8.self)))
    let inputsEnd = inputsLine + 1 + inputsLength
    let inputs = Data(payload[..<inputsEnd])
    let policyText = try String(contentsOfFile: repositoryRoot + "/policies/default.json", encoding: .utf8)
    #expect(payload[(inputsLine + 1)..<inputsEnd].suffix(Data(policyText.utf8).count) == Data(policyText.utf8))
    let fields = Data(payload[inputsEnd...]).split(
      separator: UInt8(ascii: "\n"), maxSplits: 3, omittingEmptySubsequences: false)
    try #require(fields.count == 4)
    let descriptionLength = try #require(Int(String(decoding: fields[2], as: UTF8.self)))
    let allowAllPolicy =
      Data(fields[0]) + Data("\n".utf8) + Data(fields[1]) + Data("\n".utf8) + Data(fields[2]) + Data("\n".utf8)
      + Data(fields[3].prefix(descriptionLength)) + Data([0x06, 0, 0, 0, 0, 0, 0xff, 0x7f])
    let allowAll = inputs + allowAllPolicy
    func write(_ checksum: String, _ body: Data, mode: mode_t) throws {
      unlink(entry)
      let data =
        Data(lines[0]) + Data("\n".utf8) + Data(lines[1]) + Data("\n".utf8) + Data(checksum.utf8) + Data("\n".utf8)
        + body
      try data.write(to: URL(fileURLWithPath: entry))
      chmod(entry, mode)
    }
    try write(fnv1a64Hex(allowAll), allowAll, mode: 0o600)
    #expect(try run(forbidden) != 122, "a whole, private entry was not used: the cache is not read")
    try write(String(decoding: lines[2], as: UTF8.self), allowAll, mode: 0o600)
    #expect(try run(forbidden) == 122, "a payload that does not match its checksum was used")
    // The same entry, checksum right, compiled from one byte of policy file more than there is.
    var otherInputs = Data("\(inputsLength + 1)\n".utf8) + payload[(inputsLine + 1)..<inputsEnd] + Data(" ".utf8)
    otherInputs += allowAllPolicy
    try write(fnv1a64Hex(otherInputs), otherInputs, mode: 0o600)
    #expect(try run(forbidden) == 122, "an entry compiled from other inputs was used")
    // A whole entry whose description length is negative: refused and compiled again, not a crash.
    let negative = inputs + Data(fields[0]) + Data("\n".utf8) + Data(fields[1]) + Data("\n-5\n".utf8) + Data(fields[3])
    try write(fnv1a64Hex(negative), negative, mode: 0o600)
    #expect(try run(forbidden) == 122, "an entry with a negative length was not refused")
    try write(fnv1a64Hex(allowAll), allowAll, mode: 0o666)
    #expect(try run(forbidden) == 122, "an entry others may write was used")
    let elsewhere = cache + ".elsewhere"
    try write(fnv1a64Hex(allowAll), allowAll, mode: 0o600)
    #expect(rename(entry, elsewhere) == 0)
    defer { unlink(elsewhere) }
    #expect(symlink(elsewhere, entry) == 0)
    #expect(try run(forbidden) == 122, "a symbolic link was followed")
  }

  @Test func remoteSendsTheTokenOverAUnixSocketFromTheEnvironment() throws {
    let socketPath = NSTemporaryDirectory() + "dsa-run-remote-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    let server = try OneShotHTTPServer(unixSocket: socketPath)
    defer { unlink(socketPath) }
    let script = try temporaryFile("print('never run here')\n", name: "remote.py")
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: dsaRunBinary)
    process.arguments = ["--lang", "python", script]
    process.environment = ["DSA_RUN_REMOTE": "unix:" + socketPath, "DSA_RUN_TOKEN": "s3cret-token"]
    let output = ProcessLaunch.pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
    process.waitUntilExit()
    let request = server.request()
    #expect(request.hasPrefix("POST /v1/execute HTTP/1.1\r\n"))
    #expect(request.contains("\r\nAuthorization: Bearer s3cret-token\r\n"))
    #expect(request.contains("never run here"))
    #expect(printed == "from the daemon\n")
    #expect(process.terminationStatus == 0)
  }

  /// `--daemon` goes to the local daemon's socket, which DSA_RUN_DAEMON_SOCKET names when the
  /// daemon's `unix_socket` is not the default /run/dsa-rund.sock.
  @Test func daemonUsesTheConfiguredLocalSocket() throws {
    let socketPath = NSTemporaryDirectory() + "dsa-run-daemon-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    let server = try OneShotHTTPServer(unixSocket: socketPath)
    defer { unlink(socketPath) }
    let script = try temporaryFile("print('run by the daemon')\n", name: "daemon.py")
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: dsaRunBinary)
    process.arguments = ["--lang", "python", script, "--daemon"]
    process.environment = ["DSA_RUN_DAEMON_SOCKET": socketPath]
    let output = ProcessLaunch.pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
    process.waitUntilExit()
    #expect(server.request().contains("run by the daemon"))
    #expect(printed == "from the daemon\n")
    #expect(process.terminationStatus == 0)
  }

  @Test func daemonNamesTheSocketItCouldNotReach() throws {
    let script = try temporaryFile("print(1)\n", name: "nodaemon.py")
    let missing = NSTemporaryDirectory() + "dsa-run-no-daemon-\(getpid()).sock"
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: dsaRunBinary)
    process.arguments = ["--lang", "python", script, "--daemon"]
    process.environment = ["DSA_RUN_DAEMON_SOCKET": missing]
    let errors = ProcessLaunch.pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let said = String(decoding: errors.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 3, "\(said)")
    #expect(said.contains("unix:" + missing) && said.contains("DSA_RUN_DAEMON_SOCKET"), "\(said)")
  }

  @Test(arguments: [
    (["--remote", "unix:relative.sock"], "absolute socket path"),
    (["--remote", "ftp://x"], "http:// URL or unix:/PATH"),
    (["--remote", "http://127.0.0.1:9", "--token", "two words"], "printable ASCII"),
    (["--token", "t"], "--token goes with --remote"), (["--local", "--daemon"], "contradict"),
  ])
  func remoteOptionsAreChecked(extra: [String], words: String) throws {
    let script = try temporaryFile("print(1)\n", name: "r.py")
    let result = try runCLI(["--lang", "python", script] + extra)
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains(words), "\(result.stderr)")
  }

  @Test func localOverridesTheRemoteFromTheEnvironment() throws {
    let script = try temporaryFile("print('here')\n", name: "local.py")
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: dsaRunBinary)
    process.arguments = ["--lang", "python", script, "--local"]
    process.environment = ["DSA_RUN_REMOTE": "unix:/nonexistent/dsa-rund.sock", "DSA_RUN_TOKEN": "unused"]
    let output = ProcessLaunch.pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(printed == "here\n")
  }

  @Test func watchRunsAgainWhenTheFileIsSaved() throws {
    let path = try temporaryFile("print('first version')\n", name: "watched.py")
    let cli = try BackgroundCLI([
      "--lang", "python", path, "--watch", "--cache-dir", NSTemporaryDirectory() + "dsa-run-cli-cache",
    ])
    #expect(cli.waitFor { cli.stderr.contains("watching") }, "\(cli.stderr)")
    #expect(cli.stdout == "first version\n")
    // As an editor saves: a new file renamed over the old one.
    try "print('second version')\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(cli.waitFor { cli.stdout.contains("second version") }, "\(cli.stdout) \(cli.stderr)")
    #expect(cli.stdout == "first version\nsecond version\n")
    kill(cli.pid, SIGINT)
    #expect(cli.wait() == 130)
    #expect(leftovers(of: cli.pid).isEmpty)
  }
}

/// 64-bit FNV-1a as its authors specify it (offset basis 0xcbf29ce484222325, prime 0x100000001b3),
/// sixteen hex digits: the seccomp cache's names and checksums.
func fnv1a64Hex(_ data: Data) -> String {
  var value: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in data {
    value ^= UInt64(byte)
    value &*= 0x0000_0100_0000_01b3
  }
  let text = String(value, radix: 16)
  return String(repeating: "0", count: 16 - text.count) + text
}

/// Accepts one connection on a Unix socket, keeps the request, and answers with a fixed execute result.
final class OneShotHTTPServer: @unchecked Sendable {
  private let listener: Int32
  private let done = DispatchSemaphore(value: 0)
  private var received = Data()

  init(unixSocket path: String) throws {
    unlink(path)
    listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, listen(listener, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
    Thread { [self] in self.serve() }.start()
  }

  private func serve() {
    defer {
      close(listener)
      done.signal()
    }
    let connection = accept(listener, nil, nil)
    guard connection >= 0 else { return }
    defer { close(connection) }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(connection, &buffer, buffer.count)
      if count <= 0 { return }
      received.append(contentsOf: buffer[0..<count])
      if let head = received.range(of: Data("\r\n\r\n".utf8)) {
        let headText = String(decoding: received[..<head.lowerBound], as: UTF8.self).lowercased()
        let length =
          headText.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
          .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        if received.count - head.upperBound >= length { break }
      }
    }
    let body = """
      {"language": "python", "version": "3.11.2", "compile": null, "compile_cache": "none", "steps": [],
       "steps_message": "",
       "run": {"status": "ok", "message": "", "exit_code": 0, "signal": null, "stdout": "from the daemon\\n",
               "stderr": "", "stdout_truncated": false, "stderr_truncated": false, "cpu_ms": 1, "wall_ms": 1,
               "memory_kb": 1, "accounting": "cgroup-v1"}}
      """
    let response =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
      + "Connection: close\r\n\r\n" + body
    _ = response.withCString { write(connection, $0, strlen($0)) }
  }

  /// The request as received (waits for the connection to end).
  func request() -> String {
    _ = done.wait(timeout: .now() + 30)
    return String(decoding: received, as: UTF8.self)
  }
}
