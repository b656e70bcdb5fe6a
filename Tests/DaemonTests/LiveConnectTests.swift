import Foundation
import Glibc
import Testing

// `GET /v1/connect` and SSE against a real dsa-rund, with real clients: Python's `websockets`
// (pinned in scripts/requirements-test.txt, in the venv scripts/test-venv makes) and curl.

let liveVenvPython: String = {
  let venv = ProcessInfo.processInfo.environment["DSA_RUN_WEBSOCKET_VENV"] ?? "/var/cache/dsa-run/venv-test"
  return venv + "/bin/python"
}()
let liveClientIsInstalled: Bool = {
  guard access(liveVenvPython, X_OK) == 0 else { return false }
  return (try? runProcess(liveVenvPython, ["-c", "import websockets.sync.client"]))?.status == 0
}()

/// The client side of each test, by mode in argv[2]; prints one JSON object with what it saw.
let liveClientScript = #"""
  import json, socket, sys, time, os
  from websockets.sync.client import connect
  from websockets.exceptions import ConnectionClosed
  port, mode = sys.argv[1], sys.argv[2]
  url = 'ws://127.0.0.1:' + port + '/v1/connect'
  arg = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}

  def events(ws, until, timeout=60):
      """Reads messages until `until(message)` is true; returns them all (and the close code)."""
      seen, deadline = [], time.time() + timeout
      while time.time() < deadline:
          try:
              message = json.loads(ws.recv(timeout=max(0.1, deadline - time.time())))
          except TimeoutError:
              break
          except ConnectionClosed:
              break
          seen.append(message)
          if until(message):
              break
      return seen

  def stdout_of(seen):
      return ''.join(m.get('data', '') for m in seen if m['type'] == 'stdout')

  def close_code(ws):
      try:
          while True: ws.recv(timeout=10)
      except ConnectionClosed as closed:
          return closed.rcvd.code if closed.rcvd else None
      except TimeoutError:
          return 'open'

  def start(ws, body, **extra):
      message = {'type': 'start', 'body': body}
      message.update(extra)
      ws.send(json.dumps(message))

  out = {}
  if mode == 'prompt':
      # The prompt must come before any input is sent; then the echo of what was typed.
      with connect(url, max_size=None) as ws:
          start(ws, {'language': arg['language'], 'source': arg['source']})
          before = events(ws, lambda m: 'name?' in stdout_of([m]) or m['type'] in ('result', 'error'), 120)
          out['prompt_before_input'] = 'name?' in stdout_of(before)
          ws.send(json.dumps({'type': 'stdin', 'data': 'Ada\n'}))
          echoed = events(ws, lambda m: 'hello, Ada' in stdout_of([m]) or m['type'] in ('result', 'error'))
          # As a learner would press ^D: node's readline, for one, keeps reading until end of input.
          # The other programs end after one line, so their result and close may already be here:
          # messages that arrived before the close are still read below.
          try:
              ws.send(json.dumps({'type': 'eof'}))
          except ConnectionClosed:
              pass
          after = echoed + events(ws, lambda m: m['type'] in ('result', 'error'))
          out['stdout'] = stdout_of(before + after)
          out['types'] = sorted(set(m['type'] for m in before + after))
          result = [m for m in after if m['type'] == 'result']
          out['status'] = result[0]['result']['run']['status'] if result and result[0]['result']['run'] else None
          out['result_stdout'] = result[0]['result']['run']['stdout'] if out['status'] else None
          out['close'] = close_code(ws)
  elif mode == 'kill':
      with connect(url) as ws:
          start(ws, {'language': 'python', 'source': "import time\nprint('started', flush=True)\ntime.sleep(60)\n",
                     'limits': {'wall_ms': 20000}})
          events(ws, lambda m: 'started' in stdout_of([m]))
          began = time.time()
          ws.send(json.dumps({'type': 'kill'}))
          seen = events(ws, lambda m: m['type'] == 'result')
          out['seconds'] = time.time() - began
          out['status'] = seen[-1]['result']['run']['status'] if seen and seen[-1]['type'] == 'result' else None
          out['close'] = close_code(ws)
  elif mode == 'disconnect':
      ws = connect(url)
      start(ws, {'language': 'python', 'source': "import sys, time\nprint('started', flush=True)\ntime.sleep(60)\n",
                 'args': [arg['marker']], 'limits': {'wall_ms': 20000}})
      out['started'] = 'started' in stdout_of(events(ws, lambda m: 'started' in stdout_of([m])))
      ws.socket.shutdown(socket.SHUT_RDWR)  # no close frame: the client just goes away
      ws.socket.close()
  elif mode == 'signal':
      # SIGINT reaches the program, which catches KeyboardInterrupt, prints and exits 3.
      with connect(url) as ws:
          start(ws, {'language': 'python', 'source': arg['source'], 'limits': {'wall_ms': 20000}})
          before = events(ws, lambda m: 'ready' in stdout_of([m]))
          ws.send(json.dumps({'type': 'signal', 'signal': 'SIGINT'}))
          seen = before + events(ws, lambda m: m['type'] == 'result')
          out['stdout'] = stdout_of(seen)
          run = seen[-1]['result']['run'] if seen and seen[-1]['type'] == 'result' else {}
          out['exit_code'], out['status'], out['signal'] = run.get('exit_code'), run.get('status'), run.get('signal')
          out['close'] = close_code(ws)
      # A name that is not a signal's is refused, and its program killed.
      with connect(url) as ws:
          start(ws, {'language': 'python', 'source': "print('ready', flush=True)\ninput()\n",
                     'limits': {'wall_ms': 20000}})
          events(ws, lambda m: 'ready' in stdout_of([m]))
          ws.send(json.dumps({'type': 'signal', 'signal': 'SIGNOPE'}))
          seen = events(ws, lambda m: m['type'] == 'error', 10)
          out['bad'] = {'error': seen[-1].get('error') if seen else None,
                        'message': seen[-1].get('message') if seen else None, 'close': close_code(ws)}
  elif mode == 'traceback':
      # At a terminal the program's stderr is its stdout: it names the learner's file too.
      with connect(url) as ws:
          start(ws, {'language': 'python',
                     'files': [{'name': 'exc.py', 'content': "def f():\n    raise ValueError('boom')\nf()\n"}]},
                tty=True)
          seen = events(ws, lambda m: m['type'] in ('result', 'error'))
          out['stdout'] = stdout_of(seen)
          result = [m for m in seen if m['type'] == 'result']
          out['result_stdout'] = result[0]['result']['run']['stdout'] if result and result[0]['result']['run'] else None
  elif mode == 'paste':
      with connect(url, max_size=None) as ws:
          start(ws, {'language': 'python', 'source': "import sys\nprint(len(sys.stdin.read()))\n"})
          ws.send(json.dumps({'type': 'stdin', 'data': ('x' * 1023 + '\n') * 1024}))
          ws.send(json.dumps({'type': 'eof'}))
          seen = events(ws, lambda m: m['type'] in ('result', 'error'))
          out['stdout'] = stdout_of(seen)
          out['close'] = close_code(ws)
  elif mode == 'flood':
      # A program that prints as fast as it can (up to 64 MiB), and a client that reads nothing for
      # 10 s: a raw socket with a small receive buffer, since the websockets client reads frames into
      # its own queue on a thread of its own. The daemon must hold the program back (stop reading
      # its pipe), not buffer: its RSS is sampled meanwhile.
      def rss(pid):
          for line in open('/proc/%d/status' % pid):
              if line.startswith('VmRSS:'): return int(line.split()[1])
      pid = arg['pid']
      s = socket.socket()
      s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
      s.settimeout(60)
      s.connect(('127.0.0.1', int(port)))
      s.sendall(b'GET /v1/connect HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n'
                b'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n')
      data = b''
      while b'\r\n\r\n' not in data: data += s.recv(4096)
      buffer = bytearray(data.split(b'\r\n\r\n', 1)[1])
      def send_text(text):
          payload, mask = text.encode(), os.urandom(4)
          length = len(payload)
          header = bytes([0x81, 0x80 | length]) if length < 126 else bytes([0x81, 0x80 | 126]) + length.to_bytes(2, 'big')
          s.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
      def next_message():
          global buffer
          def need(n):
              global buffer
              while len(buffer) < n:
                  chunk = s.recv(1 << 20)
                  if not chunk: raise EOFError
                  buffer += chunk
          need(2)
          length, offset = buffer[1] & 0x7f, 2
          if length == 126: need(4); length, offset = int.from_bytes(buffer[2:4], 'big'), 4
          elif length == 127: need(10); length, offset = int.from_bytes(buffer[2:10], 'big'), 10
          need(offset + length)
          opcode, payload = buffer[0] & 0x0f, bytes(buffer[offset:offset + length])
          del buffer[:offset + length]
          return opcode, payload
      send_text(json.dumps({'type': 'start', 'body': {'language': 'python',
          'source': "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n    sys.stdout.flush()\n",
          'limits': {'wall_ms': 20000, 'output_kb': 65536}}}))
      base, peak, deadline = rss(pid), 0, time.time() + 10
      while time.time() < deadline:
          peak = max(peak, rss(pid))
          time.sleep(0.05)
      send_text(json.dumps({'type': 'kill'}))
      out['received'] = 0
      try:
          while True:
              opcode, payload = next_message()
              if opcode != 1:
                  out['ended'] = 'opcode %d %r' % (opcode, payload[:80])
                  break
              message = json.loads(payload)
              if message['type'] == 'stdout': out['received'] += len(message['data'])
              if message['type'] == 'error': out['error'] = message  # a refused start, say
              if message['type'] == 'result':
                  out['status'] = message['result']['run']['status']
                  # What the daemon read of the program's output (the result captures all it read).
                  out['read'] = len(message['result']['run']['stdout'])
                  break
      except (EOFError, socket.timeout) as error:
          out['ended'] = repr(error)
      out['rss_growth_kb'] = peak - base
  elif mode == 'malformed':
      # An unmasked client frame breaks RFC 6455 §5.1: close 1002.
      s = socket.create_connection(('127.0.0.1', int(port)), timeout=10)
      s.sendall(b'GET /v1/connect HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n'
                b'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n')
      data = b''
      while b'\r\n\r\n' not in data: data += s.recv(4096)
      out['handshake'] = data.split(b'\r\n')[0].decode()
      data = data.split(b'\r\n\r\n', 1)[1]
      s.sendall(b'\x81\x02hi')
      while len(data) < 4:
          chunk = s.recv(4096)
          if not chunk: break
          data += chunk
      out['opcode'] = data[0] & 0x0f if data else None
      out['close'] = int.from_bytes(data[2:4], 'big') if len(data) >= 4 else None
  elif mode == 'oversized':
      with connect(url, max_size=None) as ws:
          ws.send(json.dumps({'type': 'stdin', 'data': 'x' * (3 << 20)}))
          out['close'] = close_code(ws)
  elif mode == 'bad-handshake':
      s = socket.create_connection(('127.0.0.1', int(port)), timeout=10)
      s.sendall(b'GET /v1/connect HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n'
                b'Sec-WebSocket-Version: 13\r\n\r\n')
      out['status_line'] = s.recv(4096).decode().split('\r\n')[0]
  elif mode == 'refusals':
      # Each a fresh session: the error message in plain words, then the close code.
      cases = {
          'unknown_field': {'type': 'start', 'body': {'language': 'python', 'source': '', 'limts': {}}},
          'stdin_first': {'type': 'stdin', 'data': 'x'},
          'unknown_type': {'type': 'launch'},
          'unknown_language': {'type': 'start', 'body': {'language': 'cobol', 'source': ''}},
          'not_json': None,
      }
      for name, message in cases.items():
          with connect(url) as ws:
              ws.send('{nope' if message is None else json.dumps(message))
              seen = events(ws, lambda m: m['type'] == 'error', 10)
              out[name] = {'error': seen[-1].get('error') if seen else None,
                           'message': seen[-1].get('message') if seen else None, 'close': close_code(ws)}
  elif mode == 'token':
      body = {'language': 'python', 'source': "print('in')\n"}
      for name, extra, headers in [('none', {}, None), ('wrong', {'token': 'nope'}, None),
                                   ('right', {'token': arg['token']}, None),
                                   ('header', {}, {'Authorization': 'Bearer ' + arg['token']}),
                                   ('bad_header', {}, {'Authorization': 'Bearer nope'})]:
          with connect(url, additional_headers=headers) as ws:
              try:
                  start(ws, body, **extra)
                  ws.send(json.dumps({'type': 'eof'}))
              except ConnectionClosed:
                  pass  # a refused header is answered at once, maybe before the start goes out
              seen = events(ws, lambda m: m['type'] in ('result', 'error'), 60)
              out[name] = {'last': seen[-1]['type'] if seen else None,
                           'error': seen[-1].get('error') if seen else None, 'close': close_code(ws)}
  elif mode == 'idle':
      with connect(url) as ws:
          start(ws, {'language': 'python', 'source': "input()\n", 'limits': {'wall_ms': 20000}})
          seen = events(ws, lambda m: m['type'] in ('error', 'result'), 30)
          out['last'] = seen[-1] if seen else None
          out['close'] = close_code(ws)
  elif mode == 'silent':
      with connect(url) as ws:
          seen = events(ws, lambda m: m['type'] in ('error', 'result'), 30)
          out['last'] = seen[-1] if seen else None
          out['close'] = close_code(ws)
  elif mode == 'sse':
      # Each event with the seconds since the request when it arrived.
      import http.client
      connection = http.client.HTTPConnection('127.0.0.1', int(port), timeout=120)
      began = time.time()
      connection.request('POST', arg['path'], json.dumps(arg['body']),
                         {'Content-Type': 'application/json', 'Accept': 'text/event-stream'})
      response = connection.getresponse()
      out['status'] = response.status
      out['content_type'] = response.getheader('Content-Type')
      out['events'], name = [], None
      for raw in response:
          line = raw.decode().rstrip('\n')
          if line.startswith('event: '): name = line[7:]
          elif line.startswith('data: '):
              out['events'].append({'event': name, 'data': json.loads(line[6:]), 'at': time.time() - began})
          if out['events'] and out['events'][-1]['event'] in ('result', 'error'): break
      if out['status'] != 200: out['body'] = response.read().decode()
  print(json.dumps(out))
  """#

/// `dsa-run --remote` under a real pseudo-terminal (Python's `pty`): what it printed, its exit code.
let cliTerminalScript = #"""
  import os, pty, sys, time, select, json
  cli, url, mode, program, data = sys.argv[1:6]
  pid, fd = pty.fork()
  if pid == 0:
      os.environ['DSA_RUN_DATA'] = data
      os.execv(cli, [cli, '--lang', 'python', program, '--remote', url] + sys.argv[6:])
  def read_until(marker, timeout=60):
      data, deadline = b'', time.time() + timeout
      while marker not in data and time.time() < deadline:
          r, _, _ = select.select([fd], [], [], 0.2)
          if r:
              try: chunk = os.read(fd, 4096)
              except OSError: break
              if not chunk: break
              data += chunk
      return data
  out = {}
  if mode == 'prompt':
      out['prompt'] = read_until(b'name? ').decode(errors='replace')
      os.write(fd, b'Ada\r')
      out['after'] = read_until(b'hello, Ada').decode(errors='replace')
  elif mode == 'interrupt':
      out['before'] = read_until(b'sleeping').decode(errors='replace')
      began = time.time()
      os.write(fd, b'\x03')
      read_until(b'\x00', 20)
      out['seconds'] = time.time() - began
  _, status = os.waitpid(pid, 0)
  out['exit'] = os.waitstatus_to_exitcode(status)
  print(json.dumps(out))
  """#

/// A headless Chromium opening `/v1/connect` from a small page, driven over the DevTools protocol
/// (with the venv's websockets): the page's transcript as JSON.
let browserDriverScript = #"""
  import functools, http.server, json, os, subprocess, sys, tempfile, threading, time, urllib.request
  from websockets.sync.client import connect
  port, token = sys.argv[1], sys.argv[2]
  # The page comes from an origin the daemon's cors_origins allows (argv[3]'s port), or from a
  # file (Origin "null", another site's page to the daemon) when none is given.
  page_port = int(sys.argv[3]) if len(sys.argv) > 3 else None
  page = tempfile.mkdtemp()
  os.chmod(page, 0o755)
  with open(page + '/live.html', 'w') as f:
      f.write("""<!doctype html><title>live</title><script>
  function runLive(port, token) {
    return new Promise((resolve) => {
      const ws = new WebSocket('ws://127.0.0.1:' + port + '/v1/connect');
      const types = []; let stdout = '', sent = false, prompt = false, result = null;
      ws.onopen = () => ws.send(JSON.stringify({type: 'start', token: token, body: {language: 'python',
        source: "name = input('name? ')\\nprint('hello, ' + name)\\n"}}));
      ws.onmessage = (event) => {
        const message = JSON.parse(event.data); types.push(message.type);
        if (message.type === 'stdout') {
          stdout += message.data;
          if (!sent && stdout.includes('name?')) { prompt = true; sent = true;
            ws.send(JSON.stringify({type: 'stdin', data: 'Ada\\n'})); ws.send(JSON.stringify({type: 'eof'})); }
        }
        if (message.type === 'result') result = message.result;
      };
      ws.onclose = (event) => resolve(JSON.stringify({prompt, stdout, types, close: event.code,
        status: result && result.run ? result.run.status : null}));
    });
  }
  </script>""")
  profile = tempfile.mkdtemp()
  address = 'file://' + page + '/live.html'
  if page_port:
      handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=page)
      handler.log_message = lambda *args: None
      server = http.server.ThreadingHTTPServer(('127.0.0.1', page_port), handler)
      threading.Thread(target=server.serve_forever, daemon=True).start()
      address = 'http://127.0.0.1:%d/live.html' % page_port
  browser = subprocess.Popen(['/usr/bin/chromium', '--headless=new', '--no-sandbox', '--disable-gpu',
                              '--remote-debugging-port=0', '--user-data-dir=' + profile, address],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
  try:
      deadline = time.time() + 60
      while not os.path.exists(profile + '/DevToolsActivePort') and time.time() < deadline: time.sleep(0.1)
      time.sleep(0.5)
      devtools = open(profile + '/DevToolsActivePort').read().split()[0]
      target = None
      while target is None and time.time() < deadline:
          pages = json.load(urllib.request.urlopen('http://127.0.0.1:%s/json' % devtools))
          target = next((p for p in pages if p.get('url', '').endswith('live.html')), None)
          time.sleep(0.2)
      with connect(target['webSocketDebuggerUrl'], max_size=None) as cdp:
          def evaluate(number, expression, awaiting):
              cdp.send(json.dumps({'id': number, 'method': 'Runtime.evaluate', 'params': {
                  'expression': expression, 'awaitPromise': awaiting, 'returnByValue': True}}))
              while True:
                  answer = json.loads(cdp.recv(timeout=90))
                  if answer.get('id') == number: return answer['result']['result'].get('value')
          # The target is listed before its page has run its script.
          while evaluate(2, 'typeof runLive', False) != 'function' and time.time() < deadline: time.sleep(0.2)
          cdp.send(json.dumps({'id': 1, 'method': 'Runtime.evaluate', 'params': {
              'expression': 'runLive(%s, %s)' % (port, json.dumps(token)), 'awaitPromise': True,
              'returnByValue': True}}))
          while True:
              answer = json.loads(cdp.recv(timeout=90))
              if answer.get('id') == 1: break
      print(answer['result']['result']['value'])
  finally:
      browser.kill()
      browser.wait()
  """#

/// Runs the client in `mode` against `daemon`; its JSON answer.
func liveClient(_ daemon: DaemonProcess, _ mode: String, _ argument: [String: Any] = [:]) throws -> [String: Any] {
  let argumentText = String(decoding: try JSONSerialization.data(withJSONObject: argument), as: UTF8.self)
  let result = try runProcess(
    liveVenvPython, ["-c", liveClientScript, String(daemon.port), mode, argumentText], timeout: .seconds(240))
  #expect(result.status == 0, "\(result.stderr)")
  let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
  return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
}

/// A metric's value from `/metrics`.
func metric(_ daemon: DaemonProcess, _ name: String) throws -> Double? {
  let text = try curl(daemon.baseURL + "/metrics").body
  for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
    return Double(line.dropFirst(name.count + 1))
  }
  return nil
}

/// A prompt-then-echo program in each language, each with its idiomatic input API.
let promptPrograms: [(language: String, source: String)] = [
  ("python", "name = input('name? ')\nprint('hello, ' + name)\n"),
  (
    "javascript",
    """
    const readline = require('readline');
    const rl = readline.createInterface({ input: process.stdin });
    console.log('name?');
    rl.on('line', (line) => { console.log('hello, ' + line); rl.close(); });

    """
  ),
  (
    "java",
    """
    import java.util.Scanner;
    public class Main {
      public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.println("name?");
        String name = in.nextLine();
        System.out.println("hello, " + name);
      }
    }

    """
  ),
  (
    "cpp",
    """
    #include <iostream>
    #include <string>
    int main() {
      std::cout << "name? ";
      std::string name;
      std::getline(std::cin, name);
      std::cout << "hello, " << name << std::endl;
    }

    """
  ),
  ("kotlin", "fun main() {\n  println(\"name?\")\n  val name = readLine()\n  println(\"hello, $name\")\n}\n"),
  (
    "go",
    """
    package main

    import (
    \t"bufio"
    \t"fmt"
    \t"os"
    )

    func main() {
    \tfmt.Println("name?")
    \tscanner := bufio.NewScanner(os.Stdin)
    \tscanner.Scan()
    \tfmt.Println("hello, " + scanner.Text())
    }

    """
  ),
  (
    "dart",
    "import 'dart:io';\n\nvoid main() {\n  print('name?');\n  final name = stdin.readLineSync();\n  print('hello, $name');\n}\n"
  ),
]

@Suite(
  .serialized, .timeLimit(.minutes(10)),
  .enabled(if: liveClientIsInstalled, "no websockets venv at \(liveVenvPython); run scripts/test-venv"))
struct LiveConnectTests {
  @Test func promptArrivesBeforeInputAndTheEchoFollowsInEveryLanguage() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    for (language, source) in promptPrograms {
      let seen = try liveClient(daemon, "prompt", ["language": language, "source": source])
      #expect(seen["prompt_before_input"] as? Bool == true, "\(language): \(seen)")
      #expect((seen["stdout"] as? String)?.contains("hello, Ada") == true, "\(language): \(seen)")
      #expect(seen["status"] as? String == "ok", "\(language): \(seen)")
      // The result is the execute answer: the whole output captured as it would be without a live run.
      #expect(seen["result_stdout"] as? String == seen["stdout"] as? String, "\(language): \(seen)")
      #expect((seen["types"] as? [String]).map { Set($0).isSuperset(of: ["stage", "stdout", "result"]) } == true)
      #expect(seen["close"] as? Int == 1000, "\(language): \(seen)")
    }
  }

  @Test func aTracebackAtATerminalNamesTheLearnersFile() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let seen = try liveClient(daemon, "traceback")
    for key in ["stdout", "result_stdout"] {
      let text = seen[key] as? String ?? ""
      #expect(text.contains("File \"exc.py\", line 3"), "\(key): \(seen)")
      #expect(!text.contains("/box/"), "\(key): \(seen)")
    }
  }

  @Test func killStopsTheProgramAndTheResultFollows() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let seen = try liveClient(daemon, "kill")
    #expect(seen["status"] as? String != nil && seen["status"] as? String != "ok", "\(seen)")
    // The program sleeps 60 s and the wall limit is 20 s: only the kill ends it this soon.
    #expect((seen["seconds"] as? Double ?? 99) < 15, "\(seen)")
    #expect(seen["close"] as? Int == 1000, "\(seen)")
  }

  @Test func aClientThatGoesAwayTakesItsProgramAndFreesItsSlot() throws {
    let daemon = try DaemonProcess(arguments: [])
    defer { daemon.cleanUp() }
    let marker = "live-disconnect-\(UUID().uuidString)"
    let seen = try liveClient(daemon, "disconnect", ["marker": marker])
    #expect(seen["started"] as? Bool == true, "\(seen)")
    #expect(
      waitUntil(timeout: .seconds(10)) { processes(containing: marker).isEmpty }, "the program outlived its client")
    #expect(waitUntil(timeout: .seconds(10)) { (try? metric(daemon, "dsa_run_live_sessions")) == 0 })
    // And the next session runs.
    let next = try liveClient(daemon, "paste")
    #expect(next["stdout"] as? String == "1048576\n", "\(next)")
  }

  @Test func aSignalReachesTheProgramAndABadNameIsRefused() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let source = """
      import sys, time
      try:
          print('ready', flush=True)
          time.sleep(30)
      except KeyboardInterrupt:
          print('caught', flush=True)
          sys.exit(3)

      """
    let seen = try liveClient(daemon, "signal", ["source": source])
    #expect(seen["stdout"] as? String == "ready\ncaught\n", "\(seen)")
    #expect(seen["exit_code"] as? Int == 3 && seen["status"] as? String == "runtime_error", "\(seen)")
    #expect(seen["close"] as? Int == 1000, "\(seen)")
    let bad = seen["bad"] as? [String: Any] ?? [:]
    #expect(bad["error"] as? String == "bad_request", "\(seen)")
    #expect((bad["message"] as? String)?.contains("SIGNOPE") == true, "\(seen)")
    #expect(bad["close"] as? Int == 1008, "\(seen)")
  }

  @Test func aMebibytePastedIntoStdinArrivesWhole() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let seen = try liveClient(daemon, "paste")
    #expect(seen["stdout"] as? String == "1048576\n", "\(seen)")
    #expect(seen["close"] as? Int == 1000, "\(seen)")
  }

  @Test func aSlowReaderHoldsTheProgramBackInsteadOfGrowingTheDaemon() throws {
    // 64 MiB of output allowed (the most the sandbox allows), and a client that reads nothing for 10 s.
    // No pre-warmed boxes: compiling their launchers and starting their JVMs grows the daemon too,
    // by a few MiB, at a moment that has nothing to do with the session.
    let directory = try makeTemporaryDirectory()
    try Data(#"{"limits": {"output_kb": 65536}, "prewarm": {}}"#.utf8).write(
      to: URL(fileURLWithPath: directory + "/live.json"))
    let daemon = try DaemonProcess(arguments: ["--config", directory + "/live.json"], directory: directory)
    defer { daemon.cleanUp() }
    let seen = try liveClient(daemon, "flood", ["pid": Int(daemon.process.processIdentifier)])
    // The kill ended it, and the result says what the daemon read of the program's pipe.
    #expect(seen["status"] as? String == "runtime_error", "\(seen)")
    // Held back, the daemon read only what fits between the program and the client: the session's
    // queue (1 MiB), our socket's send buffer (at most tcp_wmem's maximum, 4 MiB by default), the
    // client's receive buffer (128 KiB) and a chunk or two; seen: 3.9 MiB read, RSS 13 MiB up.
    // With the session's queue unbounded (backpressure off) the daemon read all 64 MiB (the run
    // ended at its output limit) and its RSS grew 262 MiB; on a busy machine a debug daemon, whose
    // JSON encoding is the slow part, read 10 MiB in 6 s and grew 31 MiB, growing on with time: the
    // read bound tells that apart. The RSS bound leaves room for what a loaded full suite adds around
    // a held-back session (its allocator's arenas and threads): 28 MiB up with 4.8 MiB read, once.
    let tcpWmem = try String(contentsOfFile: "/proc/sys/net/ipv4/tcp_wmem", encoding: .utf8)
    let sendBuffer = try #require(tcpWmem.split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) })
    let read = seen["read"] as? Int ?? Int.max
    #expect(read < sendBuffer + (2 << 20), "the daemon read \(read) bytes of the flood: \(seen)")
    #expect((seen["received"] as? Int ?? -1) == read, "what was read is what the client got: \(seen)")
    #expect((seen["rss_growth_kb"] as? Int ?? Int.max) < 48 * 1024, "\(seen)")
  }

  @Test func badFramesMessagesAndHandshakesAreRefused() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let malformed = try liveClient(daemon, "malformed")
    #expect(malformed["handshake"] as? String == "HTTP/1.1 101 Switching Protocols", "\(malformed)")
    #expect(malformed["opcode"] as? Int == 8 && malformed["close"] as? Int == 1002, "\(malformed)")
    #expect(try liveClient(daemon, "oversized")["close"] as? Int == 1009)
    #expect(try liveClient(daemon, "bad-handshake")["status_line"] as? String == "HTTP/1.1 400 Bad Request")

    let refusals = try liveClient(daemon, "refusals")
    func refusal(_ name: String) -> [String: Any] { refusals[name] as? [String: Any] ?? [:] }
    #expect(refusal("unknown_field")["error"] as? String == "unknown_field", "\(refusals)")
    #expect((refusal("unknown_field")["message"] as? String)?.contains("body.limts") == true, "\(refusals)")
    #expect(refusal("stdin_first")["error"] as? String == "bad_request", "\(refusals)")
    #expect(refusal("unknown_type")["error"] as? String == "bad_request", "\(refusals)")
    #expect(refusal("unknown_language")["error"] as? String == "unknown_language", "\(refusals)")
    #expect(refusal("not_json")["error"] as? String == "bad_request", "\(refusals)")
    for name in ["unknown_field", "stdin_first", "unknown_type", "unknown_language", "not_json"] {
      #expect(refusal(name)["close"] as? Int == 1008, "\(name): \(refusals)")
    }
  }

  @Test func aTokenComesInTheHeaderOrTheStartMessage() throws {
    let directory = try makeTemporaryDirectory()
    try Data(#"{"bearer_tokens": ["sesame"]}"#.utf8).write(to: URL(fileURLWithPath: directory + "/live.json"))
    let daemon = try DaemonProcess(arguments: ["--config", directory + "/live.json"], directory: directory)
    defer { daemon.cleanUp() }
    let seen = try liveClient(daemon, "token", ["token": "sesame"])
    func outcome(_ name: String) -> [String: Any] { seen[name] as? [String: Any] ?? [:] }
    for name in ["none", "wrong", "bad_header"] {
      #expect(outcome(name)["error"] as? String == "unauthorized", "\(name): \(seen)")
      #expect(outcome(name)["close"] as? Int == 1008, "\(name): \(seen)")
    }
    for name in ["right", "header"] {
      #expect(outcome(name)["last"] as? String == "result", "\(name): \(seen)")
      #expect(outcome(name)["close"] as? Int == 1000, "\(name): \(seen)")
    }
  }

  @Test func anIdleSessionIsToldAndClosed() throws {
    let directory = try makeTemporaryDirectory()
    try Data(#"{"live_idle_s": 1}"#.utf8).write(to: URL(fileURLWithPath: directory + "/live.json"))
    let daemon = try DaemonProcess(arguments: ["--config", directory + "/live.json"], directory: directory)
    defer { daemon.cleanUp() }
    // A program that waits for input nobody sends is stopped as idle, and its result says so.
    let seen = try liveClient(daemon, "idle")
    let last = seen["last"] as? [String: Any] ?? [:]
    let run = (last["result"] as? [String: Any])?["run"] as? [String: Any] ?? [:]
    #expect(last["type"] as? String == "result" && run["status"] as? String == "time_limit", "\(seen)")
    #expect((run["message"] as? String)?.contains("idle") == true, "\(seen)")
    #expect(seen["close"] as? Int == 1000, "\(seen)")
    // A session that never starts is told so and closed.
    let silent = try liveClient(daemon, "silent")
    let told = silent["last"] as? [String: Any] ?? [:]
    #expect(told["type"] as? String == "error" && told["error"] as? String == "idle", "\(silent)")
    #expect(silent["close"] as? Int == 1001, "\(silent)")
  }

  @Test func gradeEventsStreamInOrderBeforeTheGradeEnds() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let tests: [[String: Any]] = (0..<3).map { ["name": "t\($0)", "stdin": "\($0)\n", "expected_stdout": "\($0)\n"] }
    let challenge: [String: Any] = [
      "title": "Echo", "statement": "Echo.", "checker": ["name": "tokens"], "tests": tests,
    ]
    // Each test sleeps 1 s, so the grade is still running for 2 s after the first verdict.
    let source = "import time\ntime.sleep(1)\nprint(input())\n"
    let seen = try liveClient(
      daemon, "sse", ["path": "/v1/grade", "body": ["language": "python", "source": source, "challenge": challenge]])
    #expect(seen["status"] as? Int == 200, "\(seen)")
    #expect(seen["content_type"] as? String == "text/event-stream", "\(seen)")
    let events = seen["events"] as? [[String: Any]] ?? []
    let names = events.compactMap { $0["event"] as? String }
    #expect(names == ["test", "test", "test", "result"], "\(names)")
    let indexes = events.filter { $0["event"] as? String == "test" }.compactMap {
      ($0["data"] as? [String: Any])?["index"] as? Int
    }
    #expect(indexes == [0, 1, 2])
    let verdicts = events.compactMap { ($0["data"] as? [String: Any])?["verdict"] as? String }
    #expect(verdicts == ["accepted", "accepted", "accepted", "accepted"], "\(events)")
    // Streamed as each verdict is known, not all at the end: two 1 s tests still ran after the first.
    let first = events.first?["at"] as? Double ?? 0
    let last = events.last?["at"] as? Double ?? 0
    #expect(last - first >= 1.0, "\(events)")
  }

  @Test func executeEventsStreamStagesOutputStepsThenTheResult() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let source = "#include <cstdio>\nint main() { std::puts(\"one\"); std::puts(\"@step {\\\"i\\\":1}\"); }\n"
    let seen = try liveClient(
      daemon, "sse", ["path": "/v1/execute", "body": ["language": "cpp", "source": source, "stdin": "x\n"]])
    #expect(seen["status"] as? Int == 200, "\(seen)")
    let events = seen["events"] as? [[String: Any]] ?? []
    let names = events.compactMap { $0["event"] as? String }
    #expect(names.last == "result", "\(names)")
    #expect(names.contains("stdout") && names.contains("stage"), "\(names)")
    let result = events.last?["data"] as? [String: Any] ?? [:]
    #expect((result["run"] as? [String: Any])?["status"] as? String == "ok", "\(result)")
    #expect(Set(result.keys) == ["language", "version", "compile", "compile_cache", "run", "steps", "steps_message"])
    let stdout = events.filter { $0["event"] as? String == "stdout" }.compactMap {
      ($0["data"] as? [String: Any])?["data"] as? String
    }.joined()
    #expect(stdout == (result["run"] as? [String: Any])?["stdout"] as? String)
    // A step event is {"step": the step}, as docs/api.md shows it, the step as the result lists it.
    let stepEvents = events.filter { $0["event"] as? String == "step" }.compactMap { $0["data"] as? [String: Any] }
    #expect(stepEvents.map { Set($0.keys) } == [["step"]], "\(stepEvents)")
    let resultSteps = result["steps"] as? [[String: Any]] ?? []
    #expect(
      stepEvents.compactMap { $0["step"] as? [String: Any] }.map { $0 as NSDictionary }
        == resultSteps.map { $0 as NSDictionary }, "\(stepEvents) against \(resultSteps)")

    let refused = try liveClient(
      daemon, "sse", ["path": "/v1/execute", "body": ["language": "cobol", "source": ""]])
    #expect(refused["status"] as? Int == 400, "\(refused)")
  }

  @Test func theCLIAtATerminalGoesLiveAndCtrlCLeavesNothingBehind() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let prompt = daemon.directory + "/prompt.py"
    try "print('first', flush=True)\nname = input('name? ')\nprint('hello, ' + name)\n".write(
      toFile: prompt, atomically: true, encoding: .utf8)
    func terminal(_ mode: String, _ program: String, _ extra: [String] = []) throws -> [String: Any] {
      let finished = try runProcess(
        "/usr/bin/python3",
        ["-c", cliTerminalScript, cliBinary, daemon.baseURL, mode, program, repositoryRoot] + extra,
        timeout: .seconds(120))
      #expect(finished.status == 0, "\(finished.stderr)")
      let line = finished.stdout.split(separator: "\n").last.map(String.init) ?? ""
      return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }
    // The prompt shows before anything is typed (a POST would wait for all of stdin), then the echo.
    let seen = try terminal("prompt", prompt)
    // (Line ends as the box's terminal writes them.)
    let shownPrompt = (seen["prompt"] as? String ?? "").replacingOccurrences(of: "\r", with: "")
    #expect(shownPrompt == "first\nname? ", "\(seen)")
    #expect((seen["after"] as? String)?.contains("hello, Ada") == true, "\(seen)")
    #expect(seen["exit"] as? Int == 0, "\(seen)")

    let sleeper = daemon.directory + "/sleep.py"
    try "import time\nprint('sleeping', flush=True)\ntime.sleep(60)\n".write(
      toFile: sleeper, atomically: true, encoding: .utf8)
    let marker = "cli-interrupt-\(UUID().uuidString)"
    let interrupted = try terminal("interrupt", sleeper, ["--", marker])
    #expect(interrupted["exit"] as? Int == 130, "\(interrupted)")
    #expect(waitUntil(timeout: .seconds(10)) { processes(containing: marker).isEmpty }, "the program outlived ^C")
    #expect(waitUntil(timeout: .seconds(10)) { (try? metric(daemon, "dsa_run_live_sessions")) == 0 })
  }

  @Test func theCLIStreamsPipedStdinAsItArrives() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let program = daemon.directory + "/p.py"
    try
      "import time\nstart = time.time()\nprint('first', flush=True)\nsent = float(input())\nprint(int(sent - start >= 1))\n"
      .write(toFile: program, atomically: true, encoding: .utf8)
    // The shell sends the time 2 s in; the program says whether it was already running a second
    // before that. Had the CLI read all of stdin first (as it did), the program would start after.
    let pipeline =
      "(sleep 2; date +%s.%N) | DSA_RUN_DATA='\(repositoryRoot)' '\(cliBinary)' --lang python '\(program)' "
      + "--wall-limit 10 --remote \(daemon.baseURL)"
    let finished = try runProcess("/bin/sh", ["-c", pipeline], timeout: .seconds(60))
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(finished.stdout == "first\n1\n", "\(finished.stdout) \(finished.stderr)")
  }

  @Test(.enabled(if: access("/usr/bin/chromium", X_OK) == 0, "no /usr/bin/chromium; scripts/install-deps installs it"))
  func aBrowserTypesIntoTheProgramWithItsTokenInTheStartMessage() throws {
    // The page is another site's, which the operator allowed (cors_origins).
    let pagePort = try freeLoopbackPort()
    let directory = try makeTemporaryDirectory()
    try Data(#"{"bearer_tokens": ["sesame"], "cors_origins": ["http://127.0.0.1:\#(pagePort)"]}"#.utf8).write(
      to: URL(fileURLWithPath: directory + "/live.json"))
    let daemon = try DaemonProcess(arguments: ["--config", directory + "/live.json"], directory: directory)
    defer { daemon.cleanUp() }
    func browse(_ arguments: [String]) throws -> [String: Any] {
      let finished = try runProcess(
        liveVenvPython, ["-c", browserDriverScript, String(daemon.port), "sesame"] + arguments, timeout: .seconds(180))
      #expect(finished.status == 0, "\(finished.stderr)")
      let line = finished.stdout.split(separator: "\n").last.map(String.init) ?? ""
      return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }
    let seen = try browse([String(pagePort)])
    #expect(seen["prompt"] as? Bool == true, "\(seen)")
    #expect(seen["stdout"] as? String == "name? hello, Ada\n", "\(seen)")
    #expect(seen["status"] as? String == "ok", "\(seen)")
    #expect((seen["types"] as? [String])?.last == "result", "\(seen)")
    #expect(seen["close"] as? Int == 1000, "\(seen)")
    // A page the operator did not allow (here a file's, Origin "null") cannot open a session: the
    // handshake is refused, so the browser sees it fail.
    let foreign = try browse([])
    #expect(foreign["types"] as? [String] == [], "\(foreign)")
    #expect(foreign["close"] as? Int == 1006, "\(foreign)")
  }
}
