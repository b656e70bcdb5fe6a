# attack: spin in 8 forked processes (the GIL does not bind them)
# limits: cpu_ms=2000 wall_ms=10000
# expect: status in [time_limit]; elapsed_s < 9; cpu_ms >= 1500; cpu_ms < 5000
import os

for _ in range(3):
    os.fork()
while True:
    pass
