# attack: plant symlinks to a host directory, hard links, a fifo, a socket, a 0-mode directory and a 100-level tree in /box, /tmp and /dev/shm, hoping host-side cleanup or reads follow them
# expect: status in [ok]; stdout contains "planted"; stdout contains "hard link refused"
import os
import socket

CANARY = "@CANARY_DIR@"
for directory in ("/box", "/tmp", "/dev/shm"):
    os.symlink(CANARY, f"{directory}/canary-dir")
    os.symlink(CANARY + "/keep.txt", f"{directory}/canary-file")
    os.symlink("/proc/1/root" + CANARY, f"{directory}/canary-magic")
    os.symlink("../" * 12 + CANARY.lstrip("/"), f"{directory}/canary-relative")
    try:
        os.mkfifo(f"{directory}/fifo")  # mknod is refused by the policy; a fifo would block naive readers
        print("made a fifo")
    except OSError:
        pass
    deep = directory
    for level in range(100):
        deep += "/d"
        os.mkdir(deep)
    os.symlink(CANARY, deep + "/canary-deep")
    os.mkdir(f"{directory}/locked")
    with open(f"{directory}/locked/file", "w") as handle:
        handle.write("x")
    os.chmod(f"{directory}/locked", 0)
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind("/box/socket")
for target in ("/etc/passwd", "/usr/bin/su", "/proc/self/exe"):
    try:
        os.link(target, "/box/hardlink")
        print("HARD LINKED", target)
        os.unlink("/box/hardlink")
    except OSError as error:
        print("hard link refused", target, error.errno)
print("planted")
