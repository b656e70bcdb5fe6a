# attack: walk /proc/1/root, /proc/*/cwd, /proc/*/root and every /proc/self/fd link looking for a way out of the box
# expect: status in [ok]; stdout contains "done"; stdout lacks "HOST"; stdout lacks "EXTRA_FD"
import os

HOST_ONLY = ["etc/shadow", "root", "home", "var", "sys/kernel", "run", "etc/machine-id", "boot"]


def probe(base):
    for name in HOST_ONLY:
        if os.path.lexists(os.path.join(base, name)):
            print("HOST", os.path.join(base, name))


probe("/proc/1/root")
for pid in [entry for entry in os.listdir("/proc") if entry.isdigit()]:
    for link in ("root", "cwd"):
        try:
            probe(os.path.join("/proc", pid, link))
            probe(os.path.join("/proc", pid, link, "..", "..", "..", ".."))
        except OSError:
            pass

# Every descriptor the program was given: only the three standard streams (and the listing's own).
listing = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY)
for name in os.listdir(listing):
    fd = int(name)
    if fd in (0, 1, 2, listing):
        continue
    try:
        print("EXTRA_FD", fd, os.readlink(f"/proc/self/fd/{fd}"))
    except FileNotFoundError:
        pass  # the listing's own short-lived descriptor, closed by now
# Reopening the standard streams through /proc must give only pipes and /dev/null, never a host file.
for fd in (0, 1, 2):
    target = os.readlink(f"/proc/self/fd/{fd}")
    if not (target.startswith("pipe:") or target == "/dev/null"):
        print("HOST stream", fd, target)
print("done")
