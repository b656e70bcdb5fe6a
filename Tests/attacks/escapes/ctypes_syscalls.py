# attack: raw system calls through ctypes: unshare, clone with namespace flags, mount, setns, ptrace, bpf, keyctl, io_uring, personality query
# expect: status in [ok]; stdout lacks "SUCCEEDED"; stdout contains "13 calls refused"; stdout contains "persona 0"
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
syscall = libc.syscall
syscall.restype = ctypes.c_long
calls = {
    "unshare(NEWUSER|NEWNS)": lambda: syscall(272, 0x10000000 | 0x20000),
    "clone(NEWUSER)": lambda: syscall(56, 0x10000000 | 17, 0, 0, 0, 0),
    "clone(NEWPID)": lambda: syscall(56, 0x20000000 | 17, 0, 0, 0, 0),
    "mount": lambda: syscall(165, b"none", b"/tmp", b"tmpfs", 0, None),
    "setns": lambda: syscall(308, os.open("/proc/self/ns/uts", os.O_RDONLY), 0),
    "ptrace(ATTACH, 1)": lambda: syscall(101, 16, 1, 0, 0),
    "bpf": lambda: syscall(321, 0, None, 0),
    "keyctl": lambda: syscall(250, 0, -3, 0),
    "io_uring_setup": lambda: syscall(425, 1, ctypes.create_string_buffer(120)),
    "userfaultfd": lambda: syscall(323, 0),
    "perf_event_open": lambda: syscall(298, ctypes.create_string_buffer(128), 0, -1, -1, 0),
    "chroot": lambda: syscall(161, b"/tmp"),
    "setuid(0)": lambda: syscall(105, 0),
}
refused = 0
for name, call in calls.items():
    result = call()
    if result >= 0:
        print(name, "SUCCEEDED", result)
    else:
        refused += 1
        print(name, "refused", os.strerror(ctypes.get_errno()))
print(f"{refused} calls refused")
print("persona", syscall(135, ctypes.c_ulong(0xFFFFFFFF)))
