import Foundation
import Testing

/// The Jobe REST API on a running dsa-rund, by curl (docs/compat.md, "Jobe"): the config object
/// turns it on, moves it and checks it; a key in `X-API-KEY` is a bearer token; real runs come back
/// with Jobe's outcomes.
@Suite(.timeLimit(.minutes(3)))
struct JobeDaemonTests {
  static func daemon(config: String) throws -> DaemonProcess {
    let directory = try makeTemporaryDirectory()
    try Data(config.utf8).write(to: URL(fileURLWithPath: directory + "/jobe.json"))
    return try DaemonProcess(arguments: ["--config", directory + "/jobe.json"], directory: directory)
  }

  static func run(_ daemon: DaemonProcess, prefix: String, key: String?, _ spec: [String: Any]) throws -> CurlResponse {
    let data = try JSONSerialization.data(withJSONObject: ["run_spec": spec])
    var arguments = ["-X", "POST", "-H", "Content-Type: application/json; charset=utf-8"]
    if let key { arguments += ["-H", "X-API-KEY: " + key] }
    return try curl(
      daemon.baseURL + prefix + "/runs", arguments + ["--data-binary", String(decoding: data, as: UTF8.self)],
      timeout: 60)
  }

  @Test func aKeyedServerRunsJobesRunsUnderItsPrefix() throws {
    let daemon = try Self.daemon(
      config: #"{"slots": 1, "bearer_tokens": ["site-key"], "jobe": {"prefix": "/jobe2", "file_cache_mb": 1}}"#)
    defer { daemon.cleanUp() }
    let languages = try curl(daemon.baseURL + "/jobe2/languages", ["-H", "X-API-KEY: site-key"])
    #expect(languages.status == 200, "\(languages.body)")
    #expect(languages.body.contains(#"["python3","#))
    let hello = try Self.run(
      daemon, prefix: "/jobe2", key: "site-key",
      [
        "language_id": "python3", "sourcecode": "import sys\nprint(sys.argv[1:], input())\nsys.exit(2)\n",
        "input": "typed\n", "parameters": ["runargs": ["a b", "'c d'"]],
      ])
    #expect(hello.status == 200)
    #expect(
      hello.body == #"{"run_id":null,"outcome":15,"cmpinfo":"","stdout":"['a', 'b', 'c d'] typed\n","stderr":""}"#)
    let noisy = try Self.run(
      daemon, prefix: "/jobe2", key: "site-key", ["language_id": "python3", "sourcecode": "1/0\n"])
    #expect(noisy.json["outcome"] as? Int == 12, "\(noisy.body)")
    #expect((noisy.json["stderr"] as? String)?.contains("ZeroDivisionError") == true)
    let refused = try Self.run(daemon, prefix: "/jobe2", key: nil, ["language_id": "python3", "sourcecode": "1"])
    #expect(refused.status == 403)
    #expect(refused.body == "Missing API key")
    // Jobe's default path is not served once moved: the router's own 404, for a bearer token.
    let moved = try curl(
      daemon.baseURL + "/jobe/index.php/restapi/languages", ["-H", "Authorization: Bearer site-key"])
    #expect(moved.status == 404)
  }

  @Test func offByConfigurationAndABadPrefixIsAConfigurationError() throws {
    let daemon = try Self.daemon(config: #"{"slots": 1, "jobe": {"enabled": false}}"#)
    defer { daemon.cleanUp() }
    #expect(try curl(daemon.baseURL + "/jobe/index.php/restapi/languages").status == 404)
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/bad.json"
    try Data(#"{"jobe": {"prefix": "/v1/jobe", "file_cache_mb": 0}}"#.utf8).write(to: URL(fileURLWithPath: path))
    let finished = try runProcess(
      daemonBinary, ["--check-config", "--config", path], environment: ["DSA_RUN_DATA": repositoryRoot])
    #expect(finished.status == 1)
    #expect(finished.stderr.contains("jobe.prefix must be a path"), "\(finished.stderr)")
    #expect(finished.stderr.contains("jobe.file_cache_mb must be from 1 to 65536"), "\(finished.stderr)")
  }
}
