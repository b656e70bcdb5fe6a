import Foundation
import Testing

/// What the repository ships for operators (the sample config, the installer) says all there is.
@Suite(.timeLimit(.minutes(1)))
struct ShippedFilesTests {
  /// Every key `--check-config` knows, in every object of the config, appears in the shipped sample:
  /// as a key where the sample holds that object, or named in the comment of a key whose default is
  /// null or a list.
  @Test func theSampleConfigListsEveryKey() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/dsa-rund.json"
    let probe = """
      {"zz": 1, "limits": {"zz": 1}, "page": {"zz": 1}, "rate_limit": {"zz": 1, "tokens": [{"zz": 1}]},
       "submissions": {"zz": 1, "webhooks": {"zz": 1}}, "judge0": {"zz": 1}, "piston": {"zz": 1},
       "jobe": {"zz": 1}}
      """
    try Data(probe.utf8).write(to: URL(fileURLWithPath: path))
    let finished = try runProcess(
      daemonBinary, ["--check-config", "--config", path], environment: ["DSA_RUN_DATA": repositoryRoot])
    #expect(finished.status == 1)
    var known: [String: [String]] = [:]
    for line in finished.stderr.split(separator: "\n") {
      guard
        let marker = line.range(of: ".zz: unknown key; known keys: ")
          ?? line.range(of: " zz: unknown key; known keys: ")
      else { continue }
      let location = line[..<marker.lowerBound].split(separator: " ").last.map(String.init) ?? ""
      let object = line[marker.lowerBound] == " " ? "" : location
      known[object] = line[marker.upperBound...].components(separatedBy: ", ")
    }
    #expect(
      Set(known.keys) == [
        "", "limits", "page", "rate_limit", "rate_limit.tokens[0]", "submissions",
        "submissions.webhooks", "judge0", "piston", "jobe",
      ], "\(finished.stderr)")

    let sample = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/config/dsa-rund.json")))
        as? [String: Any])
    for (object, keys) in known {
      var holder: [String: Any] = sample
      var comment = ""
      var components = object.isEmpty ? [] : object.split(separator: ".").map(String.init)
      while !components.isEmpty {
        let name = String(components.removeFirst().prefix { $0 != "[" })
        comment += (holder["// " + name] as? String) ?? ""
        guard let inner = holder[name] as? [String: Any] else {
          holder = [:]
          break
        }
        holder = inner
      }
      for key in keys {
        let listed = holder[key] != nil || comment.contains("\"\(key)\"")
        #expect(listed, "\(object.isEmpty ? key : object + "." + key) is not in config/dsa-rund.json")
      }
    }
  }

  /// `scripts/install --help` prints the script's whole header comment, so it never stops mid-sentence.
  @Test func theInstallersHelpIsItsWholeHeader() throws {
    let script = repositoryRoot + "/scripts/install"
    let finished = try runProcess("/bin/bash", [script, "--help"])
    #expect(finished.status == 0, "\(finished.stderr)")
    let header = try String(contentsOfFile: script, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false
    )
    .dropFirst().prefix { $0.hasPrefix("#") }
    .map { String($0.dropFirst($0.hasPrefix("# ") ? 2 : 1)) }
    #expect(
      finished.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) == header)
    #expect(finished.stdout.hasSuffix(".\n"), "the help stops mid-sentence: \(finished.stdout.suffix(80))")
  }
}
