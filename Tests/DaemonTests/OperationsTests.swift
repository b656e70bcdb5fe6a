import Foundation
import Glibc
import SystemCore
import Testing

// What an operator runs the daemon by: --version and the build it names everywhere, the request
// log's token digest and client, and SIGHUP, which reloads the config instead of ending the daemon.

/// The first log line of `event` after `count` such lines were seen, waited for up to 20 s.
private func nextLogLine(_ daemon: DaemonProcess, event: String, after count: Int) throws -> [String: Any] {
  var found: [String: Any]?
  _ = waitUntil(timeout: .seconds(20)) {
    let lines = daemon.logLines().filter { $0["event"] as? String == event }
    if lines.count > count { found = lines[count] }
    return found != nil || !daemon.process.isRunning
  }
  return try #require(found, "no \(event) line (running: \(daemon.process.isRunning)): \(daemon.log)")
}

private func status(_ daemon: DaemonProcess, token: String) throws -> Int {
  try curl(daemon.baseURL + "/v1/runtimes", ["-H", "Authorization: Bearer \(token)"]).status
}

/// The message of an execute refused for asking more wall time than any maximum allows.
private func overMaximum(_ daemon: DaemonProcess, token: String) throws -> String {
  let answer = try curl(
    daemon.baseURL + "/v1/execute",
    [
      "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json", "--data",
      #"{"language": "python", "source": "print(1)", "limits": {"wall_ms": 30000}}"#,
    ])
  return answer.status == 400 ? answer.body : "status \(answer.status)"
}

@Suite struct OperationsTests {
  @Test func versionNamesTheExecutablesBuildAndTheDaemonShowsIt() throws {
    let printed = try runProcess(daemonBinary, ["--version"])
    #expect(printed.status == 0, "\(printed.stderr)")
    let words = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
    try #require(words.count == 4 && words[0] == "dsa-rund" && words[2] == "(build", "\(printed.stdout)")
    let version = String(words[1])
    let build = String(words[3].dropLast())
    // The build is the linker's build ID of this very executable, as readelf reads it from the file.
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf") {
      let notes = try runProcess("/usr/bin/readelf", ["-n", daemonBinary])
      #expect(notes.stdout.contains("Build ID: \(build)\n"), "\(build) not in \(notes.stdout)")
    }
    let daemon = try daemonConfigured(#"{"bearer_tokens": ["sesame"]}"#)
    defer { daemon.cleanUp() }
    let started = try nextLogLine(daemon, event: "started", after: 0)
    #expect(started["version"] as? String == version)
    #expect(started["build"] as? String == build)
    let metrics = try curl(daemon.baseURL + "/metrics", ["-H", "Authorization: Bearer sesame"]).body
    #expect(metrics.contains("\ndsa_run_build_info{version=\"\(version)\",build=\"\(build)\"} 1\n"), "\(metrics)")
  }

