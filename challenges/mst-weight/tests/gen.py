# Writes the large tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
import json, random

def mst_weight(n, edges):
    parent = list(range(n))
    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    total, joined = 0, 0
    for u, v, w in sorted(edges, key=lambda e: e[2]):
        a, b = find(u), find(v)
        if a != b:
            parent[a] = b
            total += w
            joined += 1
    return total if joined == n - 1 else -1

random.seed(305)
n = 15000
order = list(range(n))
random.shuffle(order)
edges = [[order[i], order[random.randrange(i)], random.randint(0, 10**9)] for i in range(1, n)]
edges += [[random.randrange(n), random.randrange(n), random.randint(0, 10**9)] for _ in range(20000)]
random.shuffle(edges)
json.dump({"n": n, "edges": edges}, open("tests/random.args.json", "w"))
json.dump(mst_weight(n, edges), open("tests/random.expected.json", "w"))
