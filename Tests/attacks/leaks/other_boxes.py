# attack: find other boxes' (and the host's) files: leave markers in /tmp, /dev/shm and SysV shared memory, wait while other attacks run, then look for anyone else's
# limits: wall_ms=8000
# expect: status in [ok]; stdout contains "own entries only"; stdout lacks "FOREIGN"
import ctypes
import os
import time

own = {"atk-marker-py", "atk-marker-py.shm"}
for directory in ("/tmp", "/dev/shm"):
    with open(f"{directory}/atk-marker-py", "w") as handle:
        handle.write("box secret\n")
libc = ctypes.CDLL(None)
segment = libc.shmget(0x41544B50, 4096, 0o1000 | 0o666)  # IPC_CREAT, a fixed key another box could look for
print("shm segment", segment)
time.sleep(2)
foreign = 0
for directory in ("/tmp", "/dev/shm", "/box", "/var/tmp", "/run"):
    try:
        entries = os.listdir(directory)
    except OSError:
        continue
    for entry in entries:
        if entry not in own and not entry.endswith(".py"):
            print("FOREIGN", directory, entry)
            foreign += 1
with open("/proc/sysvipc/shm") as handle:
    segments = handle.read().splitlines()[1:]
if len(segments) != 1:
    print("FOREIGN shm segments:", segments)
    foreign += 1
print("own entries only" if not foreign else f"{foreign} foreign entries")
