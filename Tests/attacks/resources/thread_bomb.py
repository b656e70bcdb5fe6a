# attack: thread bomb in Python: start sleeping threads until the interpreter cannot make more
# limits: cpu_ms=2000 wall_ms=5000
# expect: status in [ok, runtime_error, memory_limit, time_limit]; elapsed_s < 20; stdout lacks "threads 10000"
import threading
import time

started = 0
try:
    for started in range(10000):
        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
    started = 10000
except RuntimeError as error:
    print("stopped:", error)
print("threads", started, flush=True)
