# attack: read the host's environment: os.environ, /proc/self/environ, /proc/1/environ and every visible process's environ
# expect: status in [ok]; stdout contains "LANG="; stdout lacks "DSA_ATTACK_HOST_SECRET"; stdout lacks "DSA_RUN_DATA"; stdout lacks "HOME=/root"; stdout lacks "SSH_"
import os

print("\n".join(f"{key}={value}" for key, value in os.environ.items()))
for pid in ["self"] + [entry for entry in os.listdir("/proc") if entry.isdigit()]:
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            print(pid, handle.read().replace(b"\0", b" ").decode(errors="replace"))
    except OSError as error:
        print(pid, "unreadable:", error.strerror)
