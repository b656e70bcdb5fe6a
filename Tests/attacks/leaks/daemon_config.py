# attack: find the daemon's config, bearer tokens, sockets and compile cache: /etc/dsa-run, /run, /var/cache, /proc/*/cmdline and environ, the socket's directory
# expect: status in [ok]; stdout lacks "bearer"; stdout lacks "FOUND"; stdout contains "done"
import os

paths = ["/etc/dsa-run/dsa-rund.json", "/etc/dsa-run", "/usr/share/dsa-run", "/run/dsa-run", "/run/dsa-run-attacks",
         "/var/cache/dsa-run/compile", "/etc/systemd/system/dsa-rund.service", "@DAEMON_SOCKET@",
         os.path.dirname("@DAEMON_SOCKET@"), os.path.dirname("@DAEMON_SOCKET@") + "/dsa-rund.json", "/opt/dsa-run/toolchains"]
for path in paths:
    if os.path.exists(path):
        # Toolchains are mounted read-only on purpose for some languages; anything else is a leak.
        print("FOUND" if "toolchains" not in path else "mounted", path)
        if os.path.isfile(path):
            print(open(path).read()[:200])
for pid in filter(str.isdigit, os.listdir("/proc")):
    for part in ("cmdline", "environ"):
        try:
            text = open(f"/proc/{pid}/{part}", "rb").read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        # The box's own environment names the read-only step recorder (PYTHONPATH=/opt/dsa-run/recorder/...).
        text = text.replace("/opt/dsa-run/recorder/", "")
        if "dsa-run" in text or "--config" in text or "--cache-dir" in text or "Bearer" in text:
            print("FOUND", pid, part, text[:200])
print("done")
