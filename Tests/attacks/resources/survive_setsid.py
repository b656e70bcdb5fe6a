# attack: outlive the box from Python: double fork with setsid, a detached sleeper with its own name, signals ignored
# expect: status in [ok]; stdout contains "alive in box"
# survivors: atksv-py
import os
import signal
import subprocess
import time

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        os.execv("/bin/sh", ["/bin/sh", "-c", "trap '' TERM HUP; sleep 60; : atksv-py"])
    os._exit(0)
subprocess.Popen(["/bin/sh", "-c", "sleep 60; : atksv-py"], start_new_session=True)
time.sleep(0.3)
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        if b"atksv-py" in open(f"/proc/{pid}/cmdline", "rb").read():
            print("alive in box as pid", pid)
    except OSError:
        pass
