# attack: gain root through setuid-root binaries (su, passwd, mount, newgrp, chsh) and setuid(0)
# expect: status in [ok]; stdout contains "uid 1000"; stdout lacks "uid=0"; stdout lacks "BECAME ROOT"; stdout contains "done"
import os
import subprocess

print("uid", os.getuid(), "euid", os.geteuid())
for argv in (["/usr/bin/su", "-c", "id", "root"], ["/usr/bin/passwd", "-S", "root"], ["/usr/bin/mount", "-t", "tmpfs", "x", "/tmp"],
             ["/usr/bin/newgrp", "root"], ["/usr/bin/chsh", "-s", "/bin/sh", "root"], ["/usr/bin/sudo", "id"]):
    if not os.path.exists(argv[0]):
        continue
    mode = os.stat(argv[0]).st_mode
    result = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=5)
    print(argv[0], "setuid" if mode & 0o4000 else "plain", "exit", result.returncode, (result.stdout + result.stderr).strip()[:80])
for call in (lambda: os.setuid(0), lambda: os.setgid(0), lambda: os.setresuid(0, 0, 0), lambda: os.setgroups([0])):
    try:
        call()
        print("BECAME ROOT")
    except OSError as error:
        print("refused", error.errno)
print("done")
