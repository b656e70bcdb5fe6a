import Foundation
import Glibc
import Testing

// dsa-rund driven as an operator and its clients would: a live daemon on 127.0.0.1 with a free port,
// curl and Python's http.client, signals, kill -9. Serialized: the daemons share the machine's cores,
// and the queue tests depend on timing.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DaemonTests {
  @Test func theHTTPLayersOwnAnswersAreLoggedCountedAndCarryARequestID() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    // 414: a target over the parser's limit, answered before any route is known.
    let long = try curl(daemon.baseURL + "/" + String(repeating: "a", count: 20_000))
    #expect(long.status == 414)
    let id = try #require(long.headers["x-request-id"])
    #expect(!id.isEmpty)
    let head = try curl(daemon.baseURL + "/healthz", ["--head"])
    #expect(head.status == 200)
    let metrics = try curl(daemon.baseURL + "/metrics")
    #expect(metrics.body.contains("dsa_run_http_requests_total{route=\"http\",code=\"414\"} 1"), "\(metrics.body)")
    let entry = daemon.logLines().first { $0["id"] as? String == id }
    #expect(entry?["status"] as? Int == 414)
    #expect(entry?["error"] as? String == "target_too_long")
  }

  @Test func executeRuntimesHealthAndMetricsAnswerWithCurl() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let hello = try execute(daemon, ["language": "python", "source": "print('hello')"])
    #expect(hello.status == 200)
    #expect(hello.headers["content-type"] == "application/json")
    #expect(hello.headers["x-request-id"]?.isEmpty == false)
    let result = hello.json
    #expect(result["language"] as? String == "python")
    #expect((result["version"] as? String)?.hasPrefix("3.") == true)
    #expect(result["compile"] is NSNull)
    #expect(result["steps"] as? [Any] != nil)
    let run = try #require(result["run"] as? [String: Any])
    #expect(run["status"] as? String == "ok")
    #expect(run["stdout"] as? String == "hello\n")
    #expect(run["exit_code"] as? Int == 0)
    for key in [
      "message", "signal", "stderr", "stdout_truncated", "stderr_truncated", "cpu_ms", "wall_ms", "memory_kb",
    ] {
      #expect(run[key] != nil, "run.\(key)")
    }

    let steps = try execute(
      daemon, ["language": "python", "source": "print('@step {\"i\": 1}')\nprint('@step {\"i\": 2}')"])
    #expect((steps.json["steps"] as? [Any])?.count == 2)

    let runtimes = try curl(daemon.baseURL + "/v1/runtimes")
    #expect(runtimes.status == 200)
    let list = try #require(runtimes.json["runtimes"] as? [[String: Any]])
    let python = try #require(list.first { $0["language"] as? String == "python" })
    #expect(python["available"] as? Bool == true)
    for key in ["version", "aliases", "reason"] { #expect(python[key] != nil, "runtimes[].\(key)") }

    let health = try curl(daemon.baseURL + "/healthz")
    #expect(health.status == 200)
    #expect(health.json["status"] as? String == "ok")

    let metrics = try curl(daemon.baseURL + "/metrics")
    #expect(metrics.status == 200)
    #expect(metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
    for name in [
      "dsa_run_http_requests_total{route=\"/v1/execute\",code=\"200\"}", "dsa_run_runs_total{language=\"python\"",
      "dsa_run_queue_depth", "dsa_run_boxes_in_flight", "dsa_run_run_duration_seconds_bucket",
    ] {
      #expect(metrics.body.contains(name), "metrics lack \(name)")
    }
    // One JSON log line per request, never the source.
    let requests = daemon.logLines().filter { $0["route"] as? String == "/v1/execute" }
    #expect(requests.count == 2)
    #expect(!daemon.log.contains("print('hello')"))
    #expect(daemon.logLines().first?["cgroup_mode"] as? String != nil)
    #expect(try daemon.stop() == 0)
  }

  @Test func errorsHaveTheirStatusesAndTheDaemonKeepsServing() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let url = daemon.baseURL + "/v1/execute"
    let json = ["-H", "Content-Type: application/json"]

    let malformed = try curl(url, ["-X", "POST"] + json + ["--data-binary", "{\"language\": "])
    #expect(malformed.status == 400)
    #expect((malformed.json["error"] as? [String: Any])?["code"] as? String == "bad_request")

    let wrongType = try curl(url, ["-X", "POST", "-H", "Content-Type: text/plain", "--data-binary", "{}"])
    #expect(wrongType.status == 415)
    #expect((wrongType.json["error"] as? [String: Any])?["code"] as? String == "unsupported_media_type")

    // Just over the limit: the API's JSON 413; far over: the server's 413 before reading the body.
    let bodyFile = daemon.directory + "/big.json"
    for size in [(1 << 20) + 1, 3 << 20] {
      try Data(repeating: 0x20, count: size).write(to: URL(fileURLWithPath: bodyFile))
      let tooLarge = try curl(url, ["-X", "POST"] + json + ["--data-binary", "@" + bodyFile])
      #expect(tooLarge.status == 413, "body of \(size) bytes")
    }

    let unknownRoute = try curl(daemon.baseURL + "/v2/nothing")
    #expect(unknownRoute.status == 404)
    #expect((unknownRoute.json["error"] as? [String: Any])?["code"] as? String == "not_found")

    let wrongMethod = try curl(url)
    #expect(wrongMethod.status == 405)
    #expect(wrongMethod.headers["allow"] == "POST")

    let unknownLanguage = try execute(daemon, ["language": "cobol", "source": "x"])
    #expect(unknownLanguage.status == 400)
    let error = try #require(unknownLanguage.json["error"] as? [String: Any])
    #expect(error["code"] as? String == "unknown_language")
    #expect((error["known"] as? [String])?.contains("python") == true)

    let tooMuch = try execute(daemon, ["language": "python", "source": "1", "limits": ["cpu_ms": 999_999]])
    #expect(tooMuch.status == 400)
    #expect(tooMuch.body.contains("10000"))

    // Still serving.
    #expect(try execute(daemon, ["language": "python", "source": "print(1)"]).status == 200)
    #expect(try daemon.stop() == 0)
  }

  @Test func pythonHTTPClientGetsTheSameAnswers() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let script = """
      import http.client, json, sys
      c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=30)
      body = json.dumps({"language": "python", "source": "print(6 * 7)"})
      for _ in range(3):  # one keep-alive connection, several requests
          c.request("POST", "/v1/execute", body, {"Content-Type": "application/json"})
          r = c.getresponse()
          data = json.loads(r.read())
          assert r.status == 200, (r.status, data)
          assert data["run"]["stdout"] == "42\\n", data
      c.request("GET", "/v1/runtimes")
      r = c.getresponse()
      assert r.status == 200
      assert any(x["language"] == "python" for x in json.loads(r.read())["runtimes"])
      c.request("PUT", "/v1/execute", "{}", {"Content-Type": "application/json"})
      r = c.getresponse()
      assert r.status == 405, r.status
      r.read()
      print("ok")
      """
    let finished = try runProcess("/usr/bin/python3", ["-c", script, "\(daemon.port)"], timeout: .seconds(60))
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(finished.stdout == "ok\n")
    #expect(try daemon.stop() == 0)
  }

  @Test func fiftyConcurrentClientsAllGetTheirOwnAnswers() throws {
    let daemon = try DaemonProcess(arguments: ["--queue-length", "64"])
    defer { daemon.cleanUp() }
    var children: [(Int, Child)] = []
    for index in 0..<50 {
      let body: [String: Any] = [
        "language": "python", "source": "import sys\nprint(int(sys.argv[1]) * 3)", "args": ["\(index)"],
      ]
      if index % 2 == 0 {
        children.append((index, try startProcess("/usr/bin/curl", try executeArguments(daemon, body, timeout: 60))))
      } else {
        let script = """
          import http.client, json, sys
          c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=60)
          c.request("POST", "/v1/execute", sys.argv[2], {"Content-Type": "application/json"})
          r = c.getresponse()
          print(r.status, json.loads(r.read())["run"]["stdout"].strip())
          """
        let text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        children.append((index, try startProcess("/usr/bin/python3", ["-c", script, "\(daemon.port)", text])))
      }
    }
    for (index, child) in children {
      let finished = try child.finish(timeout: .seconds(90))
      #expect(finished.status == 0, "client \(index): \(finished.stderr)")
      if index % 2 == 0 {
        let response = try parseCurl(finished.stdout)
        #expect(response.status == 200, "client \(index): \(response.body)")
        #expect((response.json["run"] as? [String: Any])?["stdout"] as? String == "\(index * 3)\n")
      } else {
        #expect(finished.stdout == "200 \(index * 3)\n", "client \(index): \(finished.stdout) \(finished.stderr)")
      }
    }
    #expect(try daemon.stop() == 0)
  }

  @Test func aHeaderFloodAndATricklingClientGetTheirErrorsWhileOthersAreServed() throws {
    let directory = try makeTemporaryDirectory()
    let config = directory + "/tight.json"
    _ = FileManager.default.createFile(atPath: config, contents: Data(#"{"read_timeout_s": 1}"#.utf8))
    let daemon = try DaemonProcess(arguments: ["--config", config], directory: directory)
    defer { daemon.cleanUp() }
    // A client that sends one header byte every 200 ms: 408 after the read timeout.
    let trickle = try startProcess(
      "/usr/bin/python3",
      [
        "-c",
        """
        import socket, sys, time
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
        s.sendall(b"GET /healthz HTTP/1.1\\r\\nHost: x\\r\\n")
        reply = b""
        try:
            for byte in b"X-Slow: " + b"a" * 100:
                s.sendall(bytes([byte]))
                time.sleep(0.2)
        except OSError:
            pass
        try:
            reply = s.recv(200)
        except OSError:
            pass
        print(reply.split(b"\\r\\n")[0].decode())
        """,
        "\(daemon.port)",
      ])
    // Meanwhile others are served.
    let served = try execute(daemon, ["language": "python", "source": "print('still here')"])
    #expect(served.status == 200)
    #expect((served.json["run"] as? [String: Any])?["stdout"] as? String == "still here\n")
    // A header flood: 10,000 headers.
    let flood = try runProcess(
      "/usr/bin/python3",
      [
        "-c",
        """
        import http.client, sys
        c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
        c.putrequest("GET", "/healthz")
        try:
            for i in range(10000):
                c.putheader("X-Flood-%d" % i, "x" * 20)
            c.endheaders()
            print(c.getresponse().status)
        except (ConnectionError, http.client.HTTPException) as error:
            print("closed", type(error).__name__)
        """,
        "\(daemon.port)",
      ])
    #expect(flood.stdout.hasPrefix("431") || flood.stdout.hasPrefix("closed"), "\(flood.stdout) \(flood.stderr)")
    let trickled = try trickle.finish(timeout: .seconds(30))
    #expect(trickled.stdout.hasPrefix("HTTP/1.1 408"), "\(trickled.stdout) \(trickled.stderr)")
    // And the daemon still serves.
    let after = try curl("http://127.0.0.1:\(daemon.port)/healthz")
    #expect(after.status == 200)
    #expect(try daemon.stop() == 0)
  }

  @Test func aFullQueueIsAnswered503WithRetryAfter() throws {
    let daemon = try DaemonProcess(arguments: ["--slots", "1", "--queue-length", "0"])
    defer { daemon.cleanUp() }
    let marker = uniqueMarker()
    let slow = try startProcess("/usr/bin/curl", try executeArguments(daemon, sleeper(seconds: 3, marker: marker)))
    #expect(waitUntil(timeout: .seconds(15)) { !processes(containing: marker).isEmpty })
    var refused = 0
    for _ in 0..<3 {
      let response = try execute(daemon, ["language": "python", "source": "print(1)"])
      #expect(response.status == 503)
      #expect(response.headers["retry-after"] == "1")
      #expect((response.json["error"] as? [String: Any])?["code"] as? String == "busy")
      if response.status == 503 { refused += 1 }
    }
    #expect(refused == 3)
    let finished = try parseCurl(try slow.finish(timeout: .seconds(30)).stdout)
    #expect(finished.status == 200)
    #expect((finished.json["run"] as? [String: Any])?["stdout"] as? String == "slept \(marker)\n")
    // Free again.
    #expect(try execute(daemon, ["language": "python", "source": "print(1)"]).status == 200)
    #expect(try daemon.stop() == 0)
  }

  @Test func sigtermFinishesTheRunningRequestAndExitsZero() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let marker = uniqueMarker()
    let busy = try startProcess("/usr/bin/curl", try executeArguments(daemon, sleeper(seconds: 2, marker: marker)))
    #expect(waitUntil(timeout: .seconds(15)) { !processes(containing: marker).isEmpty })
    kill(daemon.process.processIdentifier, SIGTERM)
    let response = try parseCurl(try busy.finish(timeout: .seconds(30)).stdout)
    #expect(response.status == 200)
    #expect((response.json["run"] as? [String: Any])?["stdout"] as? String == "slept \(marker)\n")
    #expect(try daemon.stop(timeout: .seconds(30)) == 0)
    let events = daemon.logLines().compactMap { $0["event"] as? String }
    #expect(events.contains("stopping") && events.contains("stopped"))
    // No longer accepting.
    #expect(throws: TestFailure.self) { _ = try curl(daemon.baseURL + "/healthz", timeout: 5) }
    #expect(processes(containing: marker).isEmpty)
  }

  @Test func killNineLeavesNoBoxAndARestartedDaemonServesAtOnce() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let marker = uniqueMarker()
    let busy = try startProcess("/usr/bin/curl", try executeArguments(daemon, sleeper(seconds: 30, marker: marker)))
    #expect(waitUntil(timeout: .seconds(15)) { !processes(containing: marker).isEmpty })
    #expect(try daemon.stop(signal: SIGKILL, timeout: .seconds(10)) == SIGKILL)
    #expect(waitUntil(timeout: .seconds(5)) { processes(containing: marker).isEmpty }, "a box outlived its daemon")
    _ = try? busy.finish(timeout: .seconds(10))

    let restarted = try DaemonProcess(directory: daemon.directory)
    defer { restarted.cleanUp(removeDirectory: false) }
    let started = ContinuousClock.now
    let hello = try execute(restarted, ["language": "python", "source": "print('again')"])
    #expect(hello.status == 200)
    #expect((hello.json["run"] as? [String: Any])?["stdout"] as? String == "again\n")
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(try restarted.stop() == 0)
  }
}

