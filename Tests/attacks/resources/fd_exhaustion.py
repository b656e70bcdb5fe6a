# attack: open files and sockets until the process runs out of descriptors, then try to raise the limit
# expect: status in [ok]; stdout contains "EMFILE"; stdout contains "raise refused"
import errno
import resource
import socket

held = []
try:
    while True:
        held.append(open("/dev/null"))
        held.append(socket.socket(socket.AF_UNIX))
except OSError as error:
    print("opened", len(held), errno.errorcode[error.errno])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
try:
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard * 1024, hard * 1024))
    print("RAISED to", hard * 1024)
except (ValueError, OSError) as error:
    print("raise refused:", error)