  @Test func theRequestLogNamesTheTokensDigestAndTheClientButNeverTheToken() throws {
    let token = "secret-\(UUID().uuidString)"
    let wrong = "wrong-\(UUID().uuidString)"
    let daemon = try daemonConfigured(#"{"bearer_tokens": ["\#(token)"]}"#)
    defer { daemon.cleanUp() }
    #expect(try status(daemon, token: token) == 200)
    #expect(try status(daemon, token: wrong) == 401)
    func digest(_ text: String) -> String { String(hexadecimal(Digest.sha256(Array(text.utf8))).prefix(12)) }
    var lines: [[String: Any]] = []
    _ = waitUntil(timeout: .seconds(10)) {
      lines = daemon.logLines().filter { $0["route"] as? String == "/v1/runtimes" }
      return lines.count == 2
    }
    try #require(lines.count == 2, "\(daemon.log)")
    #expect(lines.map { $0["token_digest"] as? String } == [digest(token), digest(wrong)], "\(lines)")
    #expect(lines.map { $0["status"] as? Int } == [200, 401], "\(lines)")
    for line in lines {
      let client = line["client"] as? String ?? ""
      #expect(client.hasPrefix("127.0.0.1:") && UInt16(client.dropFirst("127.0.0.1:".count)) != nil, "\(line)")
    }
    #expect(!daemon.log.contains(token) && !daemon.log.contains(wrong), "\(daemon.log)")
  }

  @Test func sighupReloadsTheConfigAndABrokenOneChangesNothing() throws {
    let daemon = try daemonConfigured(#"{"bearer_tokens": ["first-token"], "limits": {"wall_ms": 8000}}"#)
    defer { daemon.cleanUp() }
    let path = daemon.directory + "/dsa-rund.json"
    #expect(try status(daemon, token: "first-token") == 200)
    let before = try overMaximum(daemon, token: "first-token")
    #expect(before.contains("the maximum is 8000"), "\(before)")

    try Data(#"{"bearer_tokens": ["second-token"], "slots": 3}"#.utf8).write(to: URL(fileURLWithPath: path))
    kill(daemon.process.processIdentifier, SIGHUP)
    let reloaded = try nextLogLine(daemon, event: "reloaded", after: 0)
    #expect(daemon.process.isRunning)
    #expect(reloaded["changed"] as? [String] == ["bearer_tokens", "limits"], "\(reloaded)")
    #expect(reloaded["restart_needed"] as? [String] == ["slots"], "\(reloaded)")
    #expect(try status(daemon, token: "second-token") == 200)
    #expect(try status(daemon, token: "first-token") == 401)
    // The new maxima are in effect (wall_ms back to its default)...
    let after = try overMaximum(daemon, token: "second-token")
    #expect(after.contains("the maximum is 20000"), "\(after)")
    // ...and the token no longer accepted is never written to the log, nor the new one.
    #expect(!daemon.log.contains("first-token") && !daemon.log.contains("second-token"))

    try Data(#"{"bearer_tokens": ["third-token"], "bogus_key": 1}"#.utf8).write(to: URL(fileURLWithPath: path))
    kill(daemon.process.processIdentifier, SIGHUP)
    let failed = try nextLogLine(daemon, event: "reload_failed", after: 0)
    let problems = failed["problems"] as? [String] ?? []
    #expect(problems.contains { $0.contains("bogus_key") }, "\(failed)")
    #expect(daemon.process.isRunning)
    #expect(try status(daemon, token: "second-token") == 200)
    #expect(try status(daemon, token: "third-token") == 401)
    #expect(try daemon.stop() == 0)
  }

  @Test func webhookSettingsReloadButTurningWebhooksOnOrOffNeedsARestart() throws {
    let daemon = try daemonConfigured(#"{"bearer_tokens": ["k"], "submissions": {"webhooks": {"tries": 2}}}"#)
    defer { daemon.cleanUp() }
    let path = daemon.directory + "/dsa-rund.json"
    func tries() throws -> Int? {
      let info = try curl(daemon.baseURL + "/config_info", ["-H", "Authorization: Bearer k"])
      return info.json["callbacks_max_tries"] as? Int
    }
    #expect(try tries() == 2)
    try Data(#"{"bearer_tokens": ["k"], "submissions": {"webhooks": {"tries": 3}}}"#.utf8)
      .write(to: URL(fileURLWithPath: path))
    kill(daemon.process.processIdentifier, SIGHUP)
    let first = try nextLogLine(daemon, event: "reloaded", after: 0)
    #expect(first["changed"] as? [String] == ["submissions.webhooks"], "\(first)")
    #expect(try tries() == 3)
    try Data(#"{"bearer_tokens": ["k"]}"#.utf8).write(to: URL(fileURLWithPath: path))
    kill(daemon.process.processIdentifier, SIGHUP)
    let second = try nextLogLine(daemon, event: "reloaded", after: 1)
    #expect(second["changed"] as? [String] == [], "\(second)")
    #expect(second["restart_needed"] as? [String] == ["submissions.webhooks"], "\(second)")
    #expect(try tries() == 3)
  }
}
