import Foundation
import Glibc
import Testing

// The doorway rules against a real dsa-rund (docs/api.md, "Live runs", "Admission and quotas"):
// a live client that never reads, a flood of unauthenticated upgrades, and the quota on the live
// and streamed routes, with Python's websockets and raw sockets as the clients.

/// The client side of each test, by mode in argv[2]; prints one JSON object with what it saw.
let doorwayClientScript = #"""
  import base64, json, os, socket, sys, time, threading
  from concurrent.futures import ThreadPoolExecutor
  from websockets.sync.client import connect
  from websockets.exceptions import ConnectionClosed
  port, mode = sys.argv[1], sys.argv[2]
  arg = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}

  def rss_kb(pid):
      for line in open('/proc/%d/status' % pid):
          if line.startswith('VmRSS:'):
              return int(line.split()[1])

  def recv_until(ws, types, timeout=30):
      seen, deadline = [], time.time() + timeout
      while time.time() < deadline:
          try:
              message = ws.recv(timeout=max(0.1, deadline - time.time()))
          except (TimeoutError, ConnectionClosed):
              break
          seen.append(json.loads(message))
          if seen[-1].get('type') in types:
              break
      return seen

  def close_code(ws):
      try:
          while True: ws.recv(timeout=10)
      except ConnectionClosed as closed:
          return closed.rcvd.code if closed.rcvd else None
      except TimeoutError:
          return 'open'

  def masked_text(text):
      payload, mask = text.encode(), os.urandom(4)
      head = bytes([0x81, 0x80 | len(payload)]) if len(payload) < 126 else \
          bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, 'big')
      return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))

  def refused_upgrade(_):
      # A raw upgrade whose start message brings a wrong token: the least a client can make the
      # daemon hold.
      s = socket.create_connection(('127.0.0.1', int(port)), timeout=10)
      try:
          key = base64.b64encode(os.urandom(16)).decode()
          s.sendall(('GET /v1/connect HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n'
                     'Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n' % key).encode())
          head = b''
          while b'\r\n\r\n' not in head:
              chunk = s.recv(4096)
              if not chunk: return 'closed'
              head += chunk
          if not head.startswith(b'HTTP/1.1 101'): return head.split(b'\r\n')[0].decode()
          s.sendall(masked_text(json.dumps({'type': 'start', 'token': 'wrong',
                                            'body': {'language': 'python', 'source': 'print(1)'}})))
          rest = head.split(b'\r\n\r\n', 1)[1]
          while b'unauthorized' not in rest:
              chunk = s.recv(4096)
              if not chunk: break
              rest += chunk
          return 'unauthorized' if b'unauthorized' in rest else 'other'
      except OSError as error:
          return 'error: %s' % error
      finally:
          s.close()

  out = {}
  if mode == 'never-reads':
      # A busy printer whose client never reads: its limits must hold all the same.
      ws = connect('ws://127.0.0.1:' + port + '/v1/connect', max_size=None)
      # 8 MiB at once, then a busy loop: more than the client's side holds, so the program's
      # output is held back while it still has its limits to meet.
      ws.send(json.dumps({'type': 'start', 'body': {
          'language': 'python',
          'source': "import sys\nsys.stdout.write('x' * (8 << 20))\nsys.stdout.flush()\nwhile True:\n    pass\n",
          'limits': {'wall_ms': 2000, 'cpu_ms': 1000, 'output_kb': 65536}}}))
      time.sleep(arg['seconds'])
      ws.socket.close()
  elif mode == 'live-wall':
      # A live program that talks for longer than an execute may run, and one that asks for more
      # than the live ceiling.
      url = 'ws://127.0.0.1:' + port + '/v1/connect'
      with connect(url) as ws:
          ws.send(json.dumps({'type': 'start', 'body': {'language': 'python',
              'source': "import time\nfor i in range(5):\n    print(i, flush=True)\n    time.sleep(1)\n"}}))
          seen = recv_until(ws, ('result', 'error'), 30)
          run = seen[-1].get('result', {}).get('run', {}) if seen else {}
          out['long'] = {'status': run.get('status'), 'stdout': run.get('stdout'), 'wall_ms': run.get('wall_ms')}
      with connect(url) as ws:
          ws.send(json.dumps({'type': 'start', 'body': {'language': 'python', 'source': 'print(1)',
                                                        'limits': {'wall_ms': 9000}}}))
          seen = recv_until(ws, ('result', 'error'), 30)
          out['over'] = seen[-1] if seen else None
  elif mode == 'flood':
      pid, count = arg['pid'], arg['count']
      with ThreadPoolExecutor(16) as pool:
          out['rss_start_kb'] = rss_kb(pid)
          answers = list(pool.map(refused_upgrade, range(count // 5)))
          time.sleep(1)
          out['rss_before_kb'] = rss_kb(pid)
          answers += list(pool.map(refused_upgrade, range(count - count // 5)))
      time.sleep(2)
      out['rss_after_kb'] = rss_kb(pid)
      out['answers'] = {a: answers.count(a) for a in set(answers)}
  elif mode == 'quota':
      # Each live doorway on a token whose quota is one run: the first session runs, the second is
      # refused before anything starts.
      for name, path, header, start in [
          ('v1', '/v1/connect', {}, lambda ws: ws.send(json.dumps({'type': 'start', 'token': 'alpha',
              'body': {'language': 'python', 'source': 'print(1)'}}))),
          ('piston', '/api/v2/connect', {'Authorization': 'Bearer beta'}, lambda ws: ws.send(json.dumps({
              'type': 'init', 'language': 'python', 'version': '*', 'files': [{'content': 'print(1)'}]}))),
      ]:
          results = []
          for attempt in range(2):
              with connect('ws://127.0.0.1:' + port + path, additional_headers=header) as ws:
                  start(ws)
                  seen = recv_until(ws, ('result', 'error', 'exit'))
                  results.append({'types': [m.get('type') for m in seen],
                                  'error': next((m.get('error') or m.get('message') for m in seen
                                                 if m.get('type') == 'error'), None),
                                  'close': close_code(ws)})
          out[name] = results
  print(json.dumps(out))
  """#

func doorwayClient(_ daemon: DaemonProcess, _ mode: String, _ argument: [String: Any] = [:]) throws -> [String: Any] {
  let argumentText = String(decoding: try JSONSerialization.data(withJSONObject: argument), as: UTF8.self)
  let result = try runProcess(
    liveVenvPython, ["-c", doorwayClientScript, String(daemon.port), mode, argumentText], timeout: .seconds(300))
  #expect(result.status == 0, "\(result.stderr)")
  let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
  return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
}

/// A daemon started with `configuration` as its config file, in a directory of its own.
func daemonConfigured(_ configuration: String) throws -> DaemonProcess {
  let directory = try makeTemporaryDirectory()
  try Data(configuration.utf8).write(to: URL(fileURLWithPath: directory + "/dsa-rund.json"))
  return try DaemonProcess(arguments: ["--config", directory + "/dsa-rund.json"], directory: directory)
}

@Suite(.serialized, .enabled(if: liveClientIsInstalled, "needs the test venv's websockets (scripts/test-venv)"))
struct DoorwayDaemonTests {
  @Test func aLiveProgramsLimitsHoldWhenItsClientNeverReads() throws {
    let daemon = try daemonConfigured(#"{"limits": {"output_kb": 65536}}"#)
    defer { daemon.cleanUp() }
    let started = ContinuousClock.now
    _ = try doorwayClient(daemon, "never-reads", ["seconds": 8])
    // The run ended by its own limits while the client was still connected and reading nothing:
    // the log line of the session says when, and how much the run took.
    // The session's own line (the upgrade's has no run status) comes once it has ended.
    var sessionLine: [String: Any]?
    let deadline = ContinuousClock.now + .seconds(10)
    while sessionLine == nil && ContinuousClock.now < deadline {
      sessionLine = daemon.logLines().last { $0["route"] as? String == "/v1/connect" && $0["run_status"] != nil }
      if sessionLine == nil { Thread.sleep(forTimeInterval: 0.1) }
    }
    let line = try #require(sessionLine, "no log line of the session: \(daemon.log)")
    #expect(line["run_status"] as? String == "time_limit", "\(line)")
    let runMilliseconds = try #require(line["run_ms"] as? Double)
    #expect(runMilliseconds < 6000, "the run went on \(runMilliseconds) ms past a 2 s wall limit: \(line)")
    #expect(ContinuousClock.now - started < .seconds(60))
  }

  @Test func aLiveRunHasItsOwnWallCeiling() throws {
    let daemon = try daemonConfigured(#"{"limits": {"wall_ms": 3000}, "live_wall_s": 8}"#)
    defer { daemon.cleanUp() }
    let seen = try doorwayClient(daemon, "live-wall")
    // Five seconds of talking: past the 3 s an execute may run, within the 8 s live ceiling.
    let long = seen["long"] as? [String: Any] ?? [:]
    #expect(long["status"] as? String == "ok", "\(seen)")
    #expect(long["stdout"] as? String == "0\n1\n2\n3\n4\n", "\(seen)")
    let over = seen["over"] as? [String: Any] ?? [:]
    #expect(over["error"] as? String == "bad_request", "\(seen)")
    #expect(over["message"] as? String == "limits.wall_ms is 9000; the maximum is 8000", "\(seen)")
  }

  @Test func tenThousandUnauthenticatedUpgradesCostTheDaemonNothingThatStays() throws {
    let daemon = try daemonConfigured(#"{"bearer_tokens": ["sesame"], "max_connections": 64}"#)
    defer { daemon.cleanUp() }
    let seen = try doorwayClient(daemon, "flood", ["pid": Int(daemon.process.processIdentifier), "count": 10_000])
    let answers = seen["answers"] as? [String: Int] ?? [:]
    // Every one was refused for its token (or, past max_connections, turned away at the door).
    #expect(
      (answers["unauthorized"] ?? 0) + (answers["HTTP/1.1 503 Service Unavailable"] ?? 0) == 10_000, "\(answers)")
    #expect((answers["unauthorized"] ?? 0) > 5_000, "\(answers)")
    let before = try #require(seen["rss_before_kb"] as? Int)
    let after = try #require(seen["rss_after_kb"] as? Int)
    // What stays after ten thousand refusals is within a few MiB of what a few hundred left.
    #expect(after - before < 8 * 1024, "RSS \(before) kB -> \(after) kB after 10,000 refused upgrades")
    // Nothing ran, and no live slot is left taken.
    let metrics = try curl(daemon.baseURL + "/metrics", ["-H", "Authorization: Bearer sesame"]).body
    #expect(metrics.contains("\ndsa_run_live_sessions 0\n"), "\(metrics)")
    #expect(!metrics.contains("dsa_run_runs_total{"), "\(metrics)")
  }

  @Test func theLiveDoorwaysChargeTheQuotaOfTheirToken() throws {
    let daemon = try daemonConfigured(
      #"{"bearer_tokens": ["alpha", "beta"], "rate_limit": {"runs": 1, "window_s": 60}}"#)
    defer { daemon.cleanUp() }
    let seen = try doorwayClient(daemon, "quota")
    let v1 = seen["v1"] as? [[String: Any]] ?? []
    #expect(v1.first?["types"] as? [String] == ["stage", "stdout", "stage", "result"], "\(seen)")
    #expect(v1.last?["error"] as? String == "rate_limited", "\(seen)")
    #expect(v1.last?["close"] as? Int == 1008, "\(seen)")
    let piston = seen["piston"] as? [[String: Any]] ?? []
    #expect((piston.first?["types"] as? [String])?.last == "exit", "\(seen)")
    #expect((piston.last?["error"] as? String)?.contains("quota") == true, "\(seen)")
    #expect(piston.last?["close"] as? Int == 4002, "\(seen)")
    // An execute answered as events is charged as any execute: beta's run is spent.
    let streamed = try curl(
      daemon.baseURL + "/v1/execute",
      [
        "-H", "Authorization: Bearer alpha", "-H", "Content-Type: application/json", "-H",
        "Accept: text/event-stream", "--data", #"{"language": "python", "source": "print(1)"}"#,
      ])
    #expect(streamed.status == 429, "\(streamed.body)")
  }
}
