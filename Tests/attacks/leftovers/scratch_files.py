# attack: leave files in /box, /tmp and /dev/shm (32 MiB in RAM) for the idle warm box to keep, or for the next run to read
# expect: status in [ok]; stdout contains "wrote"
# follow-up: status in [ok]; stdout contains "clean"
import os
import sys

PLACES = ("/box", "/tmp", "/dev/shm")

if sys.argv[1:] == ["follow-up"]:
    left = [f"{place}/{name}" for place in PLACES for name in os.listdir(place) if name.startswith("left-")]
    print("clean" if not left else f"LEFT {left}")
else:
    for place, megabytes in zip(PLACES, (12, 12, 8)):
        with open(f"{place}/left-{os.getpid()}", "wb") as handle:
            handle.write(b"\1" * (megabytes << 20))
    os.makedirs("/tmp/left-tree/a/b/c")
    print("wrote")
