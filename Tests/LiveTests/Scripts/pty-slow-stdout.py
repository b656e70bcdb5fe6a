"""Runs a command with its stdin (and stderr) a real pseudo-terminal, as a learner's, and its stdout
a pipe that is not read at first: `dsa-run ... | less` before the pager reads.

Usage: pty-slow-stdout.py DELAY_SECONDS COMMAND [ARGS...]

Reads the pty all along, the pipe only after DELAY_SECONDS, then both to the end; waits up to 60 s
for the command to exit and prints one JSON object: {"pid", "status" (exit code, or 128 + signal),
"terminal" (what the pty showed), "stdout_bytes" (how much came through the pipe)}.
"""

import json
import os
import pty
import select
import sys
import time

delay = float(sys.argv[1])
read_end, write_end = os.pipe()
pid, master = pty.fork()
if pid == 0:
    os.dup2(write_end, 1)
    os.close(read_end)
    os.close(write_end)
    os.execv(sys.argv[2], sys.argv[2:])
os.close(write_end)

terminal = b""
stdout_bytes = 0
started = time.monotonic()
open_ends = {master, read_end}
status = None
deadline = started + 60
while time.monotonic() < deadline:
    watched = [fd for fd in open_ends if fd != read_end or time.monotonic() - started >= delay]
    ready, _, _ = select.select(watched, [], [], 0.05)
    for fd in ready:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            open_ends.discard(fd)
        elif fd == master:
            terminal += chunk
        else:
            stdout_bytes += len(chunk)
    if status is None:
        done, wait_status = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(wait_status)
            status = 128 - status if status < 0 else status
    if status is not None and read_end not in open_ends:
        break
if status is None:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
print(json.dumps({"pid": pid, "status": status, "terminal": terminal.decode("utf-8", "replace"),
                  "stdout_bytes": stdout_bytes}))
