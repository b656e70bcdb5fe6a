# attack: see host processes: /proc listing, NSpid chains, parent pids, /proc/sys/kernel/ns_last_pid, signalling pid 1
# expect: status in [ok]; stdout lacks "HOSTPID"; stdout matches "NSpid:\s+[0-9]+\n"; stdout contains "kill(1) refused"
import os

pids = sorted(int(entry) for entry in os.listdir("/proc") if entry.isdigit())
print("pids", pids)
for pid in pids:
    if pid > 64:
        print("HOSTPID", pid)
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("NSpid:"):
                    print(line, end="")
                if line.startswith("PPid:") and int(line.split()[1]) > 64:
                    print("HOSTPID parent", line.strip())
    except OSError:
        pass
print("ppid", os.getppid())
try:
    os.kill(1, 9)
    print("KILLED init")
except OSError as error:
    print("kill(1) refused:", error.strerror)
