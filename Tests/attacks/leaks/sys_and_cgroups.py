# attack: read /sys (devices, network, cgroups, kernel tunables) and the box's cgroup paths for host layout and other boxes' usage
# expect: status in [ok]; stdout lacks "VISIBLE"; stdout contains "cgroups: /"; stdout contains "done"
import os

for path in ("/sys", "/sys/fs/cgroup", "/sys/class/net", "/sys/kernel/security", "/sys/firmware", "/proc/sys/kernel/core_pattern"):
    if os.path.exists(path) and path.startswith("/sys"):
        print("VISIBLE", path)
# Writable kernel tunables would be a host-wide change.
for path in ("/proc/sys/kernel/core_pattern", "/proc/sys/vm/drop_caches", "/proc/sysrq-trigger", "/proc/sys/kernel/hostname"):
    try:
        with open(path, "w") as handle:
            handle.write("|/tmp/x" if "core" in path else "1")
        print("VISIBLE writable", path)
    except OSError:
        pass
# Inside the cgroup namespace every group path is "/": the host's hierarchy and other boxes' groups stay hidden.
paths = {line.split(":", 2)[2].strip() for line in open("/proc/self/cgroup")}
print("cgroups:", " ".join(sorted(paths)))
for name in ("/proc/kcore", "/proc/kmsg", "/proc/keys", "/proc/timer_list", "/proc/sched_debug", "/dev/mem", "/dev/kmsg"):
    try:
        with open(name, "rb") as handle:
            data = handle.read(64)
            if data:
                print("VISIBLE readable", name)
    except OSError:
        pass
print("done")
