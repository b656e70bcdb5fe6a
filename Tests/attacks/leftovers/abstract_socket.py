# attack: keep an abstract Unix socket alive after every process is gone (sent in flight to itself with SCM_RIGHTS), as a covert channel to the next run in this warm box
# expect: status in [ok]; stdout contains "in flight"
# follow-up: status in [ok]; stdout contains "clean"
import socket
import sys

NAME = b"\0dsa-attack-covert-py"

if sys.argv[1:] == ["follow-up"]:
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect(NAME)
        print("LEFT: connected to the last run")
    except OSError:
        print("clean")
else:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(NAME)
    listener.listen(8)
    inside, outside = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    socket.send_fds(outside, [b"x"], [inside.fileno(), listener.fileno()])
    for each in (outside, listener, inside):
        each.close()
    print("in flight")
