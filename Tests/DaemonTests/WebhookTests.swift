import Foundation
import Glibc
import Testing

// Webhook delivery from a real daemon to a real HTTP listener on an allow-listed loopback address:
// the first try is answered 500, so the result arrives on the second, signed with HMAC-SHA256.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct WebhookTests {
  static let listener = """
    import hashlib, hmac, http.server, json, sys
    log, port_file, secret = sys.argv[1], sys.argv[2], sys.argv[3].encode()
    seen = []
    class Hook(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers['Content-Length']))
            expected = 'sha256=' + hmac.new(secret, body, hashlib.sha256).hexdigest()
            seen.append(1)
            with open(log, 'a') as out:
                out.write(json.dumps({'path': self.path, 'body': json.loads(body),
                    'submission': self.headers.get('X-DSA-Run-Submission'),
                    'signed': hmac.compare_digest(expected, self.headers.get('X-DSA-Run-Signature', ''))}) + '\\n')
            self.send_response(500 if len(seen) == 1 else 200)
            self.send_header('Content-Length', '0')
            self.end_headers()
        def log_message(self, *args): pass
    server = http.server.HTTPServer(('127.0.0.1', 0), Hook)
    open(port_file, 'w').write(str(server.server_address[1]))
    server.serve_forever()
    """

  @Test func theResultIsDeliveredSignedAfterARetryAndPrivateTargetsAreRefused() throws {
    let directory = try makeTemporaryDirectory()
    let script = directory + "/listener.py"
    try Self.listener.write(toFile: script, atomically: true, encoding: .utf8)
    let listener = try startProcess(
      "/usr/bin/python3", [script, directory + "/hooks.jsonl", directory + "/port", "webhook-secret"])
    defer {
      kill(listener.process.processIdentifier, SIGTERM)
      _ = try? listener.finish(timeout: .seconds(10))
    }
    #expect(waitUntil(timeout: .seconds(10)) { FileManager.default.fileExists(atPath: directory + "/port") })
    let port = try #require(Int((try? String(contentsOfFile: directory + "/port", encoding: .utf8)) ?? ""))
    let config = try writeConfig(
      directory,
      [
        "submissions": [
          "webhooks": ["secret": "webhook-secret", "allow": ["127.0.0.1/32"], "backoff_ms": 100, "timeout_s": 5]
        ]
      ])
    let daemon = try DaemonProcess(arguments: ["--slots", "1", "--config", config], directory: directory)
    defer { daemon.cleanUp() }

    let callback = "http://127.0.0.1:\(port)/hooks/done?from=test"
    let accepted = try post(
      daemon, "/v1/submissions", ["language": "python", "source": "print('hooked')", "callback_url": callback])
    #expect(accepted.status == 202)
    let id = try #require(accepted.json["id"] as? String)
    #expect(
      waitUntil(timeout: .seconds(30)) {
        ((try? String(contentsOfFile: directory + "/hooks.jsonl", encoding: .utf8)) ?? "").split(separator: "\n").count
          >= 2
      })
    let deliveries = ((try? String(contentsOfFile: directory + "/hooks.jsonl", encoding: .utf8)) ?? "")
      .split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    #expect(deliveries.count == 2)
    for delivery in deliveries {
      #expect(delivery["path"] as? String == "/hooks/done?from=test")
      #expect(delivery["submission"] as? String == id)
      #expect(delivery["signed"] as? Bool == true)
      let body = (delivery["body"] as? [String: Any]) ?? [:]
      #expect(body["id"] as? String == id && body["status"] as? String == "done")
      #expect(((body["result"] as? [String: Any])?["run"] as? [String: Any])?["stdout"] as? String == "hooked\n")
    }
    // Delivered on the second try: nothing counts as failed.
    #expect(try curl(daemon.baseURL + "/metrics").body.contains("dsa_run_webhook_failures_total 0"))

    // Loopback outside the allow-list, private and metadata addresses are refused at submit.
    for url in [
      "http://127.0.0.2:\(port)/", "http://10.0.0.1/", "http://169.254.169.254/latest/", "http://[::1]:\(port)/",
    ] {
      let refused = try post(daemon, "/v1/submissions", ["language": "python", "source": "1", "callback_url": url])
      #expect(refused.status == 400 && refused.body.contains("bad_callback_url"), "\(url): \(refused.body)")
    }
    #expect(try daemon.stop() == 0)
  }
}
