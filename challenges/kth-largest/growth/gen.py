# Growth input at size N (run as `gen N SEED`): prints the args of kth_largest as one JSON object.
# A shuffle of 1..N with k = N/2, so the heap holds N/2 values and every later value costs a pop.
import json
import random
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
nums = list(range(1, n + 1))
random.Random(seed).shuffle(nums)
print(json.dumps({"nums": nums, "k": max(1, n // 2)}, separators=(",", ":")))
