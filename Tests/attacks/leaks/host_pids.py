# attack: see host processes: the /proc listing, NSpid chains, parent pids, signalling pid 1
# expect: status in [ok]; stdout lacks "HOSTPID"; stdout matches "NSpid:\s+[0-9]+\n"; stdout contains "kill(1) refused"; stdout contains "2 processes"
import os

# Only the box's init and this program may be visible (a warm box's pids grow across runs, so their
# numbers say nothing; their names do).
pids = sorted(int(entry) for entry in os.listdir("/proc") if entry.isdigit())
for pid in pids:
    try:
        with open(f"/proc/{pid}/comm") as handle:
            name = handle.read().strip()
        with open(f"/proc/{pid}/status") as handle:
            status = handle.read()
    except OSError:
        continue
    if name not in ("dsa-box-init", "python3.11", "python3"):
        print("HOSTPID", pid, name)
    for line in status.splitlines(keepends=True):
        if line.startswith("NSpid:") and pid == os.getpid():
            print(line, end="")
print(len(pids), "processes")
print("ppid", os.getppid())
try:
    os.kill(1, 9)
    print("KILLED init")
except OSError as error:
    print("kill(1) refused:", error.strerror)
