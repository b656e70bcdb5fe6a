# Writes the large tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
import json, random

def count_components(n, edges):
    parent = list(range(n))
    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    count = n
    for u, v in edges:
        a, b = find(u), find(v)
        if a != b:
            parent[a] = b
            count -= 1
    return count

random.seed(302)
n = 60000
edges = [[random.randrange(n), random.randrange(n)] for _ in range(40000)]
json.dump({"n": n, "edges": edges}, open("tests/random.args.json", "w"))
json.dump(count_components(n, edges), open("tests/random.expected.json", "w"))
# One long path given from its far end, so a union without ranks builds a tall tree.
n = 50000
edges = [[i, i + 1] for i in range(n - 2, -1, -1)] + [[0, n - 1]]
json.dump({"n": n, "edges": edges}, open("tests/long-path.args.json", "w"))
json.dump(count_components(n, edges), open("tests/long-path.expected.json", "w"))
