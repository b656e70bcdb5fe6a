# attack: sleep far past the wall-clock limit (no CPU used, so only the wall clock can stop it)
# limits: wall_ms=2000
# expect: status in [time_limit]; elapsed_s < 8; cpu_ms < 1000
import time

time.sleep(600)
