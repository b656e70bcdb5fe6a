# Writes the large tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
# Compact JSON: the 1 MiB cap on a test file is what bounds the number of queries.
import json, random

def range_sums(nums, queries):
    n = len(nums)
    values = list(nums)
    tree = [0] * (n + 1)  # Fenwick tree
    def add(i, delta):
        i += 1
        while i <= n:
            tree[i] += delta
            i += i & -i
    def prefix(i):  # sum of values[0..i-1]
        total = 0
        while i > 0:
            total += tree[i]
            i -= i & -i
        return total
    for i, v in enumerate(values):
        add(i, v)
    answers = []
    for kind, a, b in queries:
        if kind == 0:
            add(a, b - values[a])
            values[a] = b
        else:
            answers.append(prefix(b + 1) - prefix(a))
    return answers

def write(name, nums, queries):
    compact = (",", ":")
    json.dump({"nums": nums, "queries": queries}, open(f"tests/{name}.args.json", "w"), separators=compact)
    json.dump(range_sums(nums, queries), open(f"tests/{name}.expected.json", "w"), separators=compact)

random.seed(310)
n = 100000
nums = [random.randrange(10) for _ in range(n)]
queries = []
for q in range(60000):
    if q % 4 == 3:
        queries.append([0, random.randrange(n), random.randrange(10)])
    else:  # wide ranges, so summing them one by one costs about n each
        queries.append([1, random.randrange(2000), n - 1 - random.randrange(2000)])
write("many-wide", nums, queries)
