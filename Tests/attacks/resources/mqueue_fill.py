# attack: create POSIX message queues through ctypes until the kernel refuses (their bytes are counted per user, and were charged to root)
# expect: status in [ok]; stdout matches "queues [0-3] "; stdout contains "held"
# during: root_quota
import ctypes
import os
import time

libc = ctypes.CDLL(None, use_errno=True)
libc.mq_open.restype = ctypes.c_int
queues = 0
while queues < 1000:
    if libc.mq_open(f"/attack-{queues}".encode(), os.O_CREAT | os.O_RDWR, 0o600, None) < 0:
        break
    queues += 1
print(f"queues {queues} ({os.strerror(ctypes.get_errno())})", flush=True)
time.sleep(2)  # hold them while the host checks root's own
print("held")
