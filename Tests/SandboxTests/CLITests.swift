import Foundation
import Testing

@testable import Sandbox

// The dsa-run binary, driven as a user would.

struct CLIResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

func runCLI(_ arguments: [String], stdin: Data? = nil) throws -> CLIResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: dsaRunBinary)
  process.arguments = arguments
  let output = Pipe()
  let errors = Pipe()
  let input = Pipe()
  process.standardOutput = output
  process.standardError = errors
  process.standardInput = input
  try process.run()
  if let stdin { input.fileHandleForWriting.write(stdin) }
  try input.fileHandleForWriting.close()
  let stdoutData = output.fileHandleForReading.readDataToEndOfFile()
  let stderrData = errors.fileHandleForReading.readDataToEndOfFile()
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
    #expect(result.stderr == "err\n")
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
    (["exec", "--time-limit", "100000", "--", "/bin/true"], "the maximum is"),
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

  @Test func helpListsExitCodes() throws {
    let result = try runCLI(["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("124        time_limit"))
  }
}
