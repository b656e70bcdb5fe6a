# Writes the large tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
# 500 nodes whose shortest paths run along a chain of 490 edges listed last-to-first, so that each
# round of relaxations moves the known distances one edge further and the algorithm needs all its
# rounds; 1500 more edges, a third of them negative, weighted through node potentials
# (w = cost + p[u] - p[v] with cost >= 500, more than the whole chain's 490) so that no cycle is
# negative and no shortcut beats the chain; 9 nodes the source never reaches, with negative edges
# out of them. "cycle" adds one edge that closes a negative cycle at the chain's far end, which only
# the check after the n - 1 rounds finds.
import json, random

UNREACHABLE = 10**18

def shortest_from(n, edges, source):
    dist = [UNREACHABLE] * n
    dist[source] = 0
    for _ in range(n - 1):
        changed = False
        for u, v, w in edges:
            if dist[u] != UNREACHABLE and dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
                changed = True
        if not changed:
            break
    for u, v, w in edges:
        if dist[u] != UNREACHABLE and dist[u] + w < dist[v]:
            return []
    return dist

random.seed(30_3)
n = 500
nodes = list(range(n))
random.shuffle(nodes)
source, chain, unreached = nodes[0], nodes[:491], nodes[491:]
potential = [random.randint(-10**6, 10**6) for _ in range(n)]
def weight(u, v, cost):
    return cost + potential[u] - potential[v]
chain_edges = [[chain[i], chain[i + 1], weight(chain[i], chain[i + 1], 1)] for i in range(len(chain) - 1)]
chain_edges.reverse()
extra = []
while len(extra) < 1500:
    u, v = random.choice(chain), random.choice(chain)
    extra.append([u, v, weight(u, v, random.randint(500, 10**6))])
for u in unreached:
    for _ in range(3):
        v = random.choice(nodes)
        extra.append([u, v, -random.randint(1, 10**6)])
random.shuffle(extra)
edges = chain_edges + extra
for name, graph in [("many", edges), ("cycle", edges + [[chain[-1], chain[-2], -2 - potential[chain[-2]] + potential[chain[-1]]]])]:
    args = {"n": n, "edges": graph, "source": source}
    json.dump(args, open(f"tests/{name}.args.json", "w"))
    json.dump(shortest_from(**args), open(f"tests/{name}.expected.json", "w"))
