# attack: classic fork bomb: every process forks forever
# limits: cpu_ms=2000 wall_ms=4000
# expect: status in [ok, runtime_error, time_limit, memory_limit]; elapsed_s < 20
# survivors: atkbomb-py
import ctypes
import os

ctypes.CDLL(None).prctl(15, b"atkbomb-py", 0, 0, 0)  # PR_SET_NAME: the host looks for this name afterwards
while True:
    try:
        os.fork()
    except OSError:
        pass
