"""Drives a command on a real pseudo-terminal, as a learner at a terminal would.

Usage: pty-driver.py ACTIONS_JSON COMMAND [ARGS...]

ACTIONS_JSON is a list of ["expect", TEXT] (wait up to 60 s for TEXT in the output so far),
["send", TEXT] (type TEXT) and ["sleep", SECONDS] (type nothing for that long, reading the output
meanwhile). After the actions, waits up to 30 s for the command to exit and prints
one JSON object: {"pid", "status" (exit code, or 128 + signal), "output", "missing" (the first
expected text that never came, or null)}.
"""

import json
import os
import pty
import select
import sys
import time

actions = json.loads(sys.argv[1])
pid, master = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])

output = b""


def read_for(seconds, until=None):
    global output
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if until is not None and until in output:
            return True
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return until is None or until in output
            if not chunk:
                return until is None or until in output
            output += chunk
    return until is None or until in output


missing = None
for kind, text in actions:
    if kind == "expect":
        if not read_for(60, text.encode()):
            missing = text
            break
    elif kind == "send":
        os.write(master, text.encode())
    elif kind == "sleep":
        read_for(float(text))

status = None
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    done, wait_status = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(wait_status)
        status = 128 - status if status < 0 else status
        break
    read_for(0.05)
if status is None:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
read_for(0.2)
print(json.dumps({"pid": pid, "status": status, "output": output.decode("utf-8", "replace"), "missing": missing}))
