# Writes the large tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
import heapq, json, random

def shortest_distances(n, edges, source):
    adjacency = [[] for _ in range(n)]
    for u, v, w in edges:
        adjacency[u].append((v, w))
    dist = [-1] * n
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if dist[u] != -1:
            continue
        dist[u] = d
        for v, w in adjacency[u]:
            if dist[v] == -1:
                heapq.heappush(heap, (d + w, v))
    return dist

random.seed(304)
n = 20000
edges = [[random.randrange(n), random.randrange(n), random.randint(0, 10**9)] for _ in range(40000)]
args = {"n": n, "edges": edges, "source": 0}
json.dump(args, open("tests/random.args.json", "w"))
json.dump(shortest_distances(**args), open("tests/random.expected.json", "w"))