@Suite(.timeLimit(.minutes(1)))
struct ConfigurationTests {
  @Test func theShippedConfigIsValid() throws {
    let finished = try runProcess(
      daemonBinary, ["--check-config", "--config", repositoryRoot + "/config/dsa-rund.json"],
      environment: ["DSA_RUN_DATA": repositoryRoot])
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(finished.stdout.contains("config OK"))
  }

  @Test func unknownKeysAndBadValuesAreNamed() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/dsa-rund.json"
    try Data(#"{"slots": 2, "slotz": 3, "limits": {"cpu_mss": 1}, "listen": ["localhost:80"]}"#.utf8)
      .write(to: URL(fileURLWithPath: path))
    let finished = try runProcess(
      daemonBinary, ["--check-config", "--config", path], environment: ["DSA_RUN_DATA": repositoryRoot])
    #expect(finished.status == 1)
    let lines = finished.stderr.split(separator: "\n")
    #expect(lines.contains { $0.contains("slotz: unknown key; known keys: listen, ") })
    #expect(lines.contains { $0.contains("limits.cpu_mss: unknown key; known keys: cpu_ms, ") })
    #expect(lines.contains { $0.contains("localhost:80") })
    #expect(lines.count == 3, "\(finished.stderr)")
    // The daemon itself refuses to start with it.
    let start = try runProcess(daemonBinary, ["--config", path], environment: ["DSA_RUN_DATA": repositoryRoot])
    #expect(start.status == 1)
    #expect(start.stderr.contains("slotz"))
  }

