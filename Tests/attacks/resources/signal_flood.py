# attack: queue blocked real-time signals to ourselves through ctypes until the kernel refuses (charged to root, that made root's timer_create and sigqueue fail with EAGAIN)
# expect: status in [ok]; stdout matches "queued ([0-9]{1,3}|10[01][0-9]|102[0-4]) "; stdout contains "held"
# during: root_quota
import ctypes
import os
import signal
import time

libc = ctypes.CDLL(None, use_errno=True)
signal.pthread_sigmask(signal.SIG_BLOCK, range(signal.SIGRTMIN, signal.SIGRTMAX + 1))
queued = 0
while queued < 200000:
    number = signal.SIGRTMIN + queued % (signal.SIGRTMAX - signal.SIGRTMIN + 1)
    if libc.sigqueue(os.getpid(), number, ctypes.c_void_p(queued)) != 0:
        break
    queued += 1
print(f"queued {queued} ({os.strerror(ctypes.get_errno())})", flush=True)
time.sleep(2)  # hold them while the host checks root's own
print("held")
