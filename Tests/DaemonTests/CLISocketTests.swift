import Foundation
import Glibc
import Testing

/// `dsa-run` against a live dsa-rund on its Unix socket, with a bearer token (issue 15): the default
/// remote and token come from the environment, and what it prints is what a local run prints.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CLISocketTests {
  @Test func theCLIReachesATokenProtectedDaemonOnItsUnixSocket() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let socket = directory + "/dsa-rund.sock"
    try Data(#"{"bearer_tokens": ["t0ken-for-tests"]}"#.utf8).write(
      to: URL(fileURLWithPath: directory + "/tokens.json"))
    // The later --config wins over the helper's empty one.
    let daemon = try DaemonProcess(arguments: ["--config", directory + "/tokens.json", "--unix", socket])
    defer { daemon.cleanUp() }
    try Data("print('over the socket', input())\n".utf8).write(to: URL(fileURLWithPath: directory + "/hello.py"))
    try Data("42\n".utf8).write(to: URL(fileURLWithPath: directory + "/input.txt"))
    let arguments = ["--lang", "python", directory + "/hello.py", "--stdin", directory + "/input.txt"]
    var environment = ProcessInfo.processInfo.environment
    environment["DSA_RUN_DATA"] = repositoryRoot
    environment["DSA_RUN_REMOTE"] = "unix:" + socket
    environment.removeValue(forKey: "DSA_RUN_TOKEN")

    let refused = try runProcess(cliBinary, arguments, environment: environment)
    #expect(refused.status == 2, "\(refused.stderr)")
    #expect(refused.stderr.contains("--token"), "\(refused.stderr)")

    environment["DSA_RUN_TOKEN"] = "t0ken-for-tests"
    let remote = try runProcess(cliBinary, arguments, environment: environment)
    #expect(remote.status == 0, "\(remote.stderr)")
    #expect(remote.stdout == "over the socket 42\n")
    let local = try runProcess(
      cliBinary, arguments + ["--local", "--work-root", cliWorkRoot, "--cache-dir", directory + "/cache"],
      environment: environment)
    #expect(local.stdout == remote.stdout)
    #expect(local.status == remote.status)
    // The daemon saw it (its log counts the request).
    #expect(daemon.log.contains("/v1/execute"))
  }
}
