# Writes the large test's files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
# 200,000 items over some 60,000 distinct values: counting each distinct value with a scan of the
# list is about 10^10 steps, one pass with a hash map is 200,000. Small counts tie often, so the
# tie rule decides much of the answer.
import json, random
from collections import Counter


def top_k_frequent(items, k):
    counts = Counter(items)
    return sorted(counts, key=lambda value: (-counts[value], value))[:k]


random.seed(30_23)
pool = random.sample(range(-10**9, 10**9), 60_000)
weights = [1 / (rank + 1) ** 0.6 for rank in range(len(pool))]
items = random.choices(pool, weights=weights, k=200_000)
k = 1000
json.dump({"items": items, "k": k}, open("tests/many.args.json", "w"), separators=(",", ":"))
json.dump(top_k_frequent(items, k), open("tests/many.expected.json", "w"), separators=(",", ":"))
