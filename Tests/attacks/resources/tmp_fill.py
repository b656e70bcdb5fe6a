# attack: fill /tmp, /dev/shm and /box with one large file each until the writes fail
# expect: status in [ok]; stdout matches "/tmp stopped at [0-9]{1,2} MiB"; stdout matches "/box stopped at [0-9]{1,2} MiB"; stdout matches "/dev/shm stopped at [0-9]{1,2} MiB"
import errno
import signal

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past RLIMIT_FSIZE, write fails with EFBIG instead of killing
block = b"x" * (1 << 20)
for directory in ("/tmp", "/box", "/dev/shm"):
    written = 0
    try:
        with open(f"{directory}/fill", "wb", buffering=0) as handle:
            while written < (4 << 30):
                handle.write(block)
                written += len(block)
    except OSError as error:
        print(directory, "stopped at", written >> 20, "MiB:", errno.errorcode.get(error.errno))
