# attack: crash with a core dump (os.abort) after trying to lower RLIMIT_CORE to 0, at which a pipe core_pattern helper still runs on the host
# expect: status in [runtime_error]; signal == SIGABRT; stdout contains "core (1, 1)"; stdout contains "to 0 refused"
import os
import resource

print("core", resource.getrlimit(resource.RLIMIT_CORE))
try:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    print("to 0 CHANGED")
except (ValueError, OSError):
    print("to 0 refused")
print(flush=True)
os.abort()
