# CPU room (10 s, 20 s of wall time, both scaled in an emulated VM) so that memory is what ends it
# even where a loaded host charges a guest CPU time it did not run; it ends within a second here.
# attack: allocate and touch memory without end
# limits: memory_mb=128 cpu_ms=10000 wall_ms=20000
# expect: status in [memory_limit]; elapsed_s < 15
chunks = []
while True:
    chunks.append(bytearray(16 << 20))
