# attack: chmod /box and /dev/shm to 0 and /tmp to 0500, so every later run on this warm box (compile boxes too) fails to read its own files
# expect: status in [ok]; stdout contains "changed"
# follow-up: status in [ok]; stdout contains "clean"
import os
import sys

ROOTS = ("/box", "/tmp", "/dev/shm")

if sys.argv[1:] == ["follow-up"]:
    # A fresh box's roots are the program's to read, write and search (0700 warm, 1777 one-shot).
    locked = [path for path in ROOTS if not os.access(path, os.R_OK | os.W_OK | os.X_OK)]
    for path in ROOTS:
        with open(path + "/probe", "w") as handle:
            handle.write("x")
        os.listdir(path)
    print("clean" if not locked else f"LEFT locked {locked}")
else:
    # Only the owner may chmod: in a warm box the program owns all three, in a one-shot box only /box.
    for path, mode in (("/tmp", 0o500), ("/dev/shm", 0), ("/box", 0)):
        try:
            os.chmod(path, mode)
        except PermissionError:
            pass
    print("changed")
