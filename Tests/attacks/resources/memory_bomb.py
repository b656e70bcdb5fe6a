# attack: allocate and touch memory without end
# limits: memory_mb=128
# expect: status in [memory_limit]; elapsed_s < 15
chunks = []
while True:
    chunks.append(bytearray(16 << 20))
