# attack: leave a 600 MiB SysV shared memory segment and a full message queue behind, charged to the idle warm box, so the next default-limit run on it fails (EBUSY setting its memory limit) or is billed for it
# limits: memory_mb=1024
# expect: status in [ok]; stdout contains "left"
# follow-up: status in [ok]; stdout contains "clean"
import ctypes
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
KEY = 0x5EED0001

if sys.argv[1:] == ["follow-up"]:
    found = (libc.shmget(KEY, 0, 0), libc.msgget(KEY, 0), libc.semget(KEY, 0, 0))
    print("clean" if found == (-1, -1, -1) else f"LEFT shm/msg/sem ids {found}")
else:
    size = 600 << 20
    segment = libc.shmget(KEY, ctypes.c_size_t(size), 0o1666)
    address = libc.shmat(segment, None, 0)
    if segment < 0 or address in (None, ctypes.c_void_p(-1).value):
        sys.exit(f"shm: errno {ctypes.get_errno()}")
    ctypes.memset(address, 1, size)
    libc.shmdt(ctypes.c_void_p(address))
    queue = libc.msgget(KEY, 0o1666)
    message = ctypes.create_string_buffer(8 + 4000)
    message[0] = 1
    while libc.msgsnd(queue, message, 4000, 0o4000) == 0:  # IPC_NOWAIT
        pass
    libc.semget(KEY, 8, 0o1666)
    print("left")
