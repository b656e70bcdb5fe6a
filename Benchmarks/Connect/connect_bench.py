"""The live-run benchmark's client (Benchmarks/run-connect-bench): keystroke round trips and idle cost
over GET /v1/connect, with Python's websockets (the test venv's pin)."""
import contextlib, json, sys, time
from websockets.sync.client import connect

port, daemon_pid = sys.argv[1], int(sys.argv[2])
lines = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
sessions = int(sys.argv[4]) if len(sys.argv) > 4 else 100
url = 'ws://127.0.0.1:%s/v1/connect' % port

ECHO = {
    'python': "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n",
    'cpp': "#include <iostream>\n#include <string>\nint main() {\n  std::string line;\n"
           "  while (std::getline(std::cin, line)) std::cout << line << std::endl;\n}\n",
}

def rss_kb(pid):
    for line in open('/proc/%d/status' % pid):
        if line.startswith('VmRSS:'):
            return int(line.split()[1])

def nearest_rank(sorted_values, fraction):
    return sorted_values[max(0, min(len(sorted_values) - 1, int(-(-fraction * len(sorted_values) // 1)) - 1))]

def wait_for(ws, predicate):
    while True:
        message = json.loads(ws.recv(timeout=60))
        if predicate(message):
            return message

def round_trips(language):
    with connect(url, max_size=None) as ws:
        ws.send(json.dumps({'type': 'start', 'body': {'language': language, 'source': ECHO[language],
                                                      'limits': {'wall_ms': 120000}}}))
        wait_for(ws, lambda m: m['type'] == 'stage' and m['stage'] == 'run' and m['state'] == 'started')
        times = []
        for index in range(lines + 20):
            text = 'line %d\n' % index
            began = time.perf_counter()
            ws.send(json.dumps({'type': 'stdin', 'data': text}))
            got = ''
            while got != text:
                message = wait_for(ws, lambda m: m['type'] in ('stdout', 'result', 'error'))
                if message['type'] != 'stdout':
                    raise SystemExit('the echo ended early: %s' % message)
                got += message['data']
            if index >= 20:  # the first lines warm the runtime up
                times.append((time.perf_counter() - began) * 1000)
        ws.send(json.dumps({'type': 'eof'}))
        wait_for(ws, lambda m: m['type'] == 'result')
    times.sort()
    return nearest_rank(times, 0.5), nearest_rank(times, 0.99), times[-1]

for language in ('python', 'cpp'):
    p50, p99, worst = round_trips(language)
    print('round trip %-6s %d lines: p50 %.3f ms  p99 %.3f ms  max %.3f ms' % (language, lines, p50, p99, worst))
print('load average while measured: %s' % open('/proc/loadavg').read().split()[0])

# Idle cost: the daemon's RSS before and with `sessions` sessions open, each a C++ program waiting in
# getline (its box is not the daemon's memory).
before = rss_kb(daemon_pid)
stack = contextlib.ExitStack()
open_sessions = []
for index in range(sessions):
    ws = stack.enter_context(connect(url, max_size=None))
    ws.send(json.dumps({'type': 'start', 'body': {'language': 'cpp', 'source': ECHO['cpp'],
                                                  'limits': {'wall_ms': 120000}}}))
    wait_for(ws, lambda m: m['type'] == 'stage' and m['stage'] == 'run' and m['state'] == 'started')
    open_sessions.append(ws)
time.sleep(2)
with_sessions = rss_kb(daemon_pid)
stack.close()
print('idle cost: daemon RSS %d KiB before, %d KiB with %d open sessions: %.1f KiB per session'
      % (before, with_sessions, sessions, (with_sessions - before) / sessions))
