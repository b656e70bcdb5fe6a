# attack: take every inotify instance the kernel gives, through ctypes (charged to root, that left root's own inotify_init1 failing with EMFILE)
# expect: status in [ok]; stdout matches "instances ([0-9]|[12][0-9]|3[0-2]) "; stdout contains "held"
# during: root_quota
import ctypes
import os
import time

libc = ctypes.CDLL(None, use_errno=True)
held = []
while len(held) < 100000:
    fd = libc.inotify_init1(os.O_CLOEXEC)
    if fd < 0:
        break
    held.append(fd)
print(f"instances {len(held)} ({os.strerror(ctypes.get_errno())})", flush=True)
time.sleep(2)  # hold them while the host checks root's own
print("held")