  @Test func gradeBudgetAndCacheExposureAreChecked() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/dsa-rund.json"
    try Data(#"{"grade_wall_ms": 50, "expose_compile_cache": "yes"}"#.utf8).write(to: URL(fileURLWithPath: path))
    let environment = ["DSA_RUN_DATA": repositoryRoot]
    let finished = try runProcess(daemonBinary, ["--check-config", "--config", path], environment: environment)
    #expect(finished.status == 1)
    let lines = finished.stderr.split(separator: "\n")
    #expect(lines.contains { $0.contains("expose_compile_cache: expected true or false, got a string") })
    #expect(lines.contains { $0.contains("grade_wall_ms must be from 100 to 3600000, got 50") })
    #expect(lines.count == 2, "\(finished.stderr)")
    try Data(#"{"grade_wall_ms": 30000, "expose_compile_cache": true}"#.utf8).write(to: URL(fileURLWithPath: path))
    let fine = try runProcess(daemonBinary, ["--check-config", "--config", path], environment: environment)
    #expect(fine.status == 0, "\(fine.stderr)")
  }

  @Test func maximaAboveTheSandboxCeilingsAreRefusedInTheirUnits() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/dsa-rund.json"
    try Data(#"{"limits": {"memory_mb": 99999999, "wall_ms": 120001, "cpu_ms": 60000}}"#.utf8)
      .write(to: URL(fileURLWithPath: path))
    let finished = try runProcess(
      daemonBinary, ["--check-config", "--config", path], environment: ["DSA_RUN_DATA": repositoryRoot])
    #expect(finished.status == 1)
    #expect(finished.stderr.contains("limits.memory_mb: is 99999999; the sandbox allows at most 4096 MB"))
    #expect(finished.stderr.contains("limits.wall_ms: is 120001; the sandbox allows at most 120000 ms"))
    #expect(!finished.stderr.contains("cpu_ms"), "the ceiling itself is allowed: \(finished.stderr)")
  }

  @Test func noTCPWithListenIsAUsageError() throws {
    let environment = ["DSA_RUN_DATA": repositoryRoot]
    let both = try runProcess(
      daemonBinary, ["--check-config", "--no-tcp", "--listen", "127.0.0.1:0", "--unix", "/tmp/x.sock"],
      environment: environment)
    #expect(both.status == 2)
    #expect(both.stderr.contains("--no-tcp and --listen 127.0.0.1:0 contradict"), "\(both.stderr)")
    let unixOnly = try runProcess(
      daemonBinary, ["--check-config", "--no-tcp", "--unix", "/tmp/x.sock"], environment: environment)
    #expect(unixOnly.status == 0, "\(unixOnly.stderr)")
  }

  @Test func aBrokenRunnerFileFailsTheCheck() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let manager = FileManager.default
    try manager.copyItem(atPath: repositoryRoot + "/runners", toPath: directory + "/runners")
    try manager.copyItem(atPath: repositoryRoot + "/policies", toPath: directory + "/policies")
    try Data(#"{"language": "broken", "surprise": true"#.utf8)
      .write(to: URL(fileURLWithPath: directory + "/runners/broken.json"))
    let finished = try runProcess(
      daemonBinary, ["--check-config", "--config", directory + "/missing.json"],
      environment: ["DSA_RUN_DATA": directory])
    #expect(finished.status == 1)
    #expect(finished.stderr.contains("broken.json"), "\(finished.stderr)")
    // A missing *default* config is fine, but a missing given one is a problem too.
    #expect(finished.stderr.contains("missing.json"))
  }

  @Test func flagsOverrideTheFile() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/dsa-rund.json"
    try Data(#"{"slots": 0}"#.utf8).write(to: URL(fileURLWithPath: path))
    let environment = ["DSA_RUN_DATA": repositoryRoot]
    #expect(try runProcess(daemonBinary, ["--check-config", "--config", path], environment: environment).status == 1)
    let fixed = try runProcess(
      daemonBinary, ["--check-config", "--config", path, "--slots", "2"], environment: environment)
    #expect(fixed.status == 0, "\(fixed.stderr)")
    #expect(try runProcess(daemonBinary, ["--bogus"], environment: environment).status == 2)
  }

  /// Socket activation as systemd does it, by systemd's own `systemd-socket-activate`: it listens on a
  /// TCP port and a Unix socket, starts the daemon at the first connection with LISTEN_FDS=2, and the
  /// daemon serves both sockets it was given (and ignores its own --listen).
  @Test func servesTheSocketsSystemdPasses() throws {
    let activate = "/usr/bin/systemd-socket-activate"
    try #require(FileManager.default.isExecutableFile(atPath: activate), "systemd-socket-activate (Debian systemd)")
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    _ = FileManager.default.createFile(atPath: directory + "/none.json", contents: Data("{}".utf8))
    let socketPath = directory + "/rund.sock"
    let port = try freeLoopbackPort()
    // One shell runs the scenario, so the only child this test waits for is bash.
    let script = """
      systemd-socket-activate -l 127.0.0.1:\(port) -l '\(socketPath)' -E DSA_RUN_DATA='\(repositoryRoot)' \\
        '\(daemonBinary)' --config '\(directory)/none.json' --listen 127.0.0.1:1 --work-root \(testWorkRoot) \\
        --cache-dir '\(directory)/cache' --state-dir '\(directory)/state' 2>'\(directory)/daemon.log' </dev/null >/dev/null &
      activated=$!
      for _ in $(seq 100); do [ -S '\(socketPath)' ] && break; sleep 0.1; done
      curl -sS -m 20 http://127.0.0.1:\(port)/healthz; echo
      curl -sS -m 20 --unix-socket '\(socketPath)' http://localhost/v1/runtimes | head -c 40; echo
      kill -TERM $activated
      wait $activated
      echo "exit $?"
      """
    let finished = try runProcess("/bin/bash", ["-c", script], timeout: .seconds(90))
    let lines = finished.stdout.split(separator: "\n").map(String.init)
    // The first connection started the daemon (curl waited in the listen backlog meanwhile).
    #expect(lines.first == #"{"status":"ok"}"#, "\(finished.stdout)\(finished.stderr)")
    #expect(lines.dropFirst().first?.hasPrefix(#"{"runtimes":[{"#) == true, "\(finished.stdout)")
    // systemd-socket-activate execs the daemon in its own process, so SIGTERM reached dsa-rund.
    #expect(lines.last == "exit 0", "\(finished.stdout)")
    let log = (try? String(contentsOfFile: directory + "/daemon.log", encoding: .utf8)) ?? ""
    let started = log.split(separator: "\n").first { $0.contains(#""event":"started""#) } ?? ""
    #expect(started.contains(#""systemd_sockets":true"#), "\(log)")
    #expect(started.contains("127.0.0.1:\(port)") && started.contains("unix:\(socketPath)"), "\(started)")
  }

  /// scripts/install into a scratch root, as CI runs it: the installed daemon finds its own data (from
  /// any directory, without DSA_RUN_DATA), the units name the installed paths and verify, and an
  /// install that lost its challenges is warned about.
  @Test func theInstallScriptInstallsAWorkingDaemon() throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let binaries = URL(fileURLWithPath: daemonBinary).deletingLastPathComponent().path
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "DSA_RUN_DATA")
    let install = try runProcess(
      "/bin/bash",
      [repositoryRoot + "/scripts/install", "--destdir", root, "--prefix", "/opt/dsa-test", "--from", binaries],
      environment: environment, timeout: .seconds(120))
    #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
    // Every sample under challenges/ is installed and loads.
    let samples = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/challenges").filter {
      FileManager.default.fileExists(atPath: repositoryRoot + "/challenges/\($0)/challenge.json")
    }
    #expect(samples.count >= 12)
    #expect(install.stdout.contains("\(samples.count) challenges"), "\(install.stdout)")
    #expect(install.stdout.contains("systemd-analyze verify: the units are valid"), "\(install.stdout)")
    let service = try String(contentsOfFile: root + "/etc/systemd/system/dsa-rund.service", encoding: .utf8)
    #expect(service.contains("ExecStart=/opt/dsa-test/bin/dsa-rund --config /etc/dsa-run/dsa-rund.json"))
    #expect(service.contains("Documentation=file:///opt/dsa-test/share/doc/dsa-run/api.md"))
    #expect(FileManager.default.fileExists(atPath: root + "/opt/dsa-test/share/doc/dsa-run/api.md"))

    try FileManager.default.removeItem(atPath: root + "/opt/dsa-test/share/dsa-run/challenges")
    let check = try runProcess(
      root + "/opt/dsa-test/bin/dsa-rund", ["--check-config", "--config", root + "/etc/dsa-run/dsa-rund.json"],
      environment: environment)
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.stdout.contains("0 challenges"))
    #expect(check.stderr.contains("warning: no challenges found"), "\(check.stderr)")
  }

  /// deploy/'s units: one daemon per instance (its port), grouped by a target.
  @Test func deployUnitsVerify() throws {
    let analyze = "/usr/bin/systemd-analyze"
    try #require(FileManager.default.isExecutableFile(atPath: analyze), "systemd-analyze is not installed")
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let template = try String(contentsOfFile: repositoryRoot + "/deploy/systemd/dsa-rund@.service", encoding: .utf8)
    #expect(template.contains("--listen 127.0.0.1:%i --work-root /run/dsa-run-%i"))
    // A reload checks the config, then has the daemon take it (SIGHUP).
    #expect(template.contains("\nExecReload=/bin/kill -HUP $MAINPID\n"))
    // An instance, as `systemctl enable dsa-rund@8081` makes it, pointing at the built binary.
    try template.replacingOccurrences(of: "/usr/local/bin/dsa-rund", with: daemonBinary)
      .write(toFile: directory + "/dsa-rund@8081.service", atomically: true, encoding: .utf8)
    try FileManager.default.copyItem(
      atPath: repositoryRoot + "/deploy/systemd/dsa-run.target", toPath: directory + "/dsa-run.target")
    let finished = try runProcess(
      analyze, ["verify", "--man=no", directory + "/dsa-rund@8081.service", directory + "/dsa-run.target"])
    #expect(finished.status == 0, "\(finished.stderr)")
    // nginx.service and postgresql.service are not units of this machine: the only notes allowed.
    let notes = (finished.stdout + finished.stderr).split(separator: "\n").filter {
      !$0.contains("nginx.service") && !$0.contains("postgresql.service")
    }
    #expect(notes.isEmpty, "\(notes)")
  }

  @Test func systemdUnitsVerify() throws {
    let analyze = "/usr/bin/systemd-analyze"
    try #require(FileManager.default.isExecutableFile(atPath: analyze), "systemd-analyze is not installed")
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // verify checks that ExecStart's binary exists: point a copy of the unit at the built one.
    let service = try String(contentsOfFile: repositoryRoot + "/systemd/dsa-rund.service", encoding: .utf8)
    #expect(service.contains("ExecStart=/usr/local/bin/dsa-rund --config /etc/dsa-run/dsa-rund.json"))
    #expect(
      service.contains(
        "\nExecReload=/usr/local/bin/dsa-rund --check-config --config /etc/dsa-run/dsa-rund.json\n"
          + "ExecReload=/bin/kill -HUP $MAINPID\n"))
    try service.replacingOccurrences(of: "/usr/local/bin/dsa-rund", with: daemonBinary)
      .write(toFile: directory + "/dsa-rund.service", atomically: true, encoding: .utf8)
    try FileManager.default.copyItem(
      atPath: repositoryRoot + "/systemd/dsa-rund.socket", toPath: directory + "/dsa-rund.socket")
    let finished = try runProcess(
      analyze, ["verify", "--man=no", directory + "/dsa-rund.service", directory + "/dsa-rund.socket"])
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(finished.stderr.isEmpty && finished.stdout.isEmpty, "\(finished.stdout)\(finished.stderr)")
  }
}
