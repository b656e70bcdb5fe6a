import Foundation
import SandboxTesting
import SystemCore
import Testing

@testable import Sandbox

// The dsa-run binary, driven as a user would.

struct CLIResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Runs dsa-run (or `executable`, which runs it: `setpriv`) with these arguments.
func runCLI(
  _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], executable: String = dsaRunBinary
) throws -> CLIResult {
  let process = ChildProcess()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  }
  let output = ProcessLaunch.pipe()
  let errors = ProcessLaunch.pipe()
  let input = ProcessLaunch.pipe()
  process.standardOutput = output
  process.standardError = errors
  process.standardInput = input
  try process.run()
  if let stdin { input.fileHandleForWriting.write(stdin) }
  try input.fileHandleForWriting.close()
  let stdoutData = output.fileHandleForReading.readToEndRetryingInterrupts()
  let stderrData = errors.fileHandleForReading.readToEndRetryingInterrupts()
  process.waitUntilExit()
  return CLIResult(
    status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
    stderr: String(decoding: stderrData, as: UTF8.self))
}

@Suite struct CLITests {
  @Test func execPassesOutputAndExitCodeThrough() throws {
    let result = try runCLI(["exec", "--", "/bin/sh", "-c", "echo out; echo err >&2; exit 7"])
    #expect(result.status == 7)
    #expect(result.stdout == "out\n")
    #expect(result.stderr.hasPrefix("err\ndsa-run: runtime_error: The program exited with code 7 after "))
  }

  @Test func execFeedsItsOwnStdin() throws {
    let result = try runCLI(["exec", "--", "/usr/bin/wc", "-c"], stdin: Data("12345".utf8))
    #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "5")
  }

  @Test func execJSONIsOneResultObject() throws {
    let result = try runCLI(["exec", "--json", "--wall-limit", "0.3", "--", "/bin/sleep", "5"])
    #expect(result.status == 124)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["status"] as? String == "time_limit")
    #expect(object["time_limit_kind"] as? String == "wall")
    for key in [
      "message", "exit_code", "signal", "stdout", "stderr", "cpu_ms", "wall_ms", "memory_kb", "stdout_truncated",
    ] {
      #expect(object[key] != nil, "missing \(key)")
    }
  }

  @Test func limitsPrintOneClearLine() throws {
    let result = try runCLI(["exec", "--output-limit", "1", "--", "/usr/bin/yes"])
    #expect(result.status == 123)
    #expect(result.stderr.hasPrefix("dsa-run: output_limit: "))
    #expect(result.stdout.count == 1024)
  }

  @Test(arguments: [
    (["exec", "--memory-limit", "lots", "--", "/bin/true"], "--memory-limit needs a positive whole number"),
    (["exec", "--time-limit", "100000", "--", "/bin/true"], "at most 60 s"),
    (["exec", "--bogus"], "unknown option"),
    (["exec"], "needs a command"),
    (["exec", "--policy", "nope", "--", "/bin/true"], "unknown policy"),
    (["exec", "--stdin", "/no/such/file", "--", "/bin/true"], "cannot read"),
    (["frobnicate"], "unknown command"),
  ])
  func badInvocationsExitTwoWithOneLine(arguments: [String], words: String) throws {
    let result = try runCLI(arguments)
    #expect(result.status == 2)
    #expect(result.stderr.contains(words), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func sandboxFailureExitsThree() throws {
    let result = try runCLI(["exec", "--", "/no/such/program"])
    #expect(result.status == 3)
    #expect(result.stderr.contains("internal_error"))
    #expect(result.stderr.contains("execve /no/such/program: ENOENT"))
  }

