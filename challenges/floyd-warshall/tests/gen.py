# Writes the larger hidden tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
# "random": 14 nodes, 40 edges, some negative, weighted through node potentials
# (w = cost + p[u] - p[v], cost >= 0) so that no cycle is negative; two nodes nothing reaches.
# "chain": a path 9 -> 8 -> ... -> 0 with a few shortcuts, so that most pairs improve several times.
import json, random

UNREACHABLE = 10**18

def all_pairs(n, edges):
    dist = [[0 if i == j else UNREACHABLE for j in range(n)] for i in range(n)]
    for u, v, w in edges:
        dist[u][v] = min(dist[u][v], w)
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if dist[i][k] != UNREACHABLE and dist[k][j] != UNREACHABLE:
                    dist[i][j] = min(dist[i][j], dist[i][k] + dist[k][j])
    return dist

random.seed(30_4)
n = 14
potential = [random.randint(-20, 20) for _ in range(n)]
edges = []
while len(edges) < 40:
    u, v = random.randrange(n), random.randrange(n - 2)  # nodes 12 and 13 are never reached
    if u != v:
        edges.append([u, v, random.randint(0, 30) + potential[u] - potential[v]])
chain = [[v + 1, v, random.randint(1, 9)] for v in range(9)]
chain += [[9, 4, 40], [6, 1, 25], [3, 0, 2]]
random.shuffle(chain)
for name, n, graph in [("random", 14, edges), ("chain", 10, chain)]:
    json.dump({"n": n, "edges": graph}, open(f"tests/{name}.args.json", "w"))
    json.dump(all_pairs(n, graph), open(f"tests/{name}.expected.json", "w"))