  @Test func doctorReportsTheMode() throws {
    let result = try runCLI(["doctor", "--json"])
    #expect(result.status == 0, "\(result.stdout)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["healthy"] as? Bool == true)
    let facts = try #require(object["facts"] as? [[String: String]])
    #expect(
      facts.contains { $0["name"] == "accounting" && ["cgroup-v2", "cgroup-v1", "rlimit"].contains($0["value"] ?? "") })
    #expect(facts.contains { $0["name"] == "self-test" && ($0["value"] ?? "").contains(": ok in") })
  }

  @Test func timeScaleRaisesTheTimeCeilingsAndABadOneIsRefused() throws {
    // scripts/test-kernels sets DSA_RUN_TIME_SCALE for an emulated CPU; unset, 60 s is the ceiling.
    let unscaled = try runCLI(
      ["exec", "--time-limit", "600", "--", "/bin/true"], environment: ["DSA_RUN_TIME_SCALE": "1"])
    #expect(unscaled.status == 2)
    #expect(unscaled.stderr.contains("at most 60 s"), "\(unscaled.stderr)")
    let scaled = try runCLI(
      ["exec", "--time-limit", "600", "--", "/bin/true"], environment: ["DSA_RUN_TIME_SCALE": "10"])
    #expect(scaled.status == 0, "\(scaled.stderr)")
    let tooLong = try runCLI(
      ["exec", "--time-limit", "601", "--", "/bin/true"], environment: ["DSA_RUN_TIME_SCALE": "10"])
    #expect(tooLong.stderr.contains("at most 600 s"), "\(tooLong.stderr)")
    for bad in ["0", "101", "1.5", "ten", "", " 2"] {
      let refused = try runCLI(["exec", "--", "/bin/true"], environment: ["DSA_RUN_TIME_SCALE": bad])
      #expect(refused.status == 2, "\(bad)")
      #expect(
        refused.stderr == "dsa-run: DSA_RUN_TIME_SCALE must be a whole number from 1 to 100, not \"\(bad)\"\n",
        "\(refused.stderr)")
    }
  }

  @Test func helpListsExitCodes() throws {
    let result = try runCLI(["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("124        time_limit"))
  }
}

/// `dsa-run --lang`: a program run like `python3 file.py`, only in a box.
@Suite struct CLILanguageTests {
  private func write(_ text: String, name: String) throws -> String {
    let directory = NSTemporaryDirectory() + "dsa-run-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/" + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func runsLikeTheInterpreterWithStdinAndArguments() throws {
    let path = try write("import sys\nprint(input()[::-1], sys.argv[1:])\nsys.exit(3)\n", name: "rev.py")
    let result = try runCLI(["--lang", "py", path, "--", "a", "b c"], stdin: Data("olleh\n".utf8))
    #expect(result.status == 3)
    #expect(result.stdout == "hello ['a', 'b c']\n")
  }

  /// A program's own exit code 2 or 3 is passed through, and its `dsa-run:` line tells it from
  /// dsa-run's usage error (2) and internal error (3), which never say runtime_error.
  @Test(arguments: [2, 3] as [Int32])
  func aProgramsOwnExitCodeIsToldFromDsaRunsOwn(code: Int32) throws {
    let path = try write("import sys\nprint('done')\nsys.exit(\(code))\n", name: "exits\(code).py")
    for command in [
      ["--lang", "python", path], ["exec", "--", "/usr/bin/python3", "-c", "raise SystemExit(\(code))"],
    ] {
      let result = try runCLI(command)
      #expect(result.status == code, "\(command): \(result.stderr)")
      let lines = result.stderr.split(separator: "\n")
      #expect(
        lines.last?.hasPrefix("dsa-run: runtime_error: The program exited with code \(code) after ") == true,
        "\(command): \(result.stderr)")
    }
    let usage = try runCLI(["--lang", "python", path, "--no-such-flag"])
    #expect(usage.status == 2)
    #expect(usage.stderr.hasPrefix("dsa-run: unknown option") && !usage.stderr.contains("runtime_error"))
  }

  @Test func runtimeErrorsShowTheLearnersFileName() throws {
    let path = try write("x = 1\nprint(1 // 0)\n", name: "divide.py")
    let result = try runCLI(["--lang", "python", path])
    #expect(result.status == 1)
    #expect(result.stderr.contains("divide.py\", line 2"))
    #expect(result.stderr.contains("ZeroDivisionError"))
  }

  @Test func jsonHasTheDesignShape() throws {
    let path = try write(
      "print('@step {\"action\": \"swap\", \"active\": [0, 1]}')\nprint('plain')\n", name: "steps.py")
    let result = try runCLI(["--lang", "python", path, "--json"])
    #expect(result.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["language"] as? String == "python")
    #expect((object["version"] as? String)?.hasPrefix("3.") == true)
    #expect(object["compile"] is NSNull)
    let run = try #require(object["run"] as? [String: Any])
    #expect(run["status"] as? String == "ok")
    let steps = try #require(object["steps"] as? [[String: Any]])
    #expect(steps.count == 1)
    #expect(steps.first?["action"] as? String == "swap")
  }

  @Test func limitsGiveTheirStatusAndExitCode() throws {
    let path = try write("while True:\n    pass\n", name: "spin.py")
    let result = try runCLI(["--lang", "python", path, "--time-limit", "0.5"])
    #expect(result.status == 124)
    #expect(result.stderr.hasPrefix("dsa-run: time_limit: "))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/g++-12"), "needs g++ 12"))
  func compileErrorsExit121WithTheCompilersMessages() throws {
    let path = try write("int main() {\n  return undefined_name;\n}\n", name: "broken.cpp")
    let result = try runCLI(["--lang", "c++", path])
    #expect(result.status == 121)
    #expect(result.stderr.contains("broken.cpp:2"))
    #expect(result.stderr.contains("dsa-run: compile_error:"))
  }

  @Test(arguments: [
    (["--lang", "cobol", "x.cob"], "unknown language \"cobol\"; known: "),
    (["--lang", "python", "/no/such/file.py"], "cannot read /no/such/file.py"),
    (["--lang", "python"], "give the source file"),
    // A file named first is run in the language of its extension; a word that is no file, a command.
    (["main.py"], "cannot read main.py: no such file"),
    (["mian"], "unknown command \"mian\""),
    (["--lang", "python", "/etc", "--json"], "not a regular file"),
    (["--lang", "python", "x.py", "--memory-limit", "999999"], "limit out of range"),
  ])
  func badInvocationsExplainThemselves(arguments: [String], words: String) throws {
    let result = try runCLI(arguments)
    #expect(result.status == 2)
    #expect(result.stderr.contains(words), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func tooLargeFileIsRefused() throws {
    let path = try write(String(repeating: "# padding\n", count: 120_000), name: "big.py")
    let result = try runCLI(["--lang", "python", path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("larger than"))
  }

  @Test func missingToolchainSaysHowToInstallIt() throws {
    // A runner catalog whose toolchain is not on this machine.
    let root = NSTemporaryDirectory() + "dsa-run-data-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: root + "/runners", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: repositoryRoot + "/policies", toPath: root + "/policies")
    try """
    {"language": "toy", "display_name": "Toy", "self_test": {"source": "x", "stdout": "y"},
     "versions": [{"version": "1", "requires": ["/opt/no-such-toolchain/bin/toy"],
                   "version_probe": ["/opt/no-such-toolchain/bin/toy", "--version"], "version_pattern": "([0-9]+)",
                   "install": "apt-get install toy", "source_file": "main.toy",
                   "run": {"argv": ["/opt/no-such-toolchain/bin/toy", "{source}"]}}]}
    """.write(toFile: root + "/runners/toy.json", atomically: true, encoding: .utf8)
    let path = try write("x", name: "main.toy")
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: dsaRunBinary)
    process.arguments = ["--lang", "toy", path]
    process.environment = ["DSA_RUN_DATA": root]
    let errors = ProcessLaunch.pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 2)
    #expect(
      message.contains(
        "toy 1 is not installed (/opt/no-such-toolchain/bin/toy is missing); install it with: apt-get install toy"))
    let languages = ChildProcess()
    languages.executableURL = URL(fileURLWithPath: dsaRunBinary)
    languages.arguments = ["languages", "--json"]
    languages.environment = ["DSA_RUN_DATA": root]
    let output = ProcessLaunch.pipe()
    languages.standardOutput = output
    try languages.run()
    let listing = output.fileHandleForReading.readToEndRetryingInterrupts()
    languages.waitUntilExit()
    let rows = try #require(try JSONSerialization.jsonObject(with: listing) as? [[String: Any]])
    #expect(rows.first?["available"] as? Bool == false)
    #expect((rows.first?["reason"] as? String)?.contains("apt-get install toy") == true)
  }

  @Test func languagesListsTheSevenWithVersions() throws {
    let result = try runCLI(["languages", "--json"])
    #expect(result.status == 0)
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    let names = Set(rows.compactMap { $0["language"] as? String })
    #expect(names.isSuperset(of: ["python", "javascript", "java", "cpp", "kotlin", "go"]))
    for row in rows where row["available"] as? Bool == true {
      #expect((row["version"] as? String)?.isEmpty == false)
    }
  }
}
